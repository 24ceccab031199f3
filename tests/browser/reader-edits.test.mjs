// Issue 18, items 1, 3, 4, 5, 9, 10, 11, 12, 16, 17 and 18, in the offline file, in Chromium and in Firefox: what a field shows
// is what is computed or the field says it is not (a value the core refused stays as typed, with
// the value the page computes with, and is tried again with every later edit); a number below
// float32's smallest is taken as 0 and said so at its field; the row max and row sum show their
// shape as every matrix does; a column softmax says what it shows (on the article's symmetric S the
// rows still sum to 1); the AV step fits a phone; the word lines carry their weights; a theme switch; undo, redo and reset; the example on the first screen; a heatmap's axes line up with its cells on a non-square canvas; Back and Forward move between steps,
// keeping the inputs as they are, while edits add no history entries.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inChromium, openOfflineFile, setField, stepInUrl } from './drivers.mjs';
import en from '../../web/src/i18n/en.js';

const fill = (text, params = {}) => text.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

const text = (page, selector) => page.evaluate((s) => document.querySelector(s).textContent, selector);
const value = (page, selector) => page.evaluate((s) => document.querySelector(s).value, selector);
const invalid = (page, selector) =>
  page.evaluate((s) => document.querySelector(s).getAttribute('aria-invalid'), selector);
/** Row `i` of matrix `name` in the URL's hash ("x=1,0.5,0,0;0,0,1,0;…"). */
const hashRow = (page, name, i) =>
  page.evaluate(([name, i]) => new URLSearchParams(location.hash.slice(1)).get(name)?.split(';')[i], [name, i]);

