// The KV cache panel's numbers: causal attention decoded token by token by the core's
// attentionDecode — query t against the cached rows of K and V, the cache one row longer each
// token — beside the same rows of the full causal attention (attentionSteps with mask 'causal'),
// and how many bytes the cache holds. Pure: no DOM.

import { largestDifference, rowOf } from './efficiency-lab.js';

/** A row as the API returns it (a { rows, cols, data } matrix or a plain array), as { rows: 1, cols, data }. */
const asRow = (row) => (row.data ? row : { rows: 1, cols: row.length, data: Float32Array.from(row) });

/**
 * Everything the panel shows for Q, K, V (n × d_k, n × d_k, n × d_v) and the scaling:
 *   steps    — the core's, one per token: { cacheLength, row } (row: the new output row);
 *   output   — the decoded output, every row;   full — the full causal attention's output;
 *   weights, scaled — the full causal attention's weights and scaled scores (row t: query t's);
 *   rows     — for each token, largestDifference(its decoded row, the full causal row);
 *   difference — the same over the whole output.
 */
export function cacheLab(engine, { q, k, v }, { scale }) {
  const decode = engine.attentionDecode({ q, k, v, scale });
  const full = engine.attentionSteps({ q, k, v, scale, mask: 'causal' });
  const steps = decode.steps.map(({ cacheLength, row }) => ({ cacheLength, row: asRow(row) }));
  const fullRow = (t) => ({ rows: 1, cols: v.cols, data: Float32Array.from(rowOf(full.output, t)) });
  return {
    n: q.rows,
    dk: k.cols,
    dv: v.cols,
    q,
    k,
    v,
    steps,
    output: decode.output,
    full: full.output,
    weights: full.weights,
    scaled: full.scaled,
    rows: steps.map((step, t) => largestDifference(step.row, fullRow(t))),
    difference: largestDifference(decode.output, full.output),
  };
}

/** The cache's bytes with `length` tokens in it, per head: K and V, length·(d_k + d_v) floats of 4 bytes (2·length·d_k·4 when d_k = d_v). */
export const cacheBytes = ({ length, dk, dv }) => length * (dk + dv) * 4;

/**
 * The arithmetic of the new output row's column c at token t (0-based), in float64 from the full
 * causal attention's weights: Σ_{j ≤ t} a_tj·v_jc, with its terms.
 */
export function outputArithmetic(lab, t, c) {
  const terms = Array.from({ length: t + 1 }, (_, j) => ({
    j,
    a: lab.weights.data[t * lab.weights.cols + j],
    v: lab.v.data[j * lab.dv + c],
  }));
  return { terms, sum: terms.reduce((total, { a, v }) => total + a * v, 0) };
}
