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
//    column panels; the tiles walked in runs of about 512 keys, O kept in registers from tile to
//    tile of a run (fast::pv_tiles). The same formulas, with the running max kept in unscaled
//    score units (exp of (s − m)/divisor) and recorded ÷ divisor, so both traces read in the same units.
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
// keys), so that a tile of any width starts at a panel: tile t's panels begin at kp[t·panel_floats],
// panel_floats = ⌈B_c/NK⌉·NK·d (the last tile's may be fewer). When NK divides B_c no panel
// straddles two tiles and this is K packed whole, in one pass.
struct PackedKeyTiles {
    std::vector<float> kp;
    std::size_t padded_cols = 0;  // ⌈B_c/NK⌉·NK: keys per tile, padding included
};
PackedKeyTiles pack_key_tiles(const Matrix& k, std::size_t bc) {
    using fast::kNK;
    PackedKeyTiles out;
    out.padded_cols = (bc + kNK - 1) / kNK * kNK;
    if (bc % kNK == 0) {
        fast::pack_keys(k, kNK, out.kp);
        return out;
    }
    // pack_keys' layout written tile by tile into one array of its final size (no temporaries, no
    // growth: the bytes tiled_working_bytes counts): key h of a tile's panel p, component c at
    // [p·d·NK + c·NK + h], zero keys after the tile's last.
    const std::size_t d = k.cols, tiles = (k.rows + bc - 1) / bc, last = k.rows - (tiles - 1) * bc;
    out.kp.assign(((tiles - 1) * out.padded_cols + (last + kNK - 1) / kNK * kNK) * d, 0.0f);
    for (std::size_t t = 0; t < tiles; ++t) {
        float* const dst = out.kp.data() + t * out.padded_cols * d;
        for (std::size_t j = 0; j < std::min(bc, k.rows - t * bc); ++j)
            for (std::size_t c = 0; c < d; ++c) dst[j / kNK * d * kNK + c * kNK + j % kNK] = k(t * bc + j, c);
    }
    return out;
}

// exp_sum and pv_tiles through pointers the optimisers cannot follow, for the reason
// attention_streaming.cpp gives for its pv_block and exp2_sum: Binaryen inlines a function with one
// caller whatever LLVM's noinline says, and inlined into this file's large loop V8 kept their
// accumulators and constants on the stack.
void (*volatile const exp_sum_outlined)(float*, std::size_t, const float*, float, float*, bool) = fast::exp_sum;
void (*volatile const pv_tiles_outlined)(const float*, std::size_t, const float*, std::size_t, std::size_t, std::size_t,
                                         std::size_t, std::size_t, float*, const float*, float*) = fast::pv_tiles;

// Key tiles are walked in runs of about kRunKeys keys (the streaming kernel's tile): one Q·Kᵀ call
// for the run's panels, each tile's softmax step in turn, then one A·V pass over the run that
// rescales O by each tile's α as it reaches it (fast::pv_tiles) — the same operations as tile by
// tile, without O stored and reloaded at every tile. With B_c = 64 that per-tile store and reload
// made the tiles ≈ 8–15% slower than attention_streaming (bench/efficiency-paths.md).
// (Never more tiles than a row has.)
constexpr std::size_t kRunKeys = 512;
std::size_t tiles_per_run(std::size_t padded_cols, std::size_t bc, std::size_t n_k) {
    return std::min(std::max<std::size_t>(1, kRunKeys / padded_cols), (n_k + bc - 1) / bc);
}

// The running state of one group of MR query rows, one lane per row: m in unscaled score units.
struct LaneState {
    std::vector<float> qp, o, m, l;  // (d, MR), (d_v, MR), MR, MR
    LaneState(std::size_t d, std::size_t d_v)
        : qp(d * fast::kMR), o(d_v * fast::kMR, 0.0f), m(fast::kMR, kMinusInf), l(fast::kMR, 0.0f) {}
};

