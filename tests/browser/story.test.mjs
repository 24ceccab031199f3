// The page as a visual story, in Debian's chromium: the map of the pipeline, the switches on the
// steps where they act, the article's hand numbers beside the stable softmax's, the mixing on the
// AV step and the word lines, the reference path, and what a reader at 1280×900 or on a 375 px
// phone sees. Expected numbers are computed here independently (float64 JS).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, matrixText, stepInUrl, stageText, urlWritten } from './helpers.mjs';
import { softmax, sig4 } from './expected.mjs';

const b = browserForFile();

// The URL as the page writes it once the frame that shows a change is painted.
const hashOf = async (page) => {
  await urlWritten(page);
  return new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
};
const noProblems = (page) => assert.deepEqual(page.problems, [], 'no console errors, page errors or failed requests');

test('the map: one node per step with a live thumbnail and the shapes on its arrows; a click goes there', async () => {
  const page = await b.open('#preset=cat&step=1');
  const nodes = page.locator('.map .step-link');
  assert.equal(await nodes.count(), 9);
  assert.equal(await page.getAttribute('.step-link[data-step="1"]', 'aria-current'), 'step');
  // "它 是 猫": X is 3×4, Q/K/V 3×4, the scores 3×3, the row sums 3×1, AV 3×4.
  assert.deepEqual(await page.locator('.map-shape').allTextContents(), [
    '3×4',
    '3×3',
    '3×3',
    '3×3',
    '3×3',
    '3×1',
    '3×3',
    '3×4',
  ]);
  // Thumbnails are drawn from the model: editing X changes X's thumbnail.
  const pixels = () =>
    page.evaluate(() => {
      const canvas = document.querySelector('canvas.thumb[data-name="x"]');
      return Array.from(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data).join();
    });
  const before = await pixels();
  await page.fill('#in-x-0-0', '-3');
  assert.notEqual(await pixels(), before, 'the thumbnail follows the numbers');
  await page.click('.step-link[data-step="6"]');
  await stepInUrl(page, 6);
  assert.equal(await page.getAttribute('.step-link[data-step="6"]', 'aria-current'), 'step');
  assert.equal(await page.getAttribute('.step-link[data-step="1"]', 'aria-current'), null);
  noProblems(page);
  await page.context().close();
});

test('Enter on "下一步" keeps the focus on it, and each step change is announced once', async () => {
  const page = await b.open('#step=1');
  await page.focus('#next');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await stepInUrl(page, 3);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'next', 'focus stays on the button');
  assert.equal(await page.textContent('#step-announce'), '第 3 / 9 步 打分:QKᵀ');
  const live = await page.$$eval('[aria-live]', (els) => els.map((el) => el.id || el.className));
  assert.deepEqual(live, ['step-announce'], 'one live region says the step (the position and title stay silent)');
  noProblems(page);
  await page.context().close();
});

test('the switches sit on the steps where they act, and change the URL and the numbers', async () => {
  const page = await b.open('#step=4');
  // ÷√d_k step: scaling, temperature, mask.
  assert.deepEqual(await matrixText(page, 'scaled'), [
    ['0.7071', '0'],
    ['0', '0.7071'],
  ]);
  await page.check('#stage-scale-dk');
  assert.equal((await hashOf(page)).get('scale'), 'dk');
  assert.deepEqual(
    await matrixText(page, 'scaled'),
    [
      ['0.5000', '0'],
      ['0', '0.5000'],
    ],
    '÷ d_k = ÷ 2',
  );
  assert.ok(await page.isChecked('#scale-dk'), 'the panel shows the same choice');
  await page.check('#stage-scale-sqrt_dk');
  await page.fill('#stage-temperature', '0.5');
  await page.dispatchEvent('#stage-temperature', 'change');
  assert.equal((await hashOf(page)).get('temperature'), '0.5');
  assert.deepEqual((await matrixText(page, 'scaled'))[0], [sig4(Math.SQRT2), '0'], '÷ √2 ÷ 0.5');
  await page.fill('#stage-temperature', '0');
  await page.dispatchEvent('#stage-temperature', 'change');
  assert.match(
    await page.textContent('#err-stage-temperature'),
    /大于 0/,
    'a bad temperature is refused where it was typed',
  );
  await page.fill('#stage-temperature', '1');
  await page.dispatchEvent('#stage-temperature', 'change');
  assert.equal(await page.textContent('#err-stage-temperature'), '');
  await page.check('#stage-mask');
  assert.equal((await hashOf(page)).get('mask'), 'causal');
  assert.equal((await matrixText(page, 'scaled'))[0][1], '-∞');
  // The max and exp steps: stable or naive.
  await page.click('.step-link[data-step="6"]');
  await page.check('#stage-softmax-naive');
  assert.equal((await hashOf(page)).get('softmax'), 'naive');
  assert.ok(await page.isChecked('#softmax-naive'));
  await page.click('.step-link[data-step="5"]');
  assert.ok(await page.isChecked('#stage-softmax-naive'), 'the max step shows the same switch');
  await page.check('#stage-softmax-stable');
  // The weights step: rows or columns.
  await page.click('.step-link[data-step="8"]');
  await page.uncheck('#mask');
  await page.check('#stage-axis-column');
  assert.equal((await hashOf(page)).get('axis'), 'column');
  assert.match(await stageText(page), /误区/);
  assert.equal(await page.locator('.stage-controls').count(), 1);
  await page.click('.step-link[data-step="3"]');
  assert.equal(await page.locator('.stage-controls').count(), 0, 'the scores step has no switch');
  noProblems(page);
  await page.context().close();
});

