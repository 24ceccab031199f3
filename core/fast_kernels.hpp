// fast_kernels.hpp — the register-blocked microkernels of the fast paths (attention_fast.cpp,
// attention_streaming.cpp). Written once as xsimd functors templated on the architecture
// (SIMD128 and SSE: W = 4 floats per register; AVX: W = 8); the scalar wasm build, which has no
// xsimd batch types, gets plain loops with the same signatures at the end of the file.
//
// Layout: "query rows in lanes". A group of MR = 2·W query rows is handled together, and every
// per-row quantity is two registers whose lanes are the group's rows:
//   packed Q group  Qp[c][r]        (d, MR)     c-th components of the MR query rows
//   score block     S[j][r]         (n_k, MR)   S[j][r] = q_r · k_j
//   row max, sum    m[r], l[r]      (MR)
// so softmax over each row is plain vertical arithmetic on whole registers (no horizontal
// reductions, no tails in j), and the A·V microkernel loads the weights of key j for all MR rows
// with two contiguous loads.
//
// Q·Kᵀ microkernel, one step c of the d-long dot products, NK = 4 keys of one K panel (6 in the
// relaxed-SIMD build, below):
//
//               Qp[c]: [ q0 (rows 0..W-1) | q1 (rows W..2W-1) ]   two loads
//   Kp[c][0] (splat) ×    acc[0][0]             acc[0][1]
//   Kp[c][1] (splat) ×    acc[1][0]             acc[1][1]
//   Kp[c][2] (splat) ×    acc[2][0]             acc[2][1]
//   Kp[c][3] (splat) ×    acc[3][0]             acc[3][1]
//   acc[h][x] += q_x · k_h: 8 mul + 8 add (8 independent chains) per 2 loads + 4 splat-loads;
//   at the end acc[h] is the score column S[j+h][·], stored as it is.
//
// A·V microkernel: the same picture with Qp[c] → the weights P[j][·] of key j and the K panel
// → NC ≤ 4 values v_j[c0 .. c0+NC) of V (row-major, splat-loaded), running over the keys j;
// acc[h] ends as output column c0+h for the MR rows.
//
// SIMD128 has no fused multiply–add: xsimd::fma is a mul and an add there (a real FMA natively).
// The relaxed-SIMD build (ATTN_RELAXED_SIMD) has one, f32x4.relaxed_madd (madd.hpp, `madd`).
// Larger blocks (5×8, 3×12, 2×16 in a row-major layout) gained nothing in the prototype this kernel
// grew from, and need more than the 16 vector registers V8 allocates from on x86-64 when every
// step needs a register for the product of its mul (SIMD128). With relaxed_madd, 6 keys fit:
// 12 accumulators, 2 query registers and 1 splat = 15 registers. With only 8 independent chains a
// fused multiply–add (latency ≈ 4 cycles, 2 per cycle here) waits on its own chain's previous
// result whenever a load is late; 12 chains leave slack. In Chromium, n = 1024: 9.1 → 8.6 ms of
// CPU time in wasm, one run of 9 rounds at load 33 (bench/kernel-ab.mjs; bench/NOTES.md, issue
// 20). The A·V microkernel with 6 columns (12 chains too) measured no gain and stays at 4.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "fast_exp.hpp"
#include "madd.hpp"
#include "simd_kernels.hpp"

namespace attn::fast {

#if ATTN_HAVE_SIMD
using arch = xsimd::default_arch;
constexpr std::size_t kW = xsimd::batch<float, arch>::size;
#else
constexpr std::size_t kW = 4;  // plain loops over "lanes" of 4 rows
#endif
constexpr std::size_t kMR = 2 * kW;  // query rows per group: the lanes of two registers
// keys per K panel (Q·Kᵀ microkernel width): 4 keys × 2 registers = 8 accumulators, or 6 × 2 = 12
// in the relaxed-SIMD build (see qk_microkernel)
constexpr std::size_t kNK = ATTN_RELAXED_SIMD ? 6 : 4;
constexpr std::size_t kNC = 4;  // value columns per A·V microkernel

#if ATTN_HAVE_SIMD

// S[h][·] = Q_group · k_(j+h) for the NK keys of one K panel.
//   qp: packed group (d, MR), kp: panel (d, NK), s: NK score columns of MR floats each.
struct qk_microkernel {
    template <class Arch>
    void operator()(Arch, const float* qp, const float* kp, std::size_t d, float* s) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        batch acc[kNK][2];
        for (std::size_t h = 0; h < kNK; ++h) acc[h][0] = acc[h][1] = batch(0.0f);
        // Pointer-bump loop: Emscripten runs LLVM without loop strength reduction
        // (-disable-lsr), so indexed addresses would be recomputed (shift, add) at every step.
        const float* const k_end = kp + d * kNK;
        for (; kp != k_end; kp += kNK, qp += 2 * W) {
            const batch q0 = batch::load_unaligned(qp);
            const batch q1 = batch::load_unaligned(qp + W);
            for (std::size_t h = 0; h < kNK; ++h) {
                const batch k(kp[h]);
                acc[h][0] = madd(q0, k, acc[h][0]);
                acc[h][1] = madd(q1, k, acc[h][1]);
            }
        }
        for (std::size_t h = 0; h < kNK; ++h) {
            acc[h][0].store_unaligned(s + h * 2 * W);
            acc[h][1].store_unaligned(s + h * 2 * W + W);
        }
    }
};

