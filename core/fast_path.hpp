// fast_path.hpp — what attention_fast.cpp and attention_streaming.cpp share: when a call must go
// to the reference instead, how a row of scores is masked, and the reusable working buffers.
// Internal to the core; the public entry points are in attention.hpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "matrix.hpp"
#include "options.hpp"

namespace attn::fast {

// True when the fast paths cannot promise the reference's exact NaN/overflow behaviour, so the
// call is handed to the reference (attention_steps) instead:
//  - any NaN in q, k or v: the numerics policy wants exactly the reference's NaN cells, and the
//    fast paths (max without NaN tracking, sums in another order) do not track them;
//  - values so large that a score, a scaled score or a sum of weighted values could overflow
//    float32: where the reference would produce ±∞ or NaN, another summation order could differ.
// Ordinary inputs are far below these bounds; the scan costs O(n·d), against O(n²·d) for the call.
inline bool needs_reference(const Matrix& q, const Matrix& k, const Matrix& v, float divisor) {
    auto max_abs = [](const Matrix& m, bool& nan) {
        float best = 0.0f;
        for (float x : m.data) {
            if (x != x) nan = true;
            best = std::fmax(best, std::fabs(x));
        }
        return static_cast<double>(best);
    };
    bool nan = false;
    const double mq = max_abs(q, nan), mk = max_abs(k, nan), mv = max_abs(v, nan);
    if (nan) return true;
    constexpr double limit = 1e30;  // FLT_MAX ≈ 3.4e38: a wide margin for rounding and sums
    const double score_bound = mq * mk * static_cast<double>(q.cols);
    return score_bound > limit || score_bound / divisor > limit ||
           mv * static_cast<double>(k.rows) > limit;
}

// Sets the masked scores of query row i to −∞: s holds the scores of keys j0 .. j0+n−1.
// Causal: key j is masked when j > i (aligned top-left, as in reference::apply_mask).
inline void mask_row(float* s, std::size_t i, std::size_t j0, std::size_t n, const Mask& mask) {
    const float minus_inf = -std::numeric_limits<float>::infinity();
    if (mask.kind == MaskKind::Causal) {
        for (std::size_t j = (i + 1 > j0 ? i + 1 - j0 : 0); j < n; ++j) s[j] = minus_inf;
    } else if (mask.kind == MaskKind::Custom) {
        const float* keep = mask.keep.row(i) + j0;
        for (std::size_t j = 0; j < n; ++j)
            if (keep[j] == 0.0f) s[j] = minus_inf;
    }
}

// How many keys any of query rows i0 .. i_last may see: a causal mask hides every key after
// i_last, so the fast paths skip those key panels altogether.
inline std::size_t visible_keys(const Mask& mask, std::size_t i_last, std::size_t n_k) {
    if (mask.kind == MaskKind::Causal) return i_last + 1 < n_k ? i_last + 1 : n_k;
    return n_k;
}

// Working buffers kept between calls (the module is single-threaded), so that a call allocates
// only when a larger shape than any before arrives — no allocation on the hot path otherwise.
struct Workspace {
    std::vector<float> k_packed, v_packed, scores, row_a, row_b, row_c, acc;
};

inline void ensure(std::vector<float>& buffer, std::size_t n) {
    if (buffer.size() < n) buffer.resize(n);
}

}  // namespace attn::fast
