// The heatmaps and the map's thumbnails repaint after an edit only the rows of a matrix whose
// values changed, while its colour scale stays (web/src/views/row-painter.js). Whatever edits come
// (one row of X, Q, K and V; a value large enough to change V's scale; one back within it), every
// canvas must show exactly the pixels that a page opened on the same numbers draws from nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile } from './helpers.mjs';
import { typeIntoX } from './drivers.mjs';

const b = browserForFile();

/** Every matrix canvas on the page — the thumbnails and the step's heatmaps — as its pixels. */
const canvases = (page) =>
  page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('canvas.thumb, #stage-body figure[data-name] canvas.heatmap')].map((canvas) => [
        canvas.classList.contains('thumb')
          ? `thumbnail ${canvas.dataset.name}`
          : `heatmap ${canvas.closest('figure').dataset.name}`,
        Array.from(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data).join(),
      ]),
    ),
  );

/**
 * The pixels of a page opened on `page`'s numbers: its URL, once it says X's cell `[i, j]` holds
 * `typed` (the URL follows typing a moment later, url-sync.js).
 */
async function drawnAnew(page, [i, j, typed]) {
  await page.waitForFunction(
    ([i, j, typed]) => new URLSearchParams(location.hash.slice(1)).get('x')?.split(';')[i]?.split(',')[j] === typed,
    [i, j, String(typed)],
  );
  const fresh = await b.open(await page.evaluate(() => location.hash));
  const drawn = await canvases(fresh);
  assert.deepEqual(fresh.problems, []);
  await fresh.context().close();
  return drawn;
}

/** Asserts that every canvas of `page` shows what a page drawing the same numbers anew shows; `last`: the last cell typed, [i, j, value]. */
async function sameAsAnew(page, last, when) {
  const edited = await canvases(page);
  const drawn = await drawnAnew(page, last);
  assert.deepEqual(Object.keys(edited).sort(), Object.keys(drawn).sort());
  for (const name of Object.keys(drawn)) assert.ok(edited[name] === drawn[name], `${when}: ${name}, the same pixels`);
}

test('after edits of X at n = 32, every heatmap and thumbnail shows what a fresh page draws', async () => {
  // Step 2: X, W_Q, W_K, W_V, Q, K and V as 32-row heatmaps; the map holds every step's thumbnail.
  const page = await b.open('#preset=random&mode=x&n=32&d=16&dk=16&dv=16&seed=11&step=2');
  const before = await canvases(page);
  assert.ok(before['heatmap v'] && before['thumbnail scores'], 'V is a heatmap and S a thumbnail');
  // Row 1 of X: small values (the scales stay), then one that makes row 1 of V the largest (V's
  // scale grows: every row is coloured anew), then back within the old scale (it shrinks again).
  for (const [j, value] of [
    [0, 0.5],
    [0, -0.25],
    [1, 40],
    [3, -2],
  ])
    await typeIntoX(page, 0, j, value);
  assert.notEqual((await canvases(page))['heatmap v'], before['heatmap v'], 'the edits changed V');
  await sameAsAnew(page, [0, 3, -2], 'with X₁₂ = 40');
  await typeIntoX(page, 0, 1, 0.125);
  await sameAsAnew(page, [0, 1, 0.125], 'with X₁₂ = 0.125');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
