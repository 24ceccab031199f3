// simd_kernels.hpp — the loops of the step-by-step SIMD path (attention_steps_simd.cpp), written
// once for every SIMD width with xsimd: dot, axpy, max, subtract, exp + sum, divide.
//
// Each kernel is a functor templated on the xsimd architecture: a batch loop over the largest
// multiple of the batch size, then a scalar loop for the remaining elements. The same source
// compiles to wasm SIMD128 (-msimd128, 4 floats), SSE (4) or AVX (8) natively. The scalar wasm
// build has no xsimd at all (see below): there the same functions are plain loops from element 0.
//
// What they promise against the reference (reference.cpp), for the same inputs: axpy, max,
// subtract and divide round exactly as its loops do (one IEEE operation per element, in the same
// order); dot and the sum of exp_sum add in W interleaved partial sums instead of one, and exp is
// xsimd's (within ~1 ulp of std::exp), so those differ in the last bits.
// tests/core/test_simd_kernels.cpp checks each at lengths around every multiple of the batch size.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

// ATTN_HAVE_SIMD, for the whole core (the fast paths include this file for it): xsimd picks its
// wasm backend from __EMSCRIPTEN__ alone, so a wasm build without -msimd128 (the scalar variant)
// must not include it at all (docs/toolchain.md).
#if defined(__EMSCRIPTEN__) && !defined(__wasm_simd128__)
#define ATTN_HAVE_SIMD 0
#else
#include <xsimd/xsimd.hpp>
#if defined(XSIMD_NO_SUPPORTED_ARCHITECTURE)
#define ATTN_HAVE_SIMD 0
#else
#define ATTN_HAVE_SIMD 1
#endif
#endif

