// A shown number that is ∞ or NaN although no input is comes with a notice saying where float32
// ran out — never silently. The notice's text is the i18n string; the step it names is the first
// one showing such a number (the core counts them: attentionSteps' nonFinite).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, stageText } from './helpers.mjs';
import en from '../../web/src/i18n/en.js';

const b = browserForFile();

const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

test('temperature 1e-40 on the worked example: a notice from step 4 on, and not the article\'s "0.33" remark', async () => {
  const page = await b.open('#temperature=1e-40&step=8&lang=en');
  const text = await stageText(page);
  assert.ok(text.includes(fill(en['notice.nonFinite'], { step: 4 })), 'the notice names step 4 (÷√dₖ·τ)');
  assert.ok(!text.includes(en['article.weights']), "the article's remark on its own numbers is gone");
  await page.click('#prev'); // step 7
  assert.ok((await stageText(page)).includes(fill(en['notice.nonFinite'], { step: 4 })));
  await page.goto(`${b.url}#temperature=1e-40&step=3&lang=en`);
  await page.waitForSelector('body[data-ready="true"]');
  assert.ok(!(await stageText(page)).includes(fill(en['notice.nonFinite'], { step: 4 })), 'step 3 is still finite');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('3e38 typed into two cells of the random preset: the scores overflow, a notice from step 3 on', async () => {
  const page = await b.open('#preset=random&seed=1&n=3&dk=3&dv=3&step=5&lang=en');
  assert.ok(!(await stageText(page)).includes('outgrew float32'), 'no notice before');
  await page.fill('#in-q-0-0', '3e38');
  await page.fill('#in-k-0-0', '3e38');
  assert.ok((await stageText(page)).includes(fill(en['notice.nonFinite'], { step: 3 })));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the worked example and its causal mask show no such notice on any step', async () => {
  for (const hash of ['#lang=en', '#lang=en&mask=causal']) {
    const page = await b.open(`${hash}&step=1`);
    for (let step = 1; step <= 9; step++) {
      assert.ok(!(await stageText(page)).includes('outgrew float32'), `${hash}, step ${step}`);
      if (step < 9) await page.click('#next');
    }
    await page.context().close();
  }
});
