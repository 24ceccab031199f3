// Issue 18, item 13, in the offline file, in Chromium and in Firefox: the step's own formula reads
// the hand computation of the hovered, focused or tapped cell (the article's numbers on its worked
// example), in a space kept for it, and a screen reader hears it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inEachEngine, openOfflineFile } from './drivers.mjs';
import words from '../../web/src/i18n/labs/formula-arrows.js';

/** The filled formula as text, without spaces, typographic minus as '-'. */
const filled = (page) =>
  page.evaluate(() =>
    document.querySelector('#stage-body .formulas.filling .formula.filled')
      ? document
          .querySelector('#stage-body .formula.filled')
          .textContent.replace(/\s+/g, '')
          .replace(/\u2212/g, '-')
      : null,
  );
/** Where the things under the formula are: the formula box's height and the first matrix's top in the document. */
const layout = (page) =>
  page.evaluate(() => {
    const box = document.querySelector('#stage-body .formulas').getBoundingClientRect();
    const matrix = document.querySelector('#stage-body figure.matrix[id]').getBoundingClientRect();
    return { formulas: Math.round(box.height), matrix: Math.round(matrix.top + scrollY) };
  });
const cell = (name, i, j) => `#stage-body figure[data-name="${name}"] td.pick[data-i="${i}"][data-j="${j}"]`;

inEachEngine((name, driver) => {
  test(`${name}: hovering S₁₂ on the worked example fills the scores step's formula with the article's numbers`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=3');
    assert.equal(await filled(page), null, 'no cell: the general formula');
    assert.equal(
      await page.evaluate(() => document.querySelector('#stage-body .filled-caption').textContent),
      words.en['filled.hint'],
    );
    const before = await layout(page);
    await page.hover(cell('scores', 0, 1));
    await page.until(() => document.querySelector('#stage-body .formulas.filling'));
    assert.equal(await filled(page), 'S12=q1·k2=1·0+0·1=0');
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.querySelector('#stage-body .formula.detail')).visibility),
      'hidden',
      'the filled formula takes the general one’s place',
    );
    assert.deepEqual(await layout(page), before, 'nothing under the formula moves');
    // A screen reader hears it (a live region, written once the pointer rests).
    await page.until(() =>
      document.getElementById('formula-live').textContent.endsWith('S12 = q1 · k2 = 1 · 0 + 0 · 1 = 0'),
    );
    // The pointer leaves the cells: the general formula again.
    await page.hover('#step-title');
    await page.until(() => !document.querySelector('#stage-body .formulas.filling'));
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: keyboard focus fills each step's formula: the scaling, exp, the row sum, the weight`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=4');
    await page.focus(cell('scaled', 0, 0));
    await page.until(() => document.querySelector('#stage-body .formulas.filling'));
    // x₁₁ = S₁₁/√d_k = 1/√2 (a fraction and a root have no text of their own)
    assert.equal(await filled(page), 'x11=S11dk=12=0.7071');
    await page.keyboard.press('ArrowRight');
    await page.until(() => document.querySelector('#stage-body .formula.filled[data-cell="score:0:1"]'));
    assert.equal(await filled(page), 'x12=S12dk=02=0');
    for (const [hash, name, expected] of [
      ['#lang=en&step=6', 'exps', 'e12=exp(x12-maxj′x1j′)=exp(0-0.7071)=exp(-0.7071)=0.4931'],
      ['#lang=en&step=7', 'exps', 'Σ1=∑e1j=1.000+0.4931=1.493'],
      ['#lang=en&step=8', 'weights', 'A12=e12Σ1=0.49311.493=0.3302'],
    ]) {
      await page.evaluate((h) => (location.hash = h), hash);
      await page.until((n) => document.querySelector(`#stage-body figure[data-name="${n}"]`), name);
      await page.focus(cell(name, 0, 0));
      await page.keyboard.press('ArrowRight');
      await page.until(() => document.querySelector('#stage-body .formula.filled[data-cell="score:0:1"]'));
      assert.equal(await filled(page), expected, hash);
    }
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: at 375 px a tap on an AV cell fills the formula, and nothing moves`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=9', { viewport: { width: 375, height: 800 } });
    const before = await layout(page);
    await page.click(cell('output', 0, 0));
    await page.until(() => document.querySelector('#stage-body .formulas.filling'));
    assert.equal(await filled(page), '(AV)11=∑A1jvj1=0.6698·10+0.3302·0=6.698');
    assert.deepEqual(await layout(page), before, 'the space was kept');
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= 375),
      'the page does not scroll sideways',
    );
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: a step whose numbers are no sums says so; the projections fill in from X`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=1');
    assert.equal(
      await page.evaluate(() => document.querySelector('#stage-body .filled-caption').textContent),
      words.en['filled.none'],
    );
    await page.evaluate(() => (location.hash = '#lang=en&preset=cat&step=2'));
    await page.until(() => document.querySelector('#stage-body figure[data-name="q"] td.pick'));
    await page.hover(cell('q', 0, 0));
    await page.until(() => document.querySelector('#stage-body .formulas.filling'));
    assert.match(await filled(page), /^Q11=∑X1tWQ,t1=/);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
