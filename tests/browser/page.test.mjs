// The playground page in Debian's chromium: the article's worked example end to end, editing,
// the explanation panel, the teaching controls, the URL, the language switch.
// Expected numbers are computed here independently (float64 JS), never read from the page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, matrixText, stepInUrl, stageText } from './helpers.mjs';
import { softmax, sig4 } from './expected.mjs';

const b = browserForFile();

/** The lines of the popover's expansion as text, without spaces, typographic minus as '-'. */
const expansionLines = (page) =>
  page.$$eval('#cell-explain ol.expansion > li .line', (lines) =>
    lines.map((line) => line.textContent.replace(/\s+/g, '').replace(/\u2212/g, '-')),
  );
const noProblems = (page) => assert.deepEqual(page.problems, [], 'no console errors, page errors or failed requests');

test('opening the page shows the worked example at step 1, in Chinese', async () => {
  const page = await b.open();
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  assert.match(await page.textContent('#step-title'), /输入矩阵 X/);
  assert.deepEqual(await matrixText(page, 'q'), [
    ['1', '0'],
    ['0', '1'],
  ]);
  assert.deepEqual(await matrixText(page, 'v'), [
    ['10', '0'],
    ['0', '10'],
  ]);
  assert.equal(await page.inputValue('#preset'), 'article');
  noProblems(page);
  await page.context().close();
});

test('stepping with the keyboard reaches the output: A = [[0.6698, 0.3302], …], AV = [[6.698, 3.302], …]', async () => {
  const page = await b.open();
  const titles = [];
  for (let step = 1; step <= 9; step++) {
    await stepInUrl(page, step, 'the step lives in the URL');
    titles.push(await page.textContent('#step-title'));
    await screenshot(page, `step-${step}-zh-light`);
    if (step < 9) await page.keyboard.press('ArrowRight');
  }
  assert.equal(new Set(titles).size, 9, 'nine different steps');
  // The article's example, computed independently: softmax([1/√2, 0]).
  const [a, c] = softmax([1 / Math.SQRT2, 0]);
  assert.equal(sig4(a), '0.6698');
  assert.deepEqual(await matrixText(page, 'weights'), [
    [sig4(a), sig4(c)],
    [sig4(c), sig4(a)],
  ]);
  assert.deepEqual(await matrixText(page, 'output'), [
    ['6.698', '3.302'],
    ['3.302', '6.698'],
  ]);
  assert.match(await stageText(page), /6\.7, 3\.3/, "the article's reading of its result");
  await page.keyboard.press('ArrowRight');
  await stepInUrl(page, 9, 'no step after the last');
  await page.keyboard.press('ArrowLeft');
  await stepInUrl(page, 8);
  await page.click('.step-link[data-step="3"]');
  await stepInUrl(page, 3, 'the step list jumps');
  await page.click('#next');
  await stepInUrl(page, 4, 'the next button steps');
  noProblems(page);
  await page.context().close();
});

test('the weights step shows each row sum (1) beside the row', async () => {
  const page = await b.open('#step=8');
  const sums = await page.$$eval('figure[data-name="weights"] td.side', (tds) => tds.map((td) => td.textContent));
  assert.equal(sums.length, 2);
  for (const sum of sums) assert.match(sum, /^(1|1\.000|0\.9999)$/);
  await page.context().close();
});

test('editing Q[0][0] to 2 recomputes A[0][0] through the core', async () => {
  const page = await b.open('#step=8');
  const before = await matrixText(page, 'weights');
  await page.fill('#in-q-0-0', '2');
  // Independently: q_1 = [2, 0], K = I → scores [2, 0], ÷ √2, softmax.
  const [a, c] = softmax([2 / Math.SQRT2, 0]);
  const after = await matrixText(page, 'weights');
  assert.notDeepEqual(after, before);
  assert.deepEqual(after[0], [sig4(a), sig4(c)]);
  assert.deepEqual(after[1], before[1], 'row 2 does not depend on q_1');
  assert.equal(await page.inputValue('#preset'), 'custom');
  noProblems(page);
  await page.context().close();
});

