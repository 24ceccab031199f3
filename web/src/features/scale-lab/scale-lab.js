// The lab "why divide by √d_k" (article §4), as numbers for a view to draw. Pure: no DOM; the
// engine (web/src/engine.js, or the JS API itself) is passed in, and every random number and every
// softmax comes from the wasm core.
//
// §4's argument, measured at the reader's d_k:
//  1. q, k with independent N(0, 1) components: q·k has mean 0 and variance d_k. The core draws
//     `count` pairs (dotProductSamples); here they become three histograms on common bins — q·k,
//     q·k/√d_k (variance 1: the article's fix) and q·k/d_k (variance 1/d_k: the FAQ's "too flat")
//     — each with its measured variance beside the theory d_k / divisor².
//  2. One query against a few keys (normalMatrix: q is the seed's first vector, the keys the next
//     ones) pushed through the core's attentionSteps under each scaling: the largest weight and the
//     entropy show softmax turning "winner takes all" as d_k grows unscaled.
//  3. The softmax's Jacobian for that row, ∂a_i/∂s_j = a_i(δ_ij − a_j), i.e. diag(a) − a·aᵀ: its
//     largest entry, max_i a_i(1 − a_i) ≤ 1/4, goes to 0 as the weights saturate — "the gradient
//     vanishes", measured.

import { SCALES } from '../../../../wasm/vocabulary.mjs';
import { SCALE_RULES } from '../../options.js';
import { formatNumber } from '../../format.js';

/** The d_k control's values: 1, 2, 4, … 1024 (log steps; the sampler accepts 1 … 1024). */
export const DK_STEPS = Object.freeze(Array.from({ length: 11 }, (_, i) => 2 ** i));

/**
 * The lab's defaults: 4096 pairs (the variance within ~2% at d_k = 256, ≈ 0.15 s at d_k = 1024 in
 * wasm), one query against 8 keys, 48 bins over ±6 — the same axis at every d_k, so that q·k
 * visibly outgrows it while q·k/√d_k keeps its shape and q·k/d_k collapses to a spike.
 */
export const SCALE_LAB_DEFAULTS = Object.freeze({ dk: 64, seed: 1, count: 4096, keys: 8, range: 6, bins: 48 });

/** What each scaling divides q·k by (the core's score_divisor at temperature 1): √d_k, d_k or 1. */
export const DIVISOR = Object.freeze(
  Object.fromEntries(Object.entries(SCALE_RULES).map(([scale, rule]) => [scale, rule.divisor])),
);

/** Var(q·k / divisor) = d_k / divisor²: d_k unscaled, 1 for √d_k, 1/d_k for d_k. */
export const theoryVariance = (scale, dk) => dk / DIVISOR[scale](dk) ** 2;

/** Mean and variance (÷ n) in float64. */
export function moments(values) {
  let mean = 0;
  for (const x of values) mean += x;
  mean /= values.length;
  let variance = 0;
  for (const x of values) variance += (x - mean) ** 2;
  return { mean, variance: variance / values.length };
}

/** `bins` equal bins over [−range, range]: their bins + 1 edges. */
export function commonEdges(range, bins) {
  return Float64Array.from({ length: bins + 1 }, (_, b) => -range + (2 * range * b) / bins);
}

/**
 * Counts of `values` in the bins of `edges` (each bin [left, right)); what falls off the axis is
 * counted apart, in `below` and `above` — at large d_k most of the unscaled q·k does.
 */
export function histogram(values, edges) {
  const bins = edges.length - 1,
    lo = edges[0],
    width = (edges[bins] - lo) / bins;
  const counts = new Uint32Array(bins);
  let below = 0,
    above = 0;
  for (const x of values) {
    const b = Math.floor((x - lo) / width);
    if (b < 0) below++;
    else if (b >= bins) above++;
    else counts[b]++;
  }
  return { counts, below, above };
}

/** −Σ a_i ln a_i in nats (0·ln 0 = 0): ln n for uniform weights, 0 for one-hot. */
export function entropy(weights) {
  let h = 0;
  for (const a of weights) if (a > 0) h -= a * Math.log(a);
  return h;
}

/** The softmax Jacobian diag(a) − a·aᵀ, n×n row-major, in float64. */
export function softmaxJacobian(weights) {
  const n = weights.length,
    jac = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) jac[i * n + j] = (i === j ? weights[i] : 0) - weights[i] * weights[j];
  return jac;
}

/** Its largest entry in magnitude, max_i a_i(1 − a_i) (the diagonal dominates: a_j ≤ 1 − a_i), and where. */
export function jacobianLargest(weights) {
  const jac = softmaxJacobian(weights),
    n = weights.length;
  let best = 0,
    at = 0;
  jac.forEach((x, t) => {
    if (Math.abs(x) > best) {
      best = Math.abs(x);
      at = t;
    }
  });
  return { value: best, i: Math.floor(at / n), j: at % n };
}

