// Measures (reports, never asserts) how fast the page answers, in Debian's chromium. Writes
// bench/ui-latency.md.   Run: node bench/ui-latency.mjs   (after a build)
//
// 1. One edit → every matrix of the current step re-rendered, at n = 8, 16, 32 and 64 (mode
//    "from X", the largest work an edit can cause): set X[0][0] and fire its `input` event,
//    exactly as typing does. The handler is synchronous (parse → state → wasm → views), so:
//      script     — until the handler returns: every intermediate computed, every view in the DOM
//                   (the map's thumbnails included);
//      + layout   — plus the style and layout it causes (forced by reading a layout property);
//      next frame — until the browser's next animation frame has run (an upper bound that
//                   includes waiting for the frame clock).
// 2. One step → the next step on screen (a click on "下一步", through all nine steps and back
//    to the first with the map), script + layout, at the same sizes, with the motion between
//    steps switched on (prefers-reduced-motion: no-preference), as most readers have it.
// 3. Cold start: a fresh browser context (no cache, no service worker) opening the hosted build
//    (dist/site behind python3 -m http.server) at step 9, until the worked example's 6.698 is in
//    the DOM, measured from the navigation's start (performance.now() in the page).

import fs from 'node:fs';
import os from 'node:os';
import { openBrowser } from '../tests/browser/helpers.mjs';
import { pythonServer } from '../tests/browser/static-server.mjs';

const SIZES = [8, 16, 32, 64];
const STEPS = [
  [2, 'projections (X, W_Q/W_K/W_V, Q, K, V)'],
  [9, 'output (A, V, AV, the mix)'],
];
const D = 16; // X is n×16: an editable grid (wider matrices are pasted, not typed)
const WARMUP = 5;
const REPS = 60;
const STEP_ROUNDS = 4;
const COLD_RUNS = 9;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (x) => x.toFixed(2);
const hashFor = (n, step) => `#preset=random&mode=x&n=${n}&d=${D}&dk=${D}&dv=${D}&seed=11&step=${step}`;

const loadBefore = os.loadavg()[0];
const b = await openBrowser();
const edits = [];
const steps = [];
const cold = [];
let info = '';
try {
  for (const n of SIZES) {
    for (const [step, what] of STEPS) {
      const page = await b.open(hashFor(n, step), { reducedMotion: 'no-preference' });
      info ||= await page.evaluate(
        () =>
          `${navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent}; ${document.getElementById('engine-build').textContent}`,
      );
      const times = await page.evaluate(
        async ({ warmup, reps }) => {
          const input = document.getElementById('in-x-0-0');
          const stage = document.getElementById('stage-body');
          const frame = () => new Promise(requestAnimationFrame);
          const out = { script: [], layout: [], frame: [] };
          for (let r = 0; r < warmup + reps; r++) {
            await frame();
            const t0 = performance.now();
            input.value = String(((r % 9) - 4) / 4);
            input.dispatchEvent(new Event('input', { bubbles: true }));
            const t1 = performance.now();
            void stage.offsetHeight;
            const t2 = performance.now();
            await frame();
            const t3 = performance.now();
            if (r >= warmup) {
              out.script.push(t1 - t0);
              out.layout.push(t2 - t0);
              out.frame.push(t3 - t0);
            }
          }
          return out;
        },
        { warmup: WARMUP, reps: REPS },
      );
      const cells = await page.locator('#stage-body td.c').count();
      const canvases = await page.locator('#stage-body canvas').count();
      if (page.problems.length) throw new Error(page.problems.join('\n'));
      edits.push({ n, step, what, cells, canvases, times });
      console.log(
        `edit n=${n} step ${step}: script ${ms(median(times.script))} ms, +layout ${ms(median(times.layout))} ms, next frame ${ms(median(times.frame))} ms (median of ${REPS})`,
      );
      await page.context().close();
    }
    const page = await b.open(hashFor(n, 1), { reducedMotion: 'no-preference' });
    const times = await page.evaluate(
      async ({ rounds }) => {
        const frame = () => new Promise(requestAnimationFrame);
        const out = { script: [], layout: [] };
        for (let r = 0; r < rounds; r++) {
          for (let step = 2; step <= 10; step++) {
            await frame();
            // Nine clicks on "下一步", then one on the map's first node to start again.
            const button =
              step <= 9 ? document.getElementById('next') : document.querySelector('.step-link[data-step="1"]');
            const t0 = performance.now();
            button.click();
            const t1 = performance.now();
            void document.body.offsetHeight;
            const t2 = performance.now();
            if (r > 0) {
              out.script.push(t1 - t0);
              out.layout.push(t2 - t0);
            }
          }
        }
        return out;
      },
      { rounds: STEP_ROUNDS },
    );
    if (page.problems.length) throw new Error(page.problems.join('\n'));
    steps.push({ n, times });
    console.log(
      `step n=${n}: script ${ms(median(times.script))} ms, +layout ${ms(median(times.layout))} ms, max ${ms(Math.max(...times.layout))} ms`,
    );
    await page.context().close();
  }

  const site = await pythonServer('dist/site');
  try {
    for (let r = 0; r < COLD_RUNS; r++) {
      const context = await b.browser.newContext({ viewport: { width: 1280, height: 900 } });
      // Records the moment the output's first cell first reads 6.698, from the navigation's start.
      await context.addInitScript(() => {
        new MutationObserver((_, observer) => {
          const cell = document.querySelector('figure.matrix[data-name="output"] td.c');
          if (cell?.textContent === '6.698') {
            window.numbersAt = performance.now();
            observer.disconnect();
          }
        }).observe(document, { childList: true, subtree: true, characterData: true });
      });
      const page = await context.newPage();
      await page.goto(`${site.url}index.html#step=9`);
      await page.waitForFunction(() => window.numbersAt !== undefined, null, { timeout: 20000 });
      cold.push(await page.evaluate(() => window.numbersAt));
      await context.close();
    }
  } finally {
    await site.stop();
  }
  console.log(`cold start: median ${ms(median(cold))} ms (${cold.map((x) => x.toFixed(0)).join(', ')})`);
} finally {
  await b.close();
}

