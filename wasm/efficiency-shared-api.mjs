// efficiency-shared-api.mjs — the JS side of two of article 10's efficient paths
// (core/efficiency_shared.hpp), added to the public API by api.mjs: attentionGrouped, heads that
// share keys and values (MQA, GQA), and attentionLinear, linear attention with φ(x) = elu(x) + 1 in
// both orders, with linearMultiplyAdds, what the two orders cost for a shape. As in api.mjs, this layer checks only what C++ cannot see — JS types and unknown
// keys; shapes, the heads' ranges and divisibility, values and memory are checked once, in the core.

import { LINEAR_ORDERS, MAX_DIM } from './vocabulary.mjs';

const GROUPED_KEYS = ['q', 'k', 'v', 'heads', 'kvHeads', 'scale', 'temperature', 'mask', 'path'];
const LINEAR_KEYS = ['q', 'k', 'v', 'causal', 'order', 'weights', 'path'];
const COUNT_KEYS = ['nq', 'nk', 'dk', 'dv', 'causal'];
// The options of a call without a mask, as viewsWithMask reads them: no prototype, so that its
// maskMatrix is absent whatever a caller put on Object.prototype.
const NO_MASK = Object.freeze(Object.create(null));

/**
 * The methods over the Embind module `core`, with api.mjs's own helpers (so that every Error is
 * made in one place): { readArgs, readMatrix, encodeOptions, checkInputSize, badOption, oneOf,
 * onPath, unwrap, callWith, viewsWithMask }.
 */
export function efficiencySharedMethods(core, helpers) {
  const {
    readArgs,
    readMatrix,
    encodeOptions,
    checkInputSize,
    badOption,
    oneOf,
    onPath,
    unwrap,
    callWith,
    viewsWithMask,
  } = helpers;
  const qkv = (snapshot) => ['q', 'k', 'v'].map((name) => readMatrix(name, snapshot[name]));
  return {
    /**
     * Shared heads: q (n_q × heads·d_k), k (n_k × kvHeads·d_k), v (n_k × kvHeads·d_v), heads a
     * multiple of kvHeads; query head i attends with key–value head ⌊i·kvHeads/heads⌋, each head
     * softmax(Q_i K_gᵀ/√d_k)·V_g with `scale`, `temperature` and `mask` as attention's (the mask
     * n_q × n_k, for every head). Returns { output } (n_q × heads·d_v, the heads side by side),
     * equal bit for bit to the call with kvHeads = heads on K and V whose blocks are repeated; on
     * path 'simd' (default: each head through attention's fast path) or 'reference' (each head
     * through attentionSteps' reference).
     */
    attentionGrouped(args) {
      const fn = 'attentionGrouped';
      const snapshot = readArgs(fn, args, GROUPED_KEYS);
      const [q, k, v] = qkv(snapshot);
      for (const key of ['heads', 'kvHeads'])
        if (!Number.isSafeInteger(snapshot[key])) badOption(fn, key, 'a whole number', snapshot[key]);
      const options = encodeOptions(fn, snapshot);
      checkInputSize([q, k, v, ...(options.maskMatrix ? [options.maskMatrix] : [])]);
      const binding = onPath(core, fn, snapshot);
      const views = viewsWithMask({ q, k, v }, options);
      return { output: unwrap(callWith(views, binding, q, k, v, snapshot.heads, snapshot.kvHeads, options)) };
    },
    /**
     * Linear attention, φ(x) = elu(x) + 1, out_i = Σ_j φ(q_i)·φ(k_j) v_j / Σ_j φ(q_i)·φ(k_j) (j ≤ i
     * when `causal`), in the orders `order` names: 'both' (default), 'quadratic' ((φ(Q)φ(K)ᵀ)V,
     * n²·d) or 'linear' (φ(Q)(φ(K)ᵀV), n·d², prefix sums when causal). Returns { output (the linear
     * order's; the quadratic's when it ran alone), quadratic?, linear?, weights? (n_q × n_k, the
     * quadratic order's A_ij = W_ij / Σ_j W_ij, only with weights: true), multiplyAdds: { quadratic,
     * linear } (both orders' counts for this shape), nonFinite: { quadratic, linear, weights } }; on
     * path 'simd' (default) or 'reference'.
     */
    attentionLinear(args) {
      const fn = 'attentionLinear';
      const snapshot = readArgs(fn, args, LINEAR_KEYS);
      const [q, k, v] = qkv(snapshot);
      const { causal = false, order = 'both', weights = false } = snapshot;
      if (typeof causal !== 'boolean') badOption(fn, 'causal', 'true or false', causal);
      if (!LINEAR_ORDERS.includes(order)) badOption(fn, 'order', oneOf(LINEAR_ORDERS), order);
      if (typeof weights !== 'boolean') badOption(fn, 'weights', 'true or false', weights);
      if (weights && order === 'linear')
        badOption(fn, 'weights', "false with order 'linear' (the weights are the quadratic order's)", weights);
      checkInputSize([q, k, v]);
      const binding = onPath(core, fn, snapshot);
      return unwrap(callWith(viewsWithMask({ q, k, v }, NO_MASK), binding, q, k, v, causal, order, weights));
    },
    /**
     * { quadratic, linear }: the multiply-adds of attentionLinear's two orders for q (nq × dk),
     * k (nk × dk), v (nk × dv), causal or not — the counts its result's multiplyAdds holds, without
     * the matrices, so that a chart over n needs no call of that size. A count past 2⁶⁴ − 1 stays there.
     */
    linearMultiplyAdds(args) {
      const fn = 'linearMultiplyAdds';
      const snapshot = readArgs(fn, args, COUNT_KEYS);
      const sizes = COUNT_KEYS.slice(0, 4).map((key) => {
        const value = snapshot[key];
        if (!Number.isInteger(value) || value < 1 || value > MAX_DIM)
          badOption(fn, key, `a whole number from 1 to ${MAX_DIM}`, value);
        return value;
      });
      const { causal = false } = snapshot;
      if (typeof causal !== 'boolean') badOption(fn, 'causal', 'true or false', causal);
      return unwrap(core.linearMultiplyAdds(...sizes, causal));
    },
  };
}