inChromium((name, driver) => {
  test(`${name}: "它 是 猫" with 3e38 in X: refused, kept as typed while other cells change, computed once W_Q allows it`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&preset=cat&step=3');
    // X₁₁ = 3e38 is a float32, but Q₁₂ = X₁₁·(W_Q)₁₂ = 3e38 · 2 is not.
    await setField(page, '#in-x-0-0', '3e38');
    await page.until(() => /Q = X·W_Q is ∞/.test(document.getElementById('err-engine').textContent));
    // Another cell changes: it is computed, and X₁₁ still reads 3e38 and says what is computed instead.
    await setField(page, '#in-x-0-1', '0.7');
    await page.until(() => document.getElementById('err-x').textContent !== '');
    const kept = await text(page, '#err-x');
    assert.ok(kept.startsWith('3e38 is not computed. The computing core rejected this input:'), kept);
    assert.ok(kept.endsWith('Until this cell changes, the page computes with 1.'), kept);
    assert.equal(await value(page, '#in-x-0-0'), '3e38');
    assert.equal(await invalid(page, '#in-x-0-0'), 'true');
    await page.until(() => /(^|&)x=/.test(location.hash.slice(1)));
    assert.equal(await hashRow(page, 'x', 0), '1,0.7,0,0', 'the link holds what is computed');
    assert.equal(await text(page, '#err-engine'), '', 'the refusal is said once, at its cell');
    // (W_Q)₁₂ = 1: now Q₁₂ = 3e38 is a float32, and the kept value is computed with the new one.
    await setField(page, '#in-wq-0-1', '1');
    await page.until(() => document.getElementById('err-x').textContent === '');
    await page.until(() => /(^|&)x=3e\+?38,0\.7/.test(decodeURIComponent(location.hash.slice(1))));
    assert.equal(await invalid(page, '#in-x-0-0'), null);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: 1e-50 in a cell is computed as 0, and its field says so`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&preset=cat&step=2');
    await setField(page, '#in-x-1-2', '1e-50');
    await page.until(() => document.getElementById('err-x').textContent !== '');
    assert.equal(await text(page, '#err-x'), fill(en['err.underflow'], { value: '1e-50', min: '1.4×10⁻⁴⁵' }));
    // Q₂₃ = X₂₃·(W_Q)₃₃ = 1e-50 · 1 is 0 in float32: the row of the word 是 is 0, 0, 0, 0.
    await page.until(() =>
      [...document.querySelectorAll('figure.matrix[data-name="q"] tbody tr:not(.foot)')][1]?.textContent.includes('0'),
    );
    await setField(page, '#in-x-1-2', '1');
    await page.until(() => document.getElementById('err-x').textContent === '');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: the row max and the row sum carry their shape, 2×1 on the worked example, 1×2 for a column softmax`, async () => {
    const sideShape = (page) =>
      page.evaluate(() =>
        [...document.querySelectorAll('#stage-body .step-pane:not(.kept) .side-name math')].map((m) =>
          m.getAttribute('aria-label'),
        ),
      );
    for (const [hash, shape] of [
      ['#lang=en&step=5', ['max ∈ ℝ 2×1']],
      ['#lang=en&step=7', ['Σ ∈ ℝ 2×1', 'Σ ∈ ℝ 2×1']], // the page's sums, and the article's own (§7, exp without the max)
      ['#lang=en&step=5&axis=column', ['max ∈ ℝ 1×2']],
    ]) {
      const page = await openOfflineFile(driver, hash);
      assert.deepEqual(await sideShape(page), shape, hash);
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    }
  });

  test(`${name}: a column softmax: on the article's symmetric example the rows still sum to 1 and the notice says so; on "it is cat" they do not`, async () => {
    const shown = (page) =>
      page.evaluate(() => ({
        title: document.getElementById('step-title').textContent,
        notices: [...document.querySelectorAll('#stage-body .notice')].map((p) => p.textContent),
        rowSums: [...document.querySelectorAll('figure[data-name="weights"] tbody tr:not(.foot) td.side')].map(
          (td) => td.textContent,
        ),
      }));
    const article = await openOfflineFile(driver, '#lang=en&step=8&axis=column');
    const onArticle = await shown(article);
    assert.deepEqual(onArticle.rowSums, ['1', '1'], 'A = [[0.6698, 0.3302], [0.3302, 0.6698]] either way');
    assert.ok(onArticle.notices.includes(en['notice.columnAgrees']), onArticle.notices.join(' | '));
    assert.ok(!onArticle.notices.includes(en['notice.column']));
    await article.closeAll();
    const cat = await openOfflineFile(driver, '#lang=en&preset=cat&step=8&axis=column');
    const onCat = await shown(cat);
    assert.ok(onCat.notices.includes(en['notice.column']), onCat.notices.join(' | '));
    assert.ok(
      onCat.rowSums.some((sum) => sum !== '1'),
      `rows: ${onCat.rowSums}`,
    );
    assert.deepEqual(cat.problems, []);
    await cat.closeAll();
    // The paragraph and the title describe the softmax on screen: each column's max.
    const max = await openOfflineFile(driver, '#lang=en&preset=cat&step=5&axis=column');
    assert.match(await text(max, '#step-title'), /Subtract each column's max$/);
    assert.ok((await text(max, '#stage-body')).includes(en['step.max.text.column']));
    assert.deepEqual(max.problems, []);
    await max.closeAll();
  });

  test(`${name}: a 20×8 heatmap's ticks sit at the centres of their rows and columns, at 1280 px and at 375 px`, async () => {
    for (const width of [1280, 375]) {
      const page = await openOfflineFile(driver, `#lang=en&preset=random&mode=qkv&n=20&d=8&dk=8&dv=8&step=3`, {
        viewport: { width, height: 900 },
      });
      // How far each tick's centre is from the centre of the cell it names, in CSS pixels.
      const offsets = await page.evaluate(() => {
        const box = document.querySelector('#m-q .heatmap-box');
        const canvas = box.querySelector('canvas').getBoundingClientRect();
        const centre = (span) => span.getBoundingClientRect();
        const [rows, cols] = [20, 8];
        const off = (spans, size, start, count, along) =>
          [...spans].map((span) => {
            const index = Number(span.textContent) - 1;
            const r = centre(span);
            const at = along === 'x' ? r.x + r.width / 2 : r.y + r.height / 2;
            return Math.abs(at - (start + ((index + 0.5) / count) * size));
          });
        return [
          ...off(box.querySelectorAll('.hm-cols span'), canvas.width, canvas.x, cols, 'x'),
          ...off(box.querySelectorAll('.hm-rows span'), canvas.height, canvas.y, rows, 'y'),
        ];
      });
      assert.ok(offsets.length >= 8, `${offsets.length} ticks`);
      assert.ok(Math.max(...offsets) <= 1.5, `${width} px: ticks off by up to ${Math.max(...offsets).toFixed(1)} px`);
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    }
  });

  test(`${name}: "it is cat" on the AV step fits a 375 px phone and a 1280 px screen: the formula, the 3×4 matrices, the mix`, async () => {
    for (const width of [375, 1280]) {
      const page = await openOfflineFile(driver, `#lang=en&preset=cat&step=9`, { viewport: { width, height: 900 } });
      const fits = await page.evaluate(() => {
        const pane = [...document.querySelectorAll('#stage-body .step-pane')].find((p) => !p.closest('.kept'));
        const cut = (el) => el.scrollWidth > el.clientWidth + 1;
        const main = document.querySelector('#stage-body .formula.main .katex');
        return {
          formulaCut: cut(document.querySelector('#stage-body .formulas')),
          formulaPx: parseFloat(getComputedStyle(main).fontSize),
          cutTables: [...pane.querySelectorAll('.table-scroll')]
            .filter(cut)
            .map((el) => el.closest('figure, .mix')?.id),
          page: document.documentElement.scrollWidth <= innerWidth,
        };
      });
      assert.equal(fits.formulaCut, false, `${width} px: the main formula is cut`);
      assert.ok(fits.formulaPx >= 16, `${width} px: the main formula is ${fits.formulaPx} px`);
      assert.deepEqual(fits.cutTables, [], `${width} px: tables cut`);
      assert.ok(fits.page, `${width} px: the page scrolls sideways`);
      assert.deepEqual(page.problems, []);
      await page.closeAll();
    }
  });

  test(`${name}: the theme switch: dark on a light system, written into the link; back to the system's, the link without it`, async () => {
    const page = await openOfflineFile(driver, '#lang=en');
    const look = () =>
      page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        theme: document.documentElement.dataset.theme ?? null,
        hash: location.hash,
      }));
    const light = await look();
    assert.equal(light.background, 'rgb(251, 251, 250)', 'the system is light here');
    assert.doesNotMatch(light.hash, /theme=/);
    await setField(page, '#theme-switch', 'dark');
    await page.until(() => /(^|&)theme=dark(&|$)/.test(location.hash.slice(1)));
    const dark = await look();
    assert.equal(dark.background, 'rgb(23, 25, 28)');
    assert.equal(dark.theme, 'dark');
    await setField(page, '#theme-switch', 'system');
    await page.until(() => !/theme=/.test(location.hash));
    assert.equal((await look()).background, 'rgb(251, 251, 250)');
    await page.closeAll();
    // A link with theme=dark opens dark, in Chinese too.
    const linked = await openOfflineFile(driver, '#theme=dark');
    assert.equal(await linked.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(23, 25, 28)');
    assert.equal(await value(linked, '#theme-switch'), 'dark');
    assert.deepEqual([...page.problems, ...linked.problems], []);
    await linked.closeAll();
  });

  test(`${name}: the word lines of "it is cat" carry their weights: written on the chosen word's lines, on hover, and as text`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&preset=cat&step=8');
    const lines = () =>
      page.evaluate(() => {
        const shown = (selector) => [...document.querySelectorAll(selector)].find((el) => !el.closest('.kept'));
        const figure = shown('#stage-body .word-lines');
        const row = (i) =>
          shown('#stage-body figure[data-name="weights"]')
            .querySelectorAll('tbody tr:not(.foot)')
            [i].querySelectorAll('td.c:not(.side)');
        const chosen = [...figure.querySelectorAll('line.on')].map((l) => Number(l.dataset.i));
        return {
          width: figure.querySelector('svg').getBoundingClientRect().width,
          written: [...figure.querySelectorAll('.wl-weight')].map((t) => t.textContent),
          rowOfA: [...row(chosen[0])].map((td) => td.textContent),
          chosen: [...new Set(chosen)],
          titles: [...figure.querySelectorAll('line title')].map((t) => t.textContent),
          spoken: [...figure.querySelectorAll('.sr-only li')].map((li) => li.textContent),
        };
      });
    const first = await lines();
    assert.ok(first.width >= 240, `the diagram is ${first.width} px wide`);
    assert.deepEqual(first.chosen, [0], "before a word is chosen, the first word's lines");
    assert.deepEqual(first.written, first.rowOfA, 'the weights on the lines are row 1 of A');
    assert.ok(first.titles.includes(`it → cat: ${first.rowOfA[2]}`), first.titles.join(' | '));
    assert.equal(first.spoken.length, 3, "every word's weights, as text");
    assert.ok(first.spoken[0].startsWith('The weights “it” gives the words: it '), first.spoken[0]);
    await page.click('#wl-row-2');
    await page.until(() => document.querySelector('#wl-row-2').getAttribute('aria-pressed') === 'true');
    const cat = await lines();
    assert.deepEqual(cat.chosen, [2]);
    assert.deepEqual(cat.written, cat.rowOfA, 'the weights on the lines are row 3 of A, "cat"');
    assert.ok(cat.spoken[0].startsWith('The weights “cat” gives'));
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: Undo and Redo, by button and by Ctrl+Z, and "reset X" back to the example "it is cat"`, async () => {
    const page = await openOfflineFile(driver, '#lang=en&preset=cat&step=3');
    const disabled = (id) => page.evaluate((id) => document.getElementById(id).getAttribute('aria-disabled'), id);
    assert.equal(await disabled('undo'), 'true', 'nothing to undo yet');
    assert.equal(await disabled('reset-x'), 'true', 'X is as the example gave it');
    await setField(page, '#in-x-0-1', '0.7'); // X₁₂: 0.5 → 0.7
    await page.until(() => /(^|&)x=1,0\.7,/.test(location.hash.slice(1)));
    await setField(page, '#in-wq-0-1', '1'); // (W_Q)₁₂: 2 → 1
    await page.until(() => /(^|&)wq=0,1,/.test(location.hash.slice(1)));
    assert.equal(await disabled('undo'), 'false');
    await page.click('#undo');
    await page.until(() => /(^|&)wq=0,2,/.test(location.hash.slice(1)));
    assert.equal(await value(page, '#in-wq-0-1'), '2', 'the field shows the value undone to');
    assert.equal(await value(page, '#in-x-0-1'), '0.7', 'the edit before it stays');
    // Ctrl+Z outside a text field undoes the next edit back; Ctrl+Y redoes it.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.down('Control');
    await page.keyboard.press('z');
    await page.keyboard.up('Control');
    await page.until(() => document.getElementById('in-x-0-1').value === '0.5');
    assert.equal(await disabled('undo'), 'true');
    await page.click('#redo');
    await page.until(() => document.getElementById('in-x-0-1').value === '0.7');
    await stepInUrl(page, 3, 'undo and redo keep the step');
    // "Reset X": the example's X, 1, 0.5, 0, 0 in its first row; one more Undo brings 0.7 back.
    assert.equal(await disabled('reset-x'), 'false');
    await page.click('#reset-x');
    await page.until(() => document.getElementById('in-x-0-1').value === '0.5');
    assert.equal(await disabled('reset-x'), 'true');
    await page.click('#undo');
    await page.until(() => document.getElementById('in-x-0-1').value === '0.7');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: the first screen (1280×900) shows the example's matrices, in Chinese and English, on every step`, async () => {
    for (const lang of ['zh-CN', 'en'])
      for (let step = 1; step <= 9; step++) {
        const page = await openOfflineFile(driver, `#lang=${lang}&step=${step}`, {
          viewport: { width: 1280, height: 900 },
        });
        const bottom = await page.evaluate(() => {
          const shown = [...document.querySelectorAll('#stage-body figure.matrix')].find((f) => !f.closest('.kept'));
          return shown.getBoundingClientRect().bottom;
        });
        assert.ok(bottom <= 900, `${lang}, step ${step}: the first matrix ends at ${Math.round(bottom)} px`);
        assert.deepEqual(page.problems, []);
        await page.closeAll();
      }
  });

  test(`${name}: Back and Forward move between steps and keep the inputs; an edit adds no entry`, async () => {
    const page = await openOfflineFile(driver, '#lang=en');
    const entries = () => page.evaluate(() => history.length);
    const start = await entries();
    await page.click('#next'); // step 2, the projections
    await page.until(() => /(^|&)step=2(&|$)/.test(location.hash.slice(1)));
    await page.click('#next'); // step 3, S = QKᵀ
    await page.until(() => /(^|&)step=3(&|$)/.test(location.hash.slice(1)));
    assert.equal(await entries(), start + 2);
    // The article's Q₁₁ = 1 becomes 2: the same entry, rewritten.
    await setField(page, '#in-q-0-0', '2');
    await page.until(() => /(^|&)q=2,/.test(location.hash.slice(1)));
    assert.equal(await entries(), start + 2, 'an edit replaces the entry');
    await page.evaluate(() => history.back());
    await page.until(() => document.querySelector('.map-node[aria-current="step"]')?.dataset.step === '2');
    await stepInUrl(page, 2);
    assert.equal(await value(page, '#in-q-0-0'), '2', 'Back is not undo: the edit stays');
    await page.until(() => /(^|&)q=2,/.test(location.hash.slice(1)));
    await page.evaluate(() => history.forward());
    await page.until(() => document.querySelector('.map-node[aria-current="step"]')?.dataset.step === '3');
    await stepInUrl(page, 3);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
