// The lab "the cost of n²" (article §8), the part that measures: which sizes and paths it times,
// how one measurement is taken, the log–log slope, GFLOP/s and the memory figures. Pure: no DOM,
// no Worker — cost-run.js runs this same generator in a Web Worker (labs-worker.js) or, where no
// Worker can start, in slices on the page's own thread.
//
// §8: QKᵀ and AV each do n²·d multiply-adds, so the time grows as n² (a slope of 2 on log–log
// axes), and the scores are an n×n matrix: n²·4 bytes. The streaming path computes the same
// output without ever holding it, in O(n·d) memory, so it still runs where the n² matrix would
// not fit. The memory figures are the core's own (workingMemory: the bytes its memory checks use).

import { seededRandom } from '../../presets.js';
import { fitLogLog } from '../../labs/loglog-fit.js';

export { fitSlope } from '../../labs/loglog-fit.js';

/**
 * What a run measures. d = 64 (a typical head size). Sizes double from 64 to 4096, then 8192,
 * where the step-by-step path's six n² matrices at its peak (1.5 GiB) exceed the core's 1 GiB and it is
 * refused, while the other two still run. The plain reference path stops timing at 2048 (at 4096
 * it takes seconds and copies 6 n×n matrices — 400 MB — into JS per call); beyond its limit it is
 * still called once, to show the core's refusal with the bytes it would need.
 * minMs: after a warm-up call, each size is repeated until this much time is measured (and at
 * least five times; see measure). warmUpMs: how long each path runs before anything is measured.
 */
export const COST_PLAN = Object.freeze({
  d: 64,
  sizes: Object.freeze([64, 128, 256, 512, 1024, 2048, 4096, 8192]),
  paths: Object.freeze(['reference', 'simd', 'streaming']),
  maxN: Object.freeze({ reference: 2048 }),
  minMs: 100,
  warmUpMs: 150,
  seed: 1,
});

/** The sizes of the memory figures: the plan's, and on to where even the streaming path's output is large. */
export const MEMORY_SIZES = Object.freeze([64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]);

/**
 * Each path: the call it times and the entry point whose working memory it needs (the name of
 * the core's too_much_memory error and of workingMemory's operation).
 */
export const COST_PATHS = Object.freeze({
  reference: {
    operation: 'attention_steps',
    run: (engine, { q, k, v }) => engine.attentionSteps({ q, k, v, path: 'reference' }),
  },
  simd: { operation: 'attention', run: (engine, qkv) => engine.attention(qkv) },
  streaming: { operation: 'attention_streaming', run: (engine, qkv) => engine.attentionStreaming(qkv) },
});

/**
 * Floating-point operations of one attention call, as bench/report.mjs counts them: QKᵀ and AV,
 * n²·d multiply-adds each, 2 operations per multiply-add (the softmax's n² exps are not counted).
 */
export const attentionFlops = (n, d) => 4 * n * n * d;

/** The score matrix alone, n×n float32: n²·4 bytes. */
export const scoreMatrixBytes = (n) => n * n * 4;

/**
 * Inputs for one size: q, k, v of n×d values in [−1, 1), the same for every path and every run, and
 * `out`, the n×d array the output-only paths write into. Reused from call to call, it keeps a new
 * array's fresh memory out of the time, which in Chromium here was most of a call at n = 64
 * (wasm/api.mjs, readOutput): what is timed is the attention, not the allocator.
 */
export function costInputs(n, d, seed) {
  const next = seededRandom(seed * 1000003 + n);
  const matrix = () => ({ rows: n, cols: d, data: Float32Array.from({ length: n * d }, () => next() * 2 - 1) });
  return { q: matrix(), k: matrix(), v: matrix(), out: new Float32Array(n * d) };
}

/**
 * Where compute dominates the fixed cost of a call (copying the inputs in, the output out): the
 * sizes whose time is at least COMPUTE_BOUND_FACTOR times the smallest size's. That time bounds
 * the fixed cost from above, and a fixed share f bends the local slope from 2 to 2·(1 − f): at
 * 16 times it, f ≤ 1/16. At least the two largest sizes are fitted.
 */
export const COMPUTE_BOUND_FACTOR = 16;
/** A slope whose spread is above this is not to be trusted: the machine was too busy. */
export const TRUSTED_SPREAD = 0.15;

/**
 * Each path's log–log slope over the sizes where compute dominates (COMPUTE_BOUND_FACTOR), with
 * its spread (how far the samples' scatter could move it) and whether it can be trusted.
 * Returns { [path]: { slope, spread, busy, sizes } | null } — null before two sizes are measured.
 */
export function slopes(measures, paths = COST_PLAN.paths) {
  const out = {};
  for (const path of paths) {
    const points = measures.filter((m) => m.path === path && m.type === 'measure').sort((a, b) => a.n - b.n);
    const floor = COMPUTE_BOUND_FACTOR * (points[0]?.ms ?? 0);
    const first = Math.min(
      Math.max(0, points.length - 2),
      points.findIndex((p) => p.ms >= floor),
    );
    const fitted = points.slice(first < 0 ? Math.max(0, points.length - 2) : first);
    const fit = fitLogLog(fitted);
    out[path] = fit && { ...fit, busy: fit.spread > TRUSTED_SPREAD, sizes: fitted.map((p) => p.n) };
  }
  return out;
}

