// fast_kernels.hpp — the register-blocked microkernels of the fast paths (attention_fast.cpp,
// attention_streaming.cpp): a small block of scores S = Q·Kᵀ, a small block of A·V, and the
// two row passes of softmax. Written once as xsimd functors templated on the architecture
// (SIMD128 and SSE: 4 floats per register; AVX: 8); the scalar wasm build, which has no xsimd
// batch types, gets plain loops with the same signatures at the end of the file.
//
// Block sizes: MR = 4 query rows × NR = 2 registers of keys (8 on SIMD128) or of value columns.
// The 4×2 accumulators are 8 independent multiply–add chains, enough to keep SIMD128 busy
// (SIMD128 has no fused multiply–add: each step is a mul and an add). Larger blocks (5×8, 3×12,
// 2×16) gained nothing here and run out of the 16 registers V8 has on x86-64.
//
// Q·Kᵀ microkernel, one step c of the d_k-long dot products (W = floats per register):
//
//             Kp panel row c:  [ k0 (keys j..j+W-1) | k1 (keys j+W..j+2W-1) ]   two loads
//   q[0][c] (splat)  ×        acc[0][0]              acc[0][1]
//   q[1][c] (splat)  ×        acc[1][0]              acc[1][1]
//   q[2][c] (splat)  ×        acc[2][0]              acc[2][1]
//   q[3][c] (splat)  ×        acc[3][0]              acc[3][1]
//   acc[r][h] += q[r][c] · k_h                        8 mul + 8 add per 2 loads + 4 splats
//
// A·V microkernel: the same picture with q[r][c] → the weight p[r][j] and the K panel row → the
// V panel row j (W..2W values of v_j); it runs over the keys j instead of over c.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>

#include "fast_exp.hpp"
#include "simd_kernels.hpp"

namespace attn::fast {

constexpr std::size_t kMR = 4;  // query rows per microkernel

#if ATTN_HAVE_SIMD
using arch = xsimd::default_arch;
constexpr std::size_t kW = xsimd::batch<float, arch>::size;
constexpr std::size_t kNR = 2 * kW;  // keys (Q·Kᵀ) or value columns (A·V) per microkernel

// s[r][0..NR) = q_r · k_(j..j+NR) for MR query rows against one K panel (d, NR).
//   q: MR rows with stride ldq (d values each), kp: the panel, s: MR rows with stride lds.
template <std::size_t MR>
struct qk_microkernel {
    template <class Arch>
    void operator()(Arch, const float* q, std::size_t ldq, const float* kp, std::size_t d, float* s,
                    std::size_t lds) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        batch acc0[MR], acc1[MR];
        for (std::size_t r = 0; r < MR; ++r) acc0[r] = acc1[r] = batch(0.0f);
        for (std::size_t c = 0; c < d; ++c) {
            const batch k0 = batch::load_unaligned(kp + c * 2 * W);
            const batch k1 = batch::load_unaligned(kp + c * 2 * W + W);
            for (std::size_t r = 0; r < MR; ++r) {
                const batch qr(q[r * ldq + c]);
                acc0[r] = xsimd::fma(qr, k0, acc0[r]);  // a mul and an add on SIMD128
                acc1[r] = xsimd::fma(qr, k1, acc1[r]);
            }
        }
        for (std::size_t r = 0; r < MR; ++r) {
            acc0[r].store_unaligned(s + r * lds);
            acc1[r].store_unaligned(s + r * lds + W);
        }
    }
};

