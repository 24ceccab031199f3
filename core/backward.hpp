// backward.hpp — the backward pass on the readable scalar path: one function per step, in the
// reverse of the article's order, each the mirror of its forward step in reference.hpp.
//
//   dO → dV = Aᵀ·dO, dA = dO·Vᵀ → softmax: dZ_ij = A_ij·(dA_ij − Σ_t A_it·dA_it) → mask: 0 where
//     masked → scaling: dS = dZ / divisor → dQ = dS·K, dK = dSᵀ·Q → dW = Xᵀ·dQ, dX = dQ·Wᵀ (+ …)
//
// The names: a `d` in front of a matrix is ∂L/∂ of it, for a loss L the caller chose; the caller
// hands in dO = ∂L/∂(A·V) and every step turns the gradient of a step's output into the gradient
// of its inputs (the chain rule, one step at a time). Z is the scaled, masked scores (`scaled` in
// AttentionSteps), S = Q·Kᵀ before the scaling. Like reference.hpp these functions do not check
// their inputs (backward_attention.hpp's entry points do), never use SIMD, never reorder a sum,
// and compute in float32.
//
// No step is needed for the row max: subtracting m_i from a whole row changes no weight (it
// cancels in e_ij / Σ_j e_ij), so its gradient is exactly 0, and the exp and the division are one
// step backward, the softmax's. The naive softmax (stable = false) has the same gradient.
#pragma once

#include "matrix.hpp"

namespace attn::reference {

// Backward of section 6, weighted_values, with respect to V:
//   dV = Aᵀ·dO.   a, kept: (n_q, n_k), d_output: (n_q, d_v) → (n_k, d_v),  dV_jc = Σ_i A_ij dO_ic
// over the queries i that keep key j: a masked key gets nothing from query i, as it gave nothing
// to output_i. A kept key's term is added whatever its weight (docs/api.md, input policy: only the mask
// leaves a key out), so a weight that underflowed to 0 still multiplies dO_i, NaN included.
Matrix d_values(const Matrix& a, const Matrix& kept, const Matrix& d_output);

// Backward of section 6, weighted_values, with respect to A:
//   dA = dO·Vᵀ.   d_output: (n_q, d_v), v: (n_k, d_v) → (n_q, n_k),  dA_ij = dO_i · v_j
Matrix d_weights(const Matrix& d_output, const Matrix& v);

// Backward of section 5, the softmax along each row (exp, row sums and weights together):
//   dZ_ij = A_ij·(dA_ij − Σ_t A_it·dA_it).   a, kept, d_weights: (n_q, n_k) → (n_q, n_k)
// Why: A_it = e_it / s_i depends on every Z_ij of its row, ∂A_it/∂Z_ij = A_it(δ_tj − A_ij); summed
// against dA_it this is A_ij dA_ij − A_ij Σ_t A_it dA_it. A masked key (kept_ij = 0; every key of
// a fully masked row) gives exactly 0, and its dA is left out of the sum, as weighted_values leaves
// its value row out. A kept key is computed whatever its weight: a weight that underflowed to 0
// still multiplies its dA in the sum, so a NaN there (a NaN value row) makes the row's dZ NaN, as
// the forward output is.
// Along columns (the FAQ's misconception) it is this function on the transposes.
Matrix d_softmax(const Matrix& a, const Matrix& kept, const Matrix& d_weights);

// Backward of masking, apply_mask: a masked score was replaced by −∞, so it has no gradient.
//   d_unmasked_ij = d_masked_ij where kept_ij = 1, exactly 0 where kept_ij = 0 (even if NaN).
//   d_masked, kept: (n_q, n_k) → (n_q, n_k)
// Takes d_masked by value and zeroes it in place: the caller hands over a gradient it no longer
// needs, so that no second n_q×n_k copy is held (the 1 GiB rule counts three of them).
Matrix d_apply_mask(Matrix d_masked, const Matrix& kept);

// Backward of section 4, scale_scores: scaled = S / divisor, so dS = d_scaled / divisor, with the
// same divisor (√d_k·τ, d_k·τ or τ: score_divisor).   (n_q, n_k) → (n_q, n_k)
Matrix d_scale_scores(const Matrix& d_scaled, float divisor);

// Backward of section 3, scores_qkt, with respect to Q: S_ij = q_i · k_j, so
//   dQ = dS·K.   d_scores, kept: (n_q, n_k), k: (n_k, d_k) → (n_q, d_k),  dQ_ic = Σ_j dS_ij k_jc
// over the keys query i keeps: a masked score was replaced by −∞, so q_i met a masked k_j nowhere,
// and a NaN in that key row must not reach dQ_i through 0·NaN.
Matrix d_queries(const Matrix& d_scores, const Matrix& kept, const Matrix& k);

// Backward of section 3, scores_qkt, with respect to K:
//   dK = dSᵀ·Q.   d_scores, kept: (n_q, n_k), q: (n_q, d_k) → (n_k, d_k),  dK_jc = Σ_i dS_ij q_ic
// over the queries that keep key j, for the same reason (a NaN query of a fully masked row).
Matrix d_keys(const Matrix& d_scores, const Matrix& kept, const Matrix& q);

// Backward of section 2, project (Q = X·W_Q, likewise K and V), with respect to the weights:
//   dW = Xᵀ·dOut.   x: (n, d), d_out: (n, d_out) → (d, d_out),  dW_tc = Σ_i x_it dOut_ic
Matrix d_project_weights(const Matrix& x, const Matrix& d_out);

// Backward of section 2, project, with respect to the input:
//   dX = dOut·Wᵀ.   d_out: (n, d_out), w: (d, d_out) → (n, d),  dX_it = dOut_i · w_t
// X feeds Q, K and V, so its whole gradient is the sum dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ.
Matrix d_project_input(const Matrix& d_out, const Matrix& w);

}  // namespace attn::reference
