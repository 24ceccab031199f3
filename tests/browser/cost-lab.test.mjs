// The lab "the cost of n²" (view=cost-lab, web/src/features/cost-lab/cost-lab-view.js) in Chromium: a run
// times attention in a Web Worker while the page keeps answering clicks, survives a language
// switch, and ends with each path's slope and its spread on the page (a slope the machine was too
// busy to measure marked as such; the values themselves are the benchmark's, bench/responsiveness.mjs);
// a long run stops at once, its worker ended, and
// leaving the view ends it; the memory table shows the n² path refused at n = 8192 with the bytes
// it would need; the lab runs inside a sandboxed embed, falls back to slices on the page's thread
// (and says so) where no Worker may start, and fits a phone's width without an axe violation.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserForFile, screenshot, axeViolations } from './helpers.mjs';
import { startServer } from '../../scripts/serve.mjs';

const b = browserForFile();

const status = (page) => page.getAttribute('.lab-cost-lab', 'data-status');
const points = (page) => page.locator('#cost-chart-time .mark').count();
const untilStatus = (page, value, timeout = 45000) =>
  page.waitForSelector(`.lab-cost-lab[data-status="${value}"]`, { timeout });

/**
 * Clicks `selector` in `frame` (a page, or a frame of `page`) with the mouse, and returns once a
 * click has landed on it. The view grows while a run fills it in, so a click aimed at where the
 * target was may land beside it: the page records where each click landed, and only a click that
 * verifiably missed is made again — never one that landed, which would toggle the target back.
 * The click goes straight to the mouse (page.mouse), not through page.click, whose checks run in
 * the page and would wait for a busy main thread before clicking.
 */
async function clickLanded(page, selector, frame = page) {
  await frame.evaluate(() => {
    if (!window.costClicks)
      document.addEventListener('click', (e) => window.costClicks.push(e.target), { capture: true });
    window.costClicks = [];
  });
  for (let attempt = 1; attempt <= 10; attempt++) {
    await frame.locator(selector).scrollIntoViewIfNeeded();
    const box = await frame.locator(selector).boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // The click is dispatched once the page's thread gets to it, however busy it is.
    await frame.waitForFunction((n) => window.costClicks.length >= n, attempt, { timeout: 60000 });
    if (
      await frame.evaluate(
        ([n, selector]) => Boolean(window.costClicks[n - 1].closest?.(selector)),
        [attempt, selector],
      )
    )
      return;
  }
  throw new Error(`ten clicks on ${selector} all missed it`);
}

/**
 * Clicks `selector` and waits until the page has answered: the DOM mutation after which
 * `document.querySelector(target)[property]` equals `value`. Returns the lab's data-status at that
 * moment — 'running' when the click was answered while the run was going on. How fast it answers
 * is measured in the benchmark (bench/responsiveness.mjs), not here: a busy machine may be slow.
 */
async function answered(page, selector, [target, property, value]) {
  await page.evaluate(
    ([target, property, value]) => {
      window.costAnswer = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (document.querySelector(target)?.[property] !== value) return;
          observer.disconnect();
          resolve(document.querySelector('.lab-cost-lab').dataset.status);
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      });
    },
    [target, property, value],
  );
  await clickLanded(page, selector);
  return page.evaluate(() => window.costAnswer);
}

/** The slope on the page for `path`: "slope 2.01 ± 0.04", and whether it is marked as too busy to trust. */
async function shownSlope(page, path) {
  const li = page.locator(`.cost-legend li[data-path="${path}"]`);
  return {
    text: await li.locator('.cost-slope').textContent(),
    busy: (await li.getAttribute('data-busy')) === 'true',
    mark: await li.locator('.cost-busy-mark').isVisible(),
  };
}

