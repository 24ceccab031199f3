// attention_tiled.cpp — softmax(QKᵀ/divisor)·V through B_r × B_c tiles with an online softmax
// (FlashAttention's idea), keeping the state after every tile for the lab to draw (unless the
// caller asks for the output alone, Trace::Skip).
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
// scores — never an n_q×n_k matrix (the trace, when kept, is another matter: n_q·⌈n_k/B_c⌉·(d_v + 3)
// floats, which the 1 GiB rule counts). A causal mask skips the tiles after a row block's last
// row (fast_path.hpp's visible_keys). The trace (TileStep, efficiency_paths.hpp) is what this loop
// holds after each tile, copied as it goes.
//
// Two loops compute it, each recording its own trace:
//  - one row at a time (tiles_row_by_row): the formulas as written, on simd_kernels.hpp's dot,
//    max, exp-sum and axpy loops. It follows the reference's NaN policy — a NaN kept score makes
//    its row NaN from that tile on (the max is NaN, so is α); a masked key's score and value are
//    never read; a fully masked row has ℓ = 0 and output 0 — so it takes the inputs the fast
//    paths hand to the reference (NaN, values that could overflow: fast::needs_reference), and
//    it is attention_tiled_reference, which the tests hold the other to;
//  - the streaming kernel's microkernels (tiles_on_microkernels, attention_streaming.cpp): groups
//    of MR query rows in SIMD lanes, K packed tile by tile so that every tile starts a panel, V in
//    column panels. The same formulas, with the running max kept in unscaled score units (exp of
//    (s − m)/divisor) and recorded ÷ divisor, so both traces read in the same units.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "checked_size.hpp"
#include "efficiency_paths.hpp"
#include "efficiency_rows.hpp"
#include "fast_kernels.hpp"
#include "fast_path.hpp"
#include "packing.hpp"
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

// One row block through its key tiles, one row at a time (the first loop of the header): the
// state after every tile appended to result.tiles (with Trace::Keep), then output_i = O_i / ℓ_i
// (a fully masked row has ℓ = 0 and keeps its zeros).
void tiles_row_by_row(const Matrix& q, const Matrix& k, const Matrix& v, const Mask& mask, std::size_t r0,
                      std::size_t r1, std::size_t bc, Trace trace, TiledAttention& result) {
    const std::size_t n_k = k.rows, d_v = v.cols;
    RunningBlock block(r1 - r0, d_v, bc);
    for (std::size_t c0 = 0; c0 < fast::visible_keys(mask, r1 - 1, n_k); c0 += bc) {
        const std::size_t c1 = std::min(c0 + bc, n_k);
        for (std::size_t i = r0; i < r1; ++i) update_row(q, k, v, mask, result.divisor, i, c0, c1, i - r0, block);
        if (trace == Trace::Keep) result.tiles.push_back(record(block, r0, r1, c0, c1, d_v));
    }
    for (std::size_t i = r0; i < r1; ++i) {
        const float l = block.l[i - r0];
        if (l == 0.0f) continue;
        for (std::size_t c = 0; c < d_v; ++c) result.output(i, c) = block.o[(i - r0) * d_v + c] / l;
    }
}

// K tile by tile, each tile's keys in panels of their own (packing.hpp's layout, padded with zero
// keys), so that a tile of any width starts at a panel: tile t's panels begin at kp[offset[t]].
struct PackedKeyTiles {
    std::vector<float> kp;
    std::vector<std::size_t> offset;
};
PackedKeyTiles pack_key_tiles(const Matrix& k, std::size_t bc) {
    using fast::kNK;
    PackedKeyTiles out;
    std::vector<float> panels;
    for (std::size_t c0 = 0; c0 < k.rows; c0 += bc) {
        const std::size_t nb = std::min(bc, k.rows - c0);
        const Matrix tile(nb, k.cols, std::vector<float>(k.row(c0), k.row(c0) + nb * k.cols));
        fast::pack_keys(tile, kNK, panels);
        out.offset.push_back(out.kp.size());
        out.kp.insert(out.kp.end(), panels.begin(), panels.begin() + (nb + kNK - 1) / kNK * kNK * k.cols);
    }
    return out;
}

// The running state of one group of MR query rows, one lane per row: m in unscaled score units.
struct LaneState {
    std::vector<float> qp, o, m, l, alpha;  // (d, MR), (d_v, MR), MR, MR, MR
    LaneState(std::size_t d, std::size_t d_v)
        : qp(d * fast::kMR),
          o(d_v * fast::kMR, 0.0f),
          m(fast::kMR, kMinusInf),
          l(fast::kMR, 0.0f),
          alpha(fast::kMR, 1.0f) {}
};

