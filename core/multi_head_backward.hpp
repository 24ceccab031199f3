// multi_head_backward.hpp — one training step through the whole multi-head layer: given the
// layer's inputs and dO = ∂L/∂O for its output O = concat·W_O (some loss L the caller chose), every
// gradient back to W_O, each head, W_Q, W_K, W_V and X. multi_head.hpp's steps read backwards:
//
//   dO → dW_O = concatᵀ·dO, d(concat) = dO·W_Oᵀ → split: d(head_i) = block i of d(concat)
//     → each head's backward (backward_attention.hpp): dV_i, dA_i, dZ_i, dS_i, dQ_i, dK_i
//     → dQ = [dQ_1 | … | dQ_h], dK, dV likewise → dW_Q = Xᵀ·dQ, dW_K = Xᵀ·dK, dW_V = Xᵀ·dV
//     → dX = dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ
//
// X feeds every head through its own columns of W_Q, W_K and W_V, so dX is the sum over the heads of
// what each sends back (dQ·W_Qᵀ = Σ_i dQ_i·W_Q,iᵀ: a product over h·d_k columns is the sum of its
// blocks'). Head i's column block of dW_Q is Xᵀ·dQ_i, its own weights' gradient.
//
// As the other entry points: everything is checked before anything is computed, and the Error
// that refused the input is returned; nothing throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "backward_attention.hpp"
#include "matrix.hpp"
#include "multi_head.hpp"
#include "options.hpp"
#include "result.hpp"
#include "validate.hpp"

namespace attn {

// Every gradient of one multi-head backward pass, in the order they are computed; shapes as in
// multi_head.hpp: x (n, d_model), w_q and w_k (d_model, h·d_k), w_v (d_model, h·d_v), w_o (h·d_v, d_out).
struct MultiHeadGrads {
    Matrix d_w_o;                       // (h·d_v, d_out)    ∂L/∂W_O = concatᵀ·dO
    Matrix d_concat;                    // (n, h·d_v)        ∂L/∂concat = dO·W_Oᵀ
    std::vector<Matrix> d_heads;        // h × (n, d_v)      ∂L/∂head_i = block i of d(concat)
    std::vector<AttentionGrads> heads;  // head i's backward from d(head_i): dV_i, dA_i, dZ_i, dS_i, dQ_i, dK_i
    Matrix d_q;                         // (n, h·d_k)        ∂L/∂Q = [dQ_1 | … | dQ_h]
    Matrix d_k;                         // (n, h·d_k)        ∂L/∂K = [dK_1 | … | dK_h]
    Matrix d_v;                         // (n, h·d_v)        ∂L/∂V = [dV_1 | … | dV_h]
    Matrix d_w_q;                       // (d_model, h·d_k)  ∂L/∂W_Q = Xᵀ·dQ
    Matrix d_w_k;                       // (d_model, h·d_k)  ∂L/∂W_K = Xᵀ·dK
    Matrix d_w_v;                       // (d_model, h·d_v)  ∂L/∂W_V = Xᵀ·dV
    Matrix d_x;                         // (n, d_model)      ∂L/∂X = dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ
};

// What the entry points return: the forward steps the gradients were computed from, then the
// gradients.
struct MultiHeadBackward {
    MultiHeadSteps forward;
    MultiHeadGrads grads;
};

// The shapes of a call: check_multi_head_shapes', then d_output (the argument "gradOutput") n×d_out,
// the shape of O, then the working memory (multi_head_backward_working_bytes).
//   the codes of check_multi_head_shapes, gradient_shape, too_much_memory
Error check_multi_head_backward_shapes(const Shape& x, const Shape& w_q, const Shape& w_k, const Shape& w_v,
                                       const Shape& w_o, std::int64_t heads, const AttentionOptions& options,
                                       const Shape* mask, const Shape& d_output);

// The shapes, then the values: check_multi_head's, then every value of d_output finite.
//   the above, not_finite, mask_value, gradient_not_finite
Error check_multi_head_backward(const MultiHeadInputs& in, std::int64_t heads, const Matrix& d_output,
                                const AttentionOptions& options);

// The working memory of one call, in bytes (checked_size.hpp's arithmetic): the forward's
// (multi_head_working_bytes); for each head its backward's own buffers (backward_own_bytes) and
// d(head_i); dW_O and d(concat); dQ, dK, dV; the three dW; dX, the three products it adds up, and
// the transposed W_O, W_Q, W_K, W_V the SIMD path's products with Wᵀ read row by row.
std::uint64_t multi_head_backward_working_bytes(const MultiHeadShape& shape, Axis axis);

// On the reference path: multi_head_attention_steps, each head's backward_steps, and the products
// of backward.hpp (d_project_weights for Xᵀ·dOut, d_project_input for dOut·Wᵀ).
Result<MultiHeadBackward> multi_head_attention_backward(const MultiHeadInputs& in, std::size_t heads,
                                                        const Matrix& d_output, const AttentionOptions& options = {});

// On the SIMD path: multi_head_attention_steps_simd, backward_steps_simd and backward_simd.hpp's
// products; equal to the reference within float32 rounding.
Result<MultiHeadBackward> multi_head_attention_backward_simd(const MultiHeadInputs& in, std::size_t heads,
                                                             const Matrix& d_output,
                                                             const AttentionOptions& options = {});

}  // namespace attn