// acc[h][·] = in_scale[·]·acc[h][·] + Σ_j P[j][·] · v_j[h]  for h < NC value columns.
//   p: weights (nj, MR); v: &V[first key][c0], row stride ldv; acc: NC columns of MR floats;
//   in_scale == nullptr starts from 0 (then acc is only written).
template <std::size_t NC>
struct pv_microkernel {
    template <class Arch>
    void operator()(Arch, const float* p, const float* v, std::size_t ldv, std::size_t nj, float* acc_out,
                    const float* in_scale) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        batch acc[NC][2];
        if (in_scale) {  // streaming: the running output o shrinks by α = exp((m_old − m_new)/divisor)
            const batch a0 = batch::load_unaligned(in_scale), a1 = batch::load_unaligned(in_scale + W);
            for (std::size_t h = 0; h < NC; ++h) {
                acc[h][0] = batch::load_unaligned(acc_out + h * 2 * W) * a0;
                acc[h][1] = batch::load_unaligned(acc_out + h * 2 * W + W) * a1;
            }
        } else {
            for (std::size_t h = 0; h < NC; ++h) acc[h][0] = acc[h][1] = batch(0.0f);
        }
        const float* const p_end = p + nj * 2 * W;
        for (; p != p_end; p += 2 * W, v += ldv) {  // pointer-bump, as in qk_microkernel
            const batch p0 = batch::load_unaligned(p);
            const batch p1 = batch::load_unaligned(p + W);
            for (std::size_t h = 0; h < NC; ++h) {
                const batch vh(v[h]);
                acc[h][0] = madd(p0, vh, acc[h][0]);
                acc[h][1] = madd(p1, vh, acc[h][1]);
            }
        }
        for (std::size_t h = 0; h < NC; ++h) {
            acc[h][0].store_unaligned(acc_out + h * 2 * W);
            acc[h][1].store_unaligned(acc_out + h * 2 * W + W);
        }
    }
};