// What each tile of a run left for the group being computed: its α, and for the trace its m, ℓ
// and O. One for all the groups of a row block: a group's run is done (and recorded) before the next's.
struct RunScratch {
    std::vector<float> alpha, m, l, o;  // per tile: MR, MR, MR, (d_v, MR)
    RunScratch(std::size_t run_tiles, std::size_t d_v, Trace trace)
        : alpha(run_tiles * fast::kMR),
          m(trace == Trace::Keep ? run_tiles * fast::kMR : 0),
          l(trace == Trace::Keep ? run_tiles * fast::kMR : 0),
          o(trace == Trace::Keep ? run_tiles * d_v * fast::kMR : 0) {}
};

// The softmax step of one tile for one group, its scores at s (nb, MR), masked: m' = max(m, max_j
// S_t); α = exp((m − m')/divisor); P_t = exp((S_t − m')/divisor) in place; ℓ = α·ℓ + Σ_j P_t. α
// (and m, ℓ for the trace) kept as tile t of the run.
void softmax_step(float* s, std::size_t nb, float inv_divisor, std::size_t t, LaneState& st, RunScratch& run) {
    using fast::kMR;
    float m_new[kMR], lowest[kMR], l_tile[kMR];
    float* const alpha = run.alpha.data() + t * kMR;
    std::copy(st.m.begin(), st.m.end(), m_new);
    std::fill(lowest, lowest + kMR, std::numeric_limits<float>::infinity());
    fast::col_max(s, nb, m_new, lowest);
    // α = exp(0) = 1 exactly when the max stayed (most tiles, after the first few): no exp then.
    for (std::size_t r = 0; r < kMR; ++r)
        alpha[r] =
            m_new[r] == kMinusInf || m_new[r] == st.m[r] ? 1.0f : fast::exp_scalar((st.m[r] - m_new[r]) * inv_divisor);
    // exp_sum's 2^y needs its clamp at −127 only if the tile's lowest exponent y = (s − m')·log2(e)
    // /divisor, computed as exp_sum computes it, is below (−∞ for a masked key): the streaming
    // kernel's test. The same values either way, one operation fewer a score when it is not.
    const float scale = inv_divisor * fast::exp_constants::log2e;
    bool clamp = false;
    for (std::size_t r = 0; r < kMR; ++r) {
        const float shift = m_new[r] == kMinusInf ? 0.0f : m_new[r];
        if (!((lowest[r] - shift) * scale >= fast::exp_constants::exp2_floor)) clamp = true;
    }
    exp_sum_outlined(s, nb, m_new, inv_divisor, l_tile, clamp);
    for (std::size_t r = 0; r < kMR; ++r) {
        st.l[r] = st.l[r] * alpha[r] + l_tile[r];
        st.m[r] = m_new[r];
    }
    if (!run.m.empty()) {
        std::copy(st.m.begin(), st.m.end(), run.m.begin() + t * kMR);
        std::copy(st.l.begin(), st.l.end(), run.l.begin() + t * kMR);
    }
}

// The trace's steps of one run of tiles [c_first, c_end) for rows [r0, r1), appended to `tiles`
// (reserved whole beforehand: no reallocation) to be filled group by group; → the first one's index.
std::size_t append_run_steps(std::size_t r0, std::size_t r1, std::size_t c_first, std::size_t c_end, std::size_t bc,
                             std::size_t d_v, std::vector<TileStep>& tiles) {
    const std::size_t first = tiles.size();
    for (std::size_t c0 = c_first; c0 < c_end; c0 += bc) {
        TileStep& step = tiles.emplace_back();
        step.row_start = r0, step.row_end = r1, step.col_start = c0, step.col_end = std::min(c0 + bc, c_end);
        step.m = Matrix(r1 - r0, 1), step.l = Matrix(r1 - r0, 1), step.alpha = Matrix(r1 - r0, 1);
        step.o = Matrix(r1 - r0, d_v);
    }
    return first;
}

