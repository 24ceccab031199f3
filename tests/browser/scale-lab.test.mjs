// The lab "why divide by √dₖ" (view=scale-lab) in Debian's chromium, read as a reader reads it: the
// measured variances on the page against §4's theory, the dₖ control from the keyboard and the URL
// it writes, the saturation of the unscaled softmax at dₖ = 1024, the English switch, a 375 px
// phone, a 600 px embed, and axe in both themes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile, screenshot, axeViolations, announced, urlWritten } from './helpers.mjs';

const b = browserForFile();

const noProblems = (page) => assert.deepEqual(page.problems, [], 'no console errors, page errors or failed requests');
// The URL is written after the frame that shows a change (web/src/controller/url-sync.js): read once it has been.
const labdk = async (page) => {
  await urlWritten(page);
  return new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('labdk');
};
/** The number a text starts with, as the page writes it (typographic minus, maybe an exponent): '0.00107 ≤ 0.25' → 0.00107. */
const parse = (text) =>
  Number(
    text
      .trim()
      .split(/\s/)[0]
      .replace(/\u2212/g, '-'),
  );
/** The visible text of one figure's number: `.sl-hist[data-scale=none] .sl-measured` and the like. */
const shown = async (page, figure, scale, field) =>
  parse(await page.textContent(`.${figure}[data-scale="${scale}"] .${field}`));
const within = (measured, theory, fraction) => Math.abs(measured / theory - 1) < fraction;

test('at dₖ = 256 the page shows Var(q·k) ≈ 256, Var(q·k/√dₖ) ≈ 1 and Var(q·k/dₖ) ≈ 1/256, beside the theory', async () => {
  const page = await b.open('#view=scale-lab&labdk=256');
  assert.equal(await page.textContent('.lab-scale-lab h2'), '为什么除以 √dₖ');
  const none = await shown(page, 'sl-hist', 'none', 'sl-measured');
  const sqrt = await shown(page, 'sl-hist', 'sqrt_dk', 'sl-measured');
  const dk = await shown(page, 'sl-hist', 'dk', 'sl-measured');
  assert.ok(within(none, 256, 0.1), `unscaled: ${none}`);
  assert.ok(within(sqrt, 1, 0.1), `÷ √dₖ: ${sqrt}`);
  assert.ok(within(dk, 1 / 256, 0.1), `÷ dₖ: ${dk}`);
  assert.equal(await page.textContent('.sl-hist[data-scale="none"] .sl-theory-value'), 'dₖ = 256');
  assert.equal(await page.textContent('.sl-hist[data-scale="sqrt_dk"] .sl-theory-value'), '1');
  // The shown numbers are the computed ones, to their digits.
  const exact = Number(await page.getAttribute('.sl-hist[data-scale="none"] .sl-measured', 'data-value'));
  assert.equal(none, Number(exact.toPrecision(4)));
  // Three histograms with axes, labelled for screen readers; most unscaled values are off the ±6 axis, and the page says how many.
  assert.equal(await page.locator('.sl-hist svg[role="img"]').count(), 3);
  assert.match(await page.getAttribute('.sl-hist[data-scale="none"] svg', 'aria-label'), /256/);
  const off = await page.textContent('.sl-hist[data-scale="none"] .sl-off');
  const [n] = off.match(/\d+/);
  assert.ok(Number(n) > 4096 / 2, off);
  assert.match(off, /±6 之外/);
  assert.match(await page.textContent('.sl-hist[data-scale="sqrt_dk"] .sl-off'), /全部 4096 个值都在 ±6 之内/);
  assert.ok((await page.locator('.sl-hist[data-scale="none"] .sl-tick').count()) >= 7, 'ticks on the axes');
  // The gradient: its largest entry never above 1/4, and smaller unscaled.
  const grads = await page.$$eval('.sl-row .sl-grad', (els) => els.map((el) => Number(el.dataset.value)));
  assert.ok(
    grads.every((g) => g > 0 && g <= 0.25),
    String(grads),
  );
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'scale-lab-256-zh-light');
  noProblems(page);
  await page.context().close();
});

