// One training step through the stepper (issue 17): the loss the backward steps start from, and
// the gradients the core computes for them. Pure: no DOM; the engine is passed in.
//
// The loss is the state's `loss` field:
//   none   no backward steps;
//   mse    L = ½‖AV − Y‖² = ½ Σ_ic (AV_ic − Y_ic)², with a target Y the reader can edit, so that
//          dO = ∂L/∂(AV) = AV − Y — a loss computed by hand;
//   given  dO given as it is: the gradient a trained model's real loss sends to the head's output
//          (the training lab's probe), or the README's worked example L = (AV)₁₁, dO = [[1, 0], [0, 0]].
// Then the core's attentionBackward: dV = Aᵀ·dO, dA = dO·Vᵀ, dZ through the softmax, dS = dZ ÷ (the
// scaling rule's divisor · τ), dQ = dS·K, dK = dSᵀ·Q; and from X, the core's project(): dW = Xᵀ·dQ …

import { fromRows } from './matrix.js';

/** The losses the state offers, in the order the choice lists them. */
export const LOSSES = Object.freeze(['none', 'mse', 'given']);

/** The shape of dO, of AV: n × d_v of one head. */
export const lossShape = (state) => [state.n, state.dv / (state.heads ?? 1)];

/** True when the state walks the backward steps. */
export const hasLoss = (state) => (state.loss ?? 'none') !== 'none';

/** A matrix of the same shape as `m`, each cell f(value of m, k). */
const mapCells = (m, f) => ({ rows: m.rows, cols: m.cols, data: Float32Array.from(m.data, f) });

/**
 * The loss's gradient dO = ∂L/∂(AV) and the loss L itself (null when dO is given): for ½‖AV − Y‖²,
 * dO_ic = AV_ic − Y_ic and L = ½ Σ dO_ic², the loss's own definition (the core's backward pass takes
 * dO from its caller, as attentionBackward's gradOutput).
 */
export function lossGradient(state, output) {
  if (state.loss === 'given') return { target: null, gradOutput: fromRows(state.dout), loss: null };
  const target = fromRows(state.y);
  const gradOutput = mapCells(output, (value, k) => value - target.data[k]);
  const loss = 0.5 * gradOutput.data.reduce((sum, d) => sum + d * d, 0);
  return { target, gradOutput, loss };
}

/** Xᵀ, to hand the core's project() the product Xᵀ·dQ (moves numbers, computes none). */
function transpose(m) {
  const out = new Float32Array(m.data.length);
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) out[j * m.rows + i] = m.data[i * m.cols + j];
  return { rows: m.cols, cols: m.rows, data: out };
}

/** The fields the backward steps add to the model, in their order (steps.js `produces`). */
export const BACKWARD_FIELDS = Object.freeze([
  'gradOutput',
  'gradV',
  'gradWeights',
  'gradScaled',
  'gradScores',
  'gradQ',
  'gradK',
  'gradWq',
  'gradWk',
  'gradWv',
]);

/**
 * The backward steps' numbers for `model` (computeModel's forward result, one head's q, k, v):
 *   target, gradOutput, loss — the loss (lossGradient);
 *   gradV, gradWeights (dA), gradScaled (dZ, the softmax's input), gradScores (dS = ∂L/∂(QKᵀ)),
 *   gradQ, gradK — attentionBackward on the same Q, K, V and options;
 *   gradWq, gradWk, gradWv — from X only: Xᵀ·dQ, Xᵀ·dK, Xᵀ·dV (the head's blocks of dW).
 * A NaN or ±∞ in dO (AV overflowed) would be refused by the core (gradient_not_finite): then the
 * gradients are left out, and the notice names the dO step (model.js counts the cells).
 */
export function backwardModel(engine, state, model, { path, options }) {
  const { target, gradOutput, loss } = lossGradient(state, model.output);
  const out = { target, gradOutput, loss };
  if (!gradOutput.data.every(Number.isFinite)) return out;
  const { q, k, v } = model;
  const grads = engine.attentionBackward({ q, k, v, gradOutput, ...options, path });
  Object.assign(out, {
    gradV: grads.gradV,
    gradWeights: grads.gradWeights,
    gradScaled: grads.gradScaled,
    gradScores: grads.gradScores,
    gradQ: grads.gradQ,
    gradK: grads.gradK,
  });
  if (model.x) {
    const xT = transpose(model.x);
    out.gradWq = engine.project({ x: xT, w: grads.gradQ, path });
    out.gradWk = engine.project({ x: xT, w: grads.gradK, path });
    out.gradWv = engine.project({ x: xT, w: grads.gradV, path });
  }
  return out;
}