test("the exp and sum steps show the article's hand numbers (2.028, 3.028) beside the stable ones (1, 1.493): the same weight", async () => {
  const page = await b.open('#step=6');
  const x = 1 / Math.SQRT2;
  assert.deepEqual(await matrixText(page, 'exps'), [
    ['1.000', sig4(Math.exp(-x))],
    [sig4(Math.exp(-x)), '1.000'],
  ]);
  assert.deepEqual(await matrixText(page, 'expsArticle'), [
    [sig4(Math.exp(x)), '1.000'],
    ['1.000', sig4(Math.exp(x))],
  ]);
  assert.equal(sig4(Math.exp(x)), '2.028');
  await page.click('#next');
  const sums = (name) => page.$$eval(`figure[data-name="${name}"] td.side`, (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(await sums('expsArticle'), [sig4(Math.exp(x) + 1), sig4(Math.exp(x) + 1)], "the article's sum 3.03");
  assert.deepEqual(await sums('exps'), [sig4(1 + Math.exp(-x)), sig4(1 + Math.exp(-x))]);
  const line = (await page.textContent('.same-weight math')).replace(/\s+/g, '');
  assert.equal(line, `A11=2.0283.028=1.0001.493=${sig4(softmax([x, 0])[0])}`);
  // With the naive softmax the page computes the article's way itself: one matrix only.
  await page.check('#softmax-naive');
  assert.equal(await page.locator('figure[data-name="expsArticle"]').count(), 0);
  noProblems(page);
  await page.context().close();
});

test('the AV step mixes the rows of V by the weights; the word lines are as thick as the weights', async () => {
  const page = await b.open('#preset=cat&step=9');
  const weights = (await matrixText(page, 'weights')).map((row) => row.map(Number));
  // Every line's width is the weight times the same factor (14 px for a weight of 1).
  const lines = await page.$$eval('.word-lines line', (els) =>
    els.map((l) => [Number(l.dataset.i), Number(l.dataset.j), Number(l.getAttribute('stroke-width'))]),
  );
  assert.equal(lines.length, 9, 'three words, nine lines');
  for (const [i, j, width] of lines)
    assert.ok(
      Math.abs(width - 14 * weights[i][j]) < 14 * 1e-3,
      `line ${i}→${j}: ${width} px for weight ${weights[i][j]}`,
    );
  const thickest = lines.reduce((a, c) => (c[2] > a[2] ? c : a));
  assert.equal(
    weights[thickest[0]][thickest[1]],
    Math.max(...weights.flat()),
    'the thickest line is the largest weight',
  );
  // The mix of the first word: its weights beside V's rows, and the output row they make.
  assert.match(await page.textContent('#mix-title'), /“它”/);
  const shown = await page.$$eval('.mix-table tbody tr:not(.sum) .wnum', (els) => els.map((el) => el.textContent));
  assert.deepEqual(shown, (await matrixText(page, 'weights'))[0]);
  // Clicking "猫" selects its row everywhere: the lines, the mix, the rows of A and AV.
  await page.click('#wl-row-2');
  assert.match(await page.textContent('#mix-title'), /“猫”/);
  assert.equal(await page.getAttribute('#wl-row-2', 'aria-pressed'), 'true');
  assert.deepEqual(await page.$$eval('.word-lines line.on', (els) => [...new Set(els.map((l) => l.dataset.i))]), ['2']);
  for (const name of ['weights', 'output'])
    assert.equal(await page.getAttribute(`figure[data-name="${name}"] tr.sel-row`, 'data-i'), '2', name);
  const output = (await matrixText(page, 'output'))[2];
  assert.deepEqual(
    await page.$$eval('.mix-table tr.sum .mix-cell', (els) => els.map((el) => el.textContent.replace(/\u2212/g, '-'))),
    output,
  );
  await page.click('.step-link[data-step="3"]');
  assert.equal(await page.getAttribute('figure[data-name="q"] tr.sel-row', 'data-i'), '2', 'and on other steps');
  await screenshot(page, 'mix-cat-zh-light');
  noProblems(page);
  await page.context().close();
});

test('the page says which build and path computed; the reference path shows its largest difference', async () => {
  const page = await b.open('#step=9');
  // Chromium validates relaxed SIMD, but the numbers shown are the SIMD128 build's (engine.js, exactBuild).
  assert.match(await page.textContent('#engine-build'), /SIMD128 构建/);
  assert.match(await page.textContent('#engine-path'), /SIMD 路径/);
  assert.equal(await page.textContent('#engine-difference'), '');
  await page.check('#path-reference');
  assert.match(await page.textContent('#engine-path'), /参考实现/);
  assert.match(await page.textContent('#engine-difference'), /与 SIMD 路径相比/);
  assert.deepEqual(
    await matrixText(page, 'output'),
    [
      ['6.698', '3.302'],
      ['3.302', '6.698'],
    ],
    'the same numbers to the shown digits',
  );
  await page.uncheck('#path-reference');
  assert.match(await page.textContent('#engine-path'), /SIMD 路径/);
  noProblems(page);
  await page.context().close();
});

test('where the browser has no relaxed SIMD, the page runs the SIMD128 build, says so, and shows the same numbers', async () => {
  const page = await b.open('#step=9', {
    // An engine without relaxed SIMD: every module holding f32x4.relaxed_madd (0xfd 0x85 0x02) is refused.
    initScript: () => {
      const validate = WebAssembly.validate;
      WebAssembly.validate = (bytes) => {
        const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes);
        for (let i = 0; i + 2 < b.length; i++)
          if (b[i] === 0xfd && b[i + 1] === 0x85 && b[i + 2] === 0x02) return false;
        return validate(bytes);
      };
    },
  });
  assert.equal(await page.textContent('#engine-build'), '计算核心:SIMD128 构建(WebAssembly SIMD)');
  assert.match(await stageText(page), /6\.698/);
  noProblems(page);
  await page.context().close();
});

test("at 1280×900 the map, the step's switches and its matrices are on screen without scrolling (the article's example)", async () => {
  const page = await b.open('#step=1', { viewport: { width: 1280, height: 900 } });
  for (let step = 1; step <= 9; step++) {
    if (step > 1) await page.keyboard.press('ArrowRight');
    const below = await page.evaluate(() => {
      const parts = [...document.querySelectorAll('.map, .stage-controls, #stage-body figure.matrix[data-name]')];
      return parts
        .filter(
          (el) => el.getBoundingClientRect().bottom > innerHeight || el.getBoundingClientRect().right > innerWidth,
        )
        .map((el) => el.dataset.name ?? el.className);
    });
    assert.deepEqual(below, [], `step ${step}`);
    assert.equal(await page.evaluate(() => scrollY), 0);
  }
  noProblems(page);
  await page.context().close();
});

test('on a 375 px phone: no sideways page scroll on any step, and a tapped cell opens a sheet below it', async () => {
  const page = await b.open('#preset=cat&step=1', { viewport: { width: 375, height: 740 } });
  for (let step = 1; step <= 9; step++) {
    if (step > 1) await page.click('#next');
    const [scrollWidth, innerWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      window.innerWidth,
    ]);
    assert.ok(scrollWidth <= innerWidth, `step ${step}: the page is ${scrollWidth}px wide in a ${innerWidth}px screen`);
  }
  await page.click('.step-link[data-step="8"]');
  const td = page.locator('figure[data-name="weights"] td.pick[data-i="2"][data-j="1"]');
  await td.click();
  const sheet = await page.locator('#cell-explain').boundingBox();
  const cell = await td.boundingBox();
  const height = await page.evaluate(() => innerHeight);
  assert.ok(Math.abs(sheet.y + sheet.height - height) <= 1, 'a sheet along the bottom edge');
  assert.ok(
    cell.y >= 0 && cell.y + cell.height <= sheet.y,
    `the cell (${cell.y}–${cell.y + cell.height}) stays visible above the sheet (${sheet.y})`,
  );
  assert.equal(
    (await page.$$eval('#cell-explain ol.expansion > li .line', (l) => l.at(-1).textContent.replace(/\s+/g, '')))
      .split('=')
      .at(-1),
    await td.textContent(),
  );
  await screenshot(page, 'phone-sheet-zh-light', { fullPage: false }); // the sheet is fixed to the screen
  await page.click('#explain-close');
  assert.ok(await page.locator('#cell-explain').isHidden());
  noProblems(page);
  await page.context().close();
});