/**
 * Everything the lab shows for one d_k and seed:
 *   { dk, seed, count, edges,
 *     series: { sqrt_dk | dk | none: { divisor, histogram: { counts, below, above }, mean, variance, theory } },
 *     row: { keys, scores (q·k_j, unscaled), byScale: { sqrt_dk | dk | none:
 *            { scaled, weights, largest, entropy, maxEntropy, jacobian: { value, i, j } } } } }
 * Throws the API's Error for a d_k, count or seed the core refuses (out_of_range).
 */
export function scaleLab(engine, options = {}) {
  const { dk, seed, count, keys, range, bins } = { ...SCALE_LAB_DEFAULTS, ...options };
  const samples = engine.dotProductSamples({ dk, count, seed });
  const edges = commonEdges(range, bins);
  const series = {};
  for (const scale of SCALES) {
    const divisor = DIVISOR[scale](dk);
    const values = scale === 'none' ? samples : Float64Array.from(samples, (x) => x / divisor);
    series[scale] = {
      divisor,
      histogram: histogram(values, edges),
      ...moments(values),
      theory: theoryVariance(scale, dk),
    };
  }

  // One query row: q = row 0, the keys rows 1 … keys; V is irrelevant to the weights (one zero column).
  const m = engine.normalMatrix({ rows: 1 + keys, cols: dk, seed });
  const q = { rows: 1, cols: dk, data: m.data.subarray(0, dk) };
  const k = { rows: keys, cols: dk, data: m.data.subarray(dk) };
  const v = { rows: keys, cols: 1, data: new Float32Array(keys) };
  const byScale = {};
  let scores;
  for (const scale of SCALES) {
    const st = engine.attentionSteps({ q, k, v, scale });
    scores = st.scores.data;
    const weights = st.weights.data;
    byScale[scale] = {
      scaled: st.scaled.data,
      weights,
      largest: Math.max(...weights),
      entropy: entropy(weights),
      maxEntropy: Math.log(keys),
      jacobian: jacobianLargest(weights),
    };
  }
  return { dk, seed, count, edges, series, row: { keys, scores, byScale } };
}

// ---- For the drawings (pure): an axis's ticks, the theory's curve --------------------------

/**
 * Ticks from 0 for an axis that must reach `max` (> 0): a step of 1, 2 or 5 × 10ⁿ giving at most
 * `most` intervals, and the top of the axis, the first tick at or above `max`.
 *   niceTicks(470) → { step: 100, top: 500, ticks: [0, 100, 200, 300, 400, 500] }
 */
export function niceTicks(max, most = 5) {
  const want = max > 0 && Number.isFinite(max) ? max : 1;
  const raw = want / most,
    power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s * most >= want - 1e-12 * want);
  const intervals = Math.max(1, Math.ceil(want / step - 1e-9));
  const ticks = Array.from({ length: intervals + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  return { step, top: ticks.at(-1), ticks };
}

/**
 * The theory drawn over a histogram: the expected count per bin of `count` values from
 * N(0, variance) on bins of `width`, i.e. count · width · φ(x), at `points` + 1 positions over
 * [−range, range] (0 among them, where a narrow curve peaks). Returns [[x, expected count], …].
 */
export function normalCurve(variance, { count, width, range, points = 240 }) {
  const sd = Math.sqrt(variance),
    scale = (count * width) / (sd * Math.sqrt(2 * Math.PI));
  return Array.from({ length: points + 1 }, (_, p) => {
    const x = -range + (2 * range * p) / points;
    return [x, scale * Math.exp(-0.5 * (x / sd) ** 2)];
  });
}

/**
 * A softmax weight as the lab writes it: four significant digits, more when it is just below 1, so
 * that a saturated 0.99996 is not written as a round "1.000" (a weight of exactly 1 is "1").
 */
export function formatWeight(a) {
  if (a < 1 && 1 - a < 1e-3) return formatNumber(a, Math.min(9, 2 + Math.ceil(-Math.log10(1 - a))));
  return formatNumber(a, 4);
}

/** A gradient entry: three significant digits, the small ones with an exponent (4.11e−5, not 0.0000411). */
export function formatGradient(g) {
  if (g === 0 || Math.abs(g) >= 1e-3) return formatNumber(g, 3);
  const [mantissa, exponent] = g.toExponential(2).split('e');
  return `${mantissa.replace('-', '\u2212')}e${Number(exponent) < 0 ? '\u2212' : ''}${Math.abs(Number(exponent))}`;
}
