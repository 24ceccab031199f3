// packing.hpp — Q, K and V rearranged so that the microkernels (fast_kernels.hpp) read memory
// strictly in order.
//
//   keys    K (n_k, d) → ceil(n_k/NR) panels, each (d, NR):  Kp[p][c][h] = K[p·NR + h][c]
//           a panel is the transpose of NR consecutive key rows: at step c of the dot products the
//           microkernel finds the c-th components of its NR keys side by side.
//   queries one group of MR rows from i0 → (d, MR):          Qp[c][r] = Q[i0 + r][c]
//           the c-th components of MR query rows, one per lane of two registers.
//   values  V (n_k, d_v) → ceil(d_v/NC) column panels, each (n_k, NC):  Vp[b][j][h] = V[j][b·NC + h]
//           (the streaming kernel only): the A·V microkernel's NC values of key j, then of key
//           j + 1, … side by side, instead of NC values every d_v floats of V's rows.
// Entries past the matrix edge (keys ≥ n_k, rows ≥ n_q, columns ≥ d_v) are 0; the callers never
// use the scores or outputs that come from them.
//   output  the streaming kernel's running output (d_v, MR) → MR rows of the output, each scaled
//           by its 1/l (unpack_rows): the inverse of the queries' packing.
// With SIMD, packing K and Q and unpacking the output go through W×W blocks transposed in
// registers (xsimd::transpose) instead of one strided float at a time. At n = 1024, d = 64 in
// wasm (Node): K 33 → 8 µs, all query groups 31 → 8 µs, the output 28 → 6 µs (and V 41 → 11 µs,
// see pack_values). The values are the same: copies, and the same one multiply each.
#pragma once

#include <cstddef>
#include <vector>

#include "matrix.hpp"
#include "simd_kernels.hpp"  // ATTN_HAVE_SIMD and xsimd

