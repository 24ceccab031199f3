// training.mjs — training steps per second in Node (issue 17, item 7): forward, backward and Adam,
// batch 32, in the SIMD128 build through the public API (createTrainer), at two sizes:
//   n = 8,  d = 16, 1 head   (dToken 16, dHead 16)
//   n = 16, d = 32, 2 heads  (dToken 32, dHead 16 each: d split across the heads)
// on reverse, one-hot positions (so d_model = dToken + n). Each run: a fresh trainer, 20 steps of
// warm-up, then steps timed in one call until at least 1 s has passed; the figure is the median of
// RUNS runs. The machine's load average is printed beside it: on a shared machine it matters.
//
//   node bench/training.mjs [--runs N]     → prints a table and writes bench/training.md

import fs from 'node:fs';
import os from 'node:os';
import { loadAttention } from '../tests/node/load-module.mjs';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const SIZES = [
  { label: 'n = 8, d = 16, 1 head', config: { length: 8, symbols: 8, dToken: 16, dHead: 16, heads: 1 } },
  { label: 'n = 16, d = 32, 2 heads', config: { length: 16, symbols: 16, dToken: 32, dHead: 16, heads: 2 } },
];
const MIN_MS = 1000;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function stepsPerSecond(attn, config) {
  const trainer = attn.createTrainer({ task: 'reverse', batch: 32, seed: 7, ...config });
  trainer.step(20);
  let steps = 0;
  let chunk = 10;
  const start = performance.now();
  while (performance.now() - start < MIN_MS) {
    trainer.step(chunk);
    steps += chunk;
    chunk = Math.min(chunk * 2, 500);
  }
  const seconds = (performance.now() - start) / 1000;
  trainer.dispose();
  return steps / seconds;
}

const attn = await loadAttention('simd');
const load = os.loadavg()[0].toFixed(2);
const rows = SIZES.map(({ label, config }) => {
  const runs = Array.from({ length: RUNS }, () => stepsPerSecond(attn, config));
  return { label, median: median(runs), runs };
});
const loadAfter = os.loadavg()[0].toFixed(2);
const lines = [
  '# Training steps per second (Node, SIMD128 build)',
  '',
  `Written by \`node bench/training.mjs\` on ${new Date().toISOString().slice(0, 10)}, Node ${process.version},`,
  `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}); load average ${load} before, ${loadAfter} after.`,
  'Batch 32, reverse, Adam; forward, backward and the optimizer step. Median of ' + RUNS + ' runs.',
  '',
  '| size | steps/s (median) | runs |',
  '|---|---|---|',
  ...rows.map((r) => `| ${r.label} | ${Math.round(r.median)} | ${r.runs.map(Math.round).join(', ')} |`),
  '',
];
console.log(lines.join('\n'));
fs.writeFileSync(new URL('./training.md', import.meta.url), lines.join('\n'));
