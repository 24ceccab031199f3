// Measures (reports, never asserts) how long the page takes from one cell edit to every matrix of
// the current step re-rendered, in Debian's chromium, at n = 8, 16 and 32. Target: one frame
// (16 ms) median. Writes bench/ui-latency.md.   Run: node bench/ui-latency.mjs   (after a build)
//
// One edit = set X[0][0] and fire its `input` event, exactly as typing does. The handler is
// synchronous (parse → state → wasm → views), so three times are taken:
//   script        — until the handler returns: every intermediate computed, every view in the DOM;
//   + layout      — plus the style and layout it causes (forced by reading a layout property);
//   next frame    — until the browser's next animation frame after the edit has run (an upper bound
//                   that includes waiting for the frame clock).

import fs from 'node:fs';
import os from 'node:os';
import { openBrowser } from '../tests/browser/helpers.mjs';

const SIZES = [8, 16, 32];
const STEPS = [[2, 'projections (X, W_Q/W_K/W_V, Q, K, V)'], [9, 'output (A, V, AV)']];
const WARMUP = 5;
const REPS = 60;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const ms = (x) => x.toFixed(2);

const b = await openBrowser();
const rows = [];
let info = '';
try {
  for (const n of SIZES) {
    for (const [step, what] of STEPS) {
      const d = 16;
      const page = await b.open(`#preset=random&mode=x&n=${n}&d=${d}&dk=${d}&dv=${d}&seed=11&step=${step}`);
      info ||= await page.evaluate(() => `${navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent}; ${document.getElementById('footer-text').textContent.match(/\(([^)]*)\)$/)?.[1] ?? ''}`);
      const times = await page.evaluate(async ({ warmup, reps }) => {
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
          if (r >= warmup) { out.script.push(t1 - t0); out.layout.push(t2 - t0); out.frame.push(t3 - t0); }
        }
        return out;
      }, { warmup: WARMUP, reps: REPS });
      const cells = await page.locator('#stage-body td.c').count();
      const canvases = await page.locator('#stage-body canvas').count();
      if (page.problems.length) throw new Error(page.problems.join('\n'));
      rows.push({ n, d, step, what, cells, canvases, times });
      console.log(`n=${n} step ${step}: script ${ms(median(times.script))} ms, +layout ${ms(median(times.layout))} ms, next frame ${ms(median(times.frame))} ms (median of ${REPS})`);
      await page.context().close();
    }
  }
} finally {
  await b.close();
}

const table = rows.map(({ n, d, step, what, cells, canvases, times }) =>
  `| ${n} | ${d} | ${step}: ${what} | ${cells} cells${canvases ? ` + ${canvases} heatmaps` : ''} | ${ms(median(times.script))} | ${ms(median(times.layout))} | ${ms(quantile(times.layout, 0.9))} | ${ms(median(times.frame))} |`);
const md = `# UI latency: one cell edit → every matrix re-rendered

Measured by \`node bench/ui-latency.mjs\` (report only, nothing is asserted). Target (README, "Performance"):
an edit recomputes and re-renders every intermediate within one frame (16 ms, median) for n ≤ 32.

- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores; ${info}; headless, software rendering.
- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. ${REPS} edits per row after ${WARMUP} warm-up edits.
- Input: random preset, mode "from X" (X is n×${16}, W is 16×16), edit X[0][0]. n > 16 draws n×n matrices as heatmaps.
- *script*: the \`input\` handler (parse → state → wasm projections + attentionSteps → all views into the DOM).
  *+ layout*: plus the style/layout it causes. *next frame*: until the next animation frame has run
  (includes waiting for the frame clock, so it is an upper bound).

| n | d = d_k = d_v | step shown | rendered | script median (ms) | + layout median (ms) | + layout p90 (ms) | next frame median (ms) |
|---|---|---|---|---|---|---|---|
${table.join('\n')}
`;
fs.writeFileSync(new URL('./ui-latency.md', import.meta.url), md);
console.log('wrote bench/ui-latency.md');