/**
 * The memory figures for each size: the score matrix's n²·4 bytes and each path's working memory
 * from the core, with whether it fits the core's limit.
 * → [{ n, scoreBytes, limit, paths: { reference | simd | streaming: { operation, bytes, fits } } }]
 */
export function memoryTable(engine, { sizes = MEMORY_SIZES, d = COST_PLAN.d, paths = COST_PLAN.paths } = {}) {
  return sizes.map((n) => {
    let limit;
    const byPath = {};
    for (const path of paths) {
      const { operation } = COST_PATHS[path];
      const need = engine.workingMemory({ operation, nq: n, nk: n, d, dv: d });
      limit = need.limit;
      byPath[path] = { operation, bytes: need.bytes, fits: need.bytes <= need.limit };
    }
    return { n, scoreBytes: scoreMatrixBytes(n), limit, paths: byPath };
  });
}

const TICK = Object.freeze({ type: 'tick' });
// A measurement is the minimum of repeated timed batches after a warm-up: other jobs on the
// machine only ever add time, so the fastest batch is the closest to the work itself, and the
// median's distance above it (`spread`) says how disturbed the samples were. At least MIN_REPS
// batches, and as many more as fit in minMs (cheap at small n: n = 64 gets dozens). A batch
// repeats the call until it lasts BATCH_MS: Firefox's clock ticks in whole milliseconds outside
// cross-origin isolation, and n = 64 takes 0.06 ms. A call of half a second or more is measured
// MIN_REPS times if that stays under LONG_TOTAL_MS, else once (its spread unknown, taken as 0).
const MIN_REPS = 5;
const BATCH_MS = 10;
const LONG_CALL_MS = 500;
const LONG_TOTAL_MS = 3000;
const WARM_UP_N = 128; // a size whose calls take well under a slice on every path
/** A measurement whose samples scattered more than this above their minimum was disturbed. */
export const DISTURBED_SPREAD = 0.25;

/** The robust estimate of repeated timings of one call: the minimum, and the median's spread above it. */
export function robustTime(perCall) {
  const sorted = [...perCall].sort((a, b) => a - b);
  const min = sorted[0],
    median = sorted[Math.floor((sorted.length - 1) / 2)];
  return { ms: min, spread: sorted.length > 1 && min > 0 ? median / min - 1 : 0 };
}

/**
 * One size on one path, as a generator: it yields TICK after every call (so that a caller on the
 * page's thread can let the page answer in between) and returns the event that reports it:
 *   { type: 'measure', path, n, ms (per call: the fastest of `samples` batches of `batch` calls),
 *     spread (the median batch's excess over it, a fraction), samples, batch, gflops, bytes (its working memory) }
 *   { type: 'refused', path, n, bytes, limit, error: { code, message } }  — the core's refusal
 *   { type: 'skipped', path, n, reason: 'capped' | 'slice' }
 * predictMs: the expected time of one call (from the previous size); a call predicted longer than
 * sliceMs is skipped — on the page's thread it would freeze the page.
 */
export function* measure(engine, { path, n, d, qkv, minMs, maxN, predictMs, sliceMs, now }) {
  const { operation, run } = COST_PATHS[path];
  const { bytes, limit } = engine.workingMemory({ operation, nq: n, nk: n, d, dv: d });
  if (bytes > limit) {
    // Refused before the core allocates anything: cheap, and it shows the memory it would need.
    try {
      run(engine, qkv);
    } catch (error) {
      if (error.code !== 'too_much_memory') throw error;
      const { bytes: need, limit: max } = error.params;
      return { type: 'refused', path, n, bytes: need, limit: max, error: { code: error.code, message: error.message } };
    }
    throw new Error(`${path} at n = ${n} needs ${bytes} bytes, over the limit, but was not refused`);
  }
  if (maxN !== undefined && n > maxN) return { type: 'skipped', path, n, reason: 'capped' };
  if (predictMs > sliceMs) return { type: 'skipped', path, n, reason: 'slice' };

  const timed = (calls) => {
    const t0 = now();
    for (let c = 0; c < calls; c++) run(engine, qkv);
    return now() - t0;
  };
  const warmUp = timed(1); // not kept: the first call also grows and touches fresh memory
  yield TICK;
  if (warmUp >= LONG_CALL_MS) {
    // Repeating costs seconds: as often as fits in LONG_TOTAL_MS, at least once.
    const perCall = [];
    do {
      perCall.push(timed(1));
      yield TICK;
    } while (perCall.length < MIN_REPS && (perCall.length + 1) * warmUp < LONG_TOTAL_MS);
    return result(robustTime(perCall), perCall.length, 1);
  }
  // Calls per timed batch: doubled until a batch lasts BATCH_MS; that batch is the first sample.
  let batch = 1;
  let ms = timed(batch);
  yield TICK;
  while (ms < BATCH_MS) {
    batch *= 2;
    ms = timed(batch);
    yield TICK;
  }
  const perCall = [ms / batch];
  let total = ms;
  while (perCall.length < MIN_REPS || total < minMs) {
    ms = timed(batch);
    yield TICK;
    // The batch was sized in a moment the machine was busy (other work, not the calls, made it
    // last BATCH_MS), and the clock now reads it as under half that — on Firefox's whole
    // milliseconds, perhaps 0: double it rather than keep a time the clock cannot resolve.
    if (ms < BATCH_MS / 2) {
      batch *= 2;
      continue;
    }
    perCall.push(ms / batch);
    total += ms;
  }
  return result(robustTime(perCall), perCall.length, batch);

  function result({ ms, spread }, samples, calls) {
    const gflops = attentionFlops(n, d) / (ms * 1e6);
    return { type: 'measure', path, n, ms, spread, samples, batch: calls, gflops, bytes };
  }
}

