// reference.hpp — the readable scalar path: one function per step of the article.
//
//   X → Q = X·W_Q, K = X·W_K, V = X·W_V → S = Q·Kᵀ → S/√d_k (masked: −∞) → m_i = max_j
//     → x − m_i → exp(x − m_i) → s_i = Σ_j → A = exp/s → A·V
//
// Every fast path is tested equal to this file. These functions do not check their inputs (the
// public entry points in attention.hpp do, through validate.hpp); they never use SIMD, never
// reorder a sum, and compute in float32 like the rest of the core.
#pragma once

#include <cstddef>

#include "matrix.hpp"
#include "options.hpp"

namespace attn::reference {

// Section 2 — a projection: Q = X·W_Q (likewise K, V).
//   x: (n, d), w: (d, d_out) → (n, d_out),  out_ic = Σ_c' x_ic' w_c'c
Matrix project(const Matrix& x, const Matrix& w);

// Section 3 — scores: S = Q·Kᵀ.
//   q: (n_q, d_k), k: (n_k, d_k) → (n_q, n_k),  S_ij = q_i · k_j = Σ_c q_ic k_jc
Matrix scores_qkt(const Matrix& q, const Matrix& k);

// Section 4 — what the scores are divided by: √d_k (default), d_k or 1, times the temperature.
float score_divisor(Scale scale, std::size_t d_k, float temperature);

// Section 4 — scaling: scaled_ij = S_ij / divisor.   (n_q, n_k) → (n_q, n_k)
Matrix scale_scores(const Matrix& scores, float divisor);

// Masking, which cells: kept_ij = 1 when query i may attend to key j, 0 when (i, j) is masked.
// Causal: query i sees keys j ≤ i (aligned at the top-left when n_q ≠ n_k, as PyTorch's is_causal).
// Custom: the mask's own 0/1. No mask: all ones.   → (n_q, n_k)
Matrix kept_cells(const Mask& mask, std::size_t n_q, std::size_t n_k);

// Masking, what it does: a masked position gets −∞ (whatever its score was, even NaN), so that
// exp(−∞) = 0 gives it exactly zero weight.   scaled (n_q, n_k), kept (n_q, n_k) → (n_q, n_k)
//
// Policy, masks and NaN: only the mask leaves a key out. The steps below keep a −∞ score −∞, give
// it exp 0 and weight exactly 0 whatever else is in its row (even a NaN max or sum), and
// weighted_values never reads a masked key's value row. So a masked key changes nothing, even when
// its score or its value is NaN; a fully masked row has weights and output 0. A kept key's value
// row is always read, whatever its weight: a weight that underflowed — exp of a score far below
// the row's max is a denormal, or exactly 0 where an exp flushes denormals — still multiplies its
// value, so a NaN value behind a kept key makes the output NaN on every path. (A kept score that
// float32 rounds to −∞ by itself gets exp and weight 0 like a masked one; its value row is read.)
Matrix apply_mask(const Matrix& scaled, const Matrix& kept);

// Section 5 — row max: m_i = max_j scaled_ij.   (n_q, n_k) → (n_q, 1)
// A NaN among the row's kept scores gives NaN; a row whose every entry is −∞ (fully masked) gives −∞.
Matrix row_max(const Matrix& scaled);

// Section 5 — subtracting the max: shifted_ij = scaled_ij − m_i ≤ 0.   (n_q, n_k) → (n_q, n_k)
// These are the exponents of the stable softmax (exp_minus_max computes the same differences).
// A masked cell (−∞) stays −∞: in a fully masked row too (m_i = −∞; not −∞ − (−∞) = NaN), and in
// a row whose max is NaN, whose other cells are NaN.
Matrix subtract_row_max(const Matrix& scaled, const Matrix& row_max);

// Section 5 — exp(x − max): e_ij = exp(scaled_ij − m_i).   (n_q, n_k) → (n_q, n_k)
// The max is there only for numerical stability: after subtracting it every exponent is ≤ 0,
// so e_ij ∈ [0, 1] and nothing overflows; softmax is unchanged because a constant added to a row
// cancels in e_ij / Σ_j e_ij. With stable = false the max is not subtracted (the naive softmax
// the article warns about: exp(1000) is +Inf in float32, and Inf/Inf is NaN).
// A masked cell (−∞) gives exactly 0, whatever the row's max (−∞ in a fully masked row, or NaN).
Matrix exp_minus_max(const Matrix& scaled, const Matrix& row_max, bool stable);

// Section 5 — row sums: s_i = Σ_j e_ij.   (n_q, n_k) → (n_q, 1)
Matrix row_sums(const Matrix& exps);

// Section 5 — weights: A_ij = e_ij / s_i; each row sums to 1.   (n_q, n_k) → (n_q, n_k)
// A masked cell (scaled_ij = −∞) gets exactly 0, even where s_i is NaN. So a fully masked row,
// which has no key to attend to, gets all-zero weights (as in PyTorch ≥ 2.5 and JAX) rather than
// 0/0 = NaN.   exps, scaled (n_q, n_k), row_sum (n_q, 1) → (n_q, n_k)
Matrix softmax_weights(const Matrix& exps, const Matrix& row_sum, const Matrix& scaled);

// Section 6 — weighting V: output_i = Σ_j A_ij v_j, summed over j in order, over the keys the mask
// keeps (kept_ij = 1, whatever A_ij underflowed to): a masked key takes nothing from its value
// row, not 0 · v_j, which would be NaN for a NaN value.
//   a: (n_q, n_k), kept: (n_q, n_k), v: (n_k, d_v) → (n_q, d_v)
Matrix weighted_values(const Matrix& a, const Matrix& kept, const Matrix& v);

// Mᵀ — used to run the FAQ's "softmax along columns" as a row softmax of the transpose.
Matrix transpose(const Matrix& m);

}  // namespace attn::reference