test('hovering score (0,1) highlights q_1 and k_2 and expands that one number next to it', async () => {
  const page = await b.open('#step=3');
  const td = 'figure[data-name="scores"] td.pick[data-i="0"][data-j="1"]';
  await page.hover(td);
  const popover = page.locator('#cell-explain');
  assert.ok(await popover.isVisible());
  assert.equal(await popover.locator('ol.expansion').getAttribute('data-i'), '0');
  assert.equal(await popover.locator('ol.expansion').getAttribute('data-j'), '1');
  const lines = await expansionLines(page);
  assert.equal(lines[0], 'S12=q1·k2=1·0+0·1=0', 'term by term, then the sum');
  assert.equal(lines[1], 'x12=S12dk=02=0', '÷ √d_k (a fraction: √ has no text)');
  assert.equal(
    lines[2],
    'e12=exp(x12-maxj′x1j′)=exp(0-0.7071)=exp(-0.7071)=0.4931',
    'exp(x − max), the shifted score from the core',
  );
  assert.equal(lines[3], 'A12=e12Σ1=0.49311.493=0.3302', '÷ row sum = A_12, as its cell on the weights step');
  assert.equal(await page.locator('figure[data-name="q"] tr.hl-row').getAttribute('data-i'), '0');
  assert.equal(await page.locator('figure[data-name="k"] tr.hl-row').getAttribute('data-i'), '1');
  await screenshot(page, 'explain-0-1-zh-light');
  // Keyboard: focus a weight cell and move right; Enter keeps it open, Escape closes it.
  await page.goto(`${b.url}#step=8`);
  await page.focus('figure[data-name="weights"] td.pick[data-i="0"][data-j="0"]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.locator('#cell-explain ol.expansion').getAttribute('data-j'), '1');
  await stepInUrl(page, 8, 'arrows inside a matrix do not change the step');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'explain-close', 'Enter moves into the popover');
  await page.keyboard.press('Escape');
  assert.ok(await page.locator('#cell-explain').isHidden());
  assert.equal(await page.evaluate(() => document.activeElement.dataset.j), '1', 'Escape returns to the cell');
  noProblems(page);
  await page.context().close();
});

test('the popover appears next to each cell and agrees with its value, to the shown digits', async () => {
  for (const hash of [
    '#step=8',
    '#preset=cat&step=8',
    '#preset=cat&step=9',
    '#preset=random&mode=x&n=6&d=5&dk=5&dv=3&seed=4&step=8',
  ]) {
    const page = await b.open(hash);
    for (const td of await page.locator('figure[data-name] td.pick').all()) {
      await td.hover();
      const cell = await td.boundingBox();
      const box = await page.locator('#cell-explain').boundingBox();
      const value = (await td.textContent()).replace(/\u2212/g, '-');
      const lines = await expansionLines(page);
      assert.equal(
        lines.at(-1).split('=').at(-1),
        value,
        `${hash} (${await td.getAttribute('data-i')}, ${await td.getAttribute('data-j')})`,
      );
      // Beside the matrix, level with the cell: its edge within a few pixels of the table, and the
      // cell's row inside its height.
      const table = await td.evaluate((el) => {
        const r = el.closest('.table-scroll').getBoundingClientRect();
        return { left: r.left, right: r.right };
      });
      const gap = Math.min(Math.abs(box.x - table.right), Math.abs(table.left - (box.x + box.width)));
      assert.ok(gap <= 20, `${hash}: the popover is ${gap}px from the table`);
      assert.ok(
        box.y <= cell.y + cell.height && box.y + box.height >= cell.y,
        `${hash}: the popover is level with the cell`,
      );
    }
    noProblems(page);
    await page.context().close();
  }
});