/**
 * A whole run, as a generator of events (TICKs between calls, for the caller to yield on):
 *   { type: 'plan', build ('simd' | 'scalar': which module ran), total, plan }, then per size and path a measure / refused / skipped
 *   event and { type: 'progress', done, total, n, path }, and at the end
 *   { type: 'done', build, results, slopes }.
 * sliceMs: on the page's thread, the longest call it may make (Infinity in a Worker).
 */
export function* runCost(engine, { plan = COST_PLAN, sliceMs = Infinity, now = () => performance.now() } = {}) {
  const { d, sizes, paths, maxN = {}, minMs, warmUpMs = 0, seed } = plan;
  const total = sizes.length * paths.length;
  const build = engine.simd() ? 'simd' : 'scalar';
  yield { type: 'plan', build, total, plan };
  // Warm-up: the browser first runs wasm through a quick baseline compiler and optimises the hot
  // functions only after a while (V8's tiering), which made the first, small sizes several times
  // too slow and the slope far below 2. So every path runs at a small size for warmUpMs first.
  const small = costInputs(WARM_UP_N, d, seed);
  for (const path of paths) {
    const t0 = now();
    do {
      COST_PATHS[path].run(engine, small);
      yield TICK;
    } while (now() - t0 < warmUpMs);
  }
  const results = [];
  const last = {}; // path → its last measure, to predict the next size
  let done = 0;
  for (const n of sizes) {
    const qkv = costInputs(n, d, seed);
    yield TICK;
    for (const path of paths) {
      const prev = last[path];
      const predictMs = prev ? prev.ms * (n / prev.n) ** 2 : 0;
      const result = yield* measure(engine, { path, n, d, qkv, minMs, maxN: maxN[path], predictMs, sliceMs, now });
      if (result.type === 'measure') last[path] = result;
      results.push(result);
      yield result;
      yield { type: 'progress', done: ++done, total, n, path };
    }
  }
  yield { type: 'done', build, results, slopes: slopes(results, paths) };
}

// ---- For the lab's view (cost-lab-view.js) --------------------------------------------

/**
 * The plan of a run up to `maxN` (state.costmax): COST_PLAN's sizes from 64 to maxN. At 8192 the
 * step-by-step path is refused for memory, which the lab shows with the bytes it would need.
 */
export function planUpTo(maxN, plan = COST_PLAN) {
  return { ...plan, sizes: plan.sizes.filter((n) => n <= maxN) };
}

/** Which size and path the `done`-th step (0-based) of a plan measures: { n, path }, or null past its end. */
export function planStep(plan, done) {
  const n = plan.sizes[Math.floor(done / plan.paths.length)];
  return n === undefined ? null : { n, path: plan.paths[done % plan.paths.length] };
}

/** The best GFLOP/s of one path's measurements (the machine's figure): { gflops, n }, or null before any. */
export function bestGflops(results, path = 'simd') {
  let best = null;
  for (const r of results)
    if (r.type === 'measure' && r.path === path && (!best || r.gflops > best.gflops))
      best = { gflops: r.gflops, n: r.n };
  return best;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/**
 * Bytes in binary units, three significant digits: 131072 → "128 KiB", 1881145344 → "1.75 GiB".
 * Binary, as the core writes its own limit ("1.0 GiB"): n²·4 bytes at n = 4096 is 64 MiB exactly.
 */
export function formatBytes(bytes) {
  let unit = 0,
    value = bytes;
  while (value >= 1023.5 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${threeDigits(value)} ${BYTE_UNITS[unit]}`;
}

/** A duration given in milliseconds, three significant digits: "0.0612 ms", "12.3 ms", "2.41 s". */
export function formatDuration(ms) {
  return ms >= 999.5 ? `${threeDigits(ms / 1000)} s` : `${threeDigits(ms)} ms`;
}

// Whole numbers as they are ("128"), others to three significant digits ("1.75", "0.0612"). (The
// callers round up to the next unit just below 1000 or 1024, so a value never reads "1024 KiB".)
function threeDigits(value) {
  if (Number.isInteger(value)) return String(value);
  return value >= 100 ? value.toFixed(0) : String(Number(value.toPrecision(3)));
}
