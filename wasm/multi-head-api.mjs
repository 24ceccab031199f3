// multi-head-api.mjs — the JS side of multi-head attention (core/multi_head.hpp), added to the
// public API by api.mjs: multiHeadAttentionSteps, every intermediate of every head,
// multiHeadMultiplyAdds, what each stage costs for a shape, and multiHeadAttentionBackward, one
// training step through the whole layer (core/multi_head_backward.hpp). As in api.mjs, this layer checks only
// what C++ cannot see — JS types and unknown keys; shapes, h's range (1 … MAX_HEADS) and values
// are checked once, in the core.

import { MAX_DIM } from './vocabulary.mjs';

const MULTI_HEAD_KEYS = [
  'x',
  'wq',
  'wk',
  'wv',
  'wo',
  'heads',
  'scale',
  'temperature',
  'mask',
  'stable',
  'axis',
  'path',
];
const BACKWARD_KEYS = [...MULTI_HEAD_KEYS, 'gradOutput'];
const COUNT_KEYS = ['n', 'dModel', 'heads', 'dk', 'dv', 'dOut'];

/**
 * The multi-head methods over the Embind module `core`, with api.mjs's own helpers (so that every
 * Error is made in one place): { readArgs, readMatrix, encodeOptions, checkInputSize, badOption,
 * onPath, unwrap, callWith, viewsWithMask }.
 */
export function multiHeadMethods(core, helpers) {
  const { readArgs, readMatrix, encodeOptions, checkInputSize, badOption, onPath, unwrap, callWith, viewsWithMask } =
    helpers;
  return {
    /**
     * Multi-head attention step by step: Q = X·W_Q, K = X·W_K, V = X·W_V; head i is
     * attentionSteps on column block i of Q, K and V (divided by its own √d_k); concat = [head_1 |
     * … | head_h]; output = concat·W_O. Returns { q, k, v, heads: [{ q, k, v, scores, kept,
     * scaled, rowMax, shifted, exps, rowSum, weights, output, nonFinite, divisor }, …], concat,
     * output, multiplyAdds, nonFinite }, on path 'simd' (default) or 'reference'.
     */
    multiHeadAttentionSteps(args) {
      const fn = 'multiHeadAttentionSteps';
      const snapshot = readArgs(fn, args, MULTI_HEAD_KEYS);
      const [x, wq, wk, wv, wo] = ['x', 'wq', 'wk', 'wv', 'wo'].map((name) => readMatrix(name, snapshot[name]));
      const { heads } = snapshot;
      if (!Number.isSafeInteger(heads)) badOption(fn, 'heads', 'a whole number', heads);
      const options = encodeOptions(fn, snapshot);
      checkInputSize([x, wq, wk, wv, wo, ...(options.maskMatrix ? [options.maskMatrix] : [])]);
      const binding = onPath(core, 'multiHeadAttentionSteps', snapshot);
      const views = viewsWithMask({ x, wq, wk, wv, wo }, options);
      return unwrap(callWith(views, binding, x, wq, wk, wv, wo, heads, options));
    },
    /**
     * One training step through the whole layer, given gradOutput = ∂L/∂O for its output O =
     * concat·W_O (n × d_out, O's shape; gradient_shape otherwise): { forward (as
     * multiHeadAttentionSteps returns it), gradWo = concatᵀ·dO, gradConcat = dO·W_Oᵀ, heads: [{
     * gradOutput (head i's block of gradConcat), gradV, gradWeights, gradScaled, gradScores, gradQ,
     * gradK }, …] (attentionBackward's, per head), gradQ, gradK, gradV (the heads' side by side),
     * gradWq, gradWk, gradWv (Xᵀ·dQ …, every head's block), gradX (dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ) },
     * on path 'simd' (default) or 'reference'.
     */
    multiHeadAttentionBackward(args) {
      const fn = 'multiHeadAttentionBackward';
      const snapshot = readArgs(fn, args, BACKWARD_KEYS);
      const [x, wq, wk, wv, wo, gradOutput] = ['x', 'wq', 'wk', 'wv', 'wo', 'gradOutput'].map((name) =>
        readMatrix(name, snapshot[name]),
      );
      const { heads } = snapshot;
      if (!Number.isSafeInteger(heads)) badOption(fn, 'heads', 'a whole number', heads);
      const options = encodeOptions(fn, snapshot);
      checkInputSize([x, wq, wk, wv, wo, gradOutput, ...(options.maskMatrix ? [options.maskMatrix] : [])]);
      const binding = onPath(core, 'multiHeadAttentionBackward', snapshot);
      const views = viewsWithMask({ x, wq, wk, wv, wo, gradOutput }, options);
      return unwrap(callWith(views, binding, x, wq, wk, wv, wo, heads, gradOutput, options));
    },
    /**
     * { projections, scores, weighting, outputProjection, total }: the multiply-adds of
     * multiHeadAttentionSteps on x (n×dModel) with h = heads heads of dk (Q, K) and dv (V) columns
     * and dOut outputs — the counts its result's multiplyAdds holds, without the matrices. So
     * h heads of dk = dModel / h and one head of dk = dModel compare with the core's own numbers.
     * heads is held to multiHeadAttentionSteps' range by the core (out_of_range above MAX_HEADS);
     * a count past 2⁶⁴ − 1 stays at 2⁶⁴ − 1, the total too.
     */
    multiHeadMultiplyAdds(args) {
      const fn = 'multiHeadMultiplyAdds';
      const snapshot = readArgs(fn, args, COUNT_KEYS);
      const sizes = COUNT_KEYS.map((key) => {
        const value = snapshot[key];
        if (!Number.isInteger(value) || value < 1 || value > MAX_DIM)
          badOption(fn, key, `a whole number from 1 to ${MAX_DIM}`, value);
        return value;
      });
      return unwrap(core.multiHeadMultiplyAdds(...sizes));
    },
  };
}