namespace attn::fast {

// Makes `buffer` hold at least n floats, for a kernel that overwrites them. When it must grow, it
// frees the old floats first and then allocates exactly n: resize alone may allocate twice the
// old size (std::vector's growth) while the old buffer is still held, and the memory checks
// count n (working_memory.cpp).
inline void ensure(std::vector<float>& buffer, std::size_t n) {
    if (buffer.size() >= n) return;
    if (buffer.capacity() < n) std::vector<float>().swap(buffer);
    buffer.resize(n);
}

#if ATTN_HAVE_SIMD
using pack_batch = xsimd::batch<float>;
constexpr std::size_t kPackW = pack_batch::size;

// W rows of W floats, `stride` floats apart from `src` on → t[i] holds the i-th float of every row.
inline void load_transposed(const float* src, std::size_t stride, pack_batch (&t)[kPackW]) {
    for (std::size_t i = 0; i < kPackW; ++i) t[i] = pack_batch::load_unaligned(src + i * stride);
    xsimd::transpose(t, t + kPackW);
}
#endif

// K (n_k, d) → panels of NR keys, (ceil(n_k/NR)·d·NR) floats. `out` grows (ensure), never shrinks.
inline void pack_keys(const Matrix& k, std::size_t nr, std::vector<float>& out) {
    const std::size_t n_k = k.rows, d = k.cols, panels = (n_k + nr - 1) / nr;
    ensure(out, panels * d * nr);
    for (std::size_t p = 0; p < panels; ++p) {
        float* dst = out.data() + p * d * nr;
        const std::size_t keys = p * nr + nr <= n_k ? nr : n_k - p * nr;
#if ATTN_HAVE_SIMD
        if (keys == kPackW && nr == kPackW) {  // a whole panel, one W×W block per W components
            const std::size_t d_blocks = d / kPackW * kPackW;
            pack_batch t[kPackW];
            for (std::size_t c0 = 0; c0 < d_blocks; c0 += kPackW) {
                load_transposed(k.row(p * nr) + c0, d, t);
                for (std::size_t i = 0; i < kPackW; ++i) t[i].store_unaligned(dst + (c0 + i) * nr);
            }
            for (std::size_t h = 0; h < nr; ++h)
                for (std::size_t c = d_blocks; c < d; ++c) dst[c * nr + h] = k(p * nr + h, c);
            continue;
        }
#endif
        for (std::size_t h = 0; h < keys; ++h) {
            const float* src = k.row(p * nr + h);
            for (std::size_t c = 0; c < d; ++c) dst[c * nr + h] = src[c];
        }
        for (std::size_t h = keys; h < nr; ++h)
            for (std::size_t c = 0; c < d; ++c) dst[c * nr + h] = 0.0f;
    }
}

// Rows i0 .. i0+rows−1 of Q (rows ≤ mr) → (d, mr) in `out`, zero lanes for the missing rows.
inline void pack_query_group(const Matrix& q, std::size_t i0, std::size_t rows, std::size_t mr, float* out,
                             float scale = 1.0f) {
    const std::size_t d = q.cols;
#if ATTN_HAVE_SIMD
    if (rows == mr && mr % kPackW == 0) {  // a whole group: W×W blocks
        const std::size_t d_blocks = d / kPackW * kPackW;
        const pack_batch factor(scale);
        pack_batch t[kPackW];
        for (std::size_t r0 = 0; r0 < mr; r0 += kPackW) {
            for (std::size_t c0 = 0; c0 < d_blocks; c0 += kPackW) {
                load_transposed(q.row(i0 + r0) + c0, d, t);
                for (std::size_t i = 0; i < kPackW; ++i) (t[i] * factor).store_unaligned(out + (c0 + i) * mr + r0);
            }
            for (std::size_t r = r0; r < r0 + kPackW; ++r)
                for (std::size_t c = d_blocks; c < d; ++c) out[c * mr + r] = q(i0 + r, c) * scale;
        }
        return;
    }
#endif
    for (std::size_t r = 0; r < mr; ++r) {
        if (r < rows) {
            const float* src = q.row(i0 + r);
            if (scale == 1.0f)
                for (std::size_t c = 0; c < d; ++c) out[c * mr + r] = src[c];
            else
                for (std::size_t c = 0; c < d; ++c) out[c * mr + r] = src[c] * scale;
        } else {
            for (std::size_t c = 0; c < d; ++c) out[c * mr + r] = 0.0f;
        }
    }
}

// V (n_k, d_v) → column panels of NC values, (ceil(d_v/NC)·n_k·NC) floats: panel b starts at
// out[b·n_k·NC]. In blocks of 16 keys: the block's rows of V stay in cache while each panel gets
// its 16 keys' values in one run (row by row over all panels, the panels' write streams, n_k·NC
// floats apart, fell on the same cache sets: 41 µs against 11 at n = 1024, d = 64 in wasm).
// `out` grows (ensure), never shrinks.
template <std::size_t NC>
void pack_values(const Matrix& v, std::vector<float>& out) {
    const std::size_t n_k = v.rows, d_v = v.cols, full = d_v / NC, tail = d_v % NC;
    const std::size_t panels = full + (tail != 0), panel = n_k * NC;
    ensure(out, panels * panel);
    constexpr std::size_t block = 16;
    for (std::size_t j0 = 0; j0 < n_k; j0 += block) {
        const std::size_t j1 = j0 + block < n_k ? j0 + block : n_k;
        for (std::size_t b = 0; b < full; ++b) {
            float* dst = out.data() + b * panel + j0 * NC;
            for (std::size_t j = j0; j < j1; ++j, dst += NC) {
                const float* src = v.row(j) + b * NC;
#if ATTN_HAVE_SIMD
                if constexpr (NC == kPackW) {
                    pack_batch::load_unaligned(src).store_unaligned(dst);
                    continue;
                }
#endif
                for (std::size_t h = 0; h < NC; ++h) dst[h] = src[h];
            }
        }
        if (tail) {
            float* dst = out.data() + full * panel + j0 * NC;
            for (std::size_t j = j0; j < j1; ++j, dst += NC) {
                const float* src = v.row(j) + full * NC;
                for (std::size_t h = 0; h < tail; ++h) dst[h] = src[h];
                for (std::size_t h = tail; h < NC; ++h) dst[h] = 0.0f;
            }
        }
    }
}

// The running output o (d_v, mr) of rows i0 .. i0+rows−1 → those rows of `out`, row r times
// inv_l[r]: out(i0 + r, c) = o[c·mr + r] · inv_l[r].
inline void unpack_rows(const float* o, std::size_t mr, std::size_t rows, const float* inv_l, Matrix& out,
                        std::size_t i0) {
    const std::size_t d_v = out.cols;
    std::size_t r_blocks = 0, c_blocks = 0;
#if ATTN_HAVE_SIMD
    if (mr % kPackW == 0) {
        r_blocks = rows / kPackW * kPackW;
        c_blocks = d_v / kPackW * kPackW;
        pack_batch t[kPackW];
        for (std::size_t r0 = 0; r0 < r_blocks; r0 += kPackW)
            for (std::size_t c0 = 0; c0 < c_blocks; c0 += kPackW) {
                load_transposed(o + c0 * mr + r0, mr, t);  // t[i]: row r0 + i, columns c0 ..
                for (std::size_t i = 0; i < kPackW; ++i)
                    (t[i] * pack_batch(inv_l[r0 + i])).store_unaligned(out.row(i0 + r0 + i) + c0);
            }
    }
#endif
    for (std::size_t r = 0; r < rows; ++r) {
        float* dst = out.row(i0 + r);
        for (std::size_t c = r < r_blocks ? c_blocks : 0; c < d_v; ++c) dst[c] = o[c * mr + r] * inv_l[r];
    }
}

}  // namespace attn::fast