// pv_microkernel over a run of key tiles with the running output kept in registers between them:
// for tile t = 0 … tiles−1, acc = α_t·acc + Σ_{j in tile t} P[j][·]·v_j[h] — the operations of one
// pv_microkernel call per tile, in the same order, so the same bits, without storing acc and
// loading it back at every tile (the tiled path, attention_tiled.cpp: with B_c = 64 that store
// and reload was most of what its tiles cost beyond the streaming kernel's 512-key ones).
//   p: tile t's weights at p + t·p_stride (nj_t, MR); v: &V[first key][c0], the run's keys
//   consecutive, row stride ldv; tiles of `keys` keys but the last, of last_keys; alpha: tile t's
//   α at alpha + t·MR; snap (optional): acc after tile t stored at snap + t·snap_stride (the trace).
template <std::size_t NC>
struct pv_tiles_microkernel {
    template <class Arch>
    void operator()(Arch, const float* p, std::size_t p_stride, const float* v, std::size_t ldv, std::size_t tiles,
                    std::size_t keys, std::size_t last_keys, float* acc_out, const float* alpha, float* snap,
                    std::size_t snap_stride) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        batch acc[NC][2];
        for (std::size_t h = 0; h < NC; ++h) {
            acc[h][0] = batch::load_unaligned(acc_out + h * 2 * W);
            acc[h][1] = batch::load_unaligned(acc_out + h * 2 * W + W);
        }
        for (std::size_t t = 0; t < tiles; ++t, p += p_stride, alpha += 2 * W) {
            const batch a0 = batch::load_unaligned(alpha), a1 = batch::load_unaligned(alpha + W);
            for (std::size_t h = 0; h < NC; ++h) {
                acc[h][0] = acc[h][0] * a0;
                acc[h][1] = acc[h][1] * a1;
            }
            const float* pj = p;
            const float* const p_end = p + (t + 1 == tiles ? last_keys : keys) * 2 * W;
            for (; pj != p_end; pj += 2 * W, v += ldv) {  // pointer-bump, as in qk_microkernel
                const batch p0 = batch::load_unaligned(pj);
                const batch p1 = batch::load_unaligned(pj + W);
                for (std::size_t h = 0; h < NC; ++h) {
                    const batch vh(v[h]);
                    acc[h][0] = madd(p0, vh, acc[h][0]);
                    acc[h][1] = madd(p1, vh, acc[h][1]);
                }
            }
            if (snap)
                for (std::size_t h = 0; h < NC; ++h) {
                    acc[h][0].store_unaligned(snap + t * snap_stride + h * 2 * W);
                    acc[h][1].store_unaligned(snap + t * snap_stride + h * 2 * W + W);
                }
        }
        for (std::size_t h = 0; h < NC; ++h) {
            acc[h][0].store_unaligned(acc_out + h * 2 * W);
            acc[h][1].store_unaligned(acc_out + h * 2 * W + W);
        }
    }
};

// m[r] = max(m[r], max_j S[j][r]) over n score rows of MR lanes, and, when lo is given,
// lo[r] = min(lo[r], min_j S[j][r]). The fast paths only get here with NaN-free scores (inputs
// with NaN go to the reference), so no NaN tracking.
struct col_max_kernel {
    template <class Arch>
    void operator()(Arch, const float* s, std::size_t n, float* m, float* lo) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        batch m0 = batch::load_unaligned(m), m1 = batch::load_unaligned(m + W);
        const float* const end = s + n * 2 * W;
        if (lo) {
            batch lo0 = batch::load_unaligned(lo), lo1 = batch::load_unaligned(lo + W);
            for (; s != end; s += 2 * W) {  // pointer-bump
                const batch s0 = batch::load_unaligned(s), s1 = batch::load_unaligned(s + W);
                m0 = xsimd::max(m0, s0);
                m1 = xsimd::max(m1, s1);
                lo0 = xsimd::min(lo0, s0);
                lo1 = xsimd::min(lo1, s1);
            }
            lo0.store_unaligned(lo);
            lo1.store_unaligned(lo + W);
        } else {
            for (; s != end; s += 2 * W) {
                m0 = xsimd::max(m0, batch::load_unaligned(s));
                m1 = xsimd::max(m1, batch::load_unaligned(s + W));
            }
        }
        m0.store_unaligned(m);
        m1.store_unaligned(m + W);
    }
};

// S[j][r] ← exp((S[j][r] − m[r]) · inv_divisor) in place for j < n; l[r] = Σ_j of the new values.
// m[r] is the row max, so every exponent is ≤ 0 and no term overflows; masked scores (−∞) give
// exactly 0. A lane whose max is −∞ (every key masked) uses 0 as its shift, so that its terms are
// exp(−∞) = 0 instead of exp(−∞ + ∞) = NaN, and its l is 0. Computed as 2^y with
// y = (S − m) · log2(e)/divisor ≤ 0 (fast_exp.hpp: exp2_nonpositive). Prescaled: S and m are
// already in units of log2(e)/divisor (the streaming kernel folds that factor into the packed
// queries), so y = S − m and inv_divisor is unused. clamp = false: the caller knows every y is
// ≥ −127 (the streaming kernel checks the tile's lowest score), so 2^y skips its clamp there.
template <bool Prescaled>
struct exp_sum_kernel {
    template <class Arch>
    void operator()(Arch, float* s, std::size_t n, const float* m, float inv_divisor, float* l, bool clamp) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const batch minus_inf(-std::numeric_limits<float>::infinity()), zero(0.0f);
        const batch scale(inv_divisor * exp_constants::log2e);
        batch m0 = batch::load_unaligned(m), m1 = batch::load_unaligned(m + W);
        m0 = xsimd::select(m0 == minus_inf, zero, m0);
        m1 = xsimd::select(m1 == minus_inf, zero, m1);
        batch l0(0.0f), l1(0.0f);
        const Exp2Batches<Arch> k;
        // The sums inside the exp loop. (Inlined into the streaming kernel's large function this ran
        // V8 out of registers, and a second pass over the weights was faster; in a function of its
        // own the one loop is: n = 1024 −0.1 ms in wasm.) Two loops deep, for V8 11.3 to unroll it
        // (see "Loop depth" below).
        auto loop = [&](auto clamped) {
            for (std::size_t j0 = 0; j0 < n; j0 += 16)
                for (float* const end = s + std::min<std::size_t>(16, n - j0) * 2 * W; s != end; s += 2 * W) {
                    batch y0 = batch::load_unaligned(s) - m0, y1 = batch::load_unaligned(s + W) - m1;
                    if (!Prescaled) {
                        y0 *= scale;
                        y1 *= scale;
                    }
                    const batch e0 = exp2_nonpositive_batch<Arch, decltype(clamped)::value>(y0, k);
                    const batch e1 = exp2_nonpositive_batch<Arch, decltype(clamped)::value>(y1, k);
                    e0.store_unaligned(s);
                    e1.store_unaligned(s + W);
                    l0 += e0;
                    l1 += e1;
                }
        };
        if (clamp)
            loop(std::true_type{});
        else
            loop(std::false_type{});
        l0.store_unaligned(l);
        l1.store_unaligned(l + W);
    }
};

