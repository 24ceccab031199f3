// attention_tiled.cpp — softmax(QKᵀ/divisor)·V through B_r × B_c tiles with an online softmax
// (FlashAttention's idea), keeping the state after every tile for the lab to draw.
//
// The score matrix is cut into tiles: query rows in blocks of B_r, keys in tiles of B_c. A row
// block walks its key tiles left to right, and each of its rows carries three things from tile to
// tile instead of a whole row of scores (for row i, with s_ij = q_i·k_j / divisor, −∞ if masked):
//
//   m_new = max(m_old, max_{j in tile} s_ij)                       the running max
//   α     = exp(m_old − m_new)                                     (1 while m stays −∞)
//   ℓ_new = α·ℓ_old + Σ_{j in tile} exp(s_ij − m_new)              the running sum
//   O_new = α·O_old + Σ_{j in tile} exp(s_ij − m_new)·v_j          the unnormalised output
//
// After the last tile output_i = O_i / ℓ_i: every term has been multiplied by exp(s_ij − m_final)
// exactly once (a term first scaled by exp(s − m_1) is later multiplied by each α, and the α's
// telescope: exp(m_1 − m_2)·exp(m_2 − m_3)… = exp(m_1 − m_final)), so it is the softmax's
// Σ_j e^(s_ij − m_i) v_j / Σ_j e^(s_ij − m_i). Memory: the row block's m, ℓ, O and one tile of
// scores — never an n_q×n_k matrix. The trace (TileStep, efficiency_paths.hpp) is what this loop
// holds after each tile, copied as it goes.
//
// The dot products, the max, the exps and their sum, and the O update run on simd_kernels.hpp's
// loops. NaN follows the reference's policy: a NaN kept score makes its row NaN from that tile on
// (the max is NaN, so is α); a masked key's score and value are never read; a fully masked row
// has ℓ = 0 and output 0.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "checked_size.hpp"
#include "efficiency_paths.hpp"
#include "efficiency_rows.hpp"
#include "reference.hpp"
#include "simd_kernels.hpp"

namespace attn {
namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// Whether query i may attend to key j (reference::kept_cells' rule, one cell).
bool kept(const Mask& mask, std::size_t i, std::size_t j) {
    if (mask.kind == MaskKind::Causal) return j <= i;
    if (mask.kind == MaskKind::Custom) return mask.keep(i, j) != 0.0f;
    return true;
}

// The keys a row block may see at all: a causal mask hides every key after its last row, so the
// tiles past it are skipped whole (fast_path.hpp's visible_keys, the same rule).
std::size_t visible_end(const Mask& mask, std::size_t last_row, std::size_t n_k) {
    return mask.kind == MaskKind::Causal ? std::min(last_row + 1, n_k) : n_k;
}

// The running state of one row block: m, ℓ (rows) and O (rows × d_v), and one tile's scores.
struct RunningBlock {
    std::vector<float> m, l, alpha, o, s;
    RunningBlock(std::size_t rows, std::size_t d_v, std::size_t tile_cols)
        : m(rows, kMinusInf), l(rows, 0.0f), alpha(rows, 1.0f), o(rows * d_v, 0.0f), s(tile_cols) {}
};

// One row against one key tile [c0, c1): the four formulas of the header, on row r of the block.
void update_row(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask, float divisor, std::size_t i,
                std::size_t c0, std::size_t c1, std::size_t r, RunningBlock& b) {
    const std::size_t d = q.cols, d_v = v.cols, nb = c1 - c0;
    float* const s = b.s.data();
    // s_ij = q_i·k_j / divisor, −∞ where masked
    for (std::size_t j = c0; j < c1; ++j)
        s[j - c0] = kept(mask, i, j) ? simd::dot(q.row(i), k.row(j), d) / divisor : kMinusInf;
    // m_new = max(m_old, max_j s_ij), NaN if either is
    const float m_old = b.m[r], tile_max = simd::max(s, nb);
    const float m_new = (std::isnan(m_old) || std::isnan(tile_max)) ? std::numeric_limits<float>::quiet_NaN()
                                                                    : std::max(m_old, tile_max);
    // α = exp(m_old − m_new); 1 while nothing was visible (−∞ − (−∞) would be NaN)
    const float alpha = m_new == kMinusInf ? 1.0f : std::exp(m_old - m_new);
    // p_j = exp(s_ij − m_new) (0 where masked), ℓ_new = α·ℓ_old + Σ_j p_j
    float tile_sum = 0.0f;
    if (m_new != kMinusInf) {
        simd::subtract(s, s, m_new, nb);
        tile_sum = simd::exp_sum(s, s, nb);
    } else {
        std::fill(s, s + nb, 0.0f);  // nothing visible so far: every p_j is 0
    }
    b.l[r] = alpha * b.l[r] + tile_sum;
    b.m[r] = m_new;
    b.alpha[r] = alpha;
    // O_new = α·O_old + Σ_j p_j v_j over the kept keys, in order
    float* const o = b.o.data() + r * d_v;
    for (std::size_t c = 0; c < d_v; ++c) o[c] *= alpha;
    for (std::size_t j = c0; j < c1; ++j)
        if (kept(mask, i, j)) simd::axpy(o, s[j - c0], v.row(j), d_v);
}

// The block's state after a tile, as the trace keeps it.
TileStep record(const RunningBlock& b, std::size_t r0, std::size_t r1, std::size_t c0, std::size_t c1,
                std::size_t d_v) {
    const std::size_t rows = r1 - r0;
    TileStep t;
    t.row_start = r0, t.row_end = r1, t.col_start = c0, t.col_end = c1;
    t.m = Matrix(rows, 1, std::vector<float>(b.m.begin(), b.m.begin() + rows));
    t.l = Matrix(rows, 1, std::vector<float>(b.l.begin(), b.l.begin() + rows));
    t.alpha = Matrix(rows, 1, std::vector<float>(b.alpha.begin(), b.alpha.begin() + rows));
    t.o = Matrix(rows, d_v, std::vector<float>(b.o.begin(), b.o.begin() + rows * d_v));
    return t;
}

// What one TileStep costs besides its floats: the struct and four allocations (a header each).
constexpr std::uint64_t kTileOverheadBytes = sizeof(TileStep) + 4 * 16;

}  // namespace