test('dₖ from the keyboard: the arrow keys, Home and End step through 1 … 1024, the URL and the numbers follow', async () => {
  const page = await b.open('#view=scale-lab&labdk=256');
  await page.focus('#sl-dk');
  await page.keyboard.press('ArrowRight');
  assert.equal(await labdk(page), '512');
  assert.equal(await page.textContent('#sl-dk-value'), 'dₖ = 512');
  assert.equal(await page.getAttribute('#sl-dk', 'aria-valuetext'), 'dₖ = 512');
  assert.ok(within(await shown(page, 'sl-hist', 'none', 'sl-measured'), 512, 0.1));
  assert.equal(await page.textContent('.sl-hist[data-scale="none"] .sl-theory-value'), 'dₖ = 512');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'sl-dk', 'the slider keeps the focus');
  await page.keyboard.press('Home');
  assert.equal(await labdk(page), '1');
  // At dₖ = 1 every divisor is 1: the three variances agree.
  const at1 = await Promise.all(['none', 'sqrt_dk', 'dk'].map((scale) => shown(page, 'sl-hist', scale, 'sl-measured')));
  assert.ok(
    at1.every((v) => v === at1[0] && within(v, 1, 0.1)),
    String(at1),
  );
  await page.keyboard.press('End');
  assert.equal(await labdk(page), '1024');
  assert.match(await announced(page), /dₖ = 1024/, 'the new numbers are said once');
  // The halve button, from the keyboard too.
  await page.focus('#sl-dk-halve');
  await page.keyboard.press('Enter');
  assert.equal(await labdk(page), '512');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'sl-dk-halve');
  // A link opens at its dₖ.
  await page.goto(page.url().replace(/labdk=\d+/, 'labdk=16'));
  await page.waitForFunction(() => document.querySelector('.lab-scale-lab')?.dataset.dk === '16');
  assert.ok(within(await shown(page, 'sl-hist', 'none', 'sl-measured'), 16, 0.1));
  noProblems(page);
  await page.context().close();
});

test('at dₖ = 1024 the unscaled softmax saturates: a larger top weight, a lower entropy, a smaller gradient', async () => {
  const page = await b.open('#view=scale-lab&labdk=1024');
  const largest = (scale) => shown(page, 'sl-row', scale, 'sl-largest');
  assert.ok(
    (await largest('none')) > (await largest('sqrt_dk')),
    `${await largest('none')} vs ${await largest('sqrt_dk')}`,
  );
  assert.ok((await largest('none')) > 0.99);
  const entropy = (scale) => page.getAttribute(`.sl-row[data-scale="${scale}"] .sl-entropy`, 'data-value').then(Number);
  assert.ok((await entropy('none')) < (await entropy('sqrt_dk')));
  const grad = (scale) => shown(page, 'sl-row', scale, 'sl-grad');
  assert.ok((await grad('none')) < (await grad('sqrt_dk')) / 10);
  assert.match(await page.textContent('.sl-verdict'), /小了约 \d+ 倍/);
  // The row's weights as bars, one per key, for each scaling.
  assert.equal(await page.locator('.sl-row[data-scale="none"] .sl-bars rect').count(), 8);
  noProblems(page);
  await page.context().close();
});

test('English: the switch translates the lab; dark theme passes axe', async () => {
  const page = await b.open('#view=scale-lab&labdk=64', { colorScheme: 'dark' });
  await page.click('#lang-switch');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('lang') === 'en');
  assert.equal(await page.textContent('.lab-scale-lab h2'), 'Why divide by √dₖ');
  const text = await page.textContent('.lab-scale-lab');
  assert.match(text, /Measured variance/);
  assert.match(text, /winner takes all/);
  assert.doesNotMatch(text, /[\u4e00-\u9fff]/, 'no Chinese left in the lab');
  assert.match(await page.getAttribute('.sl-hist[data-scale="none"] svg', 'aria-label'), /^Histogram of q·k/);
  assert.equal(await labdk(page), '64', 'd_k kept');
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'scale-lab-64-en-dark');
  noProblems(page);
  await page.context().close();
});

test('a 375 px phone and a 600 px embed: no sideways scroll; the embed shows the lab alone', async () => {
  const phone = await b.open('#view=scale-lab&labdk=256', { viewport: { width: 375, height: 800 } });
  const [scrollWidth, innerWidth] = await phone.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  assert.ok(scrollWidth <= innerWidth, `page is ${scrollWidth}px wide in a ${innerWidth}px screen`);
  noProblems(phone);
  await phone.context().close();

  const frame = await b.open('#embed=1&view=scale-lab&labdk=256', { viewport: { width: 600, height: 800 } });
  const [width, inner] = await frame.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(width <= inner, `embed is ${width}px wide in ${inner}px`);
  assert.ok(await frame.isVisible('.lab-scale-lab'));
  for (const hidden of ['.top', '#views', '#stage-body']) assert.ok(!(await frame.isVisible(hidden)), hidden);
  const charts = await frame.$$eval('.sl-chart', (els) => els.map((el) => el.getBoundingClientRect().right));
  assert.ok(
    charts.every((right) => right <= 600),
    'every chart inside the frame',
  );
  assert.ok(within(await shown(frame, 'sl-hist', 'none', 'sl-measured'), 256, 0.1));
  await screenshot(frame, 'scale-lab-embed-600');
  noProblems(frame);
  await frame.context().close();
});