test('n up to 512: measured in a Web Worker, the page answering during the run, a language switch keeping the run, each slope with its spread', async () => {
  const page = await b.open('#view=cost-lab&costmax=512');
  assert.equal(await status(page), 'idle');
  assert.match(await page.textContent('#cost-build'), /relaxed SIMD/); // Chromium has relaxed SIMD
  await page.click('#cost-run');
  assert.equal(await status(page), 'running');
  assert.ok((await page.isDisabled('#cost-run')) && !(await page.isDisabled('#cost-stop')));
  // Points appear while the run goes on.
  await page.waitForFunction(() => document.querySelectorAll('#cost-chart-time .mark').length >= 2, null, {
    timeout: 20000,
  });
  assert.equal(await status(page), 'running', 'still running: the clicks below happen during the run');
  assert.match(await page.textContent('#cost-status'), /^n = \d+.+\d+ \/ 12$/);

  await answered(page, '#cost-times summary', ['#cost-times', 'open', true]);
  const before = await points(page);
  await answered(page, '#lang-switch', ['.lab-cost-lab h2', 'textContent', 'The cost of n²']);
  // Re-labelled, not restarted: the points measured so far are still there and the run goes on.
  assert.ok((await points(page)) >= before);
  assert.notEqual(await status(page), 'idle', 'the run was not restarted');
  assert.match(await page.textContent('#cost-where'), /Web Worker/);

  await untilStatus(page, 'done');
  assert.equal(await page.getAttribute('#cost-where', 'data-mode'), 'worker');
  assert.equal(await points(page), 12, '4 sizes × 3 paths');
  assert.match(await page.textContent('#cost-status'), /^Done: 12 steps in /);
  // Each slope with its spread; one the machine was too busy to measure says so. (Its value is
  // the machine's business: bench/responsiveness.mjs reports it, tests/web/cost-lab.test.mjs
  // checks the estimator on synthetic timings.)
  const busy = [];
  for (const path of ['reference', 'simd', 'streaming']) {
    const slope = await shownSlope(page, path);
    assert.match(slope.text, /^slope -?\d+\.\d\d ± \d+\.\d\d$/, `${path}: ${slope.text}`);
    assert.equal(slope.mark, slope.busy, `${path}: the ⚠ shown exactly when the slope is marked busy`);
    if (slope.busy) busy.push(path);
  }
  // One note says why, naming the busy paths; there is none when every slope could be trusted.
  assert.equal(await page.isVisible('#cost-busy-note'), busy.length > 0);
  if (busy.length) assert.match(await page.textContent('#cost-busy-note'), /^⚠ The machine was too busy/);
  assert.match(await page.textContent('#cost-times tbody td:not(.pending)'), /spread \d+%/);
  assert.match(await page.textContent('#cost-speed'), /^\d+\.\d GFLOP\/s \(the SIMD path's best, at n = \d+\)$/);
  assert.equal(await page.locator('#cost-times tbody td:not(.pending)').count(), 12);
  // The memory figures: at n = 8192 the reference path's six n² matrices are refused, with their bytes.
  const row8192 = await page.$$eval(
    '.cost-memory-table tbody tr',
    (rows) => rows.find((tr) => tr.querySelector('th').textContent === '8192').textContent,
  );
  assert.match(row8192, /256 MiB.*1\.5 GiB\s*refused/);
  await screenshot(page, 'cost-lab-done-en-light');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('n up to 4096: Stop ends the run at once; the page keeps answering, the largest n can be changed, leaving the view ends a run', async () => {
  const page = await b.open('#view=cost-lab&costmax=4096&lang=en');
  // Which workers were ended: after Stop, none of the run's may still post a measurement.
  await page.evaluate(() => {
    const terminate = Worker.prototype.terminate;
    window.costWorkers = { started: 0, ended: 0 };
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(...args) {
        super(...args);
        window.costWorkers.started++;
      }
    };
    Worker.prototype.terminate = function () {
      window.costWorkers.ended++;
      return terminate.call(this);
    };
  });
  await page.click('#cost-run');
  await page.waitForFunction(() => document.getElementById('cost-progress').value >= 3, null, { timeout: 20000 });
  // n = 4096 takes far longer than this click: it is answered while the run goes on.
  assert.equal(await answered(page, '#cost-times summary', ['#cost-times', 'open', true]), 'running');
  await page.click('#cost-stop');
  assert.equal(await status(page), 'stopped');
  assert.match(await page.textContent('#cost-status'), /^Stopped \(\d+ \/ 21\)\.$/);
  assert.deepEqual(await page.evaluate(() => window.costWorkers), { started: 1, ended: 1 }, 'the worker was ended');
  const progress = await page.$eval('#cost-progress', (p) => p.value);
  const measured = await points(page);
  // Whatever the worker had posted before it ended has been delivered once the page has run a
  // task and a frame past it.
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => resolve()))));
  assert.equal(await page.$eval('#cost-progress', (p) => p.value), progress, 'nothing measured after Stop');
  assert.equal(await points(page), measured, 'the points measured before Stop stay');
  assert.equal(await page.textContent('#cost-run'), 'Run again');
  assert.equal(await answered(page, '#cost-times summary', ['#cost-times', 'open', false]), 'stopped');
  await page.selectOption('#cost-max', '1024');
  await page.waitForFunction(() => location.hash.includes('costmax=1024'));
  assert.equal(await page.$eval('#cost-max', (s) => s.value), '1024');
  // Leaving the view during a run ends it (destroy); coming back starts fresh.
  await page.click('#cost-run');
  await page.click('.views a[data-view="steps"]');
  await page.waitForSelector('.lab-cost-lab', { state: 'detached' });
  await page.click('.views a[data-view="cost-lab"]');
  assert.equal(await status(page), 'idle');
  assert.equal(await points(page), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('in <iframe sandbox="allow-scripts"> (#embed=1, the hosted build on another origin): the lab runs, and says where', async () => {
  // A blog post on one loopback origin embeds the hosted build (dist/site) from another.
  const site = await startServer({ root: 'dist/site' });
  const blogDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-lab-blog-'));
  fs.writeFileSync(
    path.join(blogDir, 'index.html'),
    `<!doctype html><title>A post</title><link rel="icon" href="data:,">
<iframe sandbox="allow-scripts" title="Attention Playground" style="width: 100%; height: 900px; border: 0"
  src="${site.url}index.html#embed=1&view=cost-lab&costmax=128"></iframe>`,
  );
  const blog = await startServer({ root: blogDir });
  const context = await b.browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  try {
    await page.goto(blog.url);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    await frame.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20000 });
    await clickLanded(page, '#cost-run', frame);
    await frame.waitForSelector('.lab-cost-lab[data-status="done"]', { state: 'attached', timeout: 90000 });
    const mode = await frame.getAttribute('#cost-where', 'data-mode');
    assert.ok(['worker', 'main-thread'].includes(mode), mode);
    // On the page's thread the reader is told why, next to the figures.
    assert.equal(await frame.isVisible('#cost-main-note'), mode === 'main-thread');
    assert.equal(await frame.locator('#cost-chart-time .mark').count(), 6, '2 sizes × 3 paths');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await Promise.all([site.close(), blog.close()]);
    fs.rmSync(blogDir, { recursive: true, force: true });
  }
});

