// The lab "the cost of n²" as a reader uses it, in Debian's Chromium: timed in a Worker while the
// page answers clicks, a slope near 2, a run stopped. (The other labs have files of their own:
// scale-lab.test.mjs, exercise.test.mjs.)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './helpers.mjs';

let b;
before(async () => {
  b = await openBrowser();
});
after(async () => {
  await b?.close();
});


test('the cost of n²: n = 64…512 timed in a Worker while a click is answered within 100 ms, slope between 1.6 and 2.4', async () => {
  const page = await b.open('#view=cost-lab&costmax=512');
  await page.click('#cost-run');
  await page.waitForSelector('.lab-cost[data-mode]');
  assert.equal(await page.getAttribute('.lab-cost', 'data-mode'), 'worker');
  // While it runs: a real click on the page (the language switch) is answered at once — from the
  // moment the browser took the click (event.timeStamp) to the page's change, a busy page thread
  // would show here as the click waiting in the queue.
  await page.evaluate(() => {
    window.answered = new Promise((resolve) => {
      document.getElementById('lang-switch').addEventListener(
        'click',
        (event) => {
          const seen = new MutationObserver(() => {
            seen.disconnect();
            resolve(performance.now() - event.timeStamp);
          });
          seen.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
        },
        { capture: true, once: true },
      );
    });
  });
  await page.click('#lang-switch');
  const answeredMs = await page.evaluate(() => window.answered);
  assert.ok(answeredMs <= 100, `the page answered in ${answeredMs.toFixed(1)} ms`);
  assert.equal(
    await page.getAttribute('.lab-cost', 'data-status'),
    'running',
    'a change of language does not stop the run',
  );
  await page.waitForSelector('.lab-cost[data-status="done"]', { timeout: 120000 });
  const slope = Number(await page.getAttribute('#cost-legend li[data-path="simd"]', 'data-slope'));
  assert.ok(slope >= 1.6 && slope <= 2.4, `SIMD path slope ${slope}`);
  assert.match(await page.textContent('#cost-legend li[data-path="simd"]'), /^SIMD path · slope \d\.\d\d$/);
  assert.equal(await page.$$eval('#cost-times tbody tr', (rows) => rows.length), 4, 'n = 64, 128, 256, 512');
  assert.match(await page.textContent('#cost-gflops'), /GFLOP\/s/);
  // The memory: at n = 8192 the step-by-step path's n² matrices exceed the core's 1 GiB.
  assert.match(await page.textContent('#cost-memory tbody tr:nth-child(8)'), /^8192.*✕/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the cost of n²: a long run stops at once, keeps what it measured, and the page answers', async () => {
  const page = await b.open('#view=cost-lab&costmax=4096');
  await page.click('#cost-run');
  await page.waitForFunction(() => document.querySelectorAll('#cost-times td.num').length >= 3, null, {
    timeout: 60000,
  });
  await page.click('#cost-stop');
  assert.equal(await page.getAttribute('.lab-cost', 'data-status'), 'stopped');
  assert.match(await page.textContent('#cost-status'), /已停止/);
  assert.ok((await page.$$eval('#cost-times td.num', (tds) => tds.length)) >= 3, 'the measurements stay');
  await page.click('#views a[data-view="steps"]');
  assert.equal(await page.isVisible('figure.matrix[data-name="scores"], figure.matrix[data-name="q"]'), true);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