// noinline on the kernels of the streaming kernel's hot loop (qk_panels, pv_block, col_max,
// exp2_sum): each is its own wasm function, so V8 allocates its registers alone. Inlined into the
// streaming kernel's one large function, small changes anywhere in it (a second sum loop, a max
// in the Q·Kᵀ epilogue, the exp loop split in halves) made V8 spill inside the hot loops:
// n = 1024 fell from 30 to 16–22 GFLOP/s. Outlined, the call overhead is negligible and those
// variants behave. But Binaryen (run by em++ after LLVM) inlines every function that has one
// caller, whatever LLVM was told: qk_panels and col_max have two (both fast paths), pv_block and
// exp2_sum are called through pointers for that reason (attention_streaming.cpp). exp_sum is left
// inline: it runs in the two-pass kernel (≤ 64 keys) and when the streaming kernel cannot fold
// log2(e)/divisor into the queries, neither of which that measurement covered.
//
// Loop depth. V8 11.3 (Node 20) unrolls a wasm loop only when the loop is small for the number
// of loops around it in its own function: the microkernels' loops (≈ 70 graph nodes) were not
// unrolled at all in a function of their own with no loop around them, ×2 with one loop around
// them, ×3 with two (seen in V8's machine code, --print-wasm-code). Not unrolled, every step of
// the dot product pays a stack check and two 32→64-bit index moves on top of its 22 vector
// instructions, and the Q·Kᵀ kernel ran at ≈ 40 GFLOP/s instead of 46–48 (microbenchmark, same
// run). So the block kernels walk their panels or column blocks in two nested loops (for_nested),
// which puts the microkernel's loop two deep: n = 1024 in Node, 7.7 → 7.1 ms in wasm. Chromium
// 156's V8 ran the old kernels ≈ 12% faster than Node's already and gains less (−3%).
template <class Body>
inline void for_nested(std::size_t n, Body&& body) {
    constexpr std::size_t chunk = 8;
    for (std::size_t i0 = 0; i0 < n; i0 += chunk)
        for (std::size_t i = i0, end = std::min(n, i0 + chunk); i != end; ++i) body(i);
}