// One row block through its key tiles on the microkernels (the second loop of the header): the
// trace as tiles_row_by_row keeps it, then output_i = O_i / ℓ_i.
void tiles_on_microkernels(const Matrix& q, const Mask& mask, const PackedKeyTiles& keys, const std::vector<float>& vp,
                           std::size_t n_k, std::size_t d_v, std::size_t r0, std::size_t r1, std::size_t bc,
                           std::vector<float>& s, Trace trace, TiledAttention& result) {
    using fast::kMR;
    using fast::kNC;
    using fast::kNK;
    const std::size_t d = q.cols;
    const float inv_divisor = 1.0f / result.divisor;
    std::vector<LaneState> groups;
    for (std::size_t i0 = r0; i0 < r1; i0 += kMR) {
        groups.emplace_back(d, d_v);
        fast::pack_query_group(q, i0, std::min(kMR, r1 - i0), kMR, groups.back().qp.data());
    }
    for (std::size_t c0 = 0, t = 0; c0 < fast::visible_keys(mask, r1 - 1, n_k); c0 += bc, ++t) {
        const std::size_t c1 = std::min(c0 + bc, n_k), nb = c1 - c0;
        for (std::size_t g = 0; g < groups.size(); ++g) {
            LaneState& st = groups[g];
            const std::size_t i0 = r0 + g * kMR;
            // S_t (nb, MR) = Q_group · K_tᵀ, masked
            fast::qk_panels(st.qp.data(), keys.kp.data() + keys.offset[t], d, (nb + kNK - 1) / kNK, s.data());
            fast::mask_group(s.data(), kMR, i0, std::min(kMR, r1 - i0), c0, nb, mask);
            // m' = max(m, max_j S_t); α = exp((m − m')/divisor); P_t = exp((S_t − m')/divisor)
            float m_new[kMR], l_tile[kMR];
            std::copy(st.m.begin(), st.m.end(), m_new);
            fast::col_max(s.data(), nb, m_new);
            for (std::size_t r = 0; r < kMR; ++r)
                st.alpha[r] = m_new[r] == kMinusInf ? 1.0f : fast::exp_scalar((st.m[r] - m_new[r]) * inv_divisor);
            fast::exp_sum(s.data(), nb, m_new, inv_divisor, l_tile);
            // ℓ = α·ℓ + Σ_j P_t; O = α·O + P_tᵀ·V_t
            for (std::size_t r = 0; r < kMR; ++r) {
                st.l[r] = st.l[r] * st.alpha[r] + l_tile[r];
                st.m[r] = m_new[r];
            }
            fast::pv_block(s.data(), vp.data() + c0 * kNC, n_k * kNC, nb, d_v, st.o.data(), st.alpha.data());
        }
        if (trace == Trace::Skip) continue;
        // The trace: each row's lane, m back in the units of the scaled scores.
        TileStep step;
        step.row_start = r0, step.row_end = r1, step.col_start = c0, step.col_end = c1;
        step.m = Matrix(r1 - r0, 1), step.l = Matrix(r1 - r0, 1), step.alpha = Matrix(r1 - r0, 1);
        step.o = Matrix(r1 - r0, d_v);
        for (std::size_t i = r0; i < r1; ++i) {
            const LaneState& st = groups[(i - r0) / kMR];
            const std::size_t r = (i - r0) % kMR;
            step.m(i - r0, 0) = st.m[r] / result.divisor;
            step.l(i - r0, 0) = st.l[r];
            step.alpha(i - r0, 0) = st.alpha[r];
            for (std::size_t c = 0; c < d_v; ++c) step.o(i - r0, c) = st.o[c * kMR + r];
        }
        result.tiles.push_back(std::move(step));
    }
    for (std::size_t i = r0; i < r1; ++i) {
        const LaneState& st = groups[(i - r0) / kMR];
        const std::size_t r = (i - r0) % kMR;
        if (st.l[r] == 0.0f) continue;
        for (std::size_t c = 0; c < d_v; ++c) result.output(i, c) = st.o[c * kMR + r] / st.l[r];
    }
}

// What one TileStep costs besides its floats: the struct and four allocations (a header each).
constexpr std::uint64_t kTileOverheadBytes = sizeof(TileStep) + 4 * 16;

