// The cost lab's build card says the build that is timed, the same before a run and after it, in
// the shipped offline file in Chromium (relaxed SIMD) and in Firefox: before a run it once named
// the page's relaxed build and after it the worker's SIMD128 (issue 29).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine, openOfflineFile } from './drivers.mjs';

inEachEngine((name, driver) => {
  test(`${name}: the build card names the same build before and after a run`, async () => {
    const page = await openOfflineFile(driver, '#view=cost-lab&costmax=128&lang=en');
    try {
      const card = () => page.evaluate(() => document.getElementById('cost-build').textContent);
      const before = await card();
      assert.match(before, /SIMD|scalar/i);
      await page.click('#cost-run');
      await page.until(() => document.querySelector('.lab-cost-lab')?.dataset.status === 'done', undefined, 90000);
      assert.equal(await card(), before);
      assert.deepEqual(page.problems, []);
    } finally {
      await page.closeAll();
    }
  });
});
