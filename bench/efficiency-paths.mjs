// efficiency-paths.mjs — issue 30's cost claims for three efficient paths, in Node on the SIMD128
// build (the module every page loads), each figure the median of --runs runs (≥ 3) with its lowest
// and highest:
//   1. attentionTiled (64×64 tiles, the lab's largest) against attentionStreaming at n = 1024,
//      2048, 4096, d = 64: without its trace (trace: false, the kernel alone) and with it;
//   2. attentionDecode per token at n = 4096 against recomputing the whole causal attention of
//      the 4,096 tokens, as generating the last one without a cache would;
//   3. attentionWindow at w = 256, n = 16,384 against the full causal attention (attention with
//      mask 'causal', the fast path).
// Wall clock and this process's CPU time (the machine is shared: the load average takes out of
// the first, hardly of the second). Writes bench/efficiency-paths.md (or --out DIR) and prints
// the figures as JSON. Usage: node bench/efficiency-paths.mjs [--runs N] [--quick] [--out DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inputs } from './inputs.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const quick = args.includes('--quick');
const RUNS = Math.max(3, Number(option('--runs', 3)));
const OUT = option('--out', path.join(root, 'bench'));
const D = 64;

const { default: create } = await import(pathToFileURL(path.join(root, 'wasm', 'attention.mjs')));
const attn = await create({ wasmBinary: fs.readFileSync(path.join(root, 'build', 'wasm', 'attention_core.wasm')) });

// One call's wall clock and CPU time in ms, after one call to warm up.
function measure(call) {
  call();
  const wall0 = performance.now(),
    cpu0 = process.cpuUsage();
  call();
  const cpu = process.cpuUsage(cpu0);
  return { wall: performance.now() - wall0, cpu: (cpu.user + cpu.system) / 1000 };
}
// The median and spread of `runs` measurements of each call, the calls interleaved within a run so
// that a noisy spell hits them alike.
function compare(calls) {
  const samples = Object.fromEntries(Object.keys(calls).map((name) => [name, []]));
  for (let run = 0; run < RUNS; run++)
    for (const [name, call] of Object.entries(calls)) samples[name].push(measure(call));
  return Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [name, { wall: summary(list, 'wall'), cpu: summary(list, 'cpu') }]),
  );
}
function summary(list, key) {
  const values = list.map((s) => s[key]).sort((a, b) => a - b);
  return { median: values[Math.floor(values.length / 2)], low: values[0], high: values.at(-1), runs: values };
}
const load = () => os.loadavg()[0].toFixed(1);

const results = { runs: RUNS, d: D, node: process.version, started: new Date().toISOString(), load: [load()] };

// 1. Tiled (trace included) against streaming.
results.tiled = [];
for (const n of quick ? [256, 512] : [1024, 2048, 4096]) {
  const x = inputs(n, D);
  const timed = compare({
    streaming: () => attn.attentionStreaming(x),
    tiled: () => attn.attentionTiled({ ...x, tileRows: 64, tileCols: 64, trace: false }),
    traced: () => attn.attentionTiled({ ...x, tileRows: 64, tileCols: 64 }),
  });
  results.tiled.push({ n, ...timed });
}
results.load.push(load());

// 2. Decode per token: one generation of n tokens ÷ n, against one full causal attention of n.
{
  const n = quick ? 512 : 4096;
  const x = inputs(n, D);
  const timed = compare({
    decode: () => attn.attentionDecode(x),
    recompute: () => attn.attention({ ...x, mask: 'causal' }),
  });
  const perToken = (s) => ({
    ...s,
    median: s.median / n,
    low: s.low / n,
    high: s.high / n,
    runs: s.runs.map((t) => t / n),
  });
  results.decode = {
    n,
    decodePerToken: { wall: perToken(timed.decode.wall), cpu: perToken(timed.decode.cpu) },
    recompute: timed.recompute,
  };
}
results.load.push(load());

// 3. The window against the full causal attention.
{
  const n = quick ? 2048 : 16384,
    w = 256;
  const x = inputs(n, D);
  results.window = {
    n,
    w,
    ...compare({
      window: () => attn.attentionWindow({ ...x, window: w }),
      causal: () => attn.attention({ ...x, mask: 'causal' }),
    }),
  };
}
results.load.push(load());

const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(3));
const cell = (s) => `**${ms(s.median)}** [${ms(s.low)}, ${ms(s.high)}]`;
const ratio = (a, b) => (a.median / b.median).toFixed(2);
const lines = [
  '# Efficiency paths (issue 30): tiles, decoding, a window',
  '',
  `Written by \`node bench/efficiency-paths.mjs\` (\`npm run bench\` runs it). Node ${results.node}, the SIMD128 build,`,
  `d_k = d_v = ${D}, inputs of bench/inputs.mjs; ${RUNS} runs, each figure the **median** [lowest, highest] in ms, wall clock`,
  `and this process's CPU time. ${results.started.slice(0, 16).replace('T', ' ')} UTC, load average ${results.load.join(' → ')} (2 shared cores).`,
  '',
  '## attentionTiled (64×64 tiles) against attentionStreaming',
  '',
  'Tiled without its trace (`trace: false`: the kernel alone) and with it (every tile’s m, ℓ, α and O: n_q·⌈n_k/64⌉·67',
  'floats, as many as the scores, copied out to JS).',
  '',
  '| n | streaming | tiled | tiled ÷ streaming | tiled with trace | with trace ÷ streaming |',
  '|---|---|---|---|---|---|',
  ...results.tiled.flatMap((r) =>
    ['wall', 'cpu'].map(
      (k) =>
        `| ${r.n} (${k === 'cpu' ? 'CPU' : 'wall'}) | ${cell(r.streaming[k])} | ${cell(r.tiled[k])} | ${ratio(r.tiled[k], r.streaming[k])} | ${cell(r.traced[k])} | ${ratio(r.traced[k], r.streaming[k])} |`,
    ),
  ),
  '',
  '## attentionDecode per token against recomputing the causal attention',
  '',
  `n = ${results.decode.n}: one generation of n tokens through the cache ÷ n, against one \`attention\` (mask 'causal') of all n tokens.`,
  '',
  '| | decode per token | full recompute | recompute ÷ decode |',
  '|---|---|---|---|',
  `| wall | ${cell(results.decode.decodePerToken.wall)} | ${cell(results.decode.recompute.wall)} | ${ratio(results.decode.recompute.wall, results.decode.decodePerToken.wall)} |`,
  `| CPU | ${cell(results.decode.decodePerToken.cpu)} | ${cell(results.decode.recompute.cpu)} | ${ratio(results.decode.recompute.cpu, results.decode.decodePerToken.cpu)} |`,
  '',
  '## attentionWindow against the full causal attention',
  '',
  `n = ${results.window.n}, w = ${results.window.w}.`,
  '',
  '| | window | full causal | causal ÷ window |',
  '|---|---|---|---|',
  `| wall | ${cell(results.window.window.wall)} | ${cell(results.window.causal.wall)} | ${ratio(results.window.causal.wall, results.window.window.wall)} |`,
  `| CPU | ${cell(results.window.window.cpu)} | ${cell(results.window.causal.cpu)} | ${ratio(results.window.causal.cpu, results.window.window.cpu)} |`,
  '',
];
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'efficiency-paths.md'), lines.join('\n'));
console.log(JSON.stringify(results, null, 1));
