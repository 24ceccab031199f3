// The efficiency lab's costs, the part that measures: what each efficient path costs as n grows,
// timed in the reader's tab — the KV cache's decoding step against recomputing from scratch, the
// sliding window against the full causal attention, linear attention's two orders — and the
// tiles' working memory against the n² scores. Pure: no DOM, no Worker — efficiency-worker.js runs
// this same generator in the labs' Web Worker, or labs/lab-run.js on the page's thread in slices.
//
// A point is the median of RUNS timed batches after a warm-up (the cost lab's method: a batch
// repeats the call until it lasts BATCH_MS, so that a coarse clock still resolves it), and a
// slope is the least-squares line through (log n, log t) over the sizes where compute dominates
// the fixed cost of a call.

import { seededRandom } from '../../presets.js';
import { fitSlope } from '../../labs/loglog-fit.js';

export { fitSlope };

/**
 * What a run measures, at d = 64 (a typical head size):
 *   decode  — the step that makes token n: with the cache, the new query against the n cached
 *             K, V rows (attention of 1 query: n·d work); without it, the whole causal attention
 *             over the n tokens recomputed (n²·d work), up to recomputeMax;
 *   window  — the sliding window at a fixed w against the full causal attention (up to causalMax);
 *   linear  — attentionLinear's two orders alone, each its own call: n²·d against n·d²;
 * warmUpMs: how long each series runs at a small size before anything is timed (the browser
 * optimises hot wasm only after a while).
 */
export const EFFICIENCY_COST_PLAN = Object.freeze({
  d: 64,
  seed: 1,
  warmUpMs: 300,
  decode: Object.freeze({ sizes: Object.freeze([64, 128, 256, 512, 1024, 2048, 4096, 8192]), recomputeMax: 8192 }),
  window: Object.freeze({ w: 64, sizes: Object.freeze([256, 512, 1024, 2048, 4096, 8192, 16384]), causalMax: 8192 }),
  linear: Object.freeze({ sizes: Object.freeze([8, 16, 32, 64, 128, 256, 512, 1024]) }),
});

/** A quick plan: the same series, the n² paths on smaller sizes only (they take most of a run's time). */
export const SHORT_COST_PLAN = Object.freeze({
  ...EFFICIENCY_COST_PLAN,
  warmUpMs: 300,
  decode: Object.freeze({ sizes: Object.freeze([256, 512, 1024, 2048, 4096, 8192]), recomputeMax: 2048 }),
  window: Object.freeze({ w: 16, sizes: Object.freeze([512, 1024, 2048, 4096, 8192]), causalMax: 2048 }),
  linear: Object.freeze({ sizes: Object.freeze([16, 32, 64, 128, 256, 512, 1024]) }),
});

/**
 * The series, each with its part of the plan, the power of n its work grows with (for predicting
 * a call's time on the page's thread, and the slope the text expects), the largest n it is timed
 * at (plan → n or undefined), and the call it times on one size's inputs.
 */
export const COST_SERIES = Object.freeze({
  cached: {
    part: 'decode',
    power: 1,
    run: (engine, x) => engine.attention({ q: x.last, k: x.k, v: x.v, out: x.lastOut }),
  },
  recompute: {
    part: 'decode',
    power: 2,
    maxN: (plan) => plan.decode.recomputeMax,
    run: (engine, x) => engine.attention({ q: x.q, k: x.k, v: x.v, mask: 'causal', out: x.out }),
  },
  window: {
    part: 'window',
    power: 1,
    run: (engine, x, plan) => engine.attentionWindow({ q: x.q, k: x.k, v: x.v, window: plan.window.w }),
  },
  causal: {
    part: 'window',
    power: 2,
    maxN: (plan) => plan.window.causalMax,
    run: (engine, x) => engine.attention({ q: x.q, k: x.k, v: x.v, mask: 'causal', out: x.out }),
  },
  quadratic: {
    part: 'linear',
    power: 2,
    run: (engine, x) => engine.attentionLinear({ q: x.q, k: x.k, v: x.v, order: 'quadratic' }),
  },
  linear: {
    part: 'linear',
    power: 1,
    run: (engine, x) => engine.attentionLinear({ q: x.q, k: x.k, v: x.v, order: 'linear' }),
  },
});

/** The parts in the order they are measured and shown, each with its series. */
export const COST_PARTS = Object.freeze({
  decode: Object.freeze(['cached', 'recompute']),
  window: Object.freeze(['window', 'causal']),
  linear: Object.freeze(['quadratic', 'linear']),
});