// S = Q_group · K_tᵀ for np consecutive K panels: s gets np·NK score columns of MR floats.
__attribute__((noinline)) inline void qk_panels(const float* qp, const float* kp, std::size_t d, std::size_t np,
                                                float* s) {
    for_nested(np, [&](std::size_t p) { qk_microkernel{}(arch{}, qp, kp + p * d * kNK, d, s + p * kNK * kMR); });
}
inline void qk_panel(const float* qp, const float* kp, std::size_t d, float* s) { qk_panels(qp, kp, d, 1, s); }
template <std::size_t NC>
__attribute__((noinline)) inline void pv_cols_n(const float* p, const float* v, std::size_t ldv, std::size_t nj,
                                                float* acc, const float* in_scale) {
    pv_microkernel<NC>{}(arch{}, p, v, ldv, nj, acc, in_scale);
}
// acc (d_v, MR) = in_scale·acc + Pᵀ·V for all d_v value columns, NC at a time, from V packed in
// column panels (packing.hpp: pack_values): vp points at key j0 of panel 0, panel b is
// panel_stride floats further, and each panel holds NC values per key.
__attribute__((noinline)) inline void pv_block(const float* p, const float* vp, std::size_t panel_stride,
                                               std::size_t nj, std::size_t d_v, float* acc, const float* in_scale) {
    for_nested(d_v / kNC, [&](std::size_t b) {
        pv_microkernel<kNC>{}(arch{}, p, vp + b * panel_stride, kNC, nj, acc + b * kNC * kMR, in_scale);
    });
    if (const std::size_t tail = d_v % kNC) {  // the last panel's first `tail` columns (the rest is padding)
        const std::size_t b = d_v / kNC;
        const float* const v = vp + b * panel_stride;
        float* const out = acc + b * kNC * kMR;
        switch (tail) {
            case 3:
                pv_cols_n<3>(p, v, kNC, nj, out, in_scale);
                break;
            case 2:
                pv_cols_n<2>(p, v, kNC, nj, out, in_scale);
                break;
            default:
                pv_cols_n<1>(p, v, kNC, nj, out, in_scale);
                break;
        }
    }
}
// pv_block over a run of key tiles (pv_tiles_microkernel): acc (d_v, MR) rescaled by tile t's α
// before its keys, for every tile of the run; with snap, acc after tile t at snap + t·d_v·MR.
template <std::size_t NC>
__attribute__((noinline)) inline void pv_tiles_cols_n(const float* p, std::size_t p_stride, const float* v,
                                                      std::size_t tiles, std::size_t keys, std::size_t last_keys,
                                                      float* acc, const float* alpha, float* snap,
                                                      std::size_t snap_stride) {
    pv_tiles_microkernel<NC>{}(arch{}, p, p_stride, v, kNC, tiles, keys, last_keys, acc, alpha, snap, snap_stride);
}
__attribute__((noinline)) inline void pv_tiles(const float* p, std::size_t p_stride, const float* vp,
                                               std::size_t panel_stride, std::size_t tiles, std::size_t keys,
                                               std::size_t last_keys, std::size_t d_v, float* acc, const float* alpha,
                                               float* snap) {
    const std::size_t snap_stride = d_v * kMR;
    auto columns = [&](auto nc, std::size_t b) {
        pv_tiles_cols_n<decltype(nc)::value>(p, p_stride, vp + b * panel_stride, tiles, keys, last_keys,
                                             acc + b * kNC * kMR, alpha, snap ? snap + b * kNC * kMR : nullptr,
                                             snap_stride);
    };
    for_nested(d_v / kNC, [&](std::size_t b) {
        pv_tiles_microkernel<kNC>{}(arch{}, p, p_stride, vp + b * panel_stride, kNC, tiles, keys, last_keys,
                                    acc + b * kNC * kMR, alpha, snap ? snap + b * kNC * kMR : nullptr, snap_stride);
    });
    switch (d_v % kNC) {  // the last panel's first columns (the rest is padding)
        case 3:
            columns(std::integral_constant<std::size_t, 3>{}, d_v / kNC);
            break;
        case 2:
            columns(std::integral_constant<std::size_t, 2>{}, d_v / kNC);
            break;
        case 1:
            columns(std::integral_constant<std::size_t, 1>{}, d_v / kNC);
            break;
        default:
            break;
    }
}
__attribute__((noinline)) inline void col_max(const float* s, std::size_t n, float* m, float* lo = nullptr) {
    col_max_kernel{}(arch{}, s, n, m, lo);
}
inline void exp_sum(float* s, std::size_t n, const float* m, float inv_divisor, float* l, bool clamp = true) {
    exp_sum_kernel<false>{}(arch{}, s, n, m, inv_divisor, l, clamp);
}
__attribute__((noinline)) inline void exp2_sum(float* s, std::size_t n, const float* m, float* l, bool clamp = true) {
    exp_sum_kernel<true>{}(arch{}, s, n, m, 1.0f, l, clamp);
}

#else  // no SIMD (the scalar wasm build): the same blocks as plain loops

