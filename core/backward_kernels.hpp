// backward_kernels.hpp — the loops of the backward SIMD path (backward_simd.cpp): the softmax's
// backward, dZ_ij = A_ij·(dA_ij − Σ_t A_it dA_it), over one row, which simd_kernels.hpp has no
// kernel for; and the rows of a matrix product, summed in registers (combine_rows one row, four_rows
// four at once, product_rows all of them), with the backward pass's multiply–add (backward_madd:
// fused in the relaxed-SIMD build). The divide is simd_kernels.hpp's own.
//
// Written as simd_kernels.hpp's kernels are: a functor on the xsimd architecture, a batch loop,
// then a scalar tail; plain loops in the scalar wasm build (ATTN_HAVE_SIMD 0). Against the
// reference (backward.cpp's d_softmax): softmax_grad rounds exactly as its loop (one subtraction and
// one multiplication per element), weighted_sum adds in W interleaved partial sums, so it differs in
// the last bits. tests/core/test_backward.cpp checks both at lengths around the batch size.
#pragma once

#include <cstddef>

#include "madd.hpp"
#include "simd_kernels.hpp"

namespace attn::simd {

// Σ_i a_i g_i over the kept i (kept_i ≠ 0), and a_i·(g_i − c) there, exactly 0 where masked:
// the scalar loops, from element `from` (the batch loops' tails, and the whole loop without SIMD).
// Only the mask leaves an element out: a kept a_i of 0 (an underflowed weight) still multiplies
// its g_i, so a NaN there reaches the sum (backward.hpp, d_softmax).
inline float weighted_sum_tail(const float* a, const float* kept, const float* g, std::size_t from, std::size_t n) {
    float sum = 0.0f;
    for (std::size_t i = from; i < n; ++i)
        if (kept[i] != 0.0f) sum += a[i] * g[i];
    return sum;
}
inline void softmax_grad_tail(float* out, const float* a, const float* kept, const float* g, float c, std::size_t from,
                              std::size_t n) {
    for (std::size_t i = from; i < n; ++i) out[i] = kept[i] == 0.0f ? 0.0f : a[i] * (g[i] - c);
}

#if ATTN_HAVE_SIMD

// The backward pass's multiply–add, a·b + c on whole batches (issue 20: the training kernels too).
// In the relaxed-SIMD build madd.hpp's madd, one f32x4.relaxed_madd that an engine may
// fuse, as the fast paths' microkernels do: the gradients then differ from the reference's in the
// last bits, and the tests hold them to it within a tolerance. Everywhere else simd_kernels.hpp's
// mul_then_add, not xsimd::fma (a real FMA natively with FMA3), so that natively and on SIMD128
// the backward steps sum exactly as their reference loops do (backward_simd.hpp).
#if ATTN_RELAXED_SIMD
struct backward_madd {
    template <class B>
    B operator()(const B& a, const B& b, const B& c) const {
        return fast::madd(a, b, c);
    }
};
#else
using backward_madd = mul_then_add;
#endif

// out_c = Σ_t coeff_t · b_tc over t < k in order, leaving out the t where kept_t == 0 (every t when
// kept is null): one row of a matrix product, coeff a row of its left factor (or a column: the
// strides) and b_t the rows of its right one. Each output element is summed from 0 in the
// reference's order, one multiply–add per term, as an axpy per term (simd_kernels.hpp) sums it, but
// in registers, up to 4 batches of columns at a time, not loaded and stored k times; the columns
// past the last whole batch scalar, as axpy's tail.
template <class MulAdd>
struct combine_rows_kernel {
    template <class Arch>
    void operator()(Arch, float* out, const float* coeff, std::size_t coeff_stride, const float* kept,
                    std::size_t kept_stride, const float* b, std::size_t b_stride, std::size_t k, std::size_t m) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const auto skip = [&](std::size_t t) { return kept && kept[t * kept_stride] == 0.0f; };
        std::size_t col = 0;
        for (; col + 4 * W <= m; col += 4 * W) {
            batch s0(0.0f), s1(0.0f), s2(0.0f), s3(0.0f);
            for (std::size_t t = 0; t < k; ++t) {
                if (skip(t)) continue;
                const batch c(coeff[t * coeff_stride]);
                const float* bt = b + t * b_stride + col;
                s0 = MulAdd{}(c, batch::load_unaligned(bt), s0);
                s1 = MulAdd{}(c, batch::load_unaligned(bt + W), s1);
                s2 = MulAdd{}(c, batch::load_unaligned(bt + 2 * W), s2);
                s3 = MulAdd{}(c, batch::load_unaligned(bt + 3 * W), s3);
            }
            s0.store_unaligned(out + col);
            s1.store_unaligned(out + col + W);
            s2.store_unaligned(out + col + 2 * W);
            s3.store_unaligned(out + col + 3 * W);
        }
        for (; col + W <= m; col += W) {
            batch s(0.0f);
            for (std::size_t t = 0; t < k; ++t)
                if (!skip(t))
                    s = MulAdd{}(batch(coeff[t * coeff_stride]), batch::load_unaligned(b + t * b_stride + col), s);
            s.store_unaligned(out + col);
        }
        for (; col < m; ++col) {  // then the tail, scalar
            float s = 0.0f;
            for (std::size_t t = 0; t < k; ++t)
                if (!skip(t)) s += coeff[t * coeff_stride] * b[t * b_stride + col];
            out[col] = s;
        }
    }
};