// dst[r][0..cols) = (in_scale[r]·dst[r] + Σ_j p[r][j] · v_j[panel]) · out_scale[r] for MR rows.
//   p: MR rows of weights with stride ldp, nj of them; vp: the V panel from the first key used,
//   (nj, NR); in_scale == nullptr starts from 0 (and then dst is not read); cols ≤ NR are stored.
template <std::size_t MR>
struct pv_microkernel {
    template <class Arch>
    void operator()(Arch, const float* p, std::size_t ldp, const float* vp, std::size_t nj, float* dst,
                    std::size_t ldd, const float* in_scale, const float* out_scale,
                    std::size_t cols) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        batch acc0[MR], acc1[MR];
        for (std::size_t r = 0; r < MR; ++r) {
            if (in_scale) {  // streaming: rescale the running sum by exp(m_old − m_new)
                const batch a(in_scale[r]);
                acc0[r] = batch::load_unaligned(dst + r * ldd) * a;
                acc1[r] = batch::load_unaligned(dst + r * ldd + W) * a;
            } else {
                acc0[r] = acc1[r] = batch(0.0f);
            }
        }
        for (std::size_t j = 0; j < nj; ++j) {
            const batch v0 = batch::load_unaligned(vp + j * 2 * W);
            const batch v1 = batch::load_unaligned(vp + j * 2 * W + W);
            for (std::size_t r = 0; r < MR; ++r) {
                const batch pr(p[r * ldp + j]);
                acc0[r] = xsimd::fma(pr, v0, acc0[r]);
                acc1[r] = xsimd::fma(pr, v1, acc1[r]);
            }
        }
        for (std::size_t r = 0; r < MR; ++r) {
            const batch o(out_scale[r]);
            if (cols == 2 * W) {
                (acc0[r] * o).store_unaligned(dst + r * ldd);
                (acc1[r] * o).store_unaligned(dst + r * ldd + W);
            } else {  // the last panel of an odd d_v: store only the real columns
                alignas(64) float tmp[2 * W];
                (acc0[r] * o).store_unaligned(tmp);
                (acc1[r] * o).store_unaligned(tmp + W);
                std::memcpy(dst + r * ldd, tmp, cols * sizeof(float));
            }
        }
    }
};

// max_j x_j over n values, −∞ when n == 0 or all are −∞. The fast paths only get here with
// NaN-free scores (inputs with NaN go to the reference), so no NaN tracking.
struct row_max_kernel {
    template <class Arch>
    float operator()(Arch, const float* x, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        batch best(-std::numeric_limits<float>::infinity());
        for (std::size_t i = 0; i < vec_end; i += W) best = xsimd::max(best, batch::load_unaligned(x + i));
        float m = xsimd::reduce_max(best);
        for (std::size_t i = vec_end; i < n; ++i) m = std::max(m, x[i]);  // the tail, scalar
        return m;
    }
};

// x_j ← exp((x_j − m) · inv_divisor) in place, returns Σ_j of the new x_j. Every exponent is ≤ 0
// (m is the row max), so no term overflows; masked scores (−∞) give exactly 0.
struct exp_shift_sum_kernel {
    template <class Arch>
    float operator()(Arch, float* x, std::size_t n, float m, float inv_divisor) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        const batch mb(m), ib(inv_divisor);
        batch acc(0.0f);
        for (std::size_t i = 0; i < vec_end; i += W) {
            const batch e = exp_batch<Arch>((batch::load_unaligned(x + i) - mb) * ib);
            e.store_unaligned(x + i);
            acc += e;
        }
        float sum = xsimd::reduce_add(acc);
        for (std::size_t i = vec_end; i < n; ++i) sum += (x[i] = exp_scalar((x[i] - m) * inv_divisor));
        return sum;
    }
};

template <std::size_t MR>
inline void qk_block(const float* q, std::size_t ldq, const float* kp, std::size_t d, float* s, std::size_t lds) {
    qk_microkernel<MR>{}(arch{}, q, ldq, kp, d, s, lds);
}
template <std::size_t MR>
inline void pv_block(const float* p, std::size_t ldp, const float* vp, std::size_t nj, float* dst, std::size_t ldd,
                     const float* in_scale, const float* out_scale, std::size_t cols) {
    pv_microkernel<MR>{}(arch{}, p, ldp, vp, nj, dst, ldd, in_scale, out_scale, cols);
}
inline float row_max(const float* x, std::size_t n) { return row_max_kernel{}(arch{}, x, n); }
inline float exp_shift_sum(float* x, std::size_t n, float m, float inv_divisor) {
    return exp_shift_sum_kernel{}(arch{}, x, n, m, inv_divisor);
}