inline void qk_panel(const float* qp, const float* kp, std::size_t d, float* s) {
    float acc[kNK][kMR] = {};
    for (std::size_t c = 0; c < d; ++c)
        for (std::size_t h = 0; h < kNK; ++h)
            for (std::size_t r = 0; r < kMR; ++r) acc[h][r] += qp[c * kMR + r] * kp[c * kNK + h];
    for (std::size_t h = 0; h < kNK; ++h)
        for (std::size_t r = 0; r < kMR; ++r) s[h * kMR + r] = acc[h][r];
}
template <std::size_t NC>
inline void pv_cols_n(const float* p, const float* v, std::size_t ldv, std::size_t nj, float* acc,
                      const float* in_scale) {
    for (std::size_t h = 0; h < NC; ++h)
        for (std::size_t r = 0; r < kMR; ++r) acc[h * kMR + r] = in_scale ? acc[h * kMR + r] * in_scale[r] : 0.0f;
    for (std::size_t j = 0; j < nj; ++j)
        for (std::size_t h = 0; h < NC; ++h)
            for (std::size_t r = 0; r < kMR; ++r) acc[h * kMR + r] += p[j * kMR + r] * v[j * ldv + h];
}
inline void qk_panels(const float* qp, const float* kp, std::size_t d, std::size_t np, float* s) {
    for (std::size_t p = 0; p < np; ++p) qk_panel(qp, kp + p * d * kNK, d, s + p * kNK * kMR);
}
inline void col_max(const float* s, std::size_t n, float* m, float* lo = nullptr) {
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t r = 0; r < kMR; ++r) {
            m[r] = std::max(m[r], s[j * kMR + r]);
            if (lo) lo[r] = std::min(lo[r], s[j * kMR + r]);
        }
}
inline void exp_sum_scaled(float* s, std::size_t n, const float* m, float scale, float* l) {
    for (std::size_t r = 0; r < kMR; ++r) {
        const float shift = m[r] == -std::numeric_limits<float>::infinity() ? 0.0f : m[r];
        float sum = 0.0f;
        for (std::size_t j = 0; j < n; ++j) sum += (s[j * kMR + r] = exp2_scalar((s[j * kMR + r] - shift) * scale));
        l[r] = sum;
    }
}
inline void exp_sum(float* s, std::size_t n, const float* m, float inv_divisor, float* l, bool = true) {
    exp_sum_scaled(s, n, m, inv_divisor * exp_constants::log2e, l);
}
inline void exp2_sum(float* s, std::size_t n, const float* m, float* l, bool = true) {
    exp_sum_scaled(s, n, m, 1.0f, l);
}

#endif

// The column tail: the A·V microkernel instantiated for nc = 1..4 value columns.
inline void pv_cols(std::size_t nc, const float* p, const float* v, std::size_t ldv, std::size_t nj, float* acc,
                    const float* in_scale) {
    switch (nc) {
        case 4:
            pv_cols_n<4>(p, v, ldv, nj, acc, in_scale);
            break;
        case 3:
            pv_cols_n<3>(p, v, ldv, nj, acc, in_scale);
            break;
        case 2:
            pv_cols_n<2>(p, v, ldv, nj, acc, in_scale);
            break;
        default:
            pv_cols_n<1>(p, v, ldv, nj, acc, in_scale);
            break;
    }
}
static_assert(kNC == 4, "pv_cols dispatches 1..4 columns");
#if !ATTN_HAVE_SIMD
inline void pv_block(const float* p, const float* vp, std::size_t panel_stride, std::size_t nj, std::size_t d_v,
                     float* acc, const float* in_scale) {
    for (std::size_t c0 = 0; c0 < d_v; c0 += kNC)
        pv_cols(std::min(kNC, d_v - c0), p, vp + c0 / kNC * panel_stride, kNC, nj, acc + c0 * kMR, in_scale);
}
// The plain loops of pv_tiles: pv_block once per tile, acc copied to snap after each.
inline void pv_tiles(const float* p, std::size_t p_stride, const float* vp, std::size_t panel_stride, std::size_t tiles,
                     std::size_t keys, std::size_t last_keys, std::size_t d_v, float* acc, const float* alpha,
                     float* snap) {
    for (std::size_t t = 0; t < tiles; ++t) {
        const std::size_t nj = t + 1 == tiles ? last_keys : keys;
        pv_block(p + t * p_stride, vp + t * keys * kNC, panel_stride, nj, d_v, acc, alpha + t * kMR);
        if (snap) std::copy(acc, acc + d_v * kMR, snap + t * d_v * kMR);
    }
}
#endif

}  // namespace attn::fast
