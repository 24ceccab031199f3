// backward_simd.hpp — the backward steps of backward.hpp through the SIMD loops (simd_kernels.hpp,
// backward_kernels.hpp): the same functions, shapes and formulas, each tested equal to its
// reference step (tests/core/test_backward.cpp). Unchecked, like the reference steps.
//
//   dV = Aᵀ·dO, dQ = dS·K, dK = dSᵀ·Q                  one simd::combine_rows per output row,
//   dA = dO·Vᵀ, dX = dOut·Wᵀ, dW = Xᵀ·dOut             or four (simd::product_rows), terms in the
//   (with Vᵀ and Wᵀ copied)                             reference's order: equal bit for bit (but in
//                                                       the relaxed-SIMD build, which fuses)
//   the softmax's backward                              simd::weighted_sum, simd::softmax_grad
//   the scaling                                         simd::divide: equal bit for bit
#pragma once

#include "matrix.hpp"

namespace attn::simd_backward {

Matrix d_values(const Matrix& a, const Matrix& kept, const Matrix& d_output);  // (n_k, d_v) = Aᵀ·dO, kept keys

Matrix d_weights(const Matrix& d_output, const Matrix& v);  // (n_q, n_k) = dO·Vᵀ
Matrix d_softmax(const Matrix& a, const Matrix& kept,
                 const Matrix& d_weights);                     // A_ij·(dA_ij − Σ_t A_it dA_it), 0 masked
Matrix d_scale_scores(const Matrix& d_scaled, float divisor);  // d_scaled / divisor
Matrix d_queries(const Matrix& d_scores, const Matrix& kept, const Matrix& k);  // (n_q, d_k) = dS·K, kept pairs
Matrix d_keys(const Matrix& d_scores, const Matrix& kept, const Matrix& q);     // (n_k, d_k) = dSᵀ·Q, kept pairs
Matrix d_project_weights(const Matrix& x, const Matrix& d_out);                 // (d, d_out) = Xᵀ·dOut
Matrix d_project_input(const Matrix& d_out, const Matrix& w);                   // (n, d) = dOut·Wᵀ

}  // namespace attn::simd_backward