namespace attn::simd {

// Scalar loops from element `from` to n: the tails of the batch loops, and the whole loop in a
// build without SIMD.
inline float dot_tail(const float* a, const float* b, std::size_t from, std::size_t n) {
    float sum = 0.0f;
    for (std::size_t i = from; i < n; ++i) sum += a[i] * b[i];
    return sum;
}
inline void axpy_tail(float* y, float alpha, const float* x, std::size_t from, std::size_t n) {
    for (std::size_t i = from; i < n; ++i) y[i] += alpha * x[i];
}
inline float max_tail(const float* x, std::size_t from, std::size_t n, float best) {
    for (std::size_t i = from; i < n; ++i) {
        if (std::isnan(x[i])) return x[i];
        if (x[i] > best) best = x[i];
    }
    return best;
}
inline void subtract_tail(float* out, const float* x, float s, std::size_t from, std::size_t n) {
    for (std::size_t i = from; i < n; ++i) out[i] = x[i] - s;
}
inline float exp_sum_tail(float* out, const float* x, std::size_t from, std::size_t n) {
    float sum = 0.0f;
    for (std::size_t i = from; i < n; ++i) sum += (out[i] = std::exp(x[i]));
    return sum;
}
inline void divide_tail(float* x, float d, std::size_t from, std::size_t n) {
    for (std::size_t i = from; i < n; ++i) x[i] /= d;
}

#if ATTN_HAVE_SIMD
using arch = xsimd::default_arch;

// a·b + c on whole batches as every kernel here computes it: a multiplication, then an addition,
// each rounded, as the reference's loops do. dot and axpy take the multiply–add as a parameter
// so that the backward pass can run them with relaxed SIMD's fused one (backward_kernels.hpp).
struct mul_then_add {
    template <class B>
    B operator()(const B& a, const B& b, const B& c) const {
        return a * b + c;
    }
};

// a · b = Σ_i a_i b_i — one query row against one key row (a score S_ij).
template <class MulAdd = mul_then_add>
struct dot_kernel {
    template <class Arch>
    float operator()(Arch, const float* a, const float* b, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        batch acc(0.0f);
        for (std::size_t i = 0; i < vec_end; i += W)
            acc = MulAdd{}(batch::load_unaligned(a + i), batch::load_unaligned(b + i), acc);
        return xsimd::reduce_add(acc) + dot_tail(a, b, vec_end, n);  // then the tail, scalar
    }
};

// y += alpha · x — adds one weighted row into an output row: output_i += A_ij v_j for one j
// (and out_i += x_it w_t for X·W). Each y element is its own sum, so a caller that runs j in
// order sums in exactly the reference's order.
template <class MulAdd = mul_then_add>
struct axpy_kernel {
    template <class Arch>
    void operator()(Arch, float* y, float alpha, const float* x, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        const batch a(alpha);
        for (std::size_t i = 0; i < vec_end; i += W)
            MulAdd{}(a, batch::load_unaligned(x + i), batch::load_unaligned(y + i)).store_unaligned(y + i);
        axpy_tail(y, alpha, x, vec_end, n);  // then the tail, scalar
    }
};

// max_i x_i, NaN if any x_i is NaN (hardware max instructions drop NaN, so it is tracked apart);
// −∞ for an empty or all −∞ input (a fully masked row).
struct max_kernel {
    template <class Arch>
    float operator()(Arch, const float* x, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        batch best(-std::numeric_limits<float>::infinity());
        auto saw_nan = batch(0.0f) != batch(0.0f);  // all false
        for (std::size_t i = 0; i < vec_end; i += W) {
            const batch v = batch::load_unaligned(x + i);
            saw_nan = saw_nan | xsimd::isnan(v);
            best = xsimd::max(best, v);
        }
        if (xsimd::any(saw_nan)) return std::numeric_limits<float>::quiet_NaN();
        return max_tail(x, vec_end, n, xsimd::reduce_max(best));  // then the tail, scalar
    }
};

// out_i = x_i − s — a row of scores minus its max: the shifted scores, every one ≤ 0.
struct subtract_kernel {
    template <class Arch>
    void operator()(Arch, float* out, const float* x, float s, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        const batch sv(s);
        for (std::size_t i = 0; i < vec_end; i += W) (batch::load_unaligned(x + i) - sv).store_unaligned(out + i);
        subtract_tail(out, x, s, vec_end, n);  // then the tail, scalar
    }
};

// out_i = exp(x_i), returns Σ_i out_i — the exps and the row sum of softmax in one pass.
// exp(−∞) = 0 (a masked score), exp(NaN) = NaN, exp(x > 88.7) = +∞ (the step path hands the naive
// softmax, which exponentiates the scores themselves, to the reference: attention_steps_simd.cpp).
struct exp_sum_kernel {
    template <class Arch>
    float operator()(Arch, float* out, const float* x, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        batch acc(0.0f);
        for (std::size_t i = 0; i < vec_end; i += W) {
            const batch e = xsimd::exp(batch::load_unaligned(x + i));
            e.store_unaligned(out + i);
            acc += e;
        }
        return xsimd::reduce_add(acc) + exp_sum_tail(out, x, vec_end, n);  // then the tail, scalar
    }
};

// x_i = x_i / d — normalising a row of exps by its sum (a division, not a reciprocal multiply,
// so the weights round exactly as in the reference).
struct divide_kernel {
    template <class Arch>
    void operator()(Arch, float* x, float d, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        const batch dv(d);
        for (std::size_t i = 0; i < vec_end; i += W) (batch::load_unaligned(x + i) / dv).store_unaligned(x + i);
        divide_tail(x, d, vec_end, n);  // then the tail, scalar
    }
};

inline float dot(const float* a, const float* b, std::size_t n) { return dot_kernel<>{}(arch{}, a, b, n); }
inline void axpy(float* y, float alpha, const float* x, std::size_t n) { axpy_kernel<>{}(arch{}, y, alpha, x, n); }
inline float max(const float* x, std::size_t n) { return max_kernel{}(arch{}, x, n); }
inline void subtract(float* out, const float* x, float s, std::size_t n) { subtract_kernel{}(arch{}, out, x, s, n); }
inline float exp_sum(float* out, const float* x, std::size_t n) { return exp_sum_kernel{}(arch{}, out, x, n); }
inline void divide(float* x, float d, std::size_t n) { divide_kernel{}(arch{}, x, d, n); }
inline constexpr std::size_t batch_size() { return xsimd::batch<float, arch>::size; }

#else  // no SIMD: the scalar loops over the whole length

inline float dot(const float* a, const float* b, std::size_t n) { return dot_tail(a, b, 0, n); }
inline void axpy(float* y, float alpha, const float* x, std::size_t n) { axpy_tail(y, alpha, x, 0, n); }
inline float max(const float* x, std::size_t n) { return max_tail(x, 0, n, -std::numeric_limits<float>::infinity()); }
inline void subtract(float* out, const float* x, float s, std::size_t n) { subtract_tail(out, x, s, 0, n); }
inline float exp_sum(float* out, const float* x, std::size_t n) { return exp_sum_tail(out, x, 0, n); }
inline void divide(float* x, float d, std::size_t n) { divide_tail(x, d, 0, n); }
inline constexpr std::size_t batch_size() { return 1; }

#endif

}  // namespace attn::simd
