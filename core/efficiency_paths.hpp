// efficiency_paths.hpp — three ways of computing softmax(QKᵀ/√d_k)·V that cost less than the full
// n_q×n_k attention (article 10, "效率与变体"), each giving the same answer (issue 30):
//
//   attention_tiled   FlashAttention's idea: query rows in blocks of B_r, keys in tiles of B_c, an
//                     online softmax carrying per row a running max m, a running sum ℓ and an
//                     unnormalised output O from tile to tile (attention_tiled.cpp). It keeps the
//                     state after every tile — the trace the lab draws — recorded by the very loop
//                     that computes the output.
//   attention_decode  causal attention as a language model generates: token by token, each new
//                     query against a cache of the K, V rows so far (attention_decode.cpp).
//   attention_window  a sliding window: query i sees key j iff i − w < j ≤ i, at O(n·w) cost
//                     (attention_window.cpp).
//
// Shapes as everywhere in the core: q (n_q, d_k), k (n_k, d_k), v (n_k, d_v); a causal mask and a
// window are aligned at the top left when n_q ≠ n_k (reference::kept_cells). Every entry point
// checks its input first and returns the Error that refuses it (validate.hpp's checks, codes and
// 1 GiB rule); NaN in an input propagates as the reference's policy says (reference.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "matrix.hpp"
#include "options.hpp"
#include "result.hpp"
#include "validate.hpp"

