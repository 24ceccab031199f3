// Page soak: 2,000 random edits, pastes and steps in Chromium, some of them invalid. The JS heap and
// the DOM level off (within 10% of where they stood after the first 500 actions — by then the
// page's code is compiled and optimised, which alone grows the heap at first — measured on the same
// view, reached the same way, after a garbage collection), nothing reaches the console, and every click is answered
// — handled, rendered and laid out — within 100 ms.
//
// The actions run inside the page in batches (a Playwright round trip per action would take most
// of the time), through the page's stable ids only: the selectors below are the one place that
// knows them, so a redesign of the views that keeps the ids keeps this test.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserForFile } from './helpers.mjs';

const SELECTORS = {
  cells: 'input[id^="in-"]', // #in-q-0-0: one cell of an input matrix
  pasteBoxes: 'textarea[id^="paste-"]', // #paste-q, applied by #apply-q
  apply: 'apply-', // id prefix of a paste box's button, + the matrix's name
  next: '#next',
  prev: '#prev',
  stepLinks: '.step-link',
};
const ACTIONS = 2000;
const SETTLED_AFTER = 500;
const BATCH = 100;
const CLICK_BUDGET_MS = 100;

const b = browserForFile();

// Runs `count` random actions in the page, continuing the seeded sequence; returns the slowest
// click and edit (ms), how many actions of each kind ran, and the clicks that stayed over budget.
function runActions({ selectors, count, seed, budget }) {
  let a = seed >>> 0; // mulberry32
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const number = () => pick([String(Math.round(rand() * 400 - 200) / 100), '0', '1', '-1', '2.5e1', '0.001']);
  const junk = () => pick(['', 'abc', 'NaN', '1e39', '−3', '１２', '<b>x</b>']);
  const matrixText = () => {
    const rows = 1 + Math.floor(rand() * 6),
      cols = 1 + Math.floor(rand() * 6);
    const body = Array.from({ length: rows }, () => `[${Array.from({ length: cols }, number).join(', ')}]`).join(', ');
    return pick([`[${body}]`, `[${body}]`, '1,5', '[[1,2],[3', '[[1, 2], [3]]', '1 2\n3 4']);
  };
  // Handled, rendered and laid out: the time until a forced layout returns.
  const timed = (act) => {
    const t0 = performance.now();
    act();
    void document.body.offsetHeight;
    return performance.now() - t0;
  };
  const step = () => Number(/step=(\d+)/.exec(location.hash)?.[1]);
  const goTo = (n) => {
    location.hash = location.hash.replace(/step=\d+/, `step=${n}`);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  };
  // A click over budget is timed again, up to twice, from the same state: the page's work for a
  // state is the same each time, so a fast repeat shows that another process had the CPU (two
  // cores are shared with other jobs), and only a click slow every time counts.
  const click = (target, undo) => {
    let best = timed(() => target.click());
    for (let retry = 0; retry < 2 && best > budget; retry++) {
      undo();
      best = Math.min(
        best,
        timed(() => target.click()),
      );
    }
    return best;
  };
  const slowest = { click: 0, edit: 0 };
  const counts = { edit: 0, paste: 0, step: 0 };
  const slow = [];
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.45) {
      const cells = document.querySelectorAll(selectors.cells);
      if (cells.length === 0) continue;
      const cell = pick(cells);
      cell.value = rand() < 0.9 ? number() : junk();
      slowest.edit = Math.max(
        slowest.edit,
        timed(() => cell.dispatchEvent(new Event('input', { bubbles: true }))),
      );
      counts.edit++;
    } else if (r < 0.55) {
      const box = pick(document.querySelectorAll(selectors.pasteBoxes));
      const button = box && document.getElementById(selectors.apply + box.id.slice('paste-'.length));
      if (!button) continue;
      box.value = matrixText();
      const dt = click(button, () => {}); // applying the same text again does the same work
      if (dt > budget) slow.push(`paste ${JSON.stringify(box.value.slice(0, 30))}: ${dt.toFixed(1)} ms`);
      slowest.click = Math.max(slowest.click, dt);
      counts.paste++;
    } else {
      const target =
        rand() < 0.4
          ? document.querySelector(selectors.next)
          : rand() < 0.5
            ? document.querySelector(selectors.prev)
            : pick(document.querySelectorAll(selectors.stepLinks));
      if (!target || target.disabled) continue;
      const from = step();
      const dt = click(target, () => goTo(from));
      if (dt > budget) slow.push(`${target.id || target.className} from step ${from}: ${dt.toFixed(1)} ms`);
      slowest.click = Math.max(slowest.click, dt);
      counts.step++;
    }
  }
  return { slowest, counts, seed: a, slow };
}

// The same view each time it is measured: the worked example at step 9, reached through every
// step (the stage keeps each step's matrices once shown, web/src/views/panes.js: so the same ones
// are kept each time), after a GC.
async function measure(page, cdp) {
  await page.evaluate(() => {
    location.hash = '#step=1';
  });
  await page.waitForFunction(() => document.querySelector('#prev')?.disabled === true);
  for (let step = 2; step <= 9; step++) await page.click('#next');
  await page.waitForFunction(() => document.querySelector('#next')?.disabled === true);
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name).value;
  return { heap: metric('JSHeapUsedSize'), nodes: metric('Nodes'), listeners: metric('JSEventListeners') };
}

test(`${ACTIONS} random edits, pastes and steps: heap and DOM level off, no console error, clicks within ${CLICK_BUDGET_MS} ms`, async () => {
  const page = await b.open('#step=1&lang=en');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  let seed = 2026,
    settled;
  const slowest = { click: 0, edit: 0 };
  const counts = { edit: 0, paste: 0, step: 0 };
  const slowClicks = [];
  for (let done = 0; done < ACTIONS; done += BATCH) {
    const r = await page.evaluate(runActions, { selectors: SELECTORS, count: BATCH, seed, budget: CLICK_BUDGET_MS });
    seed = r.seed;
    slowClicks.push(...r.slow);
    for (const k of Object.keys(slowest)) slowest[k] = Math.max(slowest[k], r.slowest[k]);
    for (const k of Object.keys(counts)) counts[k] += r.counts[k];
    if (done + BATCH === SETTLED_AFTER) settled = await measure(page, cdp);
  }
  const end = await measure(page, cdp);
  const MiB = (x) => `${(x / 2 ** 20).toFixed(2)} MiB`;
  const at = (m) => `heap ${MiB(m.heap)}, ${m.nodes} DOM nodes, ${m.listeners} listeners`;
  const report =
    `after ${SETTLED_AFTER}: ${at(settled)}; after ${ACTIONS}: ${at(end)}; slowest click ` +
    `${slowest.click.toFixed(1)} ms, slowest edit ${slowest.edit.toFixed(1)} ms; ${JSON.stringify(counts)}`;
  console.log(report);
  assert.ok(end.heap <= 1.1 * settled.heap, `the JS heap grew: ${report}`);
  assert.ok(end.nodes <= 1.1 * settled.nodes, `the DOM grew: ${report}`);
  assert.ok(end.listeners <= 1.1 * settled.listeners, `event listeners accumulate: ${report}`);
  assert.deepEqual(slowClicks, [], `clicks over ${CLICK_BUDGET_MS} ms, three times each: ${report}`);
  assert.ok(counts.edit > 500 && counts.paste > 100 && counts.step > 500, `a mix of actions: ${report}`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
