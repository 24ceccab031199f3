// The lab "效率与变体" (view=efficiency-lab, web/src/features/efficiency-lab/) as a reader meets its
// tiles, KV cache and window panels, on the article's worked example Q = K = I₂, V = 10·I₂:
// in Chromium, the tile stepper by button and by key with what it says to a screen reader, a
// number opening into its arithmetic, a tile size refused beside its field, the cache and the
// window, a 375 px phone and the classroom mode; in Chromium and Firefox, the lab from the offline
// file and inside a sandboxed embed, where the last tile's O/ℓ equals the full attention on screen.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, announced, axeViolations } from './helpers.mjs';
import { inEachEngine, openOfflineFile, frameUntil } from './drivers.mjs';
import { pythonServer, blogServer } from './static-server.mjs';

const b = browserForFile();

/** The texts of a table's body cells (typographic minus → '-'). */
const cells = (page, selector) =>
  page.$$eval(`${selector} tbody td`, (tds) => tds.map((td) => td.textContent.replace(/\u2212/g, '-')));

/** The lab's tiles panel at tile k, once drawn. */
const atTile = (page, k) => page.waitForSelector(`.eff-tiles[data-tile="${k}"]`);

test('tiles: the worked example in 1×1 tiles, stepped by button and by key, each step said', async () => {
  const page = await b.open('#view=efficiency-lab');
  assert.equal(await page.textContent('.lab-efficiency-lab h2'), '效率与变体');
  await atTile(page, 1);
  assert.equal(await page.getAttribute('.eff-tiles', 'data-count'), '4');
  assert.equal(await page.textContent('#eff-tiles-position'), '第 1 / 4 块');
  // The grid: the tile now, the rest to come — in a class, and in a sign beside the colour.
  const states = () => page.$$eval('#eff-tiles-grid td.eff-cell', (tds) => tds.map((td) => td.dataset.state));
  assert.deepEqual(await states(), ['now', 'todo', 'todo', 'todo']);
  assert.deepEqual(await page.$$eval('#eff-tiles-grid td .eff-sign', (signs) => signs.map((s) => s.textContent)), [
    '▶',
    '·',
    '·',
    '·',
  ]);
  // After key tile 1, row 1: m = 1/√2, ℓ = 1, O = [10, 0].
  const row1 = () => page.$$eval('.eff-rows tbody tr[data-row="0"] td', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(await row1(), ['这一块', '0.7071', '1', '0', '10', '0']);

  await page.click('#eff-tiles-next');
  await atTile(page, 2);
  assert.match(await page.evaluate(() => location.hash), /efftile=2/);
  assert.equal(await announced(page), await page.textContent('#eff-tiles-summary'));
  assert.match(await page.textContent('#eff-tiles-summary'), /第 2 \/ 4 块.*第 1 行 m = 0\.7071,ℓ = 1\.493,α = 1/);
  assert.deepEqual(await states(), ['done', 'now', 'todo', 'todo']);
  assert.deepEqual((await row1()).slice(1), ['0.7071', '1.493', '1', '10', '4.931']);

  // ℓ opens into its arithmetic: α·ℓ_old + e^(s₁₂ − m_new), the numbers filled in.
  await page.click('.eff-rows tbody tr[data-row="0"] .eff-l');
  await page.waitForSelector('#eff-popover:not([hidden])');
  const popover = (await page.textContent('#eff-popover')).replace(/\u2212/g, '-');
  assert.match(popover, /ℓ_new = α·ℓ_old \+ Σⱼ e\^\(sᵢⱼ - m_new\)/);
  assert.match(popover, /1 · 1 \+ e\^\(0 - 0\.7071\)/);
  assert.match(popover, /= 1 · 1 \+ 0\.4931 = 1\.493/);
  assert.equal(await page.getAttribute('.eff-rows tbody tr[data-row="0"] .eff-l', 'aria-expanded'), 'true');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#eff-popover', { state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('eff-l')), true, 'focus back on ℓ');

  // The keys on the stepper: End to the last tile, Home to the first, → and ←.
  await page.focus('#eff-tiles-next');
  await page.keyboard.press('End');
  await atTile(page, 4);
  assert.deepEqual(await states(), ['done', 'done', 'done', 'now']);
  await page.keyboard.press('ArrowLeft');
  await atTile(page, 3);
  await page.keyboard.press('Home');
  await atTile(page, 1);
  // The slider jumps there too.
  await page.$eval('#eff-tiles-range', (range) => {
    range.value = '3';
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await atTile(page, 3);
  assert.equal(await page.getAttribute('#eff-tiles-range', 'aria-valuetext'), '第 3 / 4 块');
  await page.click('#eff-tiles-first');
  await atTile(page, 1);
  assert.equal(await page.getAttribute('#eff-tiles-prev', 'aria-disabled'), 'true');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('tiles: at the last tile O/ℓ sits beside softmax(S)·V, equal on screen; the memory in numbers', async () => {
  const page = await b.open('#view=efficiency-lab&efftile=4');
  await atTile(page, 4);
  const tiled = await cells(page, '.eff-out-tiled');
  assert.deepEqual(tiled, ['6.698', '3.302', '3.302', '6.698']);
  assert.deepEqual(await cells(page, '.eff-out-full'), tiled);
  const largest = Number(await page.getAttribute('#eff-tiles-compare .eff-agreement', 'data-largest'));
  assert.ok(largest < 1e-5, `largest difference ${largest}`);
  // O/ℓ opens into its division.
  await page.click('.eff-out-tiled tbody tr:first-child .eff-ratio');
  assert.match(await page.textContent('#eff-popover'), /10 \/ 1\.493 = 6\.698/);
  // 2·(2 + 1)·4 = 24 bytes against 2²·4 = 16 here; at n = 16,384 the score table is 1 GiB.
  assert.match(await page.textContent('#eff-tiles-memory'), /2·\(2 \+ 1\)·4 = 24 B.*2²·4 = 16 B.*16,384.*1 GiB/s);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('tiles: a tile size out of range is refused beside its field; 2×2 tiles make one tile', async () => {
  const page = await b.open('#view=efficiency-lab');
  await atTile(page, 1);
  await page.fill('#eff-br', '0');
  assert.equal(await page.getAttribute('#eff-br', 'aria-invalid'), 'true');
  assert.equal(await page.textContent('#eff-br-error'), '请输入 1 到 2 之间的整数。');
  assert.match(await page.evaluate(() => location.hash), /efftr=1&/, 'the last good B_r stays');
  await page.fill('#eff-br', '2');
  await page.fill('#eff-bc', '2');
  await page.waitForSelector('.eff-tiles[data-count="1"]');
  assert.match(await page.evaluate(() => location.hash), /efftr=2&efftc=2/);
  assert.deepEqual(await page.$$eval('#eff-tiles-grid td.eff-cell', (tds) => tds.map((td) => td.dataset.state)), [
    'now',
    'now',
    'now',
    'now',
  ]);
  assert.deepEqual(await cells(page, '.eff-out-tiled'), await cells(page, '.eff-out-full'));
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the KV cache and the window: each new row equal to the full causal row; the band equal to its mask', async () => {
  const page = await b.open('#view=efficiency-lab&lang=en');
  await page.click('.eff-panel-button[data-panel="cache"]');
  await page.waitForSelector('.eff-cache[data-token="1"]');
  assert.match(await page.evaluate(() => location.hash), /effpanel=cache/);
  assert.deepEqual(await cells(page, '.eff-cache-out'), ['10', '0', '10', '0']);
  await page.click('#eff-cache-next');
  await page.waitForSelector('.eff-cache[data-token="2"]');
  // Word 2 sees both words: softmax([0, 1/√2])·V = [3.302, 6.698], decoded and in full alike.
  assert.deepEqual(await cells(page, '.eff-cache-out'), ['3.302', '6.698', '3.302', '6.698']);
  assert.equal(await page.getAttribute('#eff-cache-compare .eff-agreement', 'data-differing'), '0');
  assert.match(
    await announced(page),
    /^Word 2 of 2: q₂ against the 2 cached rows of K and V; the cache holds 32 B\. Equal/,
  );
  assert.deepEqual(await page.$$eval('.eff-cache-k tbody tr', (rows) => rows.map((tr) => tr.dataset.state)), [
    'done',
    'now',
  ]);

  await page.click('.eff-panel-button[data-panel="window"]');
  await page.waitForSelector('.eff-window[data-window="2"]');
  await page.fill('#eff-w', '1');
  await page.waitForSelector('.eff-window[data-window="1"]');
  // w = 1: each word sees only itself — the band is the diagonal, and the output is V.
  assert.deepEqual(await page.$$eval('#eff-window-grid td.eff-cell', (tds) => tds.map((td) => td.dataset.state)), [
    'in',
    'future',
    'out',
    'in',
  ]);
  // (Written as the causal output beside them is: 10.00 beside 6.698, one writing for the three.)
  assert.deepEqual(await cells(page, '.eff-out-window'), ['10.00', '0', '0', '10.00']);
  assert.deepEqual(await cells(page, '.eff-out-banded'), ['10.00', '0', '0', '10.00']);
  assert.equal(await page.getAttribute('#eff-window-compare .eff-agreement', 'data-differing'), '0');
  await page.fill('#eff-w', '3');
  assert.equal(await page.textContent('#eff-w-error'), 'Enter a whole number from 1 to 2.');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('64 random words in 1×1 tiles: the last of 4096 tiles, its difference from softmax(S)·V computed and, if any, its cause', async () => {
  const page = await b.open('#view=efficiency-lab&effinput=random&effn=64&efftile=4096&lang=en');
  await atTile(page, 4096);
  const agreement = await page.$eval('#eff-tiles-compare .eff-agreement', (p) => ({
    largest: Number(p.dataset.largest),
    differing: Number(p.dataset.differing),
    text: p.textContent,
  }));
  assert.ok(agreement.largest < 1e-5, `largest difference ${agreement.largest}`);
  const cause = await page.$('#eff-tiles-compare .eff-cause');
  assert.equal(Boolean(cause), agreement.differing > 0, agreement.text);
  if (cause) assert.match(await cause.textContent(), /float32 rounds them differently/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the KV cache at τ = 2: the page’s temperature, which its entry point does not take, is said to play no part', async () => {
  const page = await b.open('#view=efficiency-lab&effpanel=cache&temperature=2');
  await page.waitForSelector('.eff-cache[data-token="1"]');
  assert.equal(await page.isVisible('.eff-cache .eff-tau'), true);
  assert.match(await page.textContent('.eff-cache .eff-tau'), /τ = 2 在这里不起作用/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('on a 375 px phone the lab does not scroll sideways: a 32-word grid scrolls in its own box', async () => {
  const page = await b.open('#view=efficiency-lab&effinput=random&effn=32&effseed=4', {
    viewport: { width: 375, height: 800 },
  });
  await atTile(page, 1);
  assert.equal(await page.getAttribute('.eff-tiles', 'data-count'), String(32 * 32));
  const [page_, grid] = await page.evaluate(() => {
    const box = document.querySelector('.eff-grid-scroll');
    return [
      [document.documentElement.scrollWidth, innerWidth],
      [box.scrollWidth, box.clientWidth],
    ];
  });
  assert.ok(page_[0] <= page_[1], `the page is ${page_[0]} px wide in ${page_[1]} px`);
  assert.ok(grid[0] > grid[1], 'the grid is wider than its box, which scrolls');
  await screenshot(page, 'efficiency-lab-phone');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the classroom mode: the grid across the screen in large type, the prose left on the page', async () => {
  const page = await b.open('#view=efficiency-lab&classroom=1', { viewport: { width: 1280, height: 720 } });
  await page.waitForSelector('#eff-tiles-grid');
  await page.waitForFunction(() => document.documentElement.style.getPropertyValue('--classroom-size') !== '');
  const look = await page.evaluate(() => ({
    grid: document.querySelector('.eff-panel .eff-chart').getBoundingClientRect().width,
    gridBottom: document.querySelector('#eff-tiles-grid').getBoundingClientRect().bottom,
    barTop: document.getElementById('classroom-bar').getBoundingClientRect().top,
    cell: parseFloat(getComputedStyle(document.querySelector('#eff-tiles-grid td.eff-cell')).fontSize),
    lede: document.querySelector('.eff-lede').getClientRects().length,
    sideways: document.documentElement.scrollWidth > innerWidth,
  }));
  assert.ok(look.grid >= 0.7 * 1280, `the grid is ${look.grid} px wide`);
  assert.ok(look.cell >= 22, `its numbers are ${look.cell} px`);
  assert.ok(
    look.gridBottom <= look.barTop + 1,
    `the grid ends at ${look.gridBottom} px, the bar starts at ${look.barTop}`,
  );
  assert.equal(look.lede, 0);
  assert.equal(look.sideways, false);
  await screenshot(page, 'efficiency-lab-classroom');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

// What ships, in both engines: the offline file and a sandboxed embed of the hosted build.
let site, blog;
before(async () => {
  site = await pythonServer('dist/site');
  blog = await blogServer({
    'post.html': `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>分块与在线 softmax</title></head>
<body style="max-width: 760px; margin: 1rem auto">
<iframe id="lab" src="${site.url}index.html#embed=1&view=efficiency-lab&efftile=4"
  sandbox="allow-scripts" title="Attention Playground" style="width: 100%; height: 600px; border: 0"></iframe>
</body></html>`,
  });
});
after(async () => {
  await site?.stop();
  await blog?.stop();
});

/** The last tile's O/ℓ and the full attention as the page shows them, and the difference it computed. */
const lastTile = (frame) =>
  frame.evaluate(() => {
    const texts = (selector) => [...document.querySelectorAll(`${selector} tbody td`)].map((td) => td.textContent);
    return {
      view: document.body.dataset.view,
      tiled: texts('.eff-out-tiled'),
      full: texts('.eff-out-full'),
      largest: Number(document.querySelector('#eff-tiles-compare .eff-agreement').dataset.largest),
    };
  });

inEachEngine((name, driver) => {
  test(`${name}: from the offline file, the worked example's last tile: O/ℓ equal to the full attention`, async () => {
    const page = await openOfflineFile(driver, '#view=efficiency-lab&efftile=4');
    await page.until(() => document.querySelector('.eff-tiles[data-tile="4"] .eff-out-tiled'), undefined, 30000);
    const shown = await lastTile(page);
    assert.deepEqual(shown.tiled, ['6.698', '3.302', '3.302', '6.698']);
    assert.deepEqual(shown.full, shown.tiled);
    assert.ok(shown.largest < 1e-5, `largest difference ${shown.largest}`);
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });

  test(`${name}: inside <iframe sandbox="allow-scripts">, the lab alone, the same equality`, async () => {
    const page = await driver.newPage({ viewport: { width: 900, height: 800 } });
    await page.goto(`${blog.url}post.html`);
    const frame = await (await page.$('#lab')).contentFrame();
    await frameUntil(name, frame)(
      () => document.querySelector('.eff-tiles[data-tile="4"] .eff-out-tiled'),
      undefined,
      30000,
    );
    assert.equal(await frame.evaluate(() => self.origin), 'null');
    const shown = await lastTile(frame);
    assert.equal(shown.view, 'efficiency-lab');
    assert.deepEqual(shown.tiled, ['6.698', '3.302', '3.302', '6.698']);
    assert.deepEqual(shown.full, shown.tiled);
    assert.equal(await frame.evaluate(() => getComputedStyle(document.getElementById('views')).display), 'none');
    assert.deepEqual(page.problems, []);
    await page.closeAll();
  });
});
