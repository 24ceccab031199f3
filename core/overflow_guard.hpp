// overflow_guard.hpp — the one rule for "values so large that float32 could overflow on the way",
// shared by every path that sums in another order than the reference: the fast paths
// (fast_path.hpp, needs_reference) and the step-by-step SIMD path (attention_steps_simd.cpp).
// Such a call is handed to the reference (attention_steps), whose non-finite cells are then the
// path's own. Internal to the core.
//
// Why another order matters there: float32 addition is not associative once a partial sum leaves
// float32's range. q = [1, 1, 1, 1], k = [3e38, −3e38, 3e38, −3e38]: summed in order, the score
// is ((3e38 − 3e38) + 3e38) − 3e38 = 0; in 4 lanes added pairwise, (3e38 + 3e38) + (−3e38 − 3e38)
// = ∞ − ∞ = NaN. k = [3e38, 3e38, −3e38, −3e38]: ∞ in order, 0 in lanes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "matrix.hpp"

namespace attn {

// The largest magnitude in q, k and v (NaN aside: a NaN elsewhere does not hide a 3e38), and
// whether any of them holds a NaN.
struct Magnitudes {
    double q = 0, k = 0, v = 0;
    bool nan = false;
};

// max |x| over the bits: for floats without their sign bit, integer order is float order, and
// every NaN is above +∞ (0x7f800000). An integer max loop vectorises; std::fmax does not.
inline double largest_magnitude(const Matrix& m, bool& nan) {
    constexpr std::uint32_t kInfinityBits = 0x7f800000u;
    std::uint32_t best = 0;
    bool saw_nan = false;
    for (float x : m.data) {
        std::uint32_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        bits &= 0x7fffffffu;
        saw_nan |= bits > kInfinityBits;
        const std::uint32_t magnitude = bits > kInfinityBits ? 0u : bits;
        best = magnitude > best ? magnitude : best;
    }
    nan = nan || saw_nan;
    float value;
    std::memcpy(&value, &best, sizeof value);
    return static_cast<double>(value);
}

inline Magnitudes magnitudes(const Matrix& q, const Matrix& k, const Matrix& v) {
    Magnitudes m;
    m.q = largest_magnitude(q, m.nan);
    m.k = largest_magnitude(k, m.nan);
    m.v = largest_magnitude(v, m.nan);
    return m;
}

// True when a score (|q_i · k_j| ≤ max|q| · max|k| · d_k), a scaled score (÷ divisor) or a sum of
// weighted values (≤ max|v| · n_k: a line's weights sum to 1 along rows, to at most n_k down
// columns) could come near float32's limit, so that the order of a sum decides where ±∞ or NaN
// appears. An infinite input counts as such a value. Ordinary inputs are far below these bounds;
// the scan costs O(n·d), against O(n²·d) for the call.
inline bool could_overflow(const Magnitudes& m, std::size_t d_k, std::size_t n_k, float divisor) {
    constexpr double limit = 1e30;  // FLT_MAX ≈ 3.4e38: a wide margin for rounding and sums
    const double score_bound = m.q * m.k * static_cast<double>(d_k);
    return score_bound > limit || score_bound / divisor > limit || m.v * static_cast<double>(n_k) > limit;
}

inline bool could_overflow(const Matrix& q, const Matrix& k, const Matrix& v, float divisor) {
    return could_overflow(magnitudes(q, k, v), q.cols, k.rows, divisor);
}

}  // namespace attn
