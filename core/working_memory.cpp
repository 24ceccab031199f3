// working_memory.cpp — see working_memory.hpp. The formulas the memory checks apply, each
// counting every buffer its entry point allocates, in checked_size.hpp's arithmetic (a count too
// large for 64 bits saturates above every limit instead of wrapping around).
#include "working_memory.hpp"

#include <cstddef>

#include "checked_size.hpp"
#include "fast_kernels.hpp"
#include "fast_path.hpp"

namespace attn {
namespace {

// attention_steps and attention_steps_simd at their peak, S = n_q·n_k floats per score matrix,
// every buffer they hold at once (the peaks tests/fuzz/fuzz_differential.cpp measures):
//  - along rows, once the output is made: scores, kept, scaled, shifted, exps and weights (6 S),
//    row_max and row_sum (n_q each) and the output (n_q·d_v). Earlier, scaling and masking the
//    scores holds an unmasked copy beside scores, kept and scaled: 4 S, never more;
//  - along columns, the softmax runs on transposed copies: while the last of its results is
//    transposed back, scores, kept, scaled, the transposed scores, and the copies of shifted,
//    exps and weights in both orientations (9 S) with the column maxima and sums in both
//    (4·n_k); the transposed side is freed before the output is made (6 S + 2·n_k + n_q·d_v).
std::uint64_t steps_floats(const AttentionShape& s, Axis axis) {
    const std::uint64_t scores = size_product(s.n_q, s.n_k), output = size_product(s.n_q, s.d_v);
    if (axis == Axis::Row) return size_sum(size_product(6, scores), size_product(2, s.n_q), output);
    const std::uint64_t softmax = size_sum(size_product(9, scores), size_product(4, s.n_k));
    const std::uint64_t with_output = size_sum(size_product(6, scores), size_product(2, s.n_k), output);
    return softmax > with_output ? softmax : with_output;
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

// attention_tiled.cpp's own count (tiled_working_bytes), which takes size_t: saturated above 2³¹
// first, as streaming_floats does.
std::uint64_t tiled_bytes(const AttentionShape& s, const TiledPlan& plan) {
    constexpr std::uint64_t huge = std::uint64_t{1} << 31;
    if (s.n_q > huge || s.n_k > huge || s.d > huge || s.d_v > huge) return kSizeOverflow;
    const TileSize tile = plan.tile;
    if (tile.rows < 1 || tile.cols < 1 || static_cast<std::uint64_t>(tile.rows) > s.n_q ||
        static_cast<std::uint64_t>(tile.cols) > s.n_k)
        return kSizeOverflow;
    const auto size = [](std::uint64_t x) { return static_cast<std::size_t>(x); };
    return tiled_working_bytes(size(s.n_q), size(s.n_k), size(s.d), size(s.d_v), tile, plan.mask, plan.trace);
}

}  // namespace

std::uint64_t working_bytes(Operation operation, const AttentionShape& shape, Axis axis, const TiledPlan& tiled) {
    switch (operation) {
        case Operation::AttentionSteps:
            return float_bytes(steps_floats(shape, axis));
        case Operation::Attention:
            return float_bytes(fast_floats(shape));
        case Operation::AttentionStreaming:
            return float_bytes(streaming_floats(shape));
        case Operation::AttentionTiled:
            return tiled_bytes(shape, tiled);
    }
    return kSizeOverflow;
}

}  // namespace attn
