// attention.hpp — the public entry points of the core: Attention(Q, K, V) = softmax(QKᵀ/√d_k)·V.
//
// Every function checks its input first (validate.hpp) and returns Result: either the value or
// the Error that refused the input (error.hpp: a code, the argument at fault, the cell, the numbers
// and an English sentence). Nothing is partially computed and nothing throws.
//
//   attention_steps      the readable reference, every intermediate kept (reference.hpp)
//   attention_steps_simd the same intermediates through the SIMD loops (attention_steps_simd.cpp):
//                        what the page shows
//   attention            output only, through the SIMD fast path (attention_fast.cpp)
//   attention_streaming  output only, online softmax over key tiles, O(n·d) memory
//                        (attention_streaming.cpp)
//   project, project_simd  X·W for the three projections, on either path
//   multi_head_attention_steps(_simd)  h heads of attention_steps(_simd) on column blocks of X·W_Q,
//                        X·W_K, X·W_V, then concat·W_O (multi_head.hpp)
#pragma once

#include <cstddef>

#include "matrix.hpp"
#include "options.hpp"
#include "result.hpp"

namespace attn {

// How many cells of each intermediate of AttentionSteps hold a number float32 could not: a NaN, or
// a ±∞ other than the −∞ a mask puts there on purpose (a masked score, and the max of a fully
// masked row). With inputs free of NaN, a count above 0 means float32 overflowed on the way: a
// tiny temperature, huge inputs, the naive softmax's exp. All 0 for ordinary inputs; the page
// shows a notice from these instead of NaN without a word.
struct NonFinite {
    std::size_t scores = 0, scaled = 0, row_max = 0, shifted = 0, exps = 0, row_sum = 0, weights = 0, output = 0;
};

// Every intermediate of one attention call, in the article's order. Shapes for q: (n_q, d_k),
// k: (n_k, d_k), v: (n_k, d_v). With options.axis == Axis::Column (the FAQ's misconception) the
// softmax runs down each column instead: row_max and row_sum are then (1, n_k), one per column.
struct AttentionSteps {
    Matrix scores;         // (n_q, n_k)  S = Q·Kᵀ, S_ij = q_i · k_j
    Matrix kept;           // (n_q, n_k)  1 where the mask keeps (i, j), 0 where it masks; all 1 unmasked
    Matrix scaled;         // (n_q, n_k)  S / (√d_k · temperature); masked entries are −∞
    Matrix row_max;        // (n_q, 1)    m_i = max_j scaled_ij (−∞ for a fully masked row; NaN if a kept
                           //             score is NaN)
    Matrix shifted;        // (n_q, n_k)  scaled_ij − m_i ≤ 0; masked entries −∞ (fully masked rows too)
    Matrix exps;           // (n_q, n_k)  e_ij = exp(shifted_ij); exp(scaled_ij) when !stable; 0 masked
    Matrix row_sum;        // (n_q, 1)    s_i = Σ_j e_ij
    Matrix weights;        // (n_q, n_k)  A_ij = e_ij / s_i, each row sums to 1; exactly 0 masked (a
                           //             fully masked row is all 0), even in a row that is NaN
    Matrix output;         // (n_q, d_v)  output_i = Σ_j A_ij v_j over the kept keys, whatever their
                           //             weight: a masked key's value row is never read, a kept
                           //             key's always (a NaN there is NaN here, even at weight 0)
    NonFinite non_finite;  // how many of the numbers above float32 could not hold (see NonFinite)
    float divisor = 1.0f;  // what S was divided by: √d_k·τ, d_k·τ or τ (reference::score_divisor),
                           // so that no caller repeats the scaling rule
};

// The whole article, step by step, on the reference path.
Result<AttentionSteps> attention_steps(const Matrix& q, const Matrix& k, const Matrix& v,
                                       const AttentionOptions& options = {});

// The same steps and options through the SIMD loops of simd_kernels.hpp: every field equal to
// attention_steps's within float32 rounding (the dot products and row sums add in another order,
// and the exp is xsimd's), NaN and ±∞ in exactly its cells, and the same refusals. A call whose
// values could overflow float32 on the way, and the naive softmax, are computed by
// attention_steps itself (attention_steps_simd.cpp says why). What the page computes with by default.
Result<AttentionSteps> attention_steps_simd(const Matrix& q, const Matrix& k, const Matrix& v,
                                            const AttentionOptions& options = {});

// Output only: softmax(QKᵀ/√d_k)·V through fast_kernels.hpp, equal to attention_steps(...).output
// within float32 rounding. options.stable and options.axis must keep their defaults (the teaching
// switches exist only on the step-by-step paths); other values fall back to the reference.
Result<Matrix> attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options = {});

// Output only, like attention, through the online softmax (running max and rescaled running sum
// over tiles of keys): working memory O((n_q + n_k)·d), never an n_q×n_k matrix, so it runs sizes
// whose scores would not fit. Same options and the same fallbacks to the reference as attention.
Result<Matrix> attention_streaming(const Matrix& q, const Matrix& k, const Matrix& v,
                                   const AttentionOptions& options = {});

// Section 2: x (n, d) · w (d, d_out) → (n, d_out); project on the reference path, project_simd with
// SIMD axpy over the rows of w, which sums each element in the same order: equal bit for bit.
Result<Matrix> project(const Matrix& x, const Matrix& w);
Result<Matrix> project_simd(const Matrix& x, const Matrix& w);

// The core's version, e.g. "0.1.0"; whether it was compiled with SIMD kernels; and whether its
// fast paths multiply–add with relaxed SIMD's f32x4.relaxed_madd (the relaxed wasm build).
const char* version();
bool simd_enabled();
bool relaxed_simd_enabled();

}  // namespace attn
