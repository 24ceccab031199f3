// backward_attention.hpp — the public entry points of the backward pass: given Q, K, V, the
// options and dO = ∂L/∂(A·V) for some loss L, every gradient back to Q, K and V.
//
// As attention.hpp's entry points: each checks its input first and returns Result, the value or the
// Error that refused the input; nothing is partially computed, nothing throws.
//
//   attention_backward       the forward steps (attention_steps) and the backward steps of
//                            backward.hpp, on the reference path
//   attention_backward_simd  the same through the SIMD loops (attention_steps_simd and
//                            backward_simd.cpp): equal to the reference within float32 rounding
//
// backward_steps and backward_steps_simd are the same backward steps without the checks, for the
// core's own callers that have checked their inputs already (the model, model.hpp).
#pragma once

#include <cstdint>

#include "attention.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "result.hpp"
#include "validate.hpp"

namespace attn {

// Every gradient of one backward pass, in the order they are computed. Shapes for q: (n_q, d_k),
// k: (n_k, d_k), v: (n_k, d_v), d_output: (n_q, d_v).
struct AttentionGrads {
    Matrix d_v;        // (n_k, d_v)  ∂L/∂V = Aᵀ·dO
    Matrix d_weights;  // (n_q, n_k)  ∂L/∂A = dO·Vᵀ
    Matrix d_scaled;   // (n_q, n_k)  ∂L/∂Z for Z = the scaled, masked scores: A_ij·(dA_ij − Σ_t A_it dA_it)
                       //             (down columns when axis = column); exactly 0 where masked
    Matrix d_scores;   // (n_q, n_k)  ∂L/∂S for S = Q·Kᵀ before the scaling: d_scaled / (√d_k·τ)
    Matrix d_q;        // (n_q, d_k)  ∂L/∂Q = dS·K
    Matrix d_k;        // (n_k, d_k)  ∂L/∂K = dSᵀ·Q
};

// What the entry points return: the forward steps the gradients were computed from, then the
// gradients.
struct AttentionBackward {
    AttentionSteps forward;
    AttentionGrads grads;
};

// The shapes of a backward call: those of check_attention_shapes, then d_output (the argument
// "gradOutput") is n_q×d_v.   the codes of check_attention_shapes, gradient_shape, too_much_memory
Error check_backward_shapes(const Shape& q, const Shape& k, const Shape& v, float temperature, const Shape* mask,
                            const Shape& d_output);
// Every value of d_output (the argument "gradOutput") finite, NaN included: a gradient has no
// "missing" value to propagate.   gradient_not_finite
Error check_gradient_finite(const Matrix& d_output);
// The shapes, then the values: check_attention's, then check_gradient_finite.   the above,
// not_finite, mask_value, gradient_not_finite
Error check_backward(const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& d_output,
                     const AttentionOptions& options);

// The working memory of a backward call, in bytes (checked_size.hpp's arithmetic), what its
// memory check counts: the forward steps' (working_bytes, Operation::AttentionSteps), then the
// backward's own: three more n_q×n_k matrices (dA, dZ — which becomes d_scaled in place — and
// dS); along columns six at once while the softmax's backward runs on transposed copies (dA, the
// transposes of A, of the mask and of dA, the result and its transpose back); dQ, dK, dV; and
// Vᵀ, which the SIMD path's dA = dO·Vᵀ reads row by row (backward_simd.cpp times_transposed).
std::uint64_t backward_working_bytes(const Shape& q, const Shape& k, const Shape& v, Axis axis);
// The backward's own part of that count, without the forward steps' (each head of a multi-head
// backward, multi_head_backward.hpp, adds it to the forward's count).
std::uint64_t backward_own_bytes(const Shape& q, const Shape& k, const Shape& v, Axis axis);

Result<AttentionBackward> attention_backward(const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& d_output,
                                             const AttentionOptions& options = {});
Result<AttentionBackward> attention_backward_simd(const Matrix& q, const Matrix& k, const Matrix& v,
                                                  const Matrix& d_output, const AttentionOptions& options = {});

// The backward steps from finished forward steps, unchecked: `forward` must be the AttentionSteps
// of q, k, v and options, and d_output n_q×d_v.
AttentionGrads backward_steps(const AttentionSteps& forward, const Matrix& q, const Matrix& k, const Matrix& v,
                              const Matrix& d_output, const AttentionOptions& options);
AttentionGrads backward_steps_simd(const AttentionSteps& forward, const Matrix& q, const Matrix& k, const Matrix& v,
                                   const Matrix& d_output, const AttentionOptions& options);

}  // namespace attn