const editTable = edits.map(
  ({ n, step, what, cells, canvases, times }) =>
    `| ${n} | ${step}: ${what} | ${cells} cells${canvases ? ` + ${canvases} canvases` : ''} | ${ms(median(times.script))} | ${ms(median(times.layout))} | ${ms(quantile(times.layout, 0.9))} | ${ms(median(times.frame))} |`,
);
const stepTable = steps.map(
  ({ n, times }) =>
    `| ${n} | ${ms(median(times.script))} | ${ms(median(times.layout))} | ${ms(quantile(times.layout, 0.9))} | ${ms(Math.max(...times.layout))} |`,
);
const md = `# UI latency: an edit, a step, a cold start

Measured by \`node bench/ui-latency.mjs\` (report only, nothing is asserted). Targets (README,
"Performance"): an edit at n ≤ 64 recomputes and re-renders within one frame (16 ms
script + layout, median); stepping stays within one frame at every size; cold start to the worked
example's numbers ≤ 500 ms from the hosted build.

- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, shared with other jobs (load average ${loadBefore.toFixed(1)} before the run, ${os.loadavg()[0].toFixed(1)} after: a load above 2 on 2 cores slows every figure here); ${info}; headless, software rendering.
- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.
- Input: random preset, mode "from X" (X is n×${D}, W is ${D}×${D}), seed 11. n > 16 draws n×n matrices as canvas heatmaps.

## One edit (X[0][0]), ${REPS} edits per row after ${WARMUP} warm-up edits

*script*: the \`input\` handler (parse → state → wasm projections + attentionSteps → every view,
the map's thumbnails included). *+ layout*: plus the style/layout it causes. *next frame*: until
the next animation frame has run (includes waiting for the frame clock: an upper bound).

| n | step shown | rendered | script median (ms) | + layout median (ms) | + layout p90 (ms) | next frame median (ms) |
|---|---|---|---|---|---|---|
${editTable.join('\n')}

## One step (a click on "下一步" through the nine steps, then the map back to step 1)

${(STEP_ROUNDS - 1) * 9} steps per size after one warm-up round; the motion between steps on. The
step's whole stage is rebuilt (its matrices, formula, switches), the map marks the new step; most of
the time is the style and layout of the new stage (up to 1,792 table cells at n = 16 on step 2).

| n | script median (ms) | + layout median (ms) | + layout p90 (ms) | + layout max (ms) |
|---|---|---|---|---|
${stepTable.join('\n')}

## Cold start (hosted build, dist/site behind python3 -m http.server, a fresh context each time)

From the navigation's start to the worked example's 6.698 in the DOM at step 9, ${COLD_RUNS} runs:
median **${ms(median(cold))} ms** (min ${ms(Math.min(...cold))}, max ${ms(Math.max(...cold))}; ${cold.map((x) => x.toFixed(0)).join(', ')}).
`;
fs.writeFileSync(new URL('./ui-latency.md', import.meta.url), md);
console.log('wrote bench/ui-latency.md');