test('a masked cell expands as the mask acting: score −∞, weight exactly 0', async () => {
  const page = await b.open('#step=8&mask=causal');
  await page.hover('figure[data-name="weights"] td.pick[data-i="0"][data-j="1"]');
  const lines = await expansionLines(page);
  assert.equal(lines[0], 'S12=q1·k2=1·0+0·1=0', 'the score itself is computed as ever');
  assert.equal(lines[1], 'x12=-∞', 'the mask sets it to −∞ (no division shown)');
  assert.equal(lines[2], 'e12=exp(-∞)=0');
  assert.equal(lines[3], 'A12=e12Σ1=01.000=0');
  assert.match(await page.textContent('#cell-explain'), /因果掩码/);
  noProblems(page);
  await page.context().close();
});

test('the causal mask zeroes A[0][1] (future positions masked)', async () => {
  const page = await b.open('#step=8');
  await page.check('#mask');
  const weights = await matrixText(page, 'weights');
  assert.deepEqual(weights[0], ['1.000', '0'], 'one format across the matrix: 1.000 beside 0.3302');
  assert.equal(await page.locator('figure[data-name="weights"] td.masked').count(), 1);
  await page.click('.step-link[data-step="4"]');
  assert.equal((await matrixText(page, 'scaled'))[0][1], '-∞');
  noProblems(page);
  await page.context().close();
});

