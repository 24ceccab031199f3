// One training step through the stepper (issue 17): the loss the backward steps start from, and
// the gradients the core computes for them. Pure: no DOM; the engine is passed in.
//
// The loss is the state's `loss` field:
//   none   no backward steps;
//   mse    L = ½‖AV − Y‖² = ½ Σ_ic (AV_ic − Y_ic)², with a target Y the reader can edit, so that
//          dO = ∂L/∂(AV) = AV − Y — a loss computed by hand;
//   given  dO given as it is: the gradient a trained model's real loss sends to the head's output
//          (the training lab's probe), or docs/api.md's worked example L = (AV)₁₁, dO = [[1, 0], [0, 0]].
// Then the core's attentionBackward: dV = Aᵀ·dO, dA = dO·Vᵀ, dZ through the softmax, dS = dZ ÷ (the
// scaling rule's divisor · τ), dQ = dS·K, dK = dSᵀ·Q; and from X, the core's project(): dW = Xᵀ·dQ …
// With heads the loss is on the layer's output O = concat·W_O (Y and dO in O's shape, n × d), and
// the core's multiHeadAttentionBackward goes the whole way: dW_O = concatᵀ·dO, d(concat) = dO·W_Oᵀ,
// each head's backward from its block of d(concat), dW with every head's block, and dX.

import { fromRows } from './matrix.js';

/** The losses the state offers, in the order the choice lists them. */
export const LOSSES = Object.freeze(['none', 'mse', 'given']);

/** True when the loss is on the multi-head layer's output O = concat·W_O. */
const onLayer = (state) => (state.heads ?? 1) > 1;

/** The shape of dO, of what the loss is on: AV (n × d_v) with one head, O = concat·W_O (n × d) with heads. */
export const lossShape = (state) => [state.n, onLayer(state) ? state.d : state.dv];

/** The i18n key of a loss's words (`loss.mse`, `loss.mse.why` …): with heads, those that name O. */
export const lossWords = (state, loss, what = '') => `loss.${loss}${what}${onLayer(state) ? '.heads' : ''}`;

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
  'gradProjected',
  'gradWo',
  'gradConcat',
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
  'gradQAll',
  'gradKAll',
  'gradVAll',
  'gradX',
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
  if (onLayer(state)) return layerBackward(engine, state, model, { path, options });
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
    out.gradWq = weightGradient(engine, xT, grads.gradQ, path);
    out.gradWk = weightGradient(engine, xT, grads.gradK, path);
    out.gradWv = weightGradient(engine, xT, grads.gradV, path);
  }
  return out;
}

/**
 * Xᵀ·dM, the head's block of dW (M = Q, K, V), by the core's project(). The core takes only finite
 * factors (a NaN or ±∞ in its input is refused as the caller's error), but a gradient that outgrew
 * float32 on the way (dV = Aᵀ·dO overflowed, from a finite dO) is a result to show, not an input to
 * refuse: its product is made here, as the core's reference path makes it (reference.cpp matmul:
 * Σ_i in order, each product and each sum rounded to float32), so that ∞ and NaN come out where
 * float32 gives them, and model.js counts them for the notice.
 */
function weightGradient(engine, xT, grad, path) {
  return grad.data.every(Number.isFinite) ? engine.project({ x: xT, w: grad, path }) : float32Product(xT, grad);
}

/** a·b in float32, the reference's order: out_ic = Σ_t a_it·b_tc, each step rounded (Math.fround). */
function float32Product(a, b) {
  const out = new Float32Array(a.rows * b.cols);
  for (let i = 0; i < a.rows; i++)
    for (let c = 0; c < b.cols; c++) {
      let sum = 0;
      for (let t = 0; t < a.cols; t++)
        sum = Math.fround(sum + Math.fround(a.data[i * a.cols + t] * b.data[t * b.cols + c]));
      out[i * b.cols + c] = sum;
    }
  return { rows: a.rows, cols: b.cols, data: out };
}

/**
 * With heads, the backward steps' numbers through the whole layer (the core's
 * multiHeadAttentionBackward on the same X, W and options):
 *   target, gradProjected (dO = ∂L/∂O), loss — the loss on O = concat·W_O (lossGradient);
 *   gradWo = concatᵀ·dO, gradConcat = dO·W_Oᵀ;
 *   gradOutput — the shown head's block of d(concat), ∂L/∂head_i, where its own steps start;
 *   gradV, gradWeights, gradScaled, gradScores, gradQ, gradK — the shown head's;
 *   headGrads — every head's, { gradOutput, gradV, …, gradK } (the heads' overview);
 *   gradQAll, gradKAll, gradVAll — the heads' dQ, dK, dV side by side;
 *   gradWq, gradWk, gradWv = Xᵀ·dQ … with every head's block; gradX = dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ.
 */
function layerBackward(engine, state, model, { path, options }) {
  const { target, gradOutput: gradProjected, loss } = lossGradient(state, model.projected);
  const out = { target, gradProjected, loss };
  if (!gradProjected.data.every(Number.isFinite)) return out;
  const { x, wq, wk, wv, wo } = model;
  const grads = engine.multiHeadAttentionBackward({
    x,
    wq,
    wk,
    wv,
    wo,
    heads: state.heads,
    gradOutput: gradProjected,
    ...options,
    path,
  });
  const shown = grads.heads[state.head - 1];
  return {
    ...out,
    gradWo: grads.gradWo,
    gradConcat: grads.gradConcat,
    ...shown,
    headGrads: grads.heads,
    gradQAll: grads.gradQ,
    gradKAll: grads.gradK,
    gradVAll: grads.gradV,
    gradWq: grads.gradWq,
    gradWk: grads.gradWk,
    gradWv: grads.gradWv,
    gradX: grads.gradX,
  };
}
