// Large numbers are written compactly wherever the page shows them (web/src/format.js): on the
// worked example with Q₁₁ = 1e20, the score S₁₁ = q₁·k₁ is float32's 100000002004087734272,
// which reads "1.000e20" in the table, in the popover and on the handout, at 1360 px and at 375 px,
// without clipping its cell; the JSON export still carries every digit.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, matrixText } from './helpers.mjs';
import { readJsonExport } from '../../web/src/labs/export/json.js';

const b = browserForFile();
const S11 = 'figure[data-name="scores"] td.pick[data-i="0"][data-j="0"]';
const WRITTEN_OUT = /100000002004087734272|e\+/;

for (const viewport of [
  { width: 1360, height: 900 },
  { width: 375, height: 800 },
]) {
  test(`at ${viewport.width} px: S₁₁ = 1e20 reads 1.000e20 in the table and the popover, inside its cell`, async () => {
    const page = await b.open('#step=3&preset=custom&mode=qkv&n=2&d=2&dk=2&dv=2&q=1e20,0;0,1&k=1,0;0,1&v=10,0;0,10', {
      viewport,
    });
    const scores = await matrixText(page, 'scores');
    assert.equal(scores[0][0], '1.000e20');
    // One form per matrix (format.js): beside 1.000e20 the rest of the matrix has an exponent too.
    assert.equal(scores[1][1], '1.000e0', 'the rest of the matrix in the same form');
    const fits = await page.$eval(S11, (td) => td.scrollWidth <= td.clientWidth + 1);
    assert.ok(fits, 'the number fits its cell');
    await page.hover(S11);
    const popover = await page.textContent('#cell-explain');
    assert.match(popover, /1\.000e20/);
    assert.doesNotMatch(popover, WRITTEN_OUT);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('the handout writes 1.000e20; the JSON export keeps the float32 value exactly', async () => {
  const context = await b.browser.newContext({ acceptDownloads: true, reducedMotion: 'reduce' });
  await context.addInitScript(() => {
    window.print = () => {};
  });
  const page = await context.newPage();
  await page.goto(`${b.url}#step=3&preset=custom&mode=qkv&n=2&d=2&dk=2&dv=2&q=1e20,0;0,1&k=1,0;0,1&v=10,0;0,10`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  await page.click('#print-handout');
  // The handout's code loads at the first print (web/src/parts.js): wait until it has printed.
  await page.waitForFunction(() => document.querySelector('#handout table[data-name="scores"] td'));
  const handout = await page.$$eval('#handout table[data-name="scores"] td', (tds) => tds.map((td) => td.textContent));
  assert.equal(handout[0], '1.000e20');
  assert.doesNotMatch(handout.join(' '), WRITTEN_OUT);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const exported = readJsonExport(await streamText(await download.createReadStream()));
  assert.equal(exported.steps.scores.data[0], Math.fround(1e20), 'the exact float32, every digit kept');
  await context.close();
});

async function streamText(stream) {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}