namespace attn {

// --- Tiles with an online softmax ------------------------------------------------------------

// The running state of the rows of one row block after one key tile. With s_ij = q_i·k_j / divisor
// (−∞ where masked) over the keys j of the tiles so far:
//   m_i  = max_j s_ij                              the running max (−∞ while no key was visible)
//   α_i  = exp(m_i,old − m_i,new)                   how much this tile shrank the earlier terms
//                                                   (1 while m stays −∞)
//   ℓ_i  = α_i·ℓ_i,old + Σ_{j in tile} e^(s_ij − m_i) = Σ_j e^(s_ij − m_i)     the running sum
//   O_i  = α_i·O_i,old + Σ_{j in tile} e^(s_ij − m_i)·v_j                      unnormalised output
// m is in the units of the scaled scores (attention_steps' row_max: at the row block's last tile
// m is the row max).
struct TileStep {
    std::size_t row_start = 0, row_end = 0;  // query rows [row_start, row_end)
    std::size_t col_start = 0, col_end = 0;  // keys [col_start, col_end)
    Matrix m;                                // (rows, 1)
    Matrix l;                                // (rows, 1)
    Matrix alpha;                            // (rows, 1)
    Matrix o;                                // (rows, d_v)
};

struct TiledAttention {
    Matrix output;                // (n_q, d_v)  O_i / ℓ_i after a row's last tile; 0 for a fully masked row
    std::vector<TileStep> tiles;  // in the order computed: row block by row block, key tiles left to
                                  // right (none with Trace::Skip)
    float divisor = 1.0f;         // what the scores were divided by (√d_k·τ, d_k·τ or τ)
};

// Whether attention_tiled keeps the state after every tile (the lab's stepper), or only computes
// the output (the lab's cost measurement at large n, where the trace — n_q·⌈n_k/B_c⌉·(d_v + 3)
// floats, as many as the scores when B_c ≈ d_v — would be the n² memory the tiles avoid).
enum class Trace { Keep, Skip };

// Tile sizes: B_r query rows by B_c keys.
struct TileSize {
    std::int64_t rows = 0;  // 1 … n_q
    std::int64_t cols = 0;  // 1 … n_k
};

// softmax(QKᵀ/divisor)·V through B_r × B_c tiles, with the trace. Options: scale, temperature and
// mask as attention_steps takes them (options.stable and options.axis do not apply: this is the
// stable softmax along rows by construction). A causal mask skips the tiles it hides whole (keys
// after a row block's last row); they are not in the trace. Runs on the streaming kernel's
// microkernels; inputs with NaN or values that could overflow go to attention_tiled_reference's loop.
Result<TiledAttention> attention_tiled(const Matrix& q, const Matrix& k, const Matrix& v, TileSize tile,
                                       const AttentionOptions& options = {}, Trace trace = Trace::Keep);

// The same tiles one row at a time, the formulas as written (attention_tiled.cpp): the same trace
// within float32 rounding, with m bit for bit attention_steps_simd's row max at each row's last
// tile (the same dot products and divisions).
Result<TiledAttention> attention_tiled_reference(const Matrix& q, const Matrix& k, const Matrix& v, TileSize tile,
                                                 const AttentionOptions& options = {}, Trace trace = Trace::Keep);

// The tile sizes' check: 1 ≤ rows ≤ n_q and 1 ≤ cols ≤ n_k, or out_of_range with argument
// tileRows or tileCols (attention_tiled's, and workingMemory's for operation attention_tiled).
Error check_tile_size(TileSize tile, std::uint64_t n_q, std::uint64_t n_k);

// The shape checks of attention_tiled, before any value is read: check_attention_shapes, the tile
// sizes (out_of_range, argument tileRows or tileCols) and the 1 GiB rule (too_much_memory,
// operation attention_tiled, what "trace" with rows n_q and cols n_k; "output" without a trace).
Error check_tiled_shapes(const Shape& q, const Shape& k, const Shape& v, const Shape* mask, TileSize tile,
                         const AttentionOptions& options, Trace trace = Trace::Keep);

// Bytes attention_tiled works in: the trace (every tile's m, ℓ, α, O and its bookkeeping), the
// output, K and V packed for the microkernels, one row block's running state and one run of tiles'
// scores (working_memory.hpp's attention_tiled; the 1 GiB rule's count). Saturates
// (checked_size.hpp) instead of wrapping.
std::uint64_t tiled_working_bytes(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t d_v, TileSize tile,
                                  MaskKind mask, Trace trace = Trace::Keep);

// --- Decoding with a KV cache ----------------------------------------------------------------

// One step of decoding: after token t the cache holds cache_length K, V rows (min(t + 1, n_k)),
// and the new query's output row is `row`.
struct DecodeStep {
    std::size_t cache_length = 0;
    Matrix row;  // (1, d_v)
};

struct DecodedAttention {
    Matrix output;                  // (n_q, d_v)  row t is steps[t].row
    std::vector<DecodeStep> steps;  // one per query, in order
};

// Causal attention token by token: for t = 0, 1, …, append k_t and v_t to the cache, then attend
// q_t to the cache. Each step's sums run in the lanes the full causal row's would, so `output` is
// bit for bit attention_steps_simd(q, k, v, causal)'s output on the same build (attention_decode.cpp).
Result<DecodedAttention> attention_decode(const Matrix& q, const Matrix& k, const Matrix& v,
                                          Scale scale = Scale::SqrtDk);

// The shape checks of attention_decode (check_attention_shapes and the 1 GiB rule, operation
// attention_decode).
Error check_decode_shapes(const Shape& q, const Shape& k, const Shape& v);

// --- A sliding window ------------------------------------------------------------------------

// Attention where query i sees key j iff i − window < j ≤ i: causal, and at most `window` keys
// back. O(n_q·window·d) time, never an n_q×n_k matrix. Up to 64 keys (and for NaN or huge values)
// bit for bit attention_steps_simd with that band as its custom mask; above, on the microkernels,
// equal to it within float32 rounding (attention_window.cpp). window ≥ n_k is causal attention.
Result<Matrix> attention_window(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t window,
                                Scale scale = Scale::SqrtDk);

// The shape checks of attention_window: check_attention_shapes, window ≥ 1 (out_of_range, argument
// window) and the 1 GiB rule (operation attention_window).
Error check_window_shapes(const Shape& q, const Shape& k, const Shape& v, std::int64_t window);

}  // namespace attn