// A group's lanes into its rows of the run's steps: m back in the units of the scaled scores.
void record_group(const RunScratch& run, std::size_t first_row, std::size_t rows, std::size_t d_v, float divisor,
                  TileStep* steps, std::size_t count) {
    using fast::kMR;
    for (std::size_t t = 0; t < count; ++t)
        for (std::size_t r = 0; r < rows; ++r) {
            TileStep& step = steps[t];
            step.m(first_row + r, 0) = run.m[t * kMR + r] / divisor;
            step.l(first_row + r, 0) = run.l[t * kMR + r];
            step.alpha(first_row + r, 0) = run.alpha[t * kMR + r];
            for (std::size_t c = 0; c < d_v; ++c) step.o(first_row + r, c) = run.o[t * d_v * kMR + c * kMR + r];
        }
}

// One row block through its key tiles on the microkernels (the second loop of the header): the
// trace as tiles_row_by_row keeps it, then output_i = O_i / ℓ_i.
void tiles_on_microkernels(const Matrix& q, const Mask& mask, const PackedKeyTiles& keys, const std::vector<float>& vp,
                           std::size_t n_k, std::size_t d_v, std::size_t r0, std::size_t r1, std::size_t bc,
                           std::vector<float>& s, Trace trace, TiledAttention& result) {
    using fast::kMR;
    using fast::kNC;
    using fast::kNK;
    const std::size_t d = q.cols, pc = keys.padded_cols, run_tiles = tiles_per_run(pc, bc, n_k);
    const float inv_divisor = 1.0f / result.divisor;
    RunScratch run(run_tiles, d_v, trace);
    std::vector<LaneState> groups;
    groups.reserve((r1 - r0 + kMR - 1) / kMR);
    for (std::size_t i0 = r0; i0 < r1; i0 += kMR) {
        groups.emplace_back(d, d_v);
        fast::pack_query_group(q, i0, std::min(kMR, r1 - i0), kMR, groups.back().qp.data());
    }
    const std::size_t visible = fast::visible_keys(mask, r1 - 1, n_k);
    for (std::size_t c_first = 0; c_first < visible; c_first += run_tiles * bc) {
        // The run: tiles [c_first, c_end), the last of them nb_last keys; c_end may pass the
        // visible keys only within the tile that holds the last of them.
        const std::size_t tiles = std::min(run_tiles, (visible - c_first + bc - 1) / bc);
        const std::size_t c_end = std::min(c_first + tiles * bc, n_k), nb_last = c_end - (c_first + (tiles - 1) * bc);
        const std::size_t panels = ((tiles - 1) * pc + nb_last + kNK - 1) / kNK;
        const std::size_t first =
            trace == Trace::Keep ? append_run_steps(r0, r1, c_first, c_end, bc, d_v, result.tiles) : 0;
        for (std::size_t g = 0; g < groups.size(); ++g) {
            LaneState& st = groups[g];
            const std::size_t i0 = r0 + g * kMR, rows = std::min(kMR, r1 - i0);
            // S (run keys, MR) = Q_group · Kᵀ over the run's panels; tile t's scores at s + t·pc·MR
            fast::qk_panels(st.qp.data(), keys.kp.data() + c_first / bc * pc * d, d, panels, s.data());
            for (std::size_t t = 0; t < tiles; ++t) {
                const std::size_t c0 = c_first + t * bc, nb = t + 1 == tiles ? nb_last : bc;
                fast::mask_group(s.data() + t * pc * kMR, kMR, i0, rows, c0, nb, mask);
                softmax_step(s.data() + t * pc * kMR, nb, inv_divisor, t, st, run);
            }
            // O = α_t·O + P_tᵀ·V_t, tile after tile
            pv_tiles_outlined(s.data(), pc * kMR, vp.data() + c_first * kNC, n_k * kNC, tiles, bc, nb_last, d_v,
                              st.o.data(), run.alpha.data(), trace == Trace::Keep ? run.o.data() : nullptr);
            if (trace == Trace::Keep)
                record_group(run, i0 - r0, rows, d_v, result.divisor, result.tiles.data() + first, tiles);
        }
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
    // The trace's tiles reserved at once: grown by reallocation it would hold the old and the new
    // array together, beyond what tiled_working_bytes counts (fuzz finding H7-1).
    if (trace == Trace::Keep) {
        std::size_t count = 0;
        for (std::size_t r0 = 0; r0 < n_q; r0 += br)
            count += (fast::visible_keys(options.mask, std::min(r0 + br, n_q) - 1, n_k) + bc - 1) / bc;
        result.tiles.reserve(count);
    }
    PackedKeyTiles keys;
    std::vector<float> vp, s;
    if (!row_by_row) {
        keys = pack_key_tiles(k, bc);
        fast::pack_values<fast::kNC>(v, vp);
        s.resize(tiles_per_run(keys.padded_cols, bc, n_k) * keys.padded_cols * fast::kMR);
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
    // A run of tiles (tiles_per_run) and each tile's keys with their padding to whole panels.
    const std::uint64_t padded_cols = (bc + kNK - 1) / kNK * kNK;
    const std::uint64_t run_tiles =
        std::min<std::uint64_t>(std::max<std::uint64_t>(1, kRunKeys / padded_cols), tiles_per_row);
    // The output; K packed tile by tile (each tile padded to whole panels of NK keys) and V in
    // column panels of NC; one row block's groups of MR lanes (packed queries, O, m, ℓ); a run's
    // scores and what each of its tiles left (α; with the trace m, ℓ and O too). (The row-by-row
    // loop needs less.)
    const std::uint64_t per_run_tile = trace == Trace::Keep ? size_sum(d_v, 3) : 1;
    const std::uint64_t floats =
        size_sum(size_sum(size_product(n_q, d_v), size_product(size_sum(n_k, size_product(tiles_per_row, kNK)), d),
                          size_product(size_sum(d_v, kNC), n_k), size_product(size_sum(br, kMR), size_sum(d, d_v, 2))),
                 size_product(run_tiles, kMR, size_sum(padded_cols, per_run_tile)));
    // (and the row block's array of groups, the vectors' bookkeeping)
    std::uint64_t bytes = size_sum(float_bytes(floats), size_product((br + kMR - 1) / kMR, sizeof(LaneState)));
    if (trace == Trace::Skip) return bytes;
    // The trace: each tile keeps rows·(3 + d_v) floats. Without a causal mask every row block has
    // all the tiles of a row: the full blocks at once, then the last one's remaining rows.
    const auto tile_bytes = [&](std::uint64_t rows) {
        return size_sum(float_bytes(size_product(rows, size_sum(d_v, 3))), kTileOverheadBytes);
    };
    if (mask != MaskKind::Causal) {
        bytes = size_sum(bytes, size_product(n_q / br, tiles_per_row, tile_bytes(br)));
        return n_q % br == 0 ? bytes : size_sum(bytes, size_product(tiles_per_row, tile_bytes(n_q % br)));
    }
    // Causal: row block by row block, each up to its last row's keys. Counting stops once past the
    // limit, so that even 2³¹ one-row blocks cost a bounded loop.
    for (std::uint64_t r0 = 0; r0 < n_q && bytes <= kMemoryLimitBytes; r0 += br) {
        const std::uint64_t rows = std::min<std::uint64_t>(br, n_q - r0);
        const std::uint64_t keys = std::min<std::uint64_t>(r0 + rows, n_k);
        bytes = size_sum(bytes, size_product((keys + bc - 1) / bc, tile_bytes(rows)));
    }
    return bytes;
}

Error check_tile_size(TileSize tile, std::uint64_t n_q, std::uint64_t n_k) {
    if (tile.rows < 1 || static_cast<std::uint64_t>(tile.rows) > n_q)
        return rows::whole_number_out_of_range("tileRows", tile.rows, 1, static_cast<double>(n_q),
                                               "from 1 to n_q = " + std::to_string(n_q));
    if (tile.cols < 1 || static_cast<std::uint64_t>(tile.cols) > n_k)
        return rows::whole_number_out_of_range("tileCols", tile.cols, 1, static_cast<double>(n_k),
                                               "from 1 to n_k = " + std::to_string(n_k));
    return {};
}

Error check_tiled_shapes(const Shape& q, const Shape& k, const Shape& v, const Shape* mask, TileSize tile,
                         const AttentionOptions& options, Trace trace) {
    if (Error e = check_attention_shapes(q, k, v, options.temperature, mask)) return e;
    if (Error e = check_tile_size(tile, q.rows, k.rows)) return e;
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
