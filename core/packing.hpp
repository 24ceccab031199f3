// packing.hpp — K and V rearranged once per call into panels NR wide, so that the microkernels
// (fast_kernels.hpp) read memory strictly in order, NR floats (one or two SIMD registers) at a time.
//
//   keys   K (n_k, d)   → ceil(n_k/NR) panels, each (d, NR):   Kp[p][c][h] = K[p·NR + h][c]
//          a panel is the transpose of NR consecutive key rows: at step c of the dot products the
//          microkernel loads the c-th component of NR keys in one contiguous load.
//   values V (n_k, d_v) → ceil(d_v/NR) panels, each (n_k, NR): Vp[p][j][h] = V[j][p·NR + h]
//          a panel is NR consecutive columns of V: at step j of A·V the microkernel loads
//          v_j's NR values of this panel in one contiguous load.
// Entries past the matrix edge (keys ≥ n_k, columns ≥ d_v) are 0; the callers never use the
// scores or outputs that come from them.
#pragma once

#include <cstddef>
#include <vector>

#include "matrix.hpp"

namespace attn::fast {

inline std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

// K (n_k, d) → panels of NR keys, (ceil(n_k/NR)·d·NR) floats. `out` is resized, not reallocated
// when already large enough.
inline void pack_keys(const Matrix& k, std::size_t nr, std::vector<float>& out) {
    const std::size_t n_k = k.rows, d = k.cols, panels = (n_k + nr - 1) / nr;
    if (out.size() < panels * d * nr) out.resize(panels * d * nr);
    for (std::size_t p = 0; p < panels; ++p) {
        float* dst = out.data() + p * d * nr;
        const std::size_t keys = p * nr + nr <= n_k ? nr : n_k - p * nr;
        for (std::size_t h = 0; h < keys; ++h) {
            const float* src = k.row(p * nr + h);
            for (std::size_t c = 0; c < d; ++c) dst[c * nr + h] = src[c];
        }
        for (std::size_t h = keys; h < nr; ++h)
            for (std::size_t c = 0; c < d; ++c) dst[c * nr + h] = 0.0f;
    }
}

// V (n_k, d_v) → panels of NR columns, (ceil(d_v/NR)·n_k·NR) floats.
inline void pack_values(const Matrix& v, std::size_t nr, std::vector<float>& out) {
    const std::size_t n_k = v.rows, d_v = v.cols, panels = (d_v + nr - 1) / nr;
    if (out.size() < panels * n_k * nr) out.resize(panels * n_k * nr);
    for (std::size_t p = 0; p < panels; ++p) {
        float* dst = out.data() + p * n_k * nr;
        const std::size_t cols = p * nr + nr <= d_v ? nr : d_v - p * nr;
        for (std::size_t j = 0; j < n_k; ++j) {
            const float* src = v.row(j) + p * nr;
            std::size_t h = 0;
            for (; h < cols; ++h) dst[j * nr + h] = src[h];
            for (; h < nr; ++h) dst[j * nr + h] = 0.0f;
        }
    }
}

}  // namespace attn::fast
