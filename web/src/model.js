// From the state to every intermediate of the article, computed by the core. Pure: no DOM; the
// engine is passed in, so tests can run this in Node with the same wasm module.

import { fromRows } from './matrix.js';

/** The options of attentionSteps that the state's controls choose. */
export function stepOptions(state) {
  return {
    scale: state.scale,
    temperature: state.temperature,
    mask: state.mask,
    stable: state.softmax === 'stable',
    axis: state.axis,
  };
}

/**
 * Computes everything the page shows, all at once:
 *   inputs  — X, W_Q, W_K, W_V (mode 'x') or nothing extra (mode 'qkv');
 *   q, k, v — projections, or the inputs themselves;
 *   scores, kept, scaled, rowMax, shifted, exps, rowSum, weights, output — from attentionSteps
 *   (on the API's default path, the SIMD loops).
 * Throws the API's Error when the input is rejected: an English message, and code, argument,
 * cell and params to word it in the page's language (README.md, "The JS API").
 */
export function computeModel(engine, state) {
  const m = Object.fromEntries(Object.entries(state.mats).map(([name, rows]) => [name, fromRows(rows)]));
  let q, k, v;
  if (state.mode === 'x') {
    q = project(engine, m.x, m.wq, 'wq');
    k = project(engine, m.x, m.wk, 'wk');
    v = project(engine, m.x, m.wv, 'wv');
  } else {
    ({ q, k, v } = m);
  }
  const steps = engine.attentionSteps({ q, k, v, ...stepOptions(state) });
  const inputs = state.mode === 'x' ? { x: m.x, wq: m.wq, wk: m.wk, wv: m.wv } : {};
  return { ...inputs, q, k, v, ...steps };
}

/** X·W for one projection; a refusal names the page's matrix (error.matrix = 'wq'…), since the API says only 'w' or 'x'. */
function project(engine, x, w, name) {
  try {
    return engine.project({ x, w });
  } catch (error) {
    if (error.argument === 'w') error.matrix = name;
    throw error;
  }
}
