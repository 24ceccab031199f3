// From the state to every intermediate of the article, computed by the core. Pure: no DOM; the
// engine is passed in, so tests can run this in Node with the same wasm module.

import { fromRows } from './matrix.js';
import { DEFAULTS } from '../../wasm/vocabulary.mjs';
import { apiOptions, optionForms } from './options.js';
import { BACKWARD_FIELDS, backwardModel, hasLoss } from './backward.js';

/** The options of attentionSteps that the state's controls choose (options.js). */
export const stepOptions = apiOptions;

/**
 * Computes everything the page shows, all at once:
 *   inputs  — X, W_Q, W_K, W_V (mode 'x') or nothing extra (mode 'qkv');
 *   q, k, v — projections, or the inputs themselves;
 *   scores, kept, scaled, rowMax, shifted, exps, rowSum, weights, output — from attentionSteps;
 *   weightTotals — { rows, cols }: the sums of A along each row and each column (float64);
 *   path    — which code computed them: 'simd' (the API's default, the SIMD loops) or 'reference';
 *   article — with `article: true` and the stable softmax, the article's own hand computation
 *             (§7: exp of the scaled scores without the max): { exps, rowSum, weights }.
 * With more than one head (multiHeadModel), the nine steps' fields are head `state.head`'s.
 * With a loss (state.loss, backward.js), the backward steps' fields too: target, gradOutput, loss,
 * gradV, gradWeights, gradScaled, gradScores, gradQ, gradK and from X gradWq, gradWk, gradWv; with
 * heads the loss is on the layer's output, and gradProjected, gradWo, gradConcat, headGrads,
 * gradQAll, gradKAll, gradVAll and gradX come too (backward.js layerBackward).
 * Throws the API's Error when the input is rejected: an English message, and code, argument,
 * cell and params to word it in the page's language (docs/api.md).
 */
export function computeModel(engine, state, options = {}) {
  const model = forwardModel(engine, state, options);
  return hasLoss(state) ? withBackward(engine, state, model) : model;
}

/**
 * The backward steps' fields (backward.js's backwardModel: the loss, dO, and every gradient the
 * core computes from it), with their counts of NaN and ±∞ beside the forward ones.
 */
function withBackward(engine, state, model) {
  const back = backwardModel(engine, state, model, { path: model.path, options: stepOptions(state) });
  const counts = Object.fromEntries(
    BACKWARD_FIELDS.filter((name) => back[name]).map((name) => [name, nonFinite(back[name])]),
  );
  // Added to the model itself, not spread into a copy: a spread would read `article` (articleExps).
  return Object.assign(model, back, { nonFinite: { ...model.nonFinite, ...counts } });
}

/** The forward pass: every intermediate of the article's steps (computeModel's list). */
function forwardModel(engine, state, { path = DEFAULTS.path, article = false }) {
  const m = Object.fromEntries(Object.entries(state.mats).map(([name, rows]) => [name, fromRows(rows)]));
  if ((state.heads ?? 1) > 1) return multiHeadModel(engine, state, m, { path, article });
  let q, k, v;
  if (state.mode === 'x') {
    q = project(engine, m.x, m.wq, 'wq', path);
    k = project(engine, m.x, m.wk, 'wk', path);
    v = project(engine, m.x, m.wv, 'wv', path);
  } else {
    ({ q, k, v } = m);
  }
  const options = { ...stepOptions(state), path };
  const steps = engine.attentionSteps({ q, k, v, ...options });
  const inputs = state.mode === 'x' ? { x: m.x, wq: m.wq, wk: m.wk, wv: m.wv } : {};
  const model = { ...inputs, q, k, v, ...steps, path, weightTotals: totals(steps.weights) };
  // From X, Q, K and V are computed too (X·W may overflow, ∞ − ∞ is NaN): their cells count as
  // the core's own count does, so that the notice can name step 2 (non-finite.js).
  if (state.mode === 'x') model.nonFinite = { ...steps.nonFinite, q: nonFinite(q), k: nonFinite(k), v: nonFinite(v) };
  if (article && optionForms(state).shiftsMax) articleExps(model, engine, { q, k, v, ...options });
  return model;
}

/**
 * The article's own exp without the max (§7), on the same Q, K, V and options, as model.article:
 * computed when something first reads it (the exp and sum steps' figures, shown or built ahead by
 * the stage), then kept. Only those two steps show it, and computing it with every edit was a
 * second attentionSteps call on each, at n = 64 a sixth of the edit's script.
 */
