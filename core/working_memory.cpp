// working_memory.cpp — see working_memory.hpp. The three formulas the memory checks apply, each
// counting every buffer its entry point allocates, in checked_size.hpp's arithmetic (a count too
// large for 64 bits saturates above every limit instead of wrapping around).
#include "working_memory.hpp"

#include <cstddef>

#include "checked_size.hpp"
#include "fast_kernels.hpp"
#include "fast_path.hpp"

namespace attn {
namespace {

std::uint64_t float_bytes(std::uint64_t floats) { return size_product(floats, sizeof(float)); }

// AttentionSteps holds six n_q×n_k matrices (scores, kept, scaled, shifted, exps, weights); one
// more lives while the scores are scaled and masked, and the column softmax works on transposed
// copies (four more). Then the output, n_q×d_v.
std::uint64_t steps_floats(const AttentionShape& s, Axis axis) {
    const std::uint64_t score_matrices = axis == Axis::Column ? 11 : 7;
    return size_sum(size_product(score_matrices, s.n_q, s.n_k), size_product(s.n_q, s.d_v));
}

// attention_streaming.cpp's online softmax (fast::streaming_working_floats: packed K, packed V, one
// block of query groups with their running rows, one tile of scores) and the output.
std::uint64_t streaming_floats(const AttentionShape& s) {
    // streaming_working_floats takes size_t, 32 bits on wasm32. A size above 2³¹ means a packed K
    // (n_k·d floats) or an output (n_q·d_v) of 2³¹ floats or more — 8 GiB, far over the limit — so
    // it saturates here, before a size could be cut to 32 bits.
    constexpr std::uint64_t huge = std::uint64_t{1} << 31;
    if (s.n_q > huge || s.n_k > huge || s.d > huge || s.d_v > huge) return kSizeOverflow;
    const auto size = [](std::uint64_t x) { return static_cast<std::size_t>(x); };
    return size_sum(fast::streaming_working_floats(size(s.n_q), size(s.n_k), size(s.d), size(s.d_v)),
                    size_product(s.n_q, s.d_v));
}

// attention_fast.cpp: up to kStreamingAboveKeys keys, the two-pass kernel — K packed in panels of
// kNK keys, one group of kMR query rows packed (d values each) with its row of scores — and the
// output; above, the streaming kernel's buffers. (Counting the two-pass kernel's for both let a
// call with 65 keys and a long d through at 1.6 GiB.)
std::uint64_t fast_floats(const AttentionShape& s) {
    if (s.n_k > fast::kStreamingAboveKeys) return streaming_floats(s);
    const std::uint64_t packed_keys = size_product(size_sum(s.n_k, fast::kNK - 1) / fast::kNK, fast::kNK);
    return size_sum(size_product(packed_keys, s.d), size_product(fast::kMR, size_sum(s.d, packed_keys)),
                    size_product(s.n_q, s.d_v));
}

}  // namespace

std::uint64_t working_bytes(Operation operation, const AttentionShape& shape, Axis axis) {
    switch (operation) {
        case Operation::AttentionSteps:
            return float_bytes(steps_floats(shape, axis));
        case Operation::Attention:
            return float_bytes(fast_floats(shape));
        case Operation::AttentionStreaming:
            return float_bytes(streaming_floats(shape));
    }
    return kSizeOverflow;
}

}  // namespace attn
