// The efficiency lab's shared heads, linear attention and costs (web/src/features/efficiency-lab/:
// efficiency-shared-heads.js, efficiency-linear.js, efficiency-costs.js) on the real wasm core,
// read like the article's worked example Q = K = I₂, V = 10·I₂: what the panels show is computed —
// grouped attention equal to multi-head attention with each group's K, V repeated, the KV cache
// ÷ h/g, linear attention's two orders equal up to rounding, the KL divergence from softmax's
// weights — and the measurements' arithmetic: slopes, the crossover, a short run in the labs' worker.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine } from '../../web/src/engine.js';
import {
  sharedHeadsInputs,
  sharedHeads,
  sharedKv,
  sharesEvenly,
  groupOf,
  kvCacheBytes,
  columns,
  sideBySide,
} from '../../web/src/features/efficiency-lab/efficiency-shared-heads.js';
import { rowDivergence, linearAttentionLab } from '../../web/src/features/efficiency-lab/efficiency-linear.js';
import {
  fitSlope,
  slopes,
  crossover,
  median,
  planSteps,
  runEfficiencyCosts,
  memoryRows,
  SHORT_COST_PLAN,
  EFFICIENCY_COST_PLAN,
  COMPUTE_BOUND_FACTOR,
  RUNS,
} from '../../web/src/features/efficiency-lab/efficiency-costs.js';
import { startLabRun } from '../../web/src/labs/lab-run.js';
import { bundleLabsWorker } from '../../scripts/lib/labs-worker.mjs';
import { nodeWorker } from './node-worker.mjs';

let engine;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes }, scalar: false });
});

const matrix = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float32Array.from(rows.flat()) });
const rowsOf = (m) =>
  Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
const close = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
const closeRows = (m, expected, tolerance, what) =>
  rowsOf(m).forEach((row, i) => row.forEach((x, j) => close(x, expected[i][j], tolerance, `${what}[${i}][${j}]`)));

// The article's worked example.
const I2 = matrix([
  [1, 0],
  [0, 1],
]);
const example = {
  q: I2,
  k: I2,
  v: matrix([
    [10, 0],
    [0, 10],
  ]),
};
const e = Math.E;

test('columns and sideBySide take a matrix apart into head blocks and put it back', () => {
  const m = matrix([
    [1, 2, 3, 4],
    [5, 6, 7, 8],
  ]);
  assert.deepEqual(rowsOf(columns(m, 2, 2)), [
    [3, 4],
    [7, 8],
  ]);
  assert.deepEqual(rowsOf(sideBySide([columns(m, 0, 1), columns(m, 1, 3)])), rowsOf(m));
});

test('groups: query head i reads key–value head ⌊i·g/h⌋; g must divide h; a group’s K is the mean of its heads’ K', () => {
  assert.deepEqual(
    Array.from({ length: 4 }, (_, i) => groupOf(i, 4, 2)),
    [0, 0, 1, 1],
  );
  assert.deepEqual(
    Array.from({ length: 6 }, (_, i) => groupOf(i, 6, 3)),
    [0, 0, 1, 1, 2, 2],
  );
  assert.ok(sharesEvenly(8, 2) && sharesEvenly(3, 3) && !sharesEvenly(4, 3) && !sharesEvenly(2, 4));
  const k = matrix([
    [1, 3, 10, 20],
    [2, 4, 30, 40],
  ]);
  assert.deepEqual(rowsOf(sharedKv(k, 4, 2)), [
    [2, 15],
    [3, 35],
  ]);
  assert.deepEqual(rowsOf(sharedKv(k, 4, 4)), rowsOf(k));
  assert.throws(
    () => sharedHeads(engine, sharedHeadsInputs(example, { heads: 2, seed: 1 }), { heads: 2, kvHeads: 3 }),
    RangeError,
  );
});