function articleExps(model, engine, args) {
  let kept = null;
  Object.defineProperty(model, 'article', {
    enumerable: true,
    get() {
      if (!kept) {
        const { exps, rowSum, weights } = engine.attentionSteps({ ...args, stable: false });
        kept = { exps, rowSum, weights };
      }
      return kept;
    },
  });
}

/**
 * Multi-head attention through the core (multiHeadAttentionSteps): the nine steps' fields are the
 * shown head's (its column blocks q, k, v and every intermediate), beside them
 *   qAll, kAll, vAll — the whole projections X·W (every head's columns);
 *   heads            — every head's intermediates, as the core returns them;
 *   concat           — [head_1 | … | head_h], n × h·d_v;  projected — concat·W_O, n × d;
 *   multiplyAdds     — the core's own count of the work, stage by stage.
 * The non-finite counts are the shown head's, with concat and the output's.
 */
function multiHeadModel(engine, state, m, { path, article }) {
  const options = { ...stepOptions(state), path };
  const { x, wq, wk, wv, wo } = m;
  const result = engine.multiHeadAttentionSteps({ x, wq, wk, wv, wo, heads: state.heads, ...options });
  const { nonFinite: counts, divisor, ...shown } = result.heads[state.head - 1];
  const model = {
    x,
    wq,
    wk,
    wv,
    wo,
    ...shown,
    qAll: result.q,
    kAll: result.k,
    vAll: result.v,
    heads: result.heads,
    concat: result.concat,
    projected: result.output,
    multiplyAdds: result.multiplyAdds,
    // One head as wide as all of them (d_k = h·d_k), counted by the core too: the same work.
    oneHeadMultiplyAdds: engine.multiHeadMultiplyAdds({
      n: state.n,
      dModel: state.d,
      heads: 1,
      dk: state.dk,
      dv: state.dv,
      dOut: state.d,
    }),
    path,
    weightTotals: totals(shown.weights),
  };
  model.nonFinite = {
    ...counts,
    ...Object.fromEntries(['q', 'k', 'v'].map((name) => [name, nonFinite(shown[name])])),
    concat: result.nonFinite.concat,
    projected: result.nonFinite.output,
  };
  if (article && optionForms(state).shiftsMax)
    articleExps(model, engine, { q: shown.q, k: shown.k, v: shown.v, ...options });
  return model;
}

/** How many cells of a matrix are NaN or ±∞. */
const nonFinite = (m) => m.data.reduce((count, x) => count + (Number.isFinite(x) ? 0 : 1), 0);

/** The sums of a matrix along each row and along each column, in float64. */
export function totals(m) {
  const rows = new Float64Array(m.rows);
  const cols = new Float64Array(m.cols);
  for (let i = 0; i < m.rows; i++) {
    for (let j = 0; j < m.cols; j++) {
      const value = m.data[i * m.cols + j];
      rows[i] += value;
      cols[j] += value;
    }
  }
  return { rows, cols };
}

/** The intermediates both paths compute, in the article's order. */
export const COMPARED = ['q', 'k', 'v', 'scores', 'scaled', 'shifted', 'exps', 'rowSum', 'weights', 'output'];
/** …and with heads, the whole projections, the concat and the output projection too. */
const COMPARED_HEADS = ['qAll', 'kAll', 'vAll', 'concat', 'projected'];

/**
 * The largest difference between two models of the same state (the SIMD path and the reference):
 * { value, name, i, j }, value 0 when every number is the same. Equal infinities and NaN in the
 * same cell count as no difference.
 */
export function largestDifference(a, b) {
  let best = { value: 0, name: null, i: 0, j: 0 };
  for (const name of a.concat ? [...COMPARED, ...COMPARED_HEADS] : COMPARED) {
    const x = a[name];
    const y = b[name];
    for (let k = 0; k < x.data.length; k++) {
      const p = x.data[k];
      const q = y.data[k];
      if (Object.is(p, q) || (Number.isNaN(p) && Number.isNaN(q))) continue;
      const diff = Number.isFinite(p) && Number.isFinite(q) ? Math.abs(p - q) : Infinity;
      if (diff > best.value) best = { value: diff, name, i: Math.floor(k / x.cols), j: k % x.cols };
    }
  }
  return best;
}

/** X·W for one projection; a refusal names the page's matrix (error.matrix = 'wq'…), since the API says only 'w' or 'x'. */
function project(engine, x, w, name, path) {
  try {
    return engine.project({ x, w, path });
  } catch (error) {
    if (error.argument === 'w') error.matrix = name;
    throw error;
  }
}
