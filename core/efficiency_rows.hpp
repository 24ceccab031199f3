// efficiency_rows.hpp — what attention_decode.cpp and attention_window.cpp share: one query row
// against a contiguous run of keys, computed so that it equals, bit for bit, that row of the
// step-by-step path with every other key masked. Internal to the core.
//
// Why that needs care: attention_steps_simd (the page's default path) sums a row of n_k exps in W
// lanes — element j goes to lane j mod W of the batches up to n_k − n_k mod W, the rest is a
// scalar tail — and a different split rounds differently. A masked key adds exactly 0 wherever it
// sits, so a row over keys [first, end) needs only the batches that hold them: the span starts at
// first rounded down to a multiple of W, ends at end rounded up to one (or at n_k, when end is
// inside the tail), and the span's other slots are masked (−∞, exp 0). So a row costs
// O((end − first + 2W)·d), and its bits are the full row's.
//
// Inputs that could overflow float32 on the way (overflow_guard.hpp) go to the reference on the
// step-by-step path; here the same rule picks the reference's arithmetic: scalar sums in order and
// std::exp, equal bit for bit to reference.cpp's row.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "error.hpp"
#include "matrix.hpp"
#include "simd_kernels.hpp"

namespace attn::rows {

// Which arithmetic a row runs in: the SIMD loops' (attention_steps_simd) or the reference's.
enum class Arithmetic { Simd, Reference };

// The span of slots whose sums reproduce the full row's: [begin, end) ⊇ [first, last_end).
struct Span {
    std::size_t begin, end;
};
inline Span lane_span(std::size_t first, std::size_t last_end, std::size_t n_k, Arithmetic arithmetic) {
    if (arithmetic == Arithmetic::Reference) return {first, last_end};  // in order: zeros add nothing
    const std::size_t w = simd::batch_size();
    const std::size_t batches_end = n_k - n_k % w;  // where the full row's scalar tail begins
    const std::size_t begin = first - first % w;
    const std::size_t rounded = (last_end + w - 1) / w * w;
    return {begin, last_end <= batches_end ? rounded : n_k};
}

// Scratch for one row, kept across rows so that a call allocates once.
struct RowScratch {
    std::vector<float> scaled;   // the span's scaled scores, −∞ where masked
    std::vector<float> weights;  // then their exps, then their weights
};

// out (d_v) = Σ_{j ∈ [first, end)} A_j v_j with A = softmax over the span of s_j = q·k_j / divisor,
// every slot outside [first, end) masked. key(j) and value(j) give row j of K and V (a cache
// row for decoding); only rows j in [first, end) are read. A row with first == end (nothing to see)
// is 0, as a fully masked row is. The steps and their policies are softmax_rows' in
// attention_steps_simd.cpp (or reference.cpp's, for Arithmetic::Reference), on one row.
template <class KeyRow, class ValueRow>
void attend_row(const float* q, std::size_t d, KeyRow key, ValueRow value, std::size_t d_v, std::size_t first,
                std::size_t end, std::size_t n_k, float divisor, Arithmetic arithmetic, RowScratch& scratch,
                float* out) {
    std::fill(out, out + d_v, 0.0f);
    if (first >= end) return;
    const float minus_inf = -std::numeric_limits<float>::infinity();
    const Span span = lane_span(first, end, n_k, arithmetic);
    const std::size_t len = span.end - span.begin;
    scratch.scaled.assign(len, minus_inf);
    scratch.weights.assign(len, 0.0f);
    float* const s = scratch.scaled.data();
    float* const a = scratch.weights.data();
    const bool simd_path = arithmetic == Arithmetic::Simd;

    // s_j = q·k_j / divisor for the visible keys; −∞ (masked) in the span's other slots
    for (std::size_t j = first; j < end; ++j)
        s[j - span.begin] = (simd_path ? simd::dot(q, key(j), d) : simd::dot_tail(q, key(j), 0, d)) / divisor;
    // m = max_j s_j; e_j = exp(s_j − m); Σ_j e_j; A_j = e_j / Σ. A masked slot (−∞) has weight 0
    // whatever the row holds; a row whose every slot is −∞ has weights 0.
    const float max = simd_path ? simd::max(s, len) : simd::max_tail(s, 0, len, minus_inf);
    if (max != minus_inf) {
        float sum = 0.0f;
        if (simd_path) {
            simd::subtract(a, s, max, len);
            sum = simd::exp_sum(a, a, len);
            simd::divide(a, sum, len);
        } else {
            for (std::size_t t = 0; t < len; ++t) sum += (a[t] = s[t] == minus_inf ? 0.0f : std::exp(s[t] - max));
            for (std::size_t t = 0; t < len; ++t) a[t] /= sum;
        }
        // With a finite max and a positive sum a masked slot's weight is 0 already (0 / sum);
        // a NaN or +∞ max, or a sum of 0 or NaN, breaks that arithmetic: put them back.
        if (!(std::isfinite(max) && sum > 0.0f) || !simd_path)
            for (std::size_t t = 0; t < len; ++t)
                if (s[t] == minus_inf) a[t] = 0.0f;
    }
    // out = Σ_j A_j v_j over the visible keys, in order, whatever their weight (a masked slot adds
    // nothing; a visible key's value row is always read, as reference.hpp's policy says)
    for (std::size_t j = first; j < end; ++j) {
        if (simd_path)
            simd::axpy(out, a[j - span.begin], value(j), d_v);
        else
            simd::axpy_tail(out, a[j - span.begin], value(j), 0, d_v);
    }
}

// The out_of_range Error of a whole-number option: "window must be a whole number from 1 to …".
inline Error whole_number_out_of_range(const char* name, std::int64_t got, double min, double max,
                                       const std::string& range) {
    return Error{ErrorCode::OutOfRange,
                 name,
                 std::nullopt,
                 {{"got", static_cast<double>(got)}, {"min", min}, {"max", max}},
                 std::string(name) + " must be a whole number " + range + " (got " + std::to_string(got) + ")"};
}

}  // namespace attn::rows