test("where no Web Worker may start, the run goes on in slices on the page's thread, says so, and the page still answers", async () => {
  const context = await b.browser.newContext({ reducedMotion: 'reduce' });
  // As in a frame whose policy refuses workers: the constructor throws.
  await context.addInitScript(() => {
    window.Worker = function Worker() {
      throw new DOMException('workers are blocked here', 'SecurityError');
    };
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.goto(`${b.url}#view=cost-lab&costmax=256&lang=en`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15000 });
  await page.click('#cost-run');
  await page.waitForFunction(() => document.querySelectorAll('#cost-chart-time .mark').length >= 1, null, {
    timeout: 20000,
  });
  assert.equal(await page.getAttribute('#cost-where', 'data-mode'), 'main-thread');
  assert.match(await page.textContent('#cost-main-note'), /^A Web Worker may not start here.*slices of at most 50 ms/);
  // Between slices the page answers: a click during the run is handled before the run ends
  // (unless the run was already over by the time the click came).
  assert.ok(['running', 'done'].includes(await answered(page, '#cost-times summary', ['#cost-times', 'open', true])));
  await untilStatus(page, 'done');
  // 3 sizes × 3 paths, each measured or, when its call was predicted longer than a slice (a slow
  // or busy machine), skipped; the first size of each path is always measured.
  const skipped = await page.locator('#cost-times tbody td.skipped').count();
  assert.equal((await points(page)) + skipped, 9, `${skipped} skipped`);
  assert.ok((await points(page)) >= 3);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a 375 px screen, dark: nothing overflows sideways, and axe finds no violation after a run', async () => {
  const page = await b.open('#view=cost-lab&costmax=128', {
    viewport: { width: 375, height: 800 },
    colorScheme: 'dark',
  });
  await page.click('#cost-run');
  await untilStatus(page, 'done');
  await page.click('#cost-times summary');
  const [scrollWidth, innerWidth] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
  ]);
  assert.ok(scrollWidth <= innerWidth, `the page is ${scrollWidth}px wide in a ${innerWidth}px screen`);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'cost-lab-phone-zh-dark');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('§8 ends on article 10: the lab links to the efficiency lab, which opens with the same language', async () => {
  const page = await b.open('#view=cost-lab&lang=en');
  const link = page.locator('.cost-next-link');
  assert.match(await link.textContent(), /article 10, "Efficiency and variants"/);
  await link.click();
  await page.waitForSelector('#lab-body:not([hidden]) .lab-efficiency-lab');
  assert.match(await page.evaluate(() => location.hash), /view=efficiency-lab/);
  assert.match(await page.evaluate(() => location.hash), /lang=en/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
