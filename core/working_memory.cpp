// working_memory.cpp — see working_memory.hpp. The three formulas the memory checks apply.
#include "working_memory.hpp"

#include <cstddef>
#include <limits>

#include "fast_kernels.hpp"
#include "fast_path.hpp"

namespace attn {
namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t add(std::uint64_t a, std::uint64_t b) { return a > kSaturated - b ? kSaturated : a + b; }
std::uint64_t mul(std::uint64_t a, std::uint64_t b) { return a != 0 && b > kSaturated / a ? kSaturated : a * b; }
std::uint64_t float_bytes(std::uint64_t floats) { return mul(floats, sizeof(float)); }

// AttentionSteps holds six n_q×n_k matrices (scores, kept, scaled, shifted, exps, weights); one
// more lives while the scores are scaled and masked, and the column softmax works on transposed
// copies (four more). Then the output, n_q×d_v.
std::uint64_t steps_floats(const AttentionShape& s, Axis axis) {
    const std::uint64_t score_matrices = axis == Axis::Column ? 11 : 7;
    return add(mul(score_matrices, mul(s.n_q, s.n_k)), mul(s.n_q, s.d_v));
}

// attention_fast.cpp's two-pass kernel: K packed in panels of kNK keys, one group of kMR query
// rows packed (d values each) with its row of scores, and the output.
std::uint64_t fast_floats(const AttentionShape& s) {
    const std::uint64_t packed_keys = mul(add(s.n_k, fast::kNK - 1) / fast::kNK, fast::kNK);
    return add(add(mul(packed_keys, s.d), mul(fast::kMR, add(s.d, packed_keys))), mul(s.n_q, s.d_v));
}

// attention_streaming.cpp's online softmax (fast::streaming_working_floats) and the output.
std::uint64_t streaming_floats(const AttentionShape& s) {
    // streaming_working_floats counts in size_t and 64 bits without saturating. A size above 2³¹
    // means a packed K (n_k·d floats) or an output (n_q·d_v) of 2³¹ floats or more — 8 GiB, far
    // over the limit — so it saturates here, before anything could wrap (or not fit wasm32's size_t).
    constexpr std::uint64_t huge = std::uint64_t{1} << 31;
    if (s.n_k > huge || s.d > huge || s.d_v > huge) return kSaturated;
    return add(fast::streaming_working_floats(static_cast<std::size_t>(s.n_k), static_cast<std::size_t>(s.d),
                                              static_cast<std::size_t>(s.d_v)),
               mul(s.n_q, s.d_v));
}

}  // namespace

std::uint64_t working_bytes(Operation operation, const AttentionShape& shape, Axis axis) {
    switch (operation) {
        case Operation::AttentionSteps: return float_bytes(steps_floats(shape, axis));
        case Operation::Attention: return float_bytes(fast_floats(shape));
        case Operation::AttentionStreaming: return float_bytes(streaming_floats(shape));
    }
    return kSaturated;
}

}  // namespace attn