test('the worked example in two heads of d = 1: MQA gives 5 everywhere, each head’s own K, V gives e/(e+1)·10', () => {
  const inputs = sharedHeadsInputs(example, { heads: 2, seed: 1 });
  assert.equal(inputs.source, 'reader');
  assert.equal(inputs.dk, 1);
  const lab = sharedHeads(engine, inputs, { heads: 2, kvHeads: 1 });
  // One shared key–value head: K = [0.5, 0.5], V = [5, 5] — every key alike, every weight ½.
  assert.deepEqual(rowsOf(lab.kShared), [[0.5], [0.5]]);
  assert.deepEqual(rowsOf(lab.vShared), [[5], [5]]);
  closeRows(
    lab.grouped,
    [
      [5, 5],
      [5, 5],
    ],
    1e-5,
    'grouped',
  );
  // Each head its own K, V: head 1 sees q₁·k₁ = 1 against 0 → weights e/(e+1), 1/(e+1).
  const high = (10 * e) / (e + 1);
  closeRows(
    lab.full,
    [
      [high, 5],
      [5, high],
    ],
    1e-4,
    'full',
  );
  // Computed equal to the heads one by one with the group's K, V repeated…
  assert.equal(lab.equal.differing, 0);
  assert.deepEqual(rowsOf(lab.grouped), rowsOf(lab.repeated));
  // …and the price of sharing, 10·e/(e+1) − 5 ≈ 2.31, measured.
  close(lab.price.largest, high - 5, 1e-4, 'price');
  // Head 1's row 2 and head 2's row 1 score every key 0 with their own K too: still 5.
  assert.equal(lab.price.differing, 2);
  // The cache: n = 2 positions, (d_k + d_v) = 2 numbers of 4 bytes per key–value head.
  assert.deepEqual(lab.bytes, { full: 2 * 2 * 2 * 4, shared: 2 * 1 * 2 * 4 });
  assert.equal(lab.ratio, 2);
});

test('h = g is multi-head attention: nothing shared, the same output value for value', () => {
  const lab = sharedHeads(engine, sharedHeadsInputs(example, { heads: 2, seed: 1 }), { heads: 2, kvHeads: 2 });
  assert.equal(lab.price.differing, 0);
  assert.equal(lab.equal.differing, 0);
  assert.equal(lab.ratio, 1);
});

test('random inputs where d_k does not split into h heads: GQA equal to the repeated heads, the cache ÷ h/g', () => {
  const inputs = sharedHeadsInputs(example, { heads: 8, seed: 3 });
  assert.equal(inputs.source, 'random');
  assert.equal(inputs.q.cols, 8 * 2);
  assert.deepEqual(inputs, sharedHeadsInputs(example, { heads: 8, seed: 3 }), 'seeded: the same inputs again');
  for (const kvHeads of [1, 2, 4, 8]) {
    const lab = sharedHeads(engine, inputs, { heads: 8, kvHeads });
    assert.equal(lab.equal.differing, 0, `g = ${kvHeads}`);
    assert.equal(lab.ratio, 8 / kvHeads);
    assert.equal(lab.bytes.shared, kvCacheBytes({ n: 2, kvHeads, dk: 2, dv: 2 }));
    if (kvHeads < 8) assert.ok(lab.price.largest > 0, `g = ${kvHeads}: sharing changes the output`);
  }
});

test('KL divergence: 0 for equal rows, positive otherwise, ∞ where the second row has 0 where the first does not', () => {
  const p = matrix([
    [0.5, 0.5],
    [1, 0],
  ]);
  assert.deepEqual(Array.from(rowDivergence(p, p)), [0, 0]);
  const q = matrix([
    [0.25, 0.75],
    [0.5, 0.5],
  ]);
  const kl = rowDivergence(p, q);
  close(kl[0], 0.5 * Math.log(2) + 0.5 * Math.log(2 / 3), 1e-7, 'row 1');
  close(kl[1], Math.log(2), 1e-7, 'row 2 (the 0 in p adds nothing)');
  assert.equal(rowDivergence(q, p)[1], Infinity);
});