std::uint64_t tiled_working_bytes(std::size_t n_q, std::size_t n_k, std::size_t d_v, TileSize tile, MaskKind mask) {
    const std::uint64_t br = static_cast<std::uint64_t>(tile.rows), bc = static_cast<std::uint64_t>(tile.cols);
    if (br == 0 || bc == 0) return kSizeOverflow;
    // Output, one block's running state (m, ℓ, α, O) and a tile of scores.
    std::uint64_t bytes = float_bytes(size_sum(size_product(n_q, d_v), size_product(br, size_sum(d_v, 3)), bc));
    // The trace, row block by row block: each tile keeps rows·(3 + d_v) floats. Counting stops
    // once past the limit, so that even 2³¹ one-row blocks cost a bounded loop.
    for (std::uint64_t r0 = 0; r0 < n_q && bytes <= kMemoryLimitBytes; r0 += br) {
        const std::uint64_t rows = std::min<std::uint64_t>(br, n_q - r0);
        const std::uint64_t keys = mask == MaskKind::Causal ? std::min<std::uint64_t>(r0 + rows, n_k) : n_k;
        const std::uint64_t tiles = (keys + bc - 1) / bc;
        const std::uint64_t per_tile = size_sum(float_bytes(size_product(rows, size_sum(d_v, 3))), kTileOverheadBytes);
        bytes = size_sum(bytes, size_product(tiles, per_tile));
    }
    return bytes;
}

Error check_tiled_shapes(const Shape& q, const Shape& k, const Shape& v, const Shape* mask, TileSize tile,
                         const AttentionOptions& options) {
    if (Error e = check_attention_shapes(q, k, v, options.temperature, mask)) return e;
    if (tile.rows < 1 || static_cast<std::uint64_t>(tile.rows) > q.rows)
        return rows::whole_number_out_of_range("tileRows", tile.rows, 1, static_cast<double>(q.rows),
                                               "from 1 to n_q = " + std::to_string(q.rows));
    if (tile.cols < 1 || static_cast<std::uint64_t>(tile.cols) > k.rows)
        return rows::whole_number_out_of_range("tileCols", tile.cols, 1, static_cast<double>(k.rows),
                                               "from 1 to n_k = " + std::to_string(k.rows));
    return check_memory("attention_tiled", "trace", q.rows, k.rows,
                        tiled_working_bytes(q.rows, k.rows, v.cols, tile, options.mask.kind));
}

Result<TiledAttention> attention_tiled(const Matrix& q, const Matrix& k, const Matrix& v, TileSize tile,
                                       const AttentionOptions& options) {
    using Out = Result<TiledAttention>;
    const bool custom = options.mask.kind == MaskKind::Custom;
    const Shape mask = shape_of(options.mask.keep);
    if (Error e = check_tiled_shapes(shape_of(q), shape_of(k), shape_of(v), custom ? &mask : nullptr, tile, options))
        return Out::failure(e);
    if (Error e = check_attention(q, k, v, options)) return Out::failure(e);

    const std::size_t n_q = q.rows, n_k = k.rows, d_v = v.cols;
    const std::size_t br = static_cast<std::size_t>(tile.rows), bc = static_cast<std::size_t>(tile.cols);
    TiledAttention result;
    result.divisor = reference::score_divisor(options.scale, q.cols, options.temperature);
    result.output = Matrix(n_q, d_v);
    for (std::size_t r0 = 0; r0 < n_q; r0 += br) {
        const std::size_t r1 = std::min(r0 + br, n_q);
        RunningBlock block(r1 - r0, d_v, bc);
        for (std::size_t c0 = 0; c0 < visible_end(options.mask, r1 - 1, n_k); c0 += bc) {
            const std::size_t c1 = std::min(c0 + bc, n_k);
            for (std::size_t i = r0; i < r1; ++i)
                update_row(q, k, v, options.mask, result.divisor, i, c0, c1, i - r0, block);
            result.tiles.push_back(record(block, r0, r1, c0, c1, d_v));
        }
        // output_i = O_i / ℓ_i; a fully masked row has ℓ = 0 and keeps its zeros
        for (std::size_t i = r0; i < r1; ++i) {
            const float l = block.l[i - r0];
            if (l == 0.0f) continue;
            const float* o = block.o.data() + (i - r0) * d_v;
            for (std::size_t c = 0; c < d_v; ++c) result.output(i, c) = o[c] / l;
        }
    }
    return Out::success(std::move(result));
}

}  // namespace attn