#else  // no SIMD (the scalar wasm build): the same blocks as plain loops

constexpr std::size_t kNR = 4;

template <std::size_t MR>
inline void qk_block(const float* q, std::size_t ldq, const float* kp, std::size_t d, float* s, std::size_t lds) {
    float acc[MR][kNR] = {};
    for (std::size_t c = 0; c < d; ++c)
        for (std::size_t r = 0; r < MR; ++r)
            for (std::size_t h = 0; h < kNR; ++h) acc[r][h] += q[r * ldq + c] * kp[c * kNR + h];
    for (std::size_t r = 0; r < MR; ++r)
        for (std::size_t h = 0; h < kNR; ++h) s[r * lds + h] = acc[r][h];
}
template <std::size_t MR>
inline void pv_block(const float* p, std::size_t ldp, const float* vp, std::size_t nj, float* dst, std::size_t ldd,
                     const float* in_scale, const float* out_scale, std::size_t cols) {
    float acc[MR][kNR] = {};
    if (in_scale)
        for (std::size_t r = 0; r < MR; ++r)
            for (std::size_t h = 0; h < kNR; ++h) acc[r][h] = dst[r * ldd + h] * in_scale[r];
    for (std::size_t j = 0; j < nj; ++j)
        for (std::size_t r = 0; r < MR; ++r)
            for (std::size_t h = 0; h < kNR; ++h) acc[r][h] += p[r * ldp + j] * vp[j * kNR + h];
    for (std::size_t r = 0; r < MR; ++r)
        for (std::size_t h = 0; h < cols; ++h) dst[r * ldd + h] = acc[r][h] * out_scale[r];
}
inline float row_max(const float* x, std::size_t n) {
    float m = -std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < n; ++i) m = std::max(m, x[i]);
    return m;
}
inline float exp_shift_sum(float* x, std::size_t n, float m, float inv_divisor) {
    float sum = 0.0f;
    for (std::size_t i = 0; i < n; ++i) sum += (x[i] = exp_scalar((x[i] - m) * inv_divisor));
    return sum;
}

#endif

// The row-count tail: a block of `rows` < MR query rows runs the microkernel instantiated for it.
inline void qk_rows(std::size_t rows, const float* q, std::size_t ldq, const float* kp, std::size_t d, float* s,
                    std::size_t lds) {
    switch (rows) {
        case 4: qk_block<4>(q, ldq, kp, d, s, lds); break;
        case 3: qk_block<3>(q, ldq, kp, d, s, lds); break;
        case 2: qk_block<2>(q, ldq, kp, d, s, lds); break;
        default: qk_block<1>(q, ldq, kp, d, s, lds); break;
    }
}
inline void pv_rows(std::size_t rows, const float* p, std::size_t ldp, const float* vp, std::size_t nj, float* dst,
                    std::size_t ldd, const float* in_scale, const float* out_scale, std::size_t cols) {
    switch (rows) {
        case 4: pv_block<4>(p, ldp, vp, nj, dst, ldd, in_scale, out_scale, cols); break;
        case 3: pv_block<3>(p, ldp, vp, nj, dst, ldd, in_scale, out_scale, cols); break;
        case 2: pv_block<2>(p, ldp, vp, nj, dst, ldd, in_scale, out_scale, cols); break;
        default: pv_block<1>(p, ldp, vp, nj, dst, ldd, in_scale, out_scale, cols); break;
    }
}
static_assert(kMR == 4, "qk_rows/pv_rows dispatch 1..4 rows");

}  // namespace attn::fast
