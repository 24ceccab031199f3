// The mix on the AV step (§6, output row i as the weighted mix of the rows of V) is kept from edit
// to edit and only its changed numbers are written (web/src/views/mixing.js): at n > 8 an edit can
// change which rows of V weigh most, and the rows listed are moved, not rebuilt. What it shows
// after a run of edits must be exactly what a mix built from nothing shows for the same numbers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile } from './helpers.mjs';
import { typeIntoX } from './drivers.mjs';

const b = browserForFile();

/** Everything the mix shows: the recipe's shares, each listed row of V, the output row. */
const mixShown = (page) =>
  page.evaluate(() => {
    const cells = (root) =>
      [...root.querySelectorAll('.mix-cell')].map((cell) => [cell.textContent, cell.title, cell.style.cssText]);
    const mix = document.querySelector('#stage-body .mix');
    return {
      recipe: [...mix.querySelectorAll('.recipe .share')].map((s) => [s.textContent, s.title, s.style.cssText]),
      rows: [...mix.querySelectorAll('.mix-table tbody tr:not(.sum)')].map((tr) => ({
        j: tr.dataset.j,
        word: tr.querySelector('th').textContent,
        label: tr.querySelector('.sr-only').textContent,
        bar: tr.querySelector('.wbar').style.width,
        weight: tr.querySelector('.wnum').textContent,
        values: cells(tr),
      })),
      output: cells(mix.querySelector('.mix-table tr.sum')),
      more: mix.querySelector(':scope > p.note:last-child')?.textContent,
    };
  });

for (const [dv, what] of [
  [8, 'V rows of 8 numbers'],
  [64, 'V rows of 64 values drawn as strips'],
]) {
  test(`the mix after edits that change its heaviest rows is the mix built anew (n = 32, ${what})`, async () => {
    const page = await b.open(`#preset=random&mode=x&n=32&d=16&dk=16&dv=${dv}&seed=11&step=9`);
    const listed = [];
    // Small values move the weights; ±10 makes row 1 of V the largest, which changes V's colour scale.
    for (const [k, value] of [-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1, 3, -3, 0.5, 10, -10].entries()) {
      await typeIntoX(page, 0, k % 2, value);
      const { rows } = await mixShown(page);
      const js = rows.map((row) => Number(row.j));
      assert.deepEqual(
        js,
        [...js].sort((x, y) => x - y),
        'the rows of V in sentence order',
      );
      listed.push(js.join());
    }
    assert.ok(new Set(listed).size > 1, `the edits changed which rows are listed: ${[...new Set(listed)].join(' | ')}`);
    const kept = await mixShown(page);
    assert.equal(kept.rows.length, 8, 'the eight heaviest rows of 32');
    // Choosing row 1 (the row shown) builds the mix from nothing: the same numbers, words and colours.
    await page.evaluate(() => (document.querySelector('#stage-body .mix').dataset.kept = 'yes'));
    await page.fill('#mix-row', '1');
    await page.dispatchEvent('#mix-row', 'change');
    assert.equal(await page.getAttribute('#stage-body .mix', 'data-kept'), null, 'a new mix');
    const built = await mixShown(page);
    assert.deepEqual(kept, built);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}
