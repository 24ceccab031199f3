// Accessibility: axe-core on every step (no violation of any impact), in Chinese and light
// theme and in English and dark theme, and a screenshot of each as an artifact.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, axeViolations } from './helpers.mjs';

const b = browserForFile();

// No violation at all, of any impact (issue 11: axe-core passes in every view).
const allViolations = (page) => axeViolations(page);

for (const [lang, scheme, preset] of [
  ['zh-CN', 'light', 'article'],
  ['en', 'dark', 'cat'],
]) {
  test(`axe finds no violation on any step (${lang}, ${scheme}, ${preset})`, async () => {
    const page = await b.open(`#lang=${lang}&preset=${preset}&step=1`, { colorScheme: scheme });
    for (let step = 1; step <= 9; step++) {
      if (step > 1) await page.keyboard.press('ArrowRight');
      // Open the explanation panel too, so its contents are checked.
      const cell = page.locator('figure[data-name] td.pick').first();
      if (await cell.count()) await cell.hover();
      assert.deepEqual(await allViolations(page), [], `step ${step}`);
      if (lang !== 'zh-CN') await screenshot(page, `step-${step}-${lang}-${scheme}`);
    }
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('on a phone-sized screen nothing overflows sideways, and axe still passes', async () => {
  const page = await b.open('#preset=cat&step=9', { viewport: { width: 390, height: 844 } });
  for (const step of [9, 3, 2]) {
    if (step !== 9) await page.click(`.step-link[data-step="${step}"]`);
    const [scrollWidth, innerWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      window.innerWidth,
    ]);
    assert.ok(scrollWidth <= innerWidth, `step ${step}: page is ${scrollWidth}px wide in a ${innerWidth}px screen`);
  }
  assert.deepEqual(await allViolations(page), []);
  await screenshot(page, 'phone-step-2-zh-light');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
