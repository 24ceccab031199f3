// Inputs: each kind of bad input shows its message at the field, in the current language, while
// the last good result stays on screen and the other inputs are kept; pasting; sizes; presets.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, matrixText, stageText } from './helpers.mjs';
import zh from '../../web/src/i18n/zh-CN.js';
import en from '../../web/src/i18n/en.js';

const b = browserForFile();

const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

// [what, field to type into or paste, text, message element, expected message (zh)]
const CELL_CASES = [
  ['an empty cell', '', zh['err.empty']],
  ['text', 'abc', fill(zh['err.notNumber'], { text: 'abc' })],
  ['NaN', 'NaN', zh['err.nan']],
  ['+Infinity', 'Infinity', zh['err.infinite']],
  ['−Infinity', '-inf', zh['err.infinite']],
  ['beyond float32', '1e39', fill(zh['err.tooLarge'], { text: '1e39', max: '3.4028235×10³⁸' })],
];

for (const [what, text, message] of CELL_CASES) {
  test(`bad cell input (${what}) shows its message at the cell; the last good result stays`, async () => {
    const page = await b.open('#step=9');
    await page.fill('#in-v-1-1', '5'); // another input, which must be kept
    const good = await matrixText(page, 'output');
    await page.fill('#in-q-0-1', text);
    assert.equal(await page.textContent('#err-q'), message);
    assert.equal(await page.getAttribute('#in-q-0-1', 'aria-invalid'), 'true');
    assert.deepEqual(await matrixText(page, 'output'), good, 'the last good result stays');
    assert.match(await stageText(page), new RegExp(zh['notice.lastGood']));
    assert.equal(await page.inputValue('#in-v-1-1'), '5', 'other inputs are kept');
    assert.equal(await page.inputValue('#in-q-0-1'), text, 'the bad text stays for correcting');
    // Correcting it clears the message and recomputes.
    await page.fill('#in-q-0-1', '0');
    assert.equal(await page.textContent('#err-q'), '');
    assert.equal(await page.getAttribute('#in-q-0-1', 'aria-invalid'), null);
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('a ragged paste is refused with its message, in English too', async () => {
  const page = await b.open('#step=9&lang=en');
  const good = await matrixText(page, 'output');
  await page.click('#details-paste-k summary');
  await page.fill('#paste-k', '[[1, 2], [3]]');
  await page.click('#apply-k');
  assert.equal(await page.textContent('#err-paste-k'), fill(en['err.ragged'], { row: 2, got: 1, want: 2 }));
  assert.deepEqual(await matrixText(page, 'output'), good);
  await screenshot(page, 'bad-paste-en-light');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a size out of range is refused at its field', async () => {
  const page = await b.open('#step=3');
  for (const [value, message] of [
    ['99', fill(zh['err.size'], { max: 64 })],
    ['0', fill(zh['err.size'], { max: 64 })],
    ['2.5', fill(zh['err.size'], { max: 64 })],
    ['', fill(zh['err.size'], { max: 64 })],
  ]) {
    await page.fill('#size-n', value);
    await page.dispatchEvent('#size-n', 'change');
    assert.equal(await page.textContent('#err-size-n'), message, `n = "${value}"`);
    assert.equal((await matrixText(page, 'scores')).length, 2, 'the 2×2 result stays');
  }
  // Letters in a type=number field reach the page as '' — the field's rule, not "this cell is empty".
  await page.fill('#size-n', '');
  await page.type('#size-n', 'e');
  await page.dispatchEvent('#size-n', 'change');
  assert.equal(await page.textContent('#err-size-n'), fill(zh['err.size'], { max: 64 }), 'letters');
  await page.fill('#size-n', '3');
  await page.dispatchEvent('#size-n', 'change');
  assert.equal(await page.textContent('#err-size-n'), '');
  assert.equal((await matrixText(page, 'scores')).length, 3);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a temperature of 0 is refused; 0.5 sharpens the weights', async () => {
  const page = await b.open('#step=8');
  await page.fill('#temperature', '0');
  await page.dispatchEvent('#temperature', 'change');
  assert.equal(await page.textContent('#err-temperature'), zh['err.temperature']);
  await page.fill('#temperature', '0.5');
  await page.dispatchEvent('#temperature', 'change');
  const [a, c] = [Math.exp(Math.SQRT2), 1].map((x, _, all) => x / (Math.exp(Math.SQRT2) + 1));
  assert.deepEqual((await matrixText(page, 'weights'))[0], [a.toPrecision(4), c.toPrecision(4)]);
  await page.context().close();
});

test('pasting NumPy text with full-width digits and U+2212 replaces the matrix and resizes', async () => {
  const page = await b.open('#step=1');
  await page.click('#details-paste-q summary');
  await page.fill('#paste-q', '[[１, −２, 0], [３, ４, 0.5], [0, 0, 1]]');
  await page.click('#apply-q');
  assert.equal(await page.textContent('#err-paste-q'), '');
  // One format across the matrix: 0.5 makes it a matrix of 4 significant digits, whole numbers included.
  assert.deepEqual(await matrixText(page, 'q'), [
    ['1.000', '-2.000', '0'],
    ['3.000', '4.000', '0.5000'],
    ['0', '0', '1.000'],
  ]);
  assert.equal(await page.inputValue('#size-n'), '3');
  assert.equal(await page.inputValue('#size-dk'), '3');
  assert.equal((await matrixText(page, 'k')).length, 3, 'K follows the new n');
  // K and V grew with it: their new cells hold random numbers, and the panel says so and marks them.
  assert.match(await page.textContent('#filled-note'), /K、V/);
  assert.equal(await page.locator('#editor-k input.filled').count(), 5, 'K: 2×2 → 3×3, five new cells');
  assert.equal(await page.locator('#editor-k input.filled#in-k-0-0').count(), 0, 'the old cells are not marked');
  assert.equal(await page.locator('#editor-q input.filled').count(), 0, "the pasted matrix is all the reader's");
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('switching input mode keeps the result; the seeded random preset is reproducible', async () => {
  const page = await b.open('#step=9');
  const before = await matrixText(page, 'output');
  await page.check('#mode-x');
  assert.equal(await page.locator('#editor-x').count(), 1, 'X is editable');
  assert.deepEqual(await matrixText(page, 'output'), before);
  await page.selectOption('#preset', 'random');
  await page.fill('#size-seed', '7');
  await page.dispatchEvent('#size-seed', 'change');
  const first = await matrixText(page, 'output');
  const again = await b.open(new URL(page.url()).hash);
  assert.deepEqual(await matrixText(again, 'output'), first);
  assert.deepEqual([...page.problems, ...again.problems], []);
  await page.context().close();
  await again.context().close();
});

test('typing ".5" after "10" in a cell of a preset gives 10.5 (the caret stays where it was)', async () => {
  const page = await b.open('#step=9');
  await page.click('#in-v-0-0');
  await page.keyboard.press('End');
  await page.keyboard.type('.5'); // key by key: the first key makes the example custom and re-renders the panel
  assert.equal(await page.inputValue('#in-v-0-0'), '10.5');
  assert.equal(await page.inputValue('#preset'), 'custom');
  // A = [[0.6698, 0.3302], …]: output (1, 1) = 0.6698 · 10.5 + 0.3302 · 0
  const a = Math.exp(Math.SQRT1_2) / (Math.exp(Math.SQRT1_2) + 1);
  assert.equal((await matrixText(page, 'output'))[0][0], (a * 10.5).toPrecision(4));
  await page.keyboard.press('Backspace');
  await page.keyboard.type('75');
  assert.equal(await page.inputValue('#in-v-0-0'), '10.75');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('sizes above 16 show heatmaps without numbers', async () => {
  const page = await b.open('#preset=random&mode=qkv&n=20&d=4&dk=4&dv=4&seed=3&step=8');
  assert.equal(await page.locator('figure[data-name="weights"] canvas.heatmap').count(), 1);
  assert.equal(await page.locator('figure[data-name="weights"] table').count(), 0);
  await screenshot(page, 'heatmap-n20-zh-light');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a refusal of the core reads in the reader's language, at the right place", async () => {
  // "它 是 猫" from X: 3e38 is a valid float32, but X·W_Q doubles it past the largest one.
  const page = await b.open('#preset=cat&step=3');
  const good = await matrixText(page, 'scores');
  await page.fill('#in-x-0-0', '3e38');
  const message = await page.textContent('#err-engine');
  assert.match(message, /^计算核心拒绝了这个输入:第 1 行第 2 列:Q = X·W_Q 在这里是 ∞/);
  assert.doesNotMatch(message, /Infinity|finite/, 'no English sentence for a Chinese reader');
  assert.deepEqual(await matrixText(page, 'scores'), good, 'the last good result stays');
  await page.fill('#in-x-0-0', '1');
  assert.equal(await page.textContent('#err-engine'), '', 'a good value clears it');
  const english = await b.open('#preset=cat&step=3&lang=en');
  await english.fill('#in-x-0-0', '3e38');
  assert.match(
    await english.textContent('#err-engine'),
    /^The computing core rejected this input: Row 1, column 2: Q = X·W_Q is ∞ here/,
  );
  assert.deepEqual([...page.problems, ...english.problems], []);
  await page.context().close();
  await english.context().close();
});
