// backward_kernels.hpp — the loops of the backward SIMD path (backward_simd.cpp): the softmax's
// backward, dZ_ij = A_ij·(dA_ij − Σ_t A_it dA_it), over one row, which simd_kernels.hpp has no
// kernel for; and one row of a matrix product, summed in registers (combine_rows), with the
// backward pass's multiply–add (backward_madd: fused in the relaxed-SIMD build). The divide is
// simd_kernels.hpp's own.
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

#else  // no SIMD: the scalar loops over the whole length

struct mul_then_add {};  // the scalar build's only multiply–add: a·b, then + c, each rounded
template <class MulAdd = mul_then_add>
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

#endif

}  // namespace attn::simd