test('naive softmax on scores near 1000 shows ∞/NaN; the stable one does not', async () => {
  const page = await b.open('#preset=overflow&step=8');
  const finite = (rows) => rows.flat().every((x) => !/NaN|∞/.test(x));
  assert.ok(finite(await matrixText(page, 'weights')), 'stable: all finite');
  const scaled = await page.goto(`${b.url}#preset=overflow&step=4`).then(() => matrixText(page, 'scaled'));
  assert.ok(
    scaled.flat().every((x) => Number(x) > 950 && Number(x) <= 1000),
    `scores are near 1000 (${scaled})`,
  );
  await page.click('.step-link[data-step="8"]');
  await page.check('#softmax-naive');
  const naive = await matrixText(page, 'weights');
  assert.ok(
    naive.flat().some((x) => x === 'NaN'),
    `naive: NaN appears (${naive})`,
  );
  await page.click('.step-link[data-step="6"]');
  assert.ok((await matrixText(page, 'exps')).flat().includes('∞'), 'e^1000 overflows to ∞');
  // the step's formula says what was computed: exp(x_ij), with no max subtracted
  const naiveFormula = await page.textContent('.formula.detail .pane:not(.kept) annotation');
  assert.match(naiveFormula, /\\exp\\left\(x_\{ij\}\\right\)/);
  assert.doesNotMatch(naiveFormula, /max/);
  await page.check('#softmax-stable');
  assert.match(await page.textContent('.formula.detail .pane:not(.kept) annotation'), /\\max_\{j'\}/);
  await page.check('#softmax-naive');
  assert.match(await stageText(page), /溢出/);
  await screenshot(page, 'naive-overflow-zh-light');
  noProblems(page);
  await page.context().close();
});

test('softmax along columns is shown as the misconception, with the FAQ', async () => {
  const page = await b.open('#preset=cat&step=8');
  await page.check('#axis-column');
  assert.match(await stageText(page), /误区/);
  const foot = await page.$$eval('figure[data-name="weights"] tr.foot td.side', (tds) =>
    tds.map((td) => td.textContent),
  );
  assert.equal(foot.length, 3);
  for (const sum of foot) assert.match(sum, /^(1|1\.000|0\.9999)$/, 'each column sums to 1 (to float32 rounding)');
  noProblems(page);
  await page.context().close();
});

test('the URL round-trips the whole state, custom matrices included', async () => {
  const page = await b.open('#preset=cat&step=4');
  await page.check('#scale-dk');
  await page.check('#mask');
  await page.selectOption('#digits', '2');
  await page.fill('#in-x-1-2', '-1.5');
  await page.click('#lang-switch');
  const href = page.url();
  const stage = await stageText(page);
  const inputs = await page.$$eval('#panel input, #panel select', (els) =>
    els.map((e) => `${e.id}=${e.type === 'radio' || e.type === 'checkbox' ? e.checked : e.value}`),
  );
  const again = await b.open(new URL(href).hash);
  assert.equal(await stageText(again), stage);
  assert.deepEqual(
    await again.$$eval('#panel input, #panel select', (els) =>
      els.map((e) => `${e.id}=${e.type === 'radio' || e.type === 'checkbox' ? e.checked : e.value}`),
    ),
    inputs,
  );
  assert.equal(again.url(), href, 'the restored page writes the same link');
  noProblems(page);
  noProblems(again);
  await page.context().close();
  await again.context().close();
});

test('a link that does not parse falls back to the default with a notice', async () => {
  const page = await b.open('#step=banana&preset=article');
  assert.match(await page.textContent('#notice'), /无法解析/);
  assert.match(await page.textContent('#step-title'), /输入矩阵 X/);
  assert.deepEqual(await matrixText(page, 'v'), [
    ['10', '0'],
    ['0', '10'],
  ]);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#notice'), '', 'the notice goes once the reader moves on');
  noProblems(page);
  await page.context().close();
});

test('switching to English changes the texts and keeps the state', async () => {
  const page = await b.open('#step=5');
  await page.fill('#in-v-0-0', '7');
  const before = await matrixText(page, 'shifted');
  await page.click('#lang-switch');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.match(await page.textContent('#app-title'), /Attention Playground/);
  assert.match(await page.textContent('#step-title'), /Subtract each row's max/);
  await stepInUrl(page, 5);
  assert.deepEqual(await matrixText(page, 'shifted'), before);
  assert.equal(await page.inputValue('#in-v-0-0'), '7', 'the edit is kept');
  const zhLeft = await page.$$eval('#panel label, #panel legend, #panel summary', (els) =>
    els
      .filter((e) => /[\u4e00-\u9fff]/.test(e.textContent) && !/它 是 猫/.test(e.textContent))
      .map((e) => e.textContent),
  );
  assert.deepEqual(zhLeft, [], 'no Chinese left in the panel');
  noProblems(page);
  await page.context().close();
});

test('two significant digits reproduce the article: 0.67 / 0.33 and 6.7 / 3.3', async () => {
  const page = await b.open('#step=9');
  await page.selectOption('#digits', '2');
  assert.deepEqual(await matrixText(page, 'weights'), [
    ['0.67', '0.33'],
    ['0.33', '0.67'],
  ]);
  assert.deepEqual(await matrixText(page, 'output'), [
    ['6.7', '3.3'],
    ['3.3', '6.7'],
  ]);
  noProblems(page);
  await page.context().close();
});

test('"copy link" puts a link on the clipboard that restores the same view', async () => {
  const page = await b.open('#preset=cat&step=6', { permissions: ['clipboard-read', 'clipboard-write'] });
  await page.fill('#in-wq-0-1', '3');
  await page.click('#copy-link');
  // The status is written once the clipboard has taken the link (a promise): wait for it.
  await page.waitForFunction(() => document.getElementById('copy-status').textContent !== '');
  assert.match(await page.textContent('#copy-status'), /链接已复制/);
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /preset=custom/);
  assert.match(link, /wq=0,3,0,0;/, 'the edit is in the link, even right after typing');
  const again = await b.open(new URL(link).hash);
  assert.deepEqual(await matrixText(again, 'exps'), await matrixText(page, 'exps'));
  noProblems(page);
  await page.context().close();
  await again.context().close();
});

test('the embed dialog says when the clipboard refused its code, and leaves the code selected', async () => {
  // A browser that refuses the clipboard (no permission, an unfocused page): writeText rejects.
  const page = await b.open('#preset=cat&step=6', {
    initScript: () => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));
    },
  });
  await page.click('#embed-button');
  await page.click('#embed-copy');
  await page.waitForFunction(() => document.getElementById('embed-copy-status').textContent !== '');
  assert.match(await page.textContent('#embed-copy-status'), /无法写入剪贴板.*Ctrl\+C/);
  assert.doesNotMatch(await page.textContent('#embed-copy-status'), /已复制/, 'never "copied" when it was not');
  const selected = await page.evaluate(() => {
    const area = document.getElementById('embed-snippet');
    return area.selectionEnd - area.selectionStart === area.value.length && area.value.length > 0;
  });
  assert.ok(selected, 'the whole snippet is selected, ready for Ctrl+C');
  noProblems(page);
  await page.context().close();
});