// out_r = Σ_t coeff_{t,r} · b_t over t < k in order, for four output rows r = 0 … 3 at once, the
// coefficient of term t for row r at coeff[t·term_stride + r·row_stride] (rows of a·b: a's rows,
// row_stride a.cols; rows of aᵀ·b: a's columns, term_stride a.cols). Each element summed as
// combine_rows sums it (from 0, one multiply–add per term, t in order), but each b_t loaded once
// for four rows, not four times: a training step's products (Oᵀ·∂logits over the batch's rows,
// E·W, Eᵀ·G, G·Wᵀ: model.cpp) read their right factor a quarter as often. Two batches of columns
// at a time (eight sums and the loads fit SSE's sixteen registers), then one, then the tail, scalar.
template <class MulAdd>
struct four_rows_kernel {
    template <class Arch>
    void operator()(Arch, float* out, std::size_t out_stride, const float* coeff, std::size_t term_stride,
                    std::size_t row_stride, const float* b, std::size_t b_stride, std::size_t k, std::size_t m) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t r1 = row_stride, r2 = 2 * row_stride, r3 = 3 * row_stride;
        std::size_t col = 0;
        for (; col + 2 * W <= m; col += 2 * W) {
            batch s00(0.0f), s01(0.0f), s10(0.0f), s11(0.0f), s20(0.0f), s21(0.0f), s30(0.0f), s31(0.0f);
            for (std::size_t t = 0; t < k; ++t) {
                const float* ct = coeff + t * term_stride;
                const float* bt = b + t * b_stride + col;
                const batch b0 = batch::load_unaligned(bt), b1 = batch::load_unaligned(bt + W);
                const batch c0(ct[0]), c1(ct[r1]), c2(ct[r2]), c3(ct[r3]);
                s00 = MulAdd{}(c0, b0, s00);
                s01 = MulAdd{}(c0, b1, s01);
                s10 = MulAdd{}(c1, b0, s10);
                s11 = MulAdd{}(c1, b1, s11);
                s20 = MulAdd{}(c2, b0, s20);
                s21 = MulAdd{}(c2, b1, s21);
                s30 = MulAdd{}(c3, b0, s30);
                s31 = MulAdd{}(c3, b1, s31);
            }
            const batch sums[4][2] = {{s00, s01}, {s10, s11}, {s20, s21}, {s30, s31}};
            for (std::size_t r = 0; r < 4; ++r) {
                sums[r][0].store_unaligned(out + r * out_stride + col);
                sums[r][1].store_unaligned(out + r * out_stride + col + W);
            }
        }
        for (; col + W <= m; col += W) {
            batch s[4] = {batch(0.0f), batch(0.0f), batch(0.0f), batch(0.0f)};
            for (std::size_t t = 0; t < k; ++t) {
                const batch bt = batch::load_unaligned(b + t * b_stride + col);
                for (std::size_t r = 0; r < 4; ++r)
                    s[r] = MulAdd{}(batch(coeff[t * term_stride + r * row_stride]), bt, s[r]);
            }
            for (std::size_t r = 0; r < 4; ++r) s[r].store_unaligned(out + r * out_stride + col);
        }
        for (; col < m; ++col)  // then the tail, scalar
            for (std::size_t r = 0; r < 4; ++r) {
                float s = 0.0f;
                for (std::size_t t = 0; t < k; ++t)
                    s += coeff[t * term_stride + r * row_stride] * b[t * b_stride + col];
                out[r * out_stride + col] = s;
            }
    }
};

// Σ_t A_it dA_it over the kept keys: a masked key's dA (NaN when its value row is) is selected
// away, not multiplied by 0; a kept key's product is added whatever its weight.
struct weighted_sum_kernel {
    template <class Arch>
    float operator()(Arch, const float* a, const float* kept, const float* g, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        const batch zero(0.0f);
        batch acc(0.0f);
        for (std::size_t i = 0; i < vec_end; i += W) {
            const batch sum = backward_madd{}(batch::load_unaligned(a + i), batch::load_unaligned(g + i), acc);
            acc = xsimd::select(batch::load_unaligned(kept + i) != zero, sum, acc);
        }
        return xsimd::reduce_add(acc) + weighted_sum_tail(a, kept, g, vec_end, n);  // then the tail, scalar
    }
};

