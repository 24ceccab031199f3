// The classroom file, dist/attention-playground.html, opened from file:// with every network
// request blocked, in Chromium and in Firefox: the worked example, every step to the article's
// 6.698, every kind of control, copy-link — and not one request attempted. Expected numbers are
// computed here in float64, never read from the page.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { inEachEngine, DRIVERS, matrixIn, stepInUrl, setField, stageText } from './drivers.mjs';
import { softmax, sig4 } from './expected.mjs';

const FILE = pathToFileURL('dist/attention-playground.html').href;
const [A11, A12] = softmax([1 / Math.SQRT2, 0]); // the article's 0.6698 and 0.3302

/** Opens the file at `hash` with the network blocked; returns the page and its time to numbers. */
async function openFile(driver, hash = '', options = {}) {
  const page = await driver.newPage({ blockNetwork: true, ...options });
  const started = Date.now();
  await page.goto(FILE + hash);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  return { page, ms: Date.now() - started };
}

/** No request but the file itself, no console error, page error or CSP violation. */
function assertClean(page) {
  const others = page.requests.filter((url) => url.replace(/#.*$/, '') !== FILE);
  assert.deepEqual(others, [], 'no request attempted');
  assert.deepEqual(page.problems, [], 'no console error, page error or CSP violation');
}

inEachEngine((name, driver) => {
  const timings = [];
  after(() => {
    if (timings.length) console.log(`# ${name}: time to first numbers from file:// ${timings.join(', ')} ms`);
  });

  test(`${name}: the offline file inflates the build it runs — SIMD128, by DecompressionStream or in JS; scalar without wasm SIMD`, async () => {
    const builds = [];
    for (const initScript of [
      undefined,
      () => delete window.DecompressionStream,
      // An engine without wasm SIMD (Safari < 16.4): every SIMD module is refused.
      () => {
        const validate = WebAssembly.validate;
        WebAssembly.validate = (bytes) => !new Uint8Array(bytes).includes(0xfd) && validate(bytes);
      },
    ]) {
      const { page } = await openFile(driver, '#step=9', { initScript });
      builds.push(await page.evaluate(() => document.getElementById('engine-build').textContent));
      assert.deepEqual(await matrixIn(page, 'output'), [
        ['6.698', '3.302'],
        ['3.302', '6.698'],
      ]);
      assertClean(page);
      await page.closeAll();
    }
    assert.deepEqual(builds.slice(0, 2), [
      '计算核心:SIMD128 构建(WebAssembly SIMD)',
      '计算核心:SIMD128 构建(WebAssembly SIMD)',
    ]);
    assert.match(builds[2], /标量构建/, 'without wasm SIMD: the scalar build');
  });

  test(`${name}: the offline file from file:// steps through the worked example to 6.698 with no request`, async () => {
    assert.ok(fs.statSync('dist/attention-playground.html').size <= 1.5e6, 'within its 1.5 MB budget');
    const { page, ms } = await openFile(driver);
    timings.push(ms);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.deepEqual(await matrixIn(page, 'q'), [
      ['1', '0'],
      ['0', '1'],
    ]);
    assert.deepEqual(await matrixIn(page, 'v'), [
      ['10', '0'],
      ['0', '10'],
    ]);
    for (let step = 2; step <= 9; step++) {
      await page.keyboard.press('ArrowRight');
      await page.until((s) => /(?:^#|&)step=(\d+)/.exec(location.hash)?.[1] === String(s), step);
      // Every step shows its formula, typeset by KaTeX at build time.
      assert.ok(
        await page.evaluate(() => document.querySelectorAll('.formula .katex').length >= 2),
        `step ${step} has its formulas`,
      );
    }
    assert.deepEqual(await matrixIn(page, 'weights'), [
      [sig4(A11), sig4(A12)],
      [sig4(A12), sig4(A11)],
    ]);
    assert.deepEqual(await matrixIn(page, 'output'), [
      ['6.698', '3.302'],
      ['3.302', '6.698'],
    ]);
    await page.click('#prev');
    await stepInUrl(page, 8, 'the buttons step too');
    await page.click('.step-link[data-step="3"]');
    await stepInUrl(page, 3, 'and the step list');
    assertClean(page);
    await page.closeAll();
  });

  test(`${name}: every kind of control works offline, and the copied link restores the view`, async () => {
    const { page } = await openFile(driver, '#step=8', { permissions: ['clipboard-read', 'clipboard-write'] });
    // The panel's switches lie below the stage: scrolled to first, and clicked once the layout the
    // scroll brings (panes drawn as they come into view) has settled, so that the click lands on
    // the switch and not where it stood a frame before (Firefox hit #group-softmax so).
    await page.evaluate(async () => {
      document.getElementById('mask').scrollIntoView({ block: 'center' });
      for (let i = 0; i < 3; i++) await new Promise(requestAnimationFrame);
    });
    // the article's switches
    await page.click('#mask');
    assert.deepEqual(
      (await matrixIn(page, 'weights'))[0],
      ['1.000', '0'],
      'causal mask: the first word sees only itself',
    );
    await page.click('#mask');
    await page.click('#scale-dk');
    assert.deepEqual((await matrixIn(page, 'weights'))[0], softmax([1 / 2, 0]).map(sig4), '÷ d_k');
    await page.click('#scale-sqrt_dk');
    await setField(page, '#temperature', '0.5');
    assert.deepEqual((await matrixIn(page, 'weights'))[0], softmax([Math.SQRT2, 0]).map(sig4), 'temperature 0.5');
    await setField(page, '#temperature', '1');
    await page.click('#softmax-naive');
    assert.deepEqual(
      (await matrixIn(page, 'weights'))[0],
      [sig4(A11), sig4(A12)],
      'naive softmax: the same weights at these small scores',
    );
    await page.click('#softmax-stable');
    await page.hover('figure[data-name="weights"] td.pick[data-i="0"][data-j="1"]');
    assert.match(
      await page.evaluate(() => document.getElementById('cell-explain').textContent),
      /0\.3302/,
      'one number expanded',
    );
    await page.click('#axis-column');
    assert.match(await stageText(page), /按列/);
    await page.click('#axis-row');
    await setField(page, '#digits', '2');
    assert.deepEqual(
      await matrixIn(page, 'weights'),
      [
        ['0.67', '0.33'],
        ['0.33', '0.67'],
      ],
      "the article's 0.67 / 0.33",
    );
    await setField(page, '#digits', '4');
    // inputs: a cell, a paste, a size, another preset, the mode
    await setField(page, '#in-q-0-0', '2');
    assert.deepEqual((await matrixIn(page, 'weights'))[0], softmax([2 / Math.SQRT2, 0]).map(sig4), 'Q[0][0] = 2');
    await page.click('#details-paste-v summary');
    await setField(page, '#paste-v', '[[1, 2], [3, 4]]');
    await page.click('#apply-v');
    await page.click('.step-link[data-step="9"]');
    const w = softmax([2 / Math.SQRT2, 0]);
    assert.deepEqual(
      (await matrixIn(page, 'output'))[0],
      [sig4(w[0] * 1 + w[1] * 3), sig4(w[0] * 2 + w[1] * 4)],
      'pasted V',
    );
    await setField(page, '#preset', 'random');
    await setField(page, '#size-seed', '7');
    await page.until(() => /seed=7/.test(location.hash)); // the seeded random preset
    await setField(page, '#preset', 'cat');
    assert.equal((await matrixIn(page, 'output')).length, 3, '"它 是 猫": three words');
    await page.click('#mode-qkv');
    await setField(page, '#size-n', '4');
    assert.equal((await matrixIn(page, 'output')).length, 4, 'n = 4');
    // the language, then copy-link
    await page.click('#lang-switch');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    const output = await matrixIn(page, 'output');
    await page.click('#copy-link');
    await page.until(() => document.getElementById('copy-status').textContent !== '');
    assert.match(
      await page.evaluate(() => document.getElementById('copy-status').textContent),
      /^Link copied/,
      'the clipboard took it',
    );
    const link = await page.evaluate(() => location.href);
    assert.ok(link.startsWith(FILE + '#'), 'the link is the file with the state in its hash');
    if (driver.name === 'chromium') {
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link, 'copied to the clipboard');
    }
    assertClean(page);
    await page.closeAll();
    const { page: again } = await openFile(driver, new URL(link).hash);
    assert.deepEqual(await matrixIn(again, 'output'), output, 'the link restores the same numbers');
    assert.equal(await again.evaluate(() => document.documentElement.lang), 'en');
    assertClean(again);
    await again.closeAll();
  });

  test(`${name}: a bad cell is refused at its field, offline too`, async () => {
    const { page } = await openFile(driver, '#step=9');
    await setField(page, '#in-q-0-1', 'abc');
    assert.match(await page.evaluate(() => document.getElementById('err-q').textContent), /abc/);
    assert.deepEqual(
      await matrixIn(page, 'output'),
      [
        ['6.698', '3.302'],
        ['3.302', '6.698'],
      ],
      'the last good result stays',
    );
    assertClean(page);
    await page.closeAll();
  });
});

test('chromium: every glyph of every formula is drawn with a font the offline file carries', async () => {
  const driver = await DRIVERS.chromium();
  try {
    const { page } = await openFile(driver);
    const missing = await page.evaluate(async () => {
      await document.fonts.ready;
      const loaded = new Set(
        [...document.fonts]
          .filter((f) => f.status === 'loaded')
          .map((f) => `${f.family}|${f.weight === 'bold' || f.weight === '700' ? 'bold' : 'normal'}|${f.style}`),
      );
      const box = document.createElement('div');
      box.className = 'formula';
      document.body.append(box);
      const bad = new Set();
      for (const template of document.querySelectorAll('template[data-formula]')) {
        box.replaceChildren(template.content.cloneNode(true));
        for (const el of box.querySelectorAll('.katex-html *')) {
          if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())) continue;
          const style = getComputedStyle(el);
          const family = style.fontFamily.split(',')[0].trim().replace(/"/g, '');
          const key = `${family}|${Number(style.fontWeight) >= 600 ? 'bold' : 'normal'}|${style.fontStyle}`;
          if (family.startsWith('KaTeX') && !loaded.has(key)) bad.add(`${key} (${el.textContent.trim()})`);
        }
      }
      box.remove();
      return [...bad];
    });
    assert.deepEqual(missing, []);
    await page.closeAll();
  } finally {
    await driver.close();
  }
});