/** Every (series, n) a plan times, in order: part by part, size by size, series by series. */
export function planSteps(plan) {
  const steps = [];
  for (const [part, series] of Object.entries(COST_PARTS))
    for (const n of plan[part].sizes) for (const name of series) steps.push({ series: name, n });
  return steps;
}

/**
 * One size's inputs: q, k, v of n×d values in [−1, 1), the same for every series of a size and
 * every run; `last`, q's last row (the token being decoded); and `out`, `lastOut`, the arrays the
 * output-only calls write into (a fresh array's memory is then no part of the time).
 */
export function costInputs(n, d, seed) {
  const next = seededRandom(seed * 1000003 + n);
  const matrix = () => ({ rows: n, cols: d, data: Float32Array.from({ length: n * d }, () => next() * 2 - 1) });
  const q = matrix();
  return {
    q,
    k: matrix(),
    v: matrix(),
    last: { rows: 1, cols: d, data: q.data.slice((n - 1) * d) },
    out: new Float32Array(n * d),
    lastOut: new Float32Array(d),
  };
}

/** The median of numbers (the lower middle one of an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Where compute dominates the fixed cost of a call (copying inputs in, the output out): the sizes
 * whose time is at least COMPUTE_BOUND_FACTOR times the smallest size's — a fixed share f bends a
 * slope s to s·(1 − f), and there f ≤ 1/16 — and at least the MIN_FITTED largest sizes.
 */
export const COMPUTE_BOUND_FACTOR = 16;
export const MIN_FITTED = 3;

/** Each series' slope over its compute-bound sizes: { [series]: { slope, sizes } | null }. */
export function slopes(results) {
  const out = {};
  for (const name of Object.keys(COST_SERIES)) {
    const points = results.filter((r) => r.type === 'measure' && r.series === name).sort((a, b) => a.n - b.n);
    const floor = COMPUTE_BOUND_FACTOR * (points[0]?.ms ?? 0);
    const bound = points.findIndex((p) => p.ms >= floor);
    const first = Math.min(Math.max(0, points.length - MIN_FITTED), bound < 0 ? points.length : bound);
    const fitted = points.slice(first);
    const slope = fitted.length >= 2 ? fitSlope(fitted) : null;
    out[name] = slope === null ? null : { slope, sizes: fitted.map((p) => p.n) };
  }
  return out;
}

/**
 * Where linear attention's second order starts to win: the n* at which the quadratic order's time
 * over the linear order's crosses 1, interpolated on log–log axes between the two measured sizes
 * around it, and only if the linear order stays ahead at every larger size measured.
 * → { n, between: [lower, upper] } | { below: smallest } (ahead from the first size) |
 *   { above: largest } (never ahead) | null (fewer than two sizes with both orders).
 */
export function crossover(results) {
  const time = (series) =>
    new Map(results.filter((r) => r.type === 'measure' && r.series === series).map((r) => [r.n, r.ms]));
  const quadratic = time('quadratic'),
    linear = time('linear');
  const sizes = [...quadratic.keys()].filter((n) => linear.has(n)).sort((a, b) => a - b);
  if (sizes.length < 2) return null;
  const ratio = (n) => quadratic.get(n) / linear.get(n); // > 1: the linear order is faster
  let from = sizes.length; // the first size from which the linear order is ahead at every size
  while (from > 0 && ratio(sizes[from - 1]) > 1) from--;
  if (from === sizes.length) return { above: sizes.at(-1) };
  if (from === 0) return { below: sizes[0] };
  const [lo, hi] = [sizes[from - 1], sizes[from]];
  const [rLo, rHi] = [Math.log(ratio(lo)), Math.log(ratio(hi))];
  const n = Math.exp(Math.log(lo) + ((Math.log(hi) - Math.log(lo)) * -rLo) / (rHi - rLo));
  return { n, between: [lo, hi] };
}

const TICK = Object.freeze({ type: 'tick' });
/** Timed batches per point (their median is the point), and how long a batch lasts at least. */
export const RUNS = 7;
const BATCH_MS = 10;
const WARM_UP_N = 128;

/**
 * One size of one series, as a generator: TICK after every call, and it returns the event that
 * reports it:
 *   { type: 'measure', series, n, ms (per call: the median of RUNS batches of `batch` calls), runs: [ms per call …], batch }
 *   { type: 'skipped', series, n, reason: 'capped' (beyond the series' largest n) | 'slice' (a call
 *     predicted longer than sliceMs, which on the page's thread would freeze it) }
 */
