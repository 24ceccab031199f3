// One training step through the whole multi-head layer in the stepper (issue 26, item 3), in
// Chromium, in the offline file: on "它 是 猫" with 2 heads the reader chooses L = ½‖O − Y‖² under AV
// (the loss on the layer's output O = concat·W_O, Y = X) and, with the fixture's dO given, walks
// dO → dW_O, d(concat) → head 1's and head 2's blocks → dW with every head's block → dX, each matrix
// against the float64 gradients of tests/fixtures/multi-head.json, one cell of each new step
// expanded in the popover.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { inChromium, matrixIn, stageText, stepInUrl, openOfflineFile } from './drivers.mjs';
import { axeViolations } from './helpers.mjs';

const FIXTURE = JSON.parse(fs.readFileSync(new URL('../fixtures/multi-head.json', import.meta.url), 'utf8'));
const TWO_HEADS = FIXTURE.cases.find((c) => c.name === '它 是 猫, 2 heads');
const WANT = TWO_HEADS.expected.backward;
const DOUT = TWO_HEADS.gradOutput.map((row) => row.join(',')).join(';');

const title = (page) => page.evaluate(() => document.getElementById('step-title').textContent);
const popoverLines = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#cell-explain ol.expansion > li .line')].map((line) =>
      line.textContent.replace(/\s+/g, '').replace(/\u2212/g, '-'),
    ),
  );

/**
 * A matrix on screen against float64 rows: each number within 1.5 units of its last digit shown, and
 * float32's rounding of the matrix's largest terms (a cell that is 0 in float64 may show 3e−8).
 */
async function shows(page, name, want) {
  const got = await matrixIn(page, name);
  assert.deepEqual([got.length, got[0]?.length], [want.length, want[0].length], `${name}: shape`);
  const rounding = 1e-6 * Math.max(1, ...want.flat().map(Math.abs));
  got.forEach((row, i) =>
    row.forEach((text, j) => {
      const [mantissa, exponent = '0'] = text.replace(/^-/, '').split('e');
      const decimals = mantissa.includes('.') ? mantissa.split('.')[1].length : 0;
      const unit = 10 ** (Number(exponent) - decimals);
      assert.ok(
        Math.abs(Number(text) - want[i][j]) <= 1.5 * unit + rounding,
        `${name}[${i}][${j}] ${text} ≠ ${want[i][j]}`,
      );
    }),
  );
}

/** Goes to step `n` by the map, once its figure `name` is drawn. */
async function goTo(page, n, name) {
  await page.click(`.map-node[data-step="${n}"]`);
  await page.until((figure) => document.querySelector(`figure[data-name="${figure}"]`), name);
  await stepInUrl(page, n);
}

/** Expands cell (i, j) of figure `name` and returns the popover's lines. */
async function expand(page, name, i, j) {
  await page.click(`figure[data-name="${name}"] td.pick[data-i="${i}"][data-j="${j}"]`);
  await page.until(() => !document.getElementById('cell-explain').hidden);
  const lines = await popoverLines(page);
  await page.keyboard.press('Escape');
  return lines;
}

inChromium((name, driver) => {
  test(`${name}: with heads the reader chooses L = ½‖O − Y‖² on the layer's output: Y = X, L = 3.947, dO = O − X`, async () => {
    const page = await openOfflineFile(driver, '#step=9&preset=heads&mode=x');
    await page.click('#loss-mse');
    await page.until(() => /loss=mse&y=1,0,0,1;0,1,0,1;0,0,1,1/.test(location.hash));
    assert.match(await stageText(page), /损失 L = 3\.947/);
    assert.match(await stageText(page), /L = ½‖O − Y‖²/, 'the choice names the layer’s output');
    assert.match(await title(page), /第 9 \/ 20 步/, 'nine steps, concat and ·W_O, nine backward steps');
    await goTo(page, 12, 'gradProjected');
    assert.match(await title(page), /反向第 1 步/);
    const O = TWO_HEADS.expected.output;
    await shows(page, 'projected', O);
    await shows(page, 'target', TWO_HEADS.x);
    await shows(
      page,
      'gradProjected',
      O.map((row, i) => row.map((o, j) => o - TWO_HEADS.x[i][j])),
    );
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: dO given on O: dW_O, d(concat), both heads' blocks, dW and dX are the float64 fixture's`, async () => {
    const page = await openOfflineFile(driver, `#step=13&preset=heads&mode=x&lang=en&loss=given&dout=${DOUT}`);
    assert.match(await title(page), /Step 13 of 20/);
    await shows(page, 'gradWo', WANT.d_w_o);
    await shows(page, 'gradConcat', WANT.d_concat);
    // (dW_O)₁₁ = Σ_i concat_i1·dO_i1 = 0.6667·1 + 0.9444·0 + 0.05891·(−0.5) = 0.6372
    assert.match(
      (await expand(page, 'gradWo', 0, 0)).at(-1),
      /0\.6667·1\.000\+0\.9444·0\+0\.05891·\(-0\.5000\)=0\.6372$/,
    );
    assert.deepEqual(await axeViolations(page), [], 'axe on the ·W_O step');

    // The split: head 1's block of d(concat), then head 2's, chosen on the overview.
    await goTo(page, 14, 'gradOutput');
    await shows(page, 'gradOutput', WANT.heads[0].d_output);
    await page.click('#head-grads-open-2');
    await page.until(() => /head=2/.test(location.hash));
    await page.until(() => document.querySelector('figure[data-name="gradOutput"]'));
    await shows(page, 'gradOutput', WANT.heads[1].d_output);
    assert.match((await expand(page, 'gradOutput', 2, 0)).at(-1), /=-0\.7500$/, 'd(head_2)₃₁ = d(concat)₃,₃');

    // Head 2's own steps: dS, then dQ and dK.
    await goTo(page, 17, 'gradScores');
    await shows(page, 'gradScores', WANT.heads[1].d_scores);
    await goTo(page, 18, 'gradQ');
    await shows(page, 'gradQ', WANT.heads[1].d_q);
    await shows(page, 'gradK', WANT.heads[1].d_k);

    // dW with every head's block, and dX summed over the heads.
    await goTo(page, 19, 'gradWq');
    await shows(page, 'gradQAll', WANT.d_q);
    await shows(page, 'gradWq', WANT.d_w_q);
    await shows(page, 'gradWk', WANT.d_w_k);
    await shows(page, 'gradWv', WANT.d_w_v);
    await goTo(page, 20, 'gradX');
    await shows(page, 'gradX', WANT.d_x);
    assert.match((await expand(page, 'gradX', 0, 0)).at(-1), /=0\.1889\+0\.2243\+1\.176=1\.589$/);
    assert.deepEqual(await axeViolations(page), [], 'axe on the dX step');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