// Either loop over every row block, the checks done.
TiledAttention tiled(const Matrix& q, const Matrix& k, const Matrix& v, TileSize tile, const AttentionOptions& options,
                     Trace trace, bool row_by_row) {
    const std::size_t n_q = q.rows, n_k = k.rows, d_v = v.cols;
    const std::size_t br = static_cast<std::size_t>(tile.rows), bc = static_cast<std::size_t>(tile.cols);
    TiledAttention result;
    result.divisor = reference::score_divisor(options.scale, q.cols, options.temperature);
    result.output = Matrix(n_q, d_v);
    PackedKeyTiles keys;
    std::vector<float> vp, s;
    if (!row_by_row) {
        keys = pack_key_tiles(k, bc);
        fast::pack_values<fast::kNC>(v, vp);
        s.resize((bc + fast::kNK - 1) / fast::kNK * fast::kNK * fast::kMR);
    }
    for (std::size_t r0 = 0; r0 < n_q; r0 += br) {
        const std::size_t r1 = std::min(r0 + br, n_q);
        if (row_by_row)
            tiles_row_by_row(q, k, v, options.mask, r0, r1, bc, trace, result);
        else
            tiles_on_microkernels(q, options.mask, keys, vp, n_k, d_v, r0, r1, bc, s, trace, result);
    }
    return result;
}

// The checks of both entry points: the shapes, the tile sizes and the memory, then the values.
Error check_tiled(const Matrix& q, const Matrix& k, const Matrix& v, TileSize tile, const AttentionOptions& options,
                  Trace trace) {
    const bool custom = options.mask.kind == MaskKind::Custom;
    const Shape mask = shape_of(options.mask.keep);
    if (Error e =
            check_tiled_shapes(shape_of(q), shape_of(k), shape_of(v), custom ? &mask : nullptr, tile, options, trace))
        return e;
    return check_attention(q, k, v, options);
}

}  // namespace

std::uint64_t tiled_working_bytes(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t d_v, TileSize tile,
                                  MaskKind mask, Trace trace) {
    using fast::kMR;
    using fast::kNC;
    using fast::kNK;
    const std::uint64_t br = static_cast<std::uint64_t>(tile.rows), bc = static_cast<std::uint64_t>(tile.cols);
    if (br == 0 || bc == 0) return kSizeOverflow;
    const std::uint64_t tiles_per_row = (std::uint64_t{n_k} + bc - 1) / bc;
    // The output; K packed tile by tile (each tile padded to whole panels of NK keys) and V in
    // column panels of NC; one row block's groups of MR lanes (packed queries, O, m, ℓ, α) and
    // one tile of scores. (The row-by-row loop needs less.)
    const std::uint64_t floats =
        size_sum(size_product(n_q, d_v), size_product(size_sum(n_k, size_product(tiles_per_row, kNK)), d),
                 size_product(size_sum(d_v, kNC), n_k), size_product(size_sum(br, kMR), size_sum(d, d_v, 3)),
                 size_product(size_sum(bc, kNK), kMR));
    std::uint64_t bytes = float_bytes(floats);
    if (trace == Trace::Skip) return bytes;
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
                         const AttentionOptions& options, Trace trace) {
    if (Error e = check_attention_shapes(q, k, v, options.temperature, mask)) return e;
    if (tile.rows < 1 || static_cast<std::uint64_t>(tile.rows) > q.rows)
        return rows::whole_number_out_of_range("tileRows", tile.rows, 1, static_cast<double>(q.rows),
                                               "from 1 to n_q = " + std::to_string(q.rows));
    if (tile.cols < 1 || static_cast<std::uint64_t>(tile.cols) > k.rows)
        return rows::whole_number_out_of_range("tileCols", tile.cols, 1, static_cast<double>(k.rows),
                                               "from 1 to n_k = " + std::to_string(k.rows));
    return check_memory("attention_tiled", trace == Trace::Keep ? "trace" : "output", q.rows,
                        trace == Trace::Keep ? k.rows : v.cols,
                        tiled_working_bytes(q.rows, k.rows, q.cols, v.cols, tile, options.mask.kind, trace));
}

Result<TiledAttention> attention_tiled(const Matrix& q, const Matrix& k, const Matrix& v, TileSize tile,
                                       const AttentionOptions& options, Trace trace) {
    if (Error e = check_tiled(q, k, v, tile, options, trace)) return Result<TiledAttention>::failure(e);
    const float divisor = reference::score_divisor(options.scale, q.cols, options.temperature);
    return Result<TiledAttention>::success(
        tiled(q, k, v, tile, options, trace, fast::needs_reference(q, k, v, divisor)));
}

Result<TiledAttention> attention_tiled_reference(const Matrix& q, const Matrix& k, const Matrix& v, TileSize tile,
                                                 const AttentionOptions& options, Trace trace) {
    if (Error e = check_tiled(q, k, v, tile, options, trace)) return Result<TiledAttention>::failure(e);
    return Result<TiledAttention>::success(tiled(q, k, v, tile, options, trace, true));
}

}  // namespace attn