export function* measure(engine, { series, n, plan, inputs, predictMs, sliceMs, now }) {
  const { run, maxN } = COST_SERIES[series];
  if (maxN && n > maxN(plan)) return { type: 'skipped', series, n, reason: 'capped' };
  if (predictMs > sliceMs) return { type: 'skipped', series, n, reason: 'slice' };
  const timed = (calls) => {
    const t0 = now();
    for (let c = 0; c < calls; c++) run(engine, inputs, plan);
    return now() - t0;
  };
  timed(1); // not kept: the first call also grows and touches fresh memory
  yield TICK;
  let batch = 1;
  let ms = timed(batch);
  yield TICK;
  while (ms < BATCH_MS) {
    batch *= 2;
    ms = timed(batch);
    yield TICK;
  }
  const runs = [ms / batch];
  while (runs.length < RUNS) {
    ms = timed(batch);
    yield TICK;
    // The batch was sized while the machine was busy (other work made it last BATCH_MS), and the
    // clock now reads under half that — perhaps 0 on a coarse clock: double it rather than keep a
    // time the clock cannot resolve.
    if (ms < BATCH_MS / 2) batch *= 2;
    else runs.push(ms / batch);
  }
  return { type: 'measure', series, n, ms: median(runs), runs, batch };
}

/**
 * A whole run, as a generator of events (TICKs between calls, for the caller to yield on):
 *   { type: 'plan', build, total, plan }; per step a measure or skipped event and
 *   { type: 'progress', done, total, series, n }; at the end
 *   { type: 'done', build, results, slopes, crossover }.
 * sliceMs: on the page's thread, the longest call it may make (Infinity in a Worker).
 */
export function* runEfficiencyCosts(
  engine,
  { plan = EFFICIENCY_COST_PLAN, sliceMs = Infinity, now = () => performance.now() } = {},
) {
  const steps = planSteps(plan);
  const build = engine.simd() ? 'simd' : 'scalar';
  yield { type: 'plan', build, total: steps.length, plan };
  const small = costInputs(WARM_UP_N, plan.d, plan.seed);
  for (const series of Object.values(COST_SERIES)) {
    const t0 = now();
    do {
      series.run(engine, small, { ...plan, window: { ...plan.window, w: Math.min(plan.window.w, WARM_UP_N) } });
      yield TICK;
    } while (now() - t0 < plan.warmUpMs);
  }
  const results = [];
  const last = {}; // series → its last measure, to predict the next size
  let inputs = null;
  let done = 0;
  for (const { series, n } of steps) {
    if (inputs?.n !== n) {
      inputs = { n, ...costInputs(n, plan.d, plan.seed) };
      yield TICK;
    }
    const prev = last[series];
    const predictMs = prev ? prev.ms * (n / prev.n) ** COST_SERIES[series].power : 0;
    const result = yield* measure(engine, { series, n, plan, inputs, predictMs, sliceMs, now });
    if (result.type === 'measure') last[series] = result;
    results.push(result);
    yield result;
    yield { type: 'progress', done: ++done, total: steps.length, series, n };
  }
  yield { type: 'done', build, results, slopes: slopes(results), crossover: crossover(results) };
}

// ---- Memory: the tiles' working set against the n² scores ---------------------------------------

/** The sizes of the memory table, up to n = 16,384, and the key tile's width B_c it assumes. */
export const MEMORY_SIZES = Object.freeze([1024, 2048, 4096, 8192, 16384]);
export const MEMORY_TILE_COLS = 64;

/**
 * For each size at d = plan's d: the scores alone, n²·4 bytes; the tiles' working set as the
 * article counts it, n·(d + B_c)·4 bytes (each query row's running O, and one tile of scores); and
 * the core's own figures for its tiles (workingMemory of attentionTiled with B_r = B_c = tileCols,
 * what its memory check counts): without the trace, and with every tile's m, ℓ, α and O kept —
 * the lab's stepper, as large as the scores — with the limit they are checked against.
 * → [{ n, scores, tiles, tiled, traced, limit }]
 */
export function memoryRows(
  engine,
  { d = EFFICIENCY_COST_PLAN.d, sizes = MEMORY_SIZES, tileCols = MEMORY_TILE_COLS } = {},
) {
  return sizes.map((n) => {
    const shape = { operation: 'attention_tiled', nq: n, nk: n, d, dv: d, tileRows: tileCols, tileCols };
    const { bytes: tiled, limit } = engine.workingMemory({ ...shape, trace: false });
    const traced = engine.workingMemory({ ...shape, trace: true }).bytes;
    return { n, scores: n * n * 4, tiles: n * (d + tileCols) * 4, tiled, traced, limit };
  });
}
