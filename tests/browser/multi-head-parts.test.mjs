// Multi-head attention's own parts of what is drawn, in the offline file, in Chromium and in
// Firefox: the main formula with heads (head_i = softmax(Q_iK_iᵀ/√d_k)V_i, MultiHead(X) =
// concat(head_1,…,head_h)·W_O), whose concat and ·W_O steps mark parts of their own; and the heads'
// blocks on a matrix drawn as a heatmap (wider than 16), in the heads' colours, over exactly each
// head's columns (W_Q, Q, concat) or beside its rows (W_O); and the heads overview, built while the
// reader reads the step before it, so that the click on "next" only shows it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inChromium, openOfflineFile } from './drivers.mjs';
import { HEAD_COLORS } from '../../web/src/head-colors.js';

const HEADS = '#preset=heads&heads=2&head=1';
// d = 32 with 4 heads: W_Q, W_O and concat are 32 wide, heatmaps, in blocks of 8.
const WIDE = '#preset=random&mode=x&n=8&d=32&dk=32&dv=32&seed=11&heads=4&head=1';

/** '#0072B2' → 'rgb(0, 114, 178)', as getComputedStyle writes a colour. */
const rgb = (hex) => `rgb(${[1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)).join(', ')})`;

/** The main formula's parts that are marked (have a background), and whether it names MultiHead. */
const mainFormula = (page) =>
  page.evaluate(() => {
    const main = document.querySelector('#stage-body .formula.main');
    const marked = [...main.querySelectorAll('[class*="part-"]')]
      .filter((el) => getComputedStyle(el).backgroundColor !== 'rgba(0, 0, 0, 0)')
      .map((el) => [...el.classList].find((c) => c.startsWith('part-')));
    return { marked: [...new Set(marked)], text: main.textContent };
  });

const goTo = (page, step) =>
  page.evaluate((s) => {
    document.querySelector(`.map-node[data-step="${s}"]`).click();
  }, step);

/**
 * The blocks drawn along one side of heatmap `name`: each strip's text, colour and where it starts
 * and ends, in the canvas's columns (or rows) — 0 to 8 is the first head's of 32.
 */
const stripsOf = (page, name, rows) =>
  page.evaluate(
    ([n, byRow]) => {
      const figure = document.querySelector(`figure.matrix[data-name="${n}"]`);
      const canvas = figure.querySelector('canvas.heatmap');
      const box = canvas.getBoundingClientRect();
      const [start, size, count] = byRow ? [box.top, box.height, canvas.height] : [box.left, box.width, canvas.width];
      const at = (px) => Math.round(((px - start) / size) * count * 10) / 10;
      return [...figure.querySelectorAll(byRow ? '.hm-row-blocks .hm-block' : '.hm-blocks .hm-block')].map((strip) => {
        const r = strip.getBoundingClientRect();
        const style = getComputedStyle(strip);
        return {
          text: strip.textContent,
          title: strip.title,
          color: byRow ? style.borderLeftColor : style.borderBottomColor,
          from: at(byRow ? r.top : r.left),
          to: at(byRow ? r.bottom : r.right),
        };
      });
    },
    [name, rows],
  );

inChromium((name, driver) => {
  test(`${name}: with heads the main formula joins them, concat(head₁,…,head_h)·W_O, and concat and ·W_O mark their own parts`, async () => {
    const page = await openOfflineFile(driver, `${HEADS}&step=9`);
    let formula = await mainFormula(page);
    assert.match(formula.text, /MultiHead/);
    assert.match(formula.text, /concat/);
    assert.deepEqual(formula.marked, ['part-output'], 'AV: V_i is marked');

    await goTo(page, 10);
    await page.until(() => document.querySelector('figure[data-name="concat"]'));
    formula = await mainFormula(page);
    assert.deepEqual(formula.marked, ['part-concat'], 'concat: its own part, not V_i');

    await goTo(page, 11);
    await page.until(() => document.querySelector('figure[data-name="projected"]'));
    formula = await mainFormula(page);
    assert.deepEqual(formula.marked, ['part-outproj'], '·W_O: its own part');
    assert.deepEqual(page.problems, []);
    await page.closeAll();

    // One head: the article's formula, with neither part.
    const one = await openOfflineFile(driver, '#step=9');
    formula = await mainFormula(one);
    assert.doesNotMatch(formula.text, /MultiHead|concat/);
    assert.deepEqual(formula.marked, ['part-output']);
    assert.deepEqual(one.problems, []);
    await one.closeAll();
  });

  test(`${name}: a heatmap draws the heads' column blocks of W_Q and Q and the row blocks of W_O, in their colours`, async () => {
    const colors = HEAD_COLORS.light.slice(0, 4).map(rgb);
    const page = await openOfflineFile(driver, `${WIDE}&step=2`);
    await page.until(() => document.querySelector('figure[data-name="wq"] canvas.heatmap'));
    for (const figure of ['wq', 'qAll']) {
      const strips = await stripsOf(page, figure, false);
      assert.deepEqual(
        strips.map((s) => [s.text, s.color]),
        colors.map((color, b) => [`头 ${b + 1}`, color]),
        `${figure}: one named strip per head`,
      );
      strips.forEach((s, b) => {
        assert.ok(
          Math.abs(s.from - 8 * b) < 0.5 && Math.abs(s.to - 8 * (b + 1)) < 0.5,
          `${figure} ${b}: ${s.from}–${s.to}`,
        );
      });
    }
    assert.deepEqual(await stripsOf(page, 'x', false), [], 'X is not split into heads');

    await goTo(page, 11);
    await page.until(() => document.querySelector('figure[data-name="wo"] canvas.heatmap'));
    const concat = await stripsOf(page, 'concat', false);
    assert.deepEqual(
      concat.map((s) => s.color),
      colors,
    );
    const rows = await stripsOf(page, 'wo', true);
    assert.deepEqual(
      rows.map((s) => [s.title, s.color]),
      colors.map((color, b) => [`头 ${b + 1}`, color]),
      "W_O's rows: each head's output block",
    );
    rows.forEach((s, b) => {
      assert.ok(Math.abs(s.from - 8 * b) < 0.5 && Math.abs(s.to - 8 * (b + 1)) < 0.5, `wo ${b}: ${s.from}–${s.to}`);
    });
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: on AV the heads overview of the next step is built ahead, its ids kept aside; the click shows that one`, async () => {
    const page = await openOfflineFile(driver, `${HEADS}&step=9`);
    await page.until(() => document.querySelector('#stage-body .extras .pane.kept .heads-overview'));
    const before = await page.evaluate(() => {
      const built = document.querySelector('#stage-body .extras .pane.kept .heads-overview');
      built.dataset.probe = 'built ahead';
      return {
        buttons: built.querySelectorAll('.head-open').length,
        ids: document.querySelectorAll('#head-open-1').length,
      };
    });
    assert.deepEqual(before, { buttons: 2, ids: 0 }, 'made, and none of its ids answers while it is not shown');
    await page.evaluate(() => document.getElementById('next').click());
    await page.until(() => document.querySelector('figure[data-name="concat"]'));
    const after = await page.evaluate(() => ({
      shown: document.getElementById('head-open-1')?.closest('.heads-overview')?.dataset.probe,
      kept: Boolean(document.getElementById('head-open-1')?.closest('.kept')),
      ids: document.querySelectorAll('#head-open-1').length,
    }));
    assert.deepEqual(after, { shown: 'built ahead', kept: false, ids: 1 });
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
