// Issue 19 items 5, 7 and 9, in the offline file in Chromium and in Firefox: a NaN that "From X"
// mode makes in Q at step 2 is said from step 2 on; the naive softmax at scores near −2000 is
// said to underflow (every eˣ is 0, so 0/0), not to overflow; and a click on a cell of a kept,
// hidden step pane does nothing, without an error.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inChromium, openOfflineFile, stageText, matrixIn } from './drivers.mjs';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh-CN.js';

const fill = (text, params = {}) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

// The hash: X·W_Q = 3e38·2 + 3e38·(−2) = ∞ − ∞ = NaN in Q.
const FROM_X = '#lang=en&preset=custom&mode=x&n=1&d=2&dk=1&dv=1&x=3e38,3e38&wq=2;-2&wk=1e-38;1e-38&wv=1e-38;1e-38';
// Scores −2000 and −2001 (q = 1, k = −2000, −2001, no scaling): e⁻²⁰⁰⁰ is 0 in float32.
const COLD = '&preset=custom&mode=qkv&n=2&dk=1&dv=1&q=1;1&k=-2000;-2001&v=1;2&scale=none&softmax=naive';

inChromium((name, driver) => {
  test(`${name}: from X, the NaN in Q is said from step 2 on, naming step 2`, async () => {
    const page = await openOfflineFile(driver, `${FROM_X}&step=2`);
    assert.deepEqual(await matrixIn(page, 'q'), [['NaN']]);
    const notice = fill(en['notice.nonFinite'], { step: 2 });
    assert.ok((await stageText(page)).includes(notice), 'at step 2');
    await page.keyboard.press('ArrowRight');
    await page.until(() => /(?:^#|&)step=3(&|$)/.test(location.hash));
    assert.ok((await stageText(page)).includes(notice), 'and at step 3, still naming step 2');
    assert.ok(!(await stageText(page)).includes(fill(en['notice.nonFinite'], { step: 3 })));
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: naive softmax at scores near −2000 is said to underflow (0/0), in both languages`, async () => {
    for (const [lang, words] of [
      ['en', en],
      ['zh-CN', zh],
    ]) {
      const page = await openOfflineFile(driver, `#lang=${lang}${COLD}&step=8`);
      assert.deepEqual(await matrixIn(page, 'weights'), [
        ['NaN', 'NaN'],
        ['NaN', 'NaN'],
      ]);
      const text = await stageText(page);
      assert.ok(text.includes(words['notice.naiveUnderflow']), lang);
      assert.ok(!text.includes(words['notice.naiveOverflow']), `${lang}: nothing overflowed`);
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    }
    // Scores near +1000 still overflow, and are said to.
    const page = await openOfflineFile(driver, '#lang=en&preset=overflow&softmax=naive&step=8');
    assert.ok((await stageText(page)).includes(en['notice.naiveOverflow']));
    assert.ok(!(await stageText(page)).includes(en['notice.naiveUnderflow']));
    await page.closeAll();
  });

  test(`${name}: a click on a cell of a kept, hidden step pane does nothing, without an error`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=3');
    await page.keyboard.press('ArrowRight');
    await page.until(() => document.querySelector('#stage-body .kept td.pick') !== null);
    const result = await page.evaluate(() => {
      const td = document.querySelector('#stage-body .kept td.pick');
      td.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      td.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      td.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      td.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      return { popoverHidden: document.getElementById('cell-explain').hidden };
    });
    assert.deepEqual(result, { popoverHidden: true });
    // The shown step's own cells still open the popover.
    await page.evaluate(() =>
      [...document.querySelectorAll('#stage-body td.pick')]
        .find((td) => !td.closest('.kept'))
        .dispatchEvent(new MouseEvent('click', { bubbles: true })),
    );
    await page.until(() => !document.getElementById('cell-explain').hidden);
    assert.deepEqual(page.problems, [], 'no uncaught TypeError');
    await page.closeAll();
  });
});
