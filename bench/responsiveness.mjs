// Measures (reports, never asserts) how fast the page answers while it works, and how steady the
// cost lab's slopes are, in Debian's chromium — the time budgets the browser tests used to assert,
// which a busy machine broke (the tests now check only that the page answers at all). Writes
// bench/responsiveness.md.   Run: node bench/responsiveness.mjs   (after a build)
//
// 1. The cost lab during a run in its Web Worker (n ≤ 512): a click on the times table's toggle and
//    on the language switch, from the click event's own time stamp (time spent waiting for a busy
//    main thread counts) to the DOM change that answers it. Target: 100 ms each.
// 2. The same with no Worker allowed (the run in slices on the page's thread, n ≤ 256): the toggle.
//    Target: 100 ms (a slice is at most 50 ms of work).
// 3. The cost lab's slopes: RUNS runs in a row, each path's slope ± spread, and how far apart the
//    runs are. Target on an idle machine: within ±0.15, each slope near 2.
// 4. The soak's random edits, pastes and steps (tests/browser/random-actions.mjs): the slowest
//    click, handled, rendered and laid out, and every click over 100 ms three times in a row.

import fs from 'node:fs';
import os from 'node:os';
import { openBrowser } from '../tests/browser/helpers.mjs';
import { SELECTORS, runActions } from '../tests/browser/random-actions.mjs';

const BUDGET_MS = 100;
const RUNS = 3;
const ACTIONS = 1000;
const loadBefore = os.loadavg()[0];

/**
 * Clicks `selector` and returns how long the page took to answer: from the click event's time
 * stamp to the DOM mutation after which `document.querySelector(target)[property]` equals `value`.
 * The click goes straight to the mouse (page.mouse): page.click's checks would wait for a busy page.
 */