test('linear attention on the worked example: φ(Q) = [[2,1],[1,2]], weights 5/9 and 4/9, both orders ≈ [[5.56,4.44],[4.44,5.56]]', () => {
  const lab = linearAttentionLab(engine, example);
  closeRows(
    lab.weights,
    [
      [5 / 9, 4 / 9],
      [4 / 9, 5 / 9],
    ],
    1e-6,
    'A',
  );
  const expected = [
    [50 / 9, 40 / 9],
    [40 / 9, 50 / 9],
  ];
  closeRows(lab.quadratic, expected, 1e-5, 'quadratic');
  closeRows(lab.linear, expected, 1e-5, 'linear');
  assert.ok(lab.orders.largest <= 1e-5, `the two orders differ by ${lab.orders.largest}`);
  // The core's counts: C·(d_k + d_v + 1) = 4·5 and (n_k + n_q)·d_k·(d_v + 1) = 4·2·3.
  assert.deepEqual({ ...lab.multiplyAdds }, { quadratic: 20, linear: 24 });
  // Softmax's weights are the article's A ≈ [[0.67, 0.33], [0.33, 0.67]]; their KL from [5/9, 4/9].
  closeRows(
    lab.softmax.weights,
    [
      [0.6698, 0.3302],
      [0.3302, 0.6698],
    ],
    1e-4,
    'softmax A',
  );
  const p = 1 / (1 + Math.exp(-Math.SQRT1_2));
  const kl = p * Math.log(p / (5 / 9)) + (1 - p) * Math.log((1 - p) / (4 / 9));
  for (const row of lab.divergence) close(row, kl, 1e-5, 'KL');
  // …and the outputs: 6.698 against 5.556.
  close(lab.output.largest, 10 * p - 50 / 9, 1e-4, 'output');
});

test('linear attention: at n ≫ d the linear order does fewer multiply-adds, the orders still agree to rounding', () => {
  const n = 64,
    d = 4;
  let seed = 7;
  const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const random = () => ({ rows: n, cols: d, data: Float32Array.from({ length: n * d }, next) });
  const lab = linearAttentionLab(engine, { q: random(), k: random(), v: random() });
  assert.ok(lab.multiplyAdds.linear < lab.multiplyAdds.quadratic);
  assert.ok(lab.orders.largest < 1e-5, `the two orders differ by ${lab.orders.largest}`);
  assert.ok(lab.divergence.every((kl) => kl >= 0));
});

test('fitSlope reads 1 for t ∝ n and 2 for t ∝ n²; slopes() fits only where compute dominates a fixed cost', () => {
  const sizes = [64, 128, 256, 512, 1024, 2048];
  assert.ok(Math.abs(fitSlope(sizes.map((n) => ({ n, ms: 0.01 * n }))) - 1) < 1e-12);
  assert.ok(Math.abs(fitSlope(sizes.map((n) => ({ n, ms: 3e-6 * n * n }))) - 2) < 1e-12);
  assert.equal(fitSlope([{ n: 64, ms: 1 }]), null);
  // A fixed 0.5 ms per call flattens the small sizes: no size reaches 16× the smallest's time, so
  // the three largest are fitted, and read nearer 1 than all six do.
  const results = sizes.map((n) => ({ type: 'measure', series: 'cached', n, ms: 0.5 + 0.001 * n }));
  const fit = slopes(results).cached;
  assert.deepEqual(fit.sizes, [512, 1024, 2048]);
  assert.ok(fit.slope > fitSlope(results));
  // Where the time grows past 16× the smallest, the fit starts there.
  const steep = sizes.map((n) => ({ type: 'measure', series: 'recompute', n, ms: n * n }));
  assert.equal(COMPUTE_BOUND_FACTOR * steep[0].ms, steep[2].ms);
  assert.deepEqual(slopes(steep).recompute.sizes, [256, 512, 1024, 2048]);
  assert.equal(slopes(steep).recompute.slope, 2);
  assert.equal(slopes([]).window, null);
});

test('crossover: interpolated on log–log axes where the linear order gets and stays ahead', () => {
  const at = (pairs) =>
    pairs.flatMap(([n, quadratic, linear]) => [
      { type: 'measure', series: 'quadratic', n, ms: quadratic },
      { type: 'measure', series: 'linear', n, ms: linear },
    ]);
  // ratio 0.5 at 32, 2 at 64: halfway in log, n* = √(32·64) ≈ 45.25
  const mid = crossover(
    at([
      [16, 1, 4],
      [32, 1, 2],
      [64, 2, 1],
      [128, 8, 1],
    ]),
  );
  close(mid.n, Math.sqrt(32 * 64), 1e-9, 'n*');
  assert.deepEqual(mid.between, [32, 64]);
  assert.deepEqual(
    crossover(
      at([
        [16, 2, 1],
        [32, 4, 1],
      ]),
    ),
    { below: 16 },
  );
  assert.deepEqual(
    crossover(
      at([
        [16, 1, 2],
        [32, 1, 2],
      ]),
    ),
    { above: 32 },
  );
  // ahead at 16 by chance, behind at 32, ahead from 64: the crossover is the last one
  assert.deepEqual(
    crossover(
      at([
        [16, 2, 1],
        [32, 1, 2],
        [64, 2, 1],
      ]),
    ).between,
    [32, 64],
  );
  assert.equal(crossover(at([[16, 1, 2]])), null);
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2);
});

