// linear-crossover.mjs — where linear attention's second order starts to win (issue 30): the time of
// attentionLinear's quadratic order (φ(Q)φ(K)ᵀ)V against its linear order φ(Q)(φ(K)ᵀV), each run
// alone (order: 'quadratic' / 'linear'), over n at d = 16 and d = 64, in Node on the SIMD build,
// through the public API as the efficiency lab calls it. Per run, n* is where the ratio
// t_quadratic / t_linear crosses 1 for good (interpolated in log n between the two sizes around
// it); the report gives the median n* of the runs and their spread, beside the n* that the
// multiply-add counts alone predict (core/efficiency_shared.hpp: 2d(d+1)/(2d+1) ≈ d, causal ≈ 2d).
//   node bench/linear-crossover.mjs [--runs N] [--quick] [--out DIR]
// Writes DIR/linear-crossover.md and .json (DIR: bench, as bench/run.sh's report).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// Seeded inputs in [−1, 1) (xorshift32), the same on every run: the Node tests' own generator.
import { random } from '../tests/node/load-module.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const runs = Number(option('--runs', quick ? 1 : 3));
const out = path.resolve(ROOT, option('--out', 'bench'));
const DIMS = [16, 64];
const CASES = DIMS.flatMap((d) => [false, true].map((causal) => ({ d, causal })));
// n from 4 to 16·d, two sizes per octave.
const sizes = (d) => {
  const out = [];
  for (let e = 4; e <= 4 + 2 * Math.log2(4 * d); e++) out.push(Math.round(2 ** (e / 2)));
  return [...new Set(out)];
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// How many calls make a batch of ≥ 3 ms (one call at large n).
function batchSize(call) {
  call(); // warm-up
  let batch = 1;
  for (let t0 = performance.now(); performance.now() - t0 < 3; batch *= 2) for (let i = 0; i < batch; i++) call();
  return batch;
}
function timeBatch(call, batch) {
  const t0 = performance.now();
  for (let i = 0; i < batch; i++) call();
  return (performance.now() - t0) / batch;
}

// The two orders' times per call, in ms, and their ratio: batches of the two alternate, so that a
// noisy spell on this shared machine slows both alike; each is the median of its batches, the
// ratio the median of the pairs' ratios.
function timeOrders(quadraticCall, linearCall) {
  const [bq, bl] = [batchSize(quadraticCall), batchSize(linearCall)];
  const q = [],
    l = [];
  for (let s = 0; s < (quick ? 3 : 9); s++) {
    q.push(timeBatch(quadraticCall, bq));
    l.push(timeBatch(linearCall, bl));
  }
  return { quadratic: median(q), linear: median(l), ratio: median(q.map((t, s) => t / l[s])) };
}

// Where ln(t_q / t_l) crosses 0 for the last time, interpolated in ln n; null if never, the
// first size (as "≤") if the linear order wins throughout.
function crossover(points) {
  const r = points.map((p) => Math.log(p.ratio));
  let last = r.length - 1;
  if (r[last] <= 0) return null;
  while (last > 0 && r[last - 1] > 0) last--;
  if (last === 0) return { n: points[0].n, atMost: true };
  const [a, b] = [points[last - 1].n, points[last].n];
  const t = r[last - 1] / (r[last - 1] - r[last]);
  return { n: Math.exp(Math.log(a) + t * (Math.log(b) - Math.log(a))), atMost: false };
}

// The n* of the counts: the first n at which the linear order does fewer multiply-adds.
function countCrossover(attn, d, causal) {
  for (let n = 1; ; n++) {
    const m = random(n, d, 1);
    const { multiplyAdds } = attn.attentionLinear({ q: m, k: m, v: m, causal, order: 'linear' });
    if (multiplyAdds.linear < multiplyAdds.quadratic) return n;
  }
}

const { default: create } = await import(pathToFileURL(path.join(ROOT, 'wasm', 'attention.mjs')));
const attn = await create({ wasmBinary: fs.readFileSync(path.join(ROOT, 'build', 'wasm', 'attention_core.wasm')) });

const results = CASES.map(({ d, causal }) => ({ d, causal, counts: countCrossover(attn, d, causal), runs: [] }));
for (let run = 0; run < runs; run++)
  for (const c of results) {
    const points = sizes(c.d).map((n) => {
      const [q, k, v] = [1, 2, 3].map((seed) => random(n, c.d, seed + n));
      const call = (order) => () => attn.attentionLinear({ q, k, v, causal: c.causal, order });
      return { n, ...timeOrders(call('quadratic'), call('linear')) };
    });
    c.runs.push({ crossover: crossover(points), points });
    process.stderr.write(`[linear-crossover] run ${run + 1}/${runs}, d = ${c.d}, causal ${c.causal}\n`);
  }

const fmt = (x) => (x === null ? 'never' : `${x.atMost ? '≤ ' : ''}${x.n.toFixed(0)}`);
const lines = [
  '# Linear attention: where φ(Q)(φ(K)ᵀV) overtakes (φ(Q)φ(K)ᵀ)V',
  '',
  `bench/linear-crossover.mjs, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, SIMD build, ` +
    `${runs} run(s), load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}. ` +
    'attentionLinear with order "quadratic" and "linear" timed alone on seeded n×d inputs (n_q = n_k = n, ' +
    "d_k = d_v = d), batches of the two alternating, the ratio the median of the pairs' ratios; n* where t_quadratic / t_linear crosses 1, " +
    'interpolated in log n. Counted: the first n at which the linear order does fewer multiply-adds.',
  '',
  '| d | causal | n* counted | n* measured, median | spread (min–max) | t_quadratic / t_linear at the largest n |',
  '|---|---|---|---|---|---|',
];
for (const c of results) {
  const found = c.runs.map((r) => r.crossover).filter((x) => x !== null);
  const ns = found.map((x) => x.n);
  const last = c.runs.map((r) => r.points.at(-1));
  const ratio = median(last.map((p) => p.ratio));
  lines.push(
    `| ${c.d} | ${c.causal ? 'yes' : 'no'} | ${c.counts} | ${ns.length ? median(ns).toFixed(0) : 'never'}` +
      ` (${c.runs.map((r) => fmt(r.crossover)).join(', ')}) | ${ns.length ? `${Math.min(...ns).toFixed(0)}–${Math.max(...ns).toFixed(0)}` : '—'}` +
      ` | ${ratio.toFixed(1)} at n = ${last[0].n} |`,
  );
}
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'linear-crossover.md'), `${lines.join('\n')}\n`);
fs.writeFileSync(path.join(out, 'linear-crossover.json'), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`${lines.join('\n')}\n`);