async function answerTime(page, selector, [target, property, value]) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = await page.locator(selector).boundingBox();
  await page.evaluate(
    ([sel, target, property, value]) => {
      window.costAnswer = new Promise((resolve) => {
        let clickedAt = null;
        const observer = new MutationObserver(() => {
          if (clickedAt === null || document.querySelector(target)?.[property] !== value) return;
          observer.disconnect();
          resolve({
            ms: performance.now() - clickedAt,
            status: document.querySelector('.lab-cost-lab').dataset.status,
          });
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        document.querySelector(sel).addEventListener(
          'click',
          (e) => {
            clickedAt = e.timeStamp;
          },
          { capture: true, once: true },
        );
      });
    },
    [selector, target, property, value],
  );
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  return page.evaluate(() => window.costAnswer);
}

const slopesOnPage = (page) =>
  page.$$eval('.cost-legend li[data-slope]', (items) =>
    items.map((li) => ({
      path: li.dataset.path,
      slope: Number(li.dataset.slope),
      spread: Number(li.dataset.spread),
      busy: li.dataset.busy === 'true',
    })),
  );
const done = (page) => page.waitForSelector('.lab-cost-lab[data-status="done"]', { timeout: 120000 });
const ms = (x) => x.toFixed(1);

const b = await openBrowser();
const answers = []; // { what, ms, status }
const runs = []; // per run: [{ path, slope, spread, busy }]
let soak;
try {
  // 1 and 3: in the Worker.
  for (let r = 0; r < RUNS; r++) {
    const page = await b.open('#view=cost-lab&costmax=512&lang=zh-CN');
    await page.click('#cost-run');
    await page.waitForFunction(() => document.querySelectorAll('#cost-chart-time .mark').length >= 2, null, {
      timeout: 60000,
    });
    answers.push({
      what: 'worker run: table toggle',
      ...(await answerTime(page, '#cost-times summary', ['#cost-times', 'open', true])),
    });
    answers.push({
      what: 'worker run: language switch',
      ...(await answerTime(page, '#lang-switch', ['.lab-cost-lab h2', 'textContent', 'The cost of n²'])),
    });
    await done(page);
    runs.push(await slopesOnPage(page));
    console.log(
      `run ${r + 1}: ${runs
        .at(-1)
        .map((s) => `${s.path} ${s.slope.toFixed(2)} ± ${s.spread.toFixed(2)}`)
        .join(', ')}`,
    );
    await page.context().close();
  }

  // 2: no Worker allowed.
  const context = await b.browser.newContext({ reducedMotion: 'reduce' });
  await context.addInitScript(() => {
    window.Worker = function Worker() {
      throw new DOMException('workers are blocked here', 'SecurityError');
    };
  });
  const page = await context.newPage();
  await page.goto(`${b.url}#view=cost-lab&costmax=256&lang=en`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  await page.click('#cost-run');
  await page.waitForFunction(() => document.querySelectorAll('#cost-chart-time .mark').length >= 1, null, {
    timeout: 60000,
  });
  answers.push({
    what: 'page-thread run: table toggle',
    ...(await answerTime(page, '#cost-times summary', ['#cost-times', 'open', true])),
  });
  await done(page);
  await context.close();

  // 4: the soak's actions, every click over budget timed again up to twice.
  const soakPage = await b.open('#step=1&lang=en');
  soak = { slowest: { click: 0, edit: 0 }, slow: [], counts: { edit: 0, paste: 0, step: 0 } };
  let seed = 2026;
  for (let done = 0; done < ACTIONS; done += 100) {
    const r = await soakPage.evaluate(runActions, { selectors: SELECTORS, count: 100, seed, budget: BUDGET_MS });
    seed = r.seed;
    soak.slow.push(...r.slow);
    for (const k of Object.keys(soak.slowest)) soak.slowest[k] = Math.max(soak.slowest[k], r.slowest[k]);
    for (const k of Object.keys(soak.counts)) soak.counts[k] += r.counts[k];
  }
  await soakPage.context().close();
} finally {
  await b.close();
}

const paths = runs[0].map((s) => s.path);
const slopeRows = paths.map((path) => {
  const of = runs.map((run) => run.find((s) => s.path === path));
  const values = of.map((s) => s.slope);
  const apart = Math.max(...values) - Math.min(...values);
  return `| ${path} | ${of.map((s) => `${s.slope.toFixed(2)} ± ${s.spread.toFixed(2)}${s.busy ? ' (busy)' : ''}`).join(' | ')} | ${apart.toFixed(2)} |`;
});
const answerRows = answers.map(
  (a) => `| ${a.what} | ${ms(a.ms)} | ${a.ms <= BUDGET_MS ? 'yes' : '**no**'} | ${a.status} |`,
);
const md = `# Responsiveness: the page during a run, the cost lab's slopes, the soak's clicks

Measured by \`node bench/responsiveness.mjs\` (report only, nothing is asserted; the browser tests
check only that the page answers). Budget: ${BUDGET_MS} ms from a click to the change it makes.

- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, shared with other jobs (load average ${loadBefore.toFixed(1)} before the run, ${os.loadavg()[0].toFixed(1)} after: a load above the number of cores slows every figure here and widens the slopes' spread).
- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.

## Clicks answered during a cost-lab run (from the click event's time stamp to the answering DOM change)

| click | ms | within ${BUDGET_MS} ms | lab status then |
|---|---|---|---|
${answerRows.join('\n')}

## The cost lab's slopes, n = 64 … 512 in a Web Worker, ${RUNS} runs in a row

Each slope is fitted where compute dominates the fixed cost of a call, from the fastest of the
batches at each size (web/src/features/cost-lab/cost-lab.js); ± is how far the batches' scatter could move it,
"busy" when that is over ±0.15. On an idle machine the runs should agree within ±0.15.

| path | ${runs.map((_, i) => `run ${i + 1}`).join(' | ')} | max − min |
|---|${runs.map(() => '---|').join('')}---|
${slopeRows.join('\n')}

## The soak's random actions (${ACTIONS}: ${soak.counts.edit} edits, ${soak.counts.paste} pastes, ${soak.counts.step} steps)

Slowest click ${ms(soak.slowest.click)} ms and slowest edit ${ms(soak.slowest.edit)} ms (handled,
rendered and laid out: to a forced layout's return). Clicks over ${BUDGET_MS} ms three times in a row
from the same state: ${soak.slow.length === 0 ? 'none' : soak.slow.map((s) => `\n- ${s}`).join('')}
`;
fs.writeFileSync(new URL('./responsiveness.md', import.meta.url), md);
console.log(md);
