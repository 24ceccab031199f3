// working_memory.hpp — how many bytes each attention entry point works in, for a given shape.
//
// One formula per entry point, used twice: by the entry point's memory check (check_memory in
// validate.hpp refuses a call whose working memory exceeds kMemoryLimitBytes, with these bytes in
// its too_much_memory error), and by the cost lab, which shows the same bytes beside its timings
// (article §8: the scores are n_q·n_k floats, O(n²); the streaming path never holds them, O(n·d)).
// So the lab's "needs 2.3 GiB, refused" is the number the refusal itself carries.
//
//   attention_steps      every buffer it holds at its peak: 6 n_q×n_k matrices, the row maxima
//                        and sums and the output (along columns, on transposed copies: 9 n_q×n_k
//                        matrices and 4 vectors of n_k)
//   attention            the kernel that will run: up to 64 keys the two-pass kernel's packed K
//                        and one group's scores; above, the streaming kernel's buffers; the output
//   attention_streaming  packed K, packed V, one block's packed queries and running rows, one
//                        tile of scores, the output
//   attention_tiled      efficiency_paths.hpp's tiled_working_bytes (the count its own 1 GiB rule
//                        checks): for the tile sizes B_r × B_c, with or without the trace
//
// Bytes of float32 storage, counted with checked_size.hpp: saturating at 2⁶⁴ − 1 instead of
// wrapping around, so that an absurd shape reads as "far too much", never as little.
#pragma once

#include <cstdint>

#include "efficiency_paths.hpp"
#include "options.hpp"

namespace attn {

// The entry points, by the name their too_much_memory error carries in params.operation.
enum class Operation { AttentionSteps, Attention, AttentionStreaming, AttentionTiled };
inline constexpr OptionName<Operation> kOperationNames[] = {{"attention_steps", Operation::AttentionSteps},
                                                            {"attention", Operation::Attention},
                                                            {"attention_streaming", Operation::AttentionStreaming},
                                                            {"attention_tiled", Operation::AttentionTiled}};

// q: (n_q, d), k: (n_k, d), v: (n_k, d_v).
struct AttentionShape {
    std::uint64_t n_q = 0, n_k = 0, d = 0, d_v = 0;
};

// What attention_tiled's working memory depends on besides the shape: the tile sizes, whether the
// trace is kept, and the mask (a causal one leaves the tiles it hides whole out of the trace).
struct TiledPlan {
    TileSize tile;
    Trace trace = Trace::Keep;
    MaskKind mask = MaskKind::None;
};

// The working memory of `operation` on `shape`, in bytes; `axis` matters to attention_steps only,
// `tiled` to attention_tiled only (tile sizes of 0 or past n_q, n_k count as too much: the call
// would refuse them). For attention, attention_streaming and attention_tiled this is their own
// kernel's need: inputs with NaN or huge magnitudes, and the teaching switches (stable = false,
// axis = column), go to the reference instead, which needs what attention_steps needs (the tiles'
// reference loop, less than they).
std::uint64_t working_bytes(Operation operation, const AttentionShape& shape, Axis axis = Axis::Row,
                            const TiledPlan& tiled = {});

}  // namespace attn