// out_i = a_i·(g_i − c), exactly 0 where masked: one row of the softmax's backward, c = Σ_t A_it dA_it.
struct softmax_grad_kernel {
    template <class Arch>
    void operator()(Arch, float* out, const float* a, const float* kept, const float* g, float c, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        const batch zero(0.0f), cv(c);
        for (std::size_t i = 0; i < vec_end; i += W) {
            const batch av = batch::load_unaligned(a + i);
            xsimd::select(batch::load_unaligned(kept + i) != zero, av * (batch::load_unaligned(g + i) - cv), zero)
                .store_unaligned(out + i);
        }
        softmax_grad_tail(out, a, kept, g, c, vec_end, n);  // then the tail, scalar
    }
};

inline float weighted_sum(const float* a, const float* kept, const float* g, std::size_t n) {
    return weighted_sum_kernel{}(arch{}, a, kept, g, n);
}
// One row of a matrix product (combine_rows_kernel above), with the multiply–add `MulAdd`:
// backward_madd in the backward steps, mul_then_add in the model's forward projections.
template <class MulAdd = backward_madd>
inline void combine_rows(float* out, const float* coeff, std::size_t coeff_stride, const float* kept,
                         std::size_t kept_stride, const float* b, std::size_t b_stride, std::size_t k, std::size_t m) {
    combine_rows_kernel<MulAdd>{}(arch{}, out, coeff, coeff_stride, kept, kept_stride, b, b_stride, k, m);
}
inline void softmax_grad(float* out, const float* a, const float* kept, const float* g, float c, std::size_t n) {
    softmax_grad_kernel{}(arch{}, out, a, kept, g, c, n);
}
// Four rows of a product (four_rows_kernel above), with the multiply–add `MulAdd`, as combine_rows.
template <class MulAdd = backward_madd>
inline void four_rows(float* out, std::size_t out_stride, const float* coeff, std::size_t term_stride,
                      std::size_t row_stride, const float* b, std::size_t b_stride, std::size_t k, std::size_t m) {
    four_rows_kernel<MulAdd>{}(arch{}, out, out_stride, coeff, term_stride, row_stride, b, b_stride, k, m);
}

#else  // no SIMD: the scalar loops over the whole length

struct mul_then_add {};  // the scalar build's only multiply–add: a·b, then + c, each rounded
using backward_madd = mul_then_add;
template <class MulAdd = backward_madd>
inline void combine_rows(float* out, const float* coeff, std::size_t coeff_stride, const float* kept,
                         std::size_t kept_stride, const float* b, std::size_t b_stride, std::size_t k, std::size_t m) {
    for (std::size_t col = 0; col < m; ++col) {
        float s = 0.0f;
        for (std::size_t t = 0; t < k; ++t)
            if (!kept || kept[t * kept_stride] != 0.0f) s += coeff[t * coeff_stride] * b[t * b_stride + col];
        out[col] = s;
    }
}

inline float weighted_sum(const float* a, const float* kept, const float* g, std::size_t n) {
    return weighted_sum_tail(a, kept, g, 0, n);
}
inline void softmax_grad(float* out, const float* a, const float* kept, const float* g, float c, std::size_t n) {
    softmax_grad_tail(out, a, kept, g, c, 0, n);
}
template <class MulAdd = backward_madd>
inline void four_rows(float* out, std::size_t out_stride, const float* coeff, std::size_t term_stride,
                      std::size_t row_stride, const float* b, std::size_t b_stride, std::size_t k, std::size_t m) {
    for (std::size_t r = 0; r < 4; ++r)
        combine_rows<MulAdd>(out + r * out_stride, coeff + r * row_stride, term_stride, nullptr, 0, b, b_stride, k, m);
}

#endif

// The `rows` rows of a product into out (rows out_stride apart), row i's coefficient of term t at
// coeff[t·term_stride + i·row_stride] (as four_rows): four at a time, the last rows mod 4 one by one.
template <class MulAdd = backward_madd>
inline void product_rows(float* out, std::size_t out_stride, std::size_t rows, const float* coeff,
                         std::size_t term_stride, std::size_t row_stride, const float* b, std::size_t b_stride,
                         std::size_t k, std::size_t m) {
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4)
        four_rows<MulAdd>(out + i * out_stride, out_stride, coeff + i * row_stride, term_stride, row_stride, b,
                          b_stride, k, m);
    for (; i < rows; ++i)
        combine_rows<MulAdd>(out + i * out_stride, coeff + i * row_stride, term_stride, nullptr, 0, b, b_stride, k, m);
}

}  // namespace attn::simd
