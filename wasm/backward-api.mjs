// backward-api.mjs — the JS side of the backward pass (issue 17), added to the public API by
// api.mjs: attentionBackward. As in api.mjs, this layer reads each argument once and checks only
// what C++ cannot see (JS types, unknown keys, the total size); the shapes, gradOutput's shape
// (gradient_shape) and its values (gradient_not_finite: a gradient may hold no NaN) are checked
// once, in the core (core/backward_attention.hpp).

import { DEFAULTS, PATHS } from './vocabulary.mjs';

const BACKWARD_KEYS = ['q', 'k', 'v', 'gradOutput', 'scale', 'temperature', 'mask', 'stable', 'axis', 'path'];

/**
 * The backward pass's methods over the Embind module `core`, with api.mjs's own helpers (so that
 * every Error is made in one place): { readArgs, readMatrix, encodeOptions, checkInputSize,
 * badOption, oneOf, unwrap, callWith, viewsWithMask }.
 */
export function backwardMethods(core, helpers) {
  const { readArgs, readMatrix, encodeOptions, checkInputSize, badOption, oneOf, unwrap, callWith, viewsWithMask } =
    helpers;
  return {
    /**
     * The gradients of a loss L through softmax(QKᵀ/√d_k)·V, given gradOutput = ∂L/∂(A·V)
     * (n_q×d_v): { gradQ, gradK, gradV, gradWeights (∂L/∂A), gradScaled (∂L/∂ of the scaled,
     * masked scores), gradScores (∂L/∂S for S = QKᵀ before the scaling), forward (every forward
     * intermediate, as attentionSteps returns them) }, on path 'simd' (default) or 'reference'.
     */
    attentionBackward(args) {
      const fn = 'attentionBackward';
      const snapshot = readArgs(fn, args, BACKWARD_KEYS);
      const q = readMatrix('q', snapshot.q),
        k = readMatrix('k', snapshot.k),
        v = readMatrix('v', snapshot.v),
        gradOutput = readMatrix('gradOutput', snapshot.gradOutput);
      const options = encodeOptions(fn, snapshot);
      checkInputSize([q, k, v, gradOutput, ...(options.maskMatrix ? [options.maskMatrix] : [])]);
      const { path = DEFAULTS.path } = snapshot;
      if (!PATHS.includes(path)) badOption(fn, 'path', oneOf(PATHS), path);
      const binding = path === 'simd' ? core.attentionBackwardSimd : core.attentionBackward;
      const views = viewsWithMask({ q, k, v, gradOutput }, options);
      return unwrap(callWith(views, binding, q, k, v, gradOutput, options));
    },
  };
}