test('the tiles’ working set n·(d + B_c)·4 against n²·4 up to n = 16,384, beside the core’s count for its tiles', () => {
  const rows = memoryRows(engine);
  assert.deepEqual(
    rows.map((row) => row.n),
    [1024, 2048, 4096, 8192, 16384],
  );
  const last = rows.at(-1);
  assert.equal(last.scores, 16384 * 16384 * 4); // 1 GiB
  assert.equal(last.tiles, 16384 * (64 + 64) * 4); // 8 MiB
  // The core's tiles without their trace: O(n·d), under the limit; with it, every tile's m, ℓ, α
  // and O — n·(n/64)·(64 + 3) floats, more than the scores — over it, as attentionTiled refuses.
  assert.ok(last.tiled < last.scores / 16 && last.tiled <= last.limit, `tiled ${last.tiled}`);
  assert.ok(last.traced >= 16384 * 256 * 67 * 4 && last.traced > last.limit, `traced ${last.traced}`);
  const column = (n) => ({ rows: n, cols: 64, data: new Float32Array(n * 64) });
  const x = { q: column(16384), k: column(16384), v: column(16384), tileRows: 64, tileCols: 64 };
  assert.throws(
    () => engine.attentionTiled(x),
    (e) => e.code === 'too_much_memory' && e.params.bytes === last.traced,
  );
  // Doubling n at most doubles the tiles without their trace, and about quadruples the trace.
  assert.ok(rows[1].tiled / rows[0].tiled <= 2 && rows[1].traced / rows[0].traced > 3.5);
});

// Small sizes, so that the runs below take a moment: their events, not their times, are tested.
const TINY_PLAN = {
  ...SHORT_COST_PLAN,
  warmUpMs: 5,
  decode: { sizes: [64, 128, 256], recomputeMax: 256 },
  window: { w: 8, sizes: [64, 128, 256], causalMax: 128 },
  linear: { sizes: [8, 16, 32] },
};

test('a short run on the page’s thread: every step measured or skipped, the slopes and the crossover at the end', async () => {
  const plan = TINY_PLAN;
  const events = [...runEfficiencyCosts(engine, { plan })].filter((event) => event.type !== 'tick');
  const done = events.at(-1);
  assert.equal(done.type, 'done');
  assert.equal(done.results.length, planSteps(plan).length);
  const skipped = done.results.filter((r) => r.type === 'skipped');
  assert.deepEqual(skipped, [{ type: 'skipped', series: 'causal', n: 256, reason: 'capped' }]);
  const measured = done.results.filter((r) => r.type === 'measure');
  assert.ok(measured.every((r) => r.ms > 0 && r.runs.length === RUNS));
  for (const series of ['cached', 'recompute', 'window', 'causal', 'quadratic', 'linear'])
    assert.ok(Number.isFinite(done.slopes[series]?.slope), series);
  assert.ok(done.crossover !== null);
});

test('the full plan: n up to 16,384 for the window, the recompute capped where a call takes seconds', () => {
  const steps = planSteps(EFFICIENCY_COST_PLAN);
  assert.equal(Math.max(...steps.map((step) => step.n)), 16384);
  assert.ok(steps.some((step) => step.series === 'recompute' && step.n === 8192));
});

test('in the labs’ worker (the real bundle, in a Node thread): ready, then the same events, ending with done', async () => {
  const workerSource = await bundleLabsWorker();
  const plan = TINY_PLAN;
  const run = startLabRun({
    engine,
    workerSource,
    request: { type: 'efficiency-run', plan },
    generate: () => {
      throw new Error('not on the page’s thread');
    },
    createWorker: nodeWorker,
  });
  const events = [];
  for await (const event of run) events.push(event);
  assert.deepEqual(events[0], { type: 'start', mode: 'worker', build: 'simd' });
  assert.equal(events.at(-1).type, 'done');
  const summary = await run.done;
  assert.equal(summary.results.length, planSteps(plan).length);
  assert.ok(Number.isFinite(summary.slopes.window.slope));
});