test('hovering a heatmap cell (n > 16) expands that number too', async () => {
  const page = await b.open('#preset=random&mode=qkv&n=20&d=4&dk=4&dv=4&seed=3&step=3');
  const canvas = page.locator('figure[data-name="scores"] canvas');
  const box = await canvas.boundingBox();
  await canvas.hover({ position: { x: box.width * (2.5 / 20), y: box.height * (0.5 / 20) } });
  assert.equal(await page.locator('#cell-explain ol.expansion').getAttribute('data-i'), '0');
  assert.equal(await page.locator('#cell-explain ol.expansion').getAttribute('data-j'), '2');
  // The heatmap marks the cell, and has axes and a colour bar with numbers.
  assert.ok(await page.locator('figure[data-name="scores"] .hm-mark').isVisible());
  assert.deepEqual(await page.locator('figure[data-name="scores"] .hm-cols span').allTextContents(), [
    '1',
    '4',
    '8',
    '12',
    '16',
    '20',
  ]);
  assert.match(await page.textContent('figure[data-name="scores"] .colorbar'), /^\u2212\d.*0.*\d/);
  noProblems(page);
  await page.context().close();
});

test('an output cell expands as Σ_j A_ij v_jc, with row i of A and column c of V marked', async () => {
  const page = await b.open('#step=9');
  await page.hover('figure[data-name="output"] td.pick[data-i="0"][data-j="0"]');
  assert.deepEqual(await expansionLines(page), ['(AV)11=∑A1jvj1=0.6698·10+0.3302·0=6.698']);
  assert.equal(await page.locator('figure[data-name="weights"] tr.hl-row').getAttribute('data-i'), '0');
  assert.equal(await page.locator('figure[data-name="v"] td.hl-col').count(), 2);
  // Back on a step without outputs, the popover is gone.
  await page.mouse.move(1, 1);
  await page.keyboard.press('ArrowLeft');
  assert.ok(await page.locator('#cell-explain').isHidden());
  noProblems(page);
  await page.context().close();
});

test('changing numbers moves nothing on the page (no layout jump)', async () => {
  const page = await b.open('#step=9');
  await page.fill('#in-v-0-0', '9'); // the first edit makes the example custom, and the article's remark goes
  // Pin the popover with a click, and park the mouse in the margin: typing scrolls the page, and
  // a pointer left over the matrices would hover (and expand) whatever cell slides under it.
  await page.click('figure[data-name="weights"] td.pick[data-i="0"][data-j="1"]');
  await page.mouse.move(1, 1);
  const boxes = () =>
    page.$$eval('#stage-body figure.matrix[data-name], #cell-explain, #panel', (els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect(); // page coordinates: typing may scroll the input into view
        return [r.x + scrollX, r.y + scrollY, r.width, r.height].map(Math.round).join(',');
      }),
    );
  const before = await boxes();
  for (const value of ['-3.25', '12', '0.5', '7']) {
    await page.fill('#in-v-0-0', value);
    assert.deepEqual(await boxes(), before, `after V[0][0] = ${value}`);
  }
  noProblems(page);
  await page.context().close();
});

test('opened as a file (Chromium blocks modules on file://), the page says how to open it', async () => {
  const context = await b.browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL('../../build/web/index.html', import.meta.url).href);
  await page.waitForFunction(() => /npm start/.test(document.getElementById('loading')?.textContent ?? ''), null, {
    timeout: 10000,
  });
  assert.match(await page.textContent('#loading'), /npm start/);
  await context.close();
});
