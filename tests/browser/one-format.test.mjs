// One format per matrix (web/src/format.js matrixFormat), on every figure of every step: a matrix
// whose values need an exponent (1e−7 beside 1e−5) writes every value with one, and one with a
// fraction writes 1 as 1.000 beside 0.5000 — never "0.00001308" beside "7.648e−7", nor "1" beside
// "0.5000". Chromium, on the development page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile } from './helpers.mjs';

const b = browserForFile();

/**
 * Every figure on the stage (its table cells, the mix's values of V) as { name, forms }: the forms
 * its numbers take — 'exponent' (1.000e−7), 'decimal' (0.5000) or 'integer' (10); 0, ∞ and NaN
 * are written alike in every form and say nothing.
 */
const figureForms = (page) =>
  page.evaluate(() => {
    const formOf = (text) =>
      /^[0\u2212]*(0|∞|NaN)$/.test(text) ? null : /e/.test(text) ? 'exponent' : /\./.test(text) ? 'decimal' : 'integer';
    const figures = [...document.querySelectorAll('#stage-body figure.matrix[data-name]')].map((figure) => ({
      name: figure.dataset.name,
      texts: [...figure.querySelectorAll('td.c:not(.side)')].map((td) => td.textContent.trim()),
    }));
    const mix = [...document.querySelectorAll('#stage-body .mix-values:not(.strip)')].map((row, i) => ({
      name: `mix row ${i + 1}`,
      texts: [...row.querySelectorAll('.mix-cell')].map((cell) => cell.textContent.trim()),
    }));
    return [...figures, ...mix].map(({ name, texts }) => ({
      name,
      texts,
      forms: [...new Set(texts.map(formOf).filter(Boolean))],
    }));
  });

async function checkEveryStep(hash, steps) {
  const page = await b.open(hash);
  const seen = [];
  for (let step = 1; step <= steps; step++) {
    if (step > 1) {
      await page.click('#next');
      await page.waitForFunction((n) => new RegExp(`step=${n}(&|$)`).test(location.hash), step);
    }
    for (const figure of await figureForms(page)) {
      seen.push(figure);
      assert.ok(figure.forms.length <= 1, `step ${step}, ${figure.name}: ${figure.texts.join(' ')}`);
    }
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
  return seen;
}

test('1e−5 beside 1e−7: every figure of every step writes its numbers in one form', async () => {
  // Q = K = 0: every weight is 0.5, and AV's rows are the means of V's rows: 1e−5 beside 1e−7.
  const seen = await checkEveryStep(
    '#step=1&preset=custom&mode=qkv&n=2&d=2&dk=2&dv=2&q=0,0;0,0&k=0,0;0,0&v=0.00001,2e-7;0.00001,0',
    9,
  );
  const output = seen.find((figure) => figure.name === 'output');
  assert.deepEqual(output.texts, ['1.000e\u22125', '1.000e\u22127', '1.000e\u22125', '1.000e\u22127']);
  assert.deepEqual(seen.find((figure) => figure.name === 'v').forms, ['exponent']);
});

test('1 beside 0.5, and the heads: every figure of every step of "它 是 猫" with two heads writes one form', async () => {
  const seen = await checkEveryStep('#step=1&preset=heads', 11);
  assert.ok(seen.some((figure) => figure.forms.includes('decimal') && figure.texts.includes('1.000')));
});

test("the training lab's A in the √d_k race at d_k = 256: each run's table in one form (1.0e0 beside 5.5e−11, never 1 beside 0.78)", async () => {
  // Unscaled at d_k = 256 the untrained softmax is nearly one-hot: weights that round to 1 in two
  // digits stand beside ones that do not.
  const page = await b.open('#view=train-lab&lang=en&trainscale=race&traindk=256&trainsteps=100');
  await page.waitForFunction(() => document.querySelectorAll('.train-run table td.pick').length > 0);
  const tables = await page.evaluate(() =>
    [...document.querySelectorAll('.train-run table')].map((table) =>
      [...table.querySelectorAll('td.pick')].map((td) => td.textContent.trim()),
    ),
  );
  assert.equal(tables.length, 2, 'the two runs of the race');
  for (const texts of tables) {
    const forms = new Set(
      texts
        .filter((s) => !/^[0\u2212]*(0|∞|NaN)$/.test(s))
        .map((s) => (/e/.test(s) ? 'exponent' : /\./.test(s) ? 'decimal' : 'integer')),
    );
    assert.ok(forms.size <= 1, `one form: ${texts.join(' ')}`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
