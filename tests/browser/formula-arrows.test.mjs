// Issue 18, items 13 and 14, in the offline file, in Chromium and in Firefox: the step's own formula
// reads the hand computation of the hovered, focused or tapped cell (the article's numbers on its
// worked example), in a space kept for it, and a screen reader hears it; q and k drawn as two
// arrows (§3) whose heads drag or move by arrow keys, changing S, A and the URL as typing would,
// read-only with a way out when Q and K come from X, and a notice when d_k is not 2.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inChromium, openOfflineFile, setField, matrixIn } from './drivers.mjs';
import words from '../../web/src/i18n/labs/formula-arrows.js';
import { axeViolations } from './helpers.mjs';

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
/** Focuses an arrow's head (an SVG element: Firefox's driver focuses only HTML elements). */
const focusHandle = (page, which) =>
  page.evaluate((w) => document.querySelector(`#arrows .arrow-handle.arrow-${w}`).focus(), which);
const readout = (page) => page.evaluate(() => document.getElementById('arrows-readout').textContent);
/** Where on the screen a point (x, y) of the arrows' plane is. */
const onScreen = (page, [x, y]) =>
  page.evaluate(
    ([x, y]) => {
      const svg = document.querySelector('#arrows svg');
      const unit = 10 / Number(svg.dataset.extent); // the drawing's units: PLANE (10) for the plane's extent
      const p = new DOMPoint(x * unit, -y * unit).matrixTransform(svg.getScreenCTM());
      return { x: p.x, y: p.y };
    },
    [x, y],
  );
const cell = (name, i, j) => `#stage-body figure[data-name="${name}"] td.pick[data-i="${i}"][data-j="${j}"]`;

inChromium((name, driver) => {
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
      document.getElementById('step-announce').textContent.endsWith('S12 = q1 · k2 = 1 · 0 + 0 · 1 = 0'),
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

  test(`${name}: the worked example's q₁ and k₂ as two arrows; arrow keys move k₂, S and the URL follow, undo takes it back`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=3');
    await page.until(() => document.getElementById('arrows-readout')?.textContent);
    assert.equal(
      await readout(page),
      'q₁ = (1, 0), k₂ = (0, 1): |q₁| = 1, |k₂| = 1, angle θ = 90°; |q₁||k₂| cos θ = 1 × 1 × cos 90° = 0 = q₁·k₂ = S₁₂',
    );
    await focusHandle(page, 'k');
    await page.keyboard.down('Shift');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.up('Shift');
    // k₂ = (1, 1): S₁₂ = q₁·k₂ = 1, at 45°
    await page.until(() => /angle θ = 45\.0°/.test(document.getElementById('arrows-readout').textContent));
    assert.deepEqual((await matrixIn(page, 'scores'))[0], ['1', '1']);
    await page.until(() => new URLSearchParams(location.hash.slice(1)).get('k') === '1,0;1,1');
    await page.keyboard.press('ArrowDown'); // (1, 0.9): the same run of keys, one undo entry
    await page.until(() => new URLSearchParams(location.hash.slice(1)).get('k') === '1,0;1,0.9');
    assert.equal(
      await page.evaluate(() => document.activeElement.getAttribute('aria-label')),
      'Arrow k₂ = (1, 0.9000): move it with the arrow keys',
      'the head keeps the focus, and says where it is',
    );
    await page.keyboard.down('Control');
    await page.keyboard.press('z');
    await page.keyboard.up('Control');
    await page.until(() => /angle θ = 90°/.test(document.getElementById('arrows-readout').textContent));
    assert.deepEqual((await matrixIn(page, 'scores'))[0], ['1', '0']);
    // A score chosen on the stage: the arrows become its pair.
    await page.click(cell('scores', 1, 1));
    await page.until(() =>
      document.getElementById('arrows-readout').textContent.startsWith('q₂ = (0, 1), k₂ = (0, 1)'),
    );
    assert.equal(await page.evaluate(() => document.getElementById('arrows-q').value), '1');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: dragging q₁'s head moves S and A with it, and one drag is one undo`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=3');
    await page.until(() => document.querySelector('#arrows svg'));
    await page.evaluate(() => document.querySelector('#arrows svg').scrollIntoView({ block: 'center' }));
    const from = await onScreen(page, [1, 0]);
    const to = await onScreen(page, [0.5, 1.5]);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    // q₁ = (0.5, 1.5): S₁₁ = 0.5, S₁₂ = 1.5
    await page.until(() => new URLSearchParams(location.hash.slice(1)).get('q')?.startsWith('0.5,1.5;'));
    assert.deepEqual((await matrixIn(page, 'scores'))[0], ['0.5000', '1.500']);
    assert.match(await readout(page), /^q₁ = \(0\.5000, 1\.500\), k₂ = \(0, 1\)/);
    // every later matrix follows: the weights step shows the new A
    await page.evaluate(() => (location.hash = location.hash.replace(/step=3/, 'step=8')));
    await page.until(() => document.querySelector('#stage-body figure[data-name="weights"]'));
    const a = await matrixIn(page, 'weights');
    assert.notDeepEqual(a[0], ['0.6698', '0.3302']);
    await page.evaluate(() => (location.hash = location.hash.replace(/step=8/, 'step=3')));
    await page.until(() => document.querySelector('#arrows svg'));
    await page.click('#undo');
    await page.until(() => new URLSearchParams(location.hash.slice(1)).get('q') === null);
    assert.deepEqual((await matrixIn(page, 'scores'))[0], ['1', '0']);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: from X the arrows only show, say why and offer Q, K, V directly; d_k = 3 says it needs 2`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&step=3');
    await page.click('#mode-x');
    await page.until(() => document.querySelector('#arrows.read-only'));
    assert.equal(
      await page.evaluate(() => document.querySelector('#arrows .arrows-note').textContent),
      words.en['arrows.readOnly'],
    );
    const k = await matrixIn(page, 'k');
    await focusHandle(page, 'k');
    await page.keyboard.press('ArrowUp');
    assert.deepEqual(await matrixIn(page, 'k'), k, 'no edit from a read-only arrow');
    await page.click('#arrows-switch');
    await page.until(() => !document.querySelector('#arrows.read-only'));
    assert.equal(await page.evaluate(() => document.getElementById('mode-qkv').checked), true);
    await setField(page, '#size-dk', '3');
    await page.until(() => document.querySelector('#arrows .arrows-figure[hidden]'));
    assert.equal(
      await page.evaluate(() => document.querySelector('#arrows .arrows-note').textContent),
      words.en['arrows.needs2d'].replace('{dk}', '3'),
    );
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: the filled formula and the arrows are axe clean and fit 375 px, in Chinese and in English`, async () => {
    for (const lang of ['zh-CN', 'en']) {
      const page = await openOfflineFile(driver, `#lang=${lang}&step=3`, { viewport: { width: 375, height: 800 } });
      await page.click(cell('scores', 0, 1));
      await page.until(
        () => document.querySelector('#stage-body .formulas.filling') && document.getElementById('arrows'),
      );
      assert.deepEqual(await axeViolations(page), [], lang);
      assert.ok(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= 375 && document.getElementById('arrows').scrollWidth <= 375,
        ),
        'nothing wider than the phone',
      );
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    }
  });
});
