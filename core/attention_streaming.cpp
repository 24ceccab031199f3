// attention_streaming.cpp — softmax(QKᵀ/√d_k)·V with O(n·d) memory: the online softmax.
//
// What it is: the fast path's microkernels (fast_kernels.hpp) run over tiles of BK ≈ 512 keys,
// and each query row carries a running max m, a running sum l and an unnormalised output o
// instead of a whole row of scores (FlashAttention's "online softmax"). For each key tile:
//     S_t  = q · K_tᵀ                          scores of the tile, masked
//     m'   = max(m, max_j S_t,j)               the new running max
//     α    = exp((m − m')/divisor)             how much the old terms shrink under the new max
//     P_t  = exp((S_t − m')/divisor)
//     l    = α·l + Σ_j P_t,j,   o = α·o + P_t·V_t
// and at the end out = o / l (0 for a fully masked row). The result equals the two-pass softmax:
// every term ends up scaled by exp((s − m_final)/divisor) exactly once.
// Query rows go in blocks of G = 16 groups of MR rows (128 rows on SIMD128) that walk the key
// tiles together, so each K and V tile is read from memory once per block and then from cache.
//
// Working memory: the packed K and V (n_k·d and n_k·d_v floats, packing.hpp) plus one tile of
// scores and the running outputs of one block of query groups — never an n_q×n_k matrix, so
// n = 16384 at d = 64 needs a few MiB beyond the inputs. Measured, the rescaling costs less than the cache
// misses the tiling saves: attn::attention itself uses this kernel above 64 keys. The same
// fallbacks to the reference as the fast path apply (NaN, huge magnitudes, teaching switches).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "attention.hpp"
#include "fast_kernels.hpp"
#include "fast_path.hpp"
#include "packing.hpp"
#include "reference.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

namespace attn {

namespace {

// keys per tile: a K tile and a V tile are 128 KiB each at d = 64, in L2 beside each other; the
// tile's scores (16 KiB) stay in L1. 512 measured 1% faster than 256 at n = 1024 and 2048 (in-wasm,
// interleaved), level at n = 256. Rounded up to whole key panels: 516 with the relaxed-SIMD
// build's 6-key panels (n = 1024: tiles of 516 and 508 keys).
constexpr std::size_t kBK = (512 + fast::kNK - 1) / fast::kNK * fast::kNK;
constexpr std::size_t kG = 16;  // query groups per block (128 rows on SIMD128) sharing each tile
static_assert(kBK % fast::kNK == 0, "a tile is whole key panels");

}  // namespace

namespace fast {
namespace {

// The online softmax's running state for one group of MR query rows (one lane per row), carried
// from key tile to key tile: FlashAttention's o, m and l. It lives in Workspace::acc, (d_v + 2)·MR
// floats per group.
struct RunningRows {
    float* o;  // (d_v, MR)  Σ_j exp((s_j − m)/divisor)·v_j over the keys so far: the output before ÷ l
    float* m;  // (MR)       the largest score so far (−∞ before the first visible key)
    float* l;  // (MR)       Σ_j exp((s_j − m)/divisor) over the keys so far
};

RunningRows running_rows(Workspace& ws, std::size_t group, std::size_t d_v) {
    float* const o = ws.acc.data() + group * (d_v + 2) * kMR;
    return {o, o + d_v * kMR, o + (d_v + 1) * kMR};
}

// Query groups of MR rows that walk the key tiles together: up to G, fewer for a short Q.
std::size_t block_groups(std::size_t n_q) { return std::min<std::size_t>(kG, (n_q + kMR - 1) / kMR); }

// pv_block and exp2_sum, called through pointers the optimisers cannot follow. This file is their
// only caller, and Binaryen (run by em++ after LLVM) inlines a function with one caller whatever
// LLVM's noinline says. Inlined into streaming_attention, V8 kept the A·V loop's accumulators on
// the stack (n = 1024: 8.3 ms in wasm instead of 6.8) and reloaded the exp loop's constants from
// it on every step (fast_kernels.hpp: why the kernels are outlined). One indirect call per group
// and key tile costs nothing measurable.
void (*volatile const pv_block_outlined)(const float*, const float*, std::size_t, std::size_t, std::size_t, float*,
                                         const float*) = pv_block;
void (*volatile const exp2_sum_outlined)(float*, std::size_t, const float*, float*, bool) = exp2_sum;

}  // namespace

std::uint64_t streaming_working_floats(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t d_v) {
    // Workspace: k_packed (whole key panels), v_packed (whole column panels), q_packed and acc
    // (one block of groups), scores (a tile).
    const std::uint64_t key_panels = (std::uint64_t{n_k} + kNK - 1) / kNK;
    const std::uint64_t value_panels = (std::uint64_t{d_v} + kNC - 1) / kNC;
    return size_sum(size_product(key_panels, kNK, d), size_product(value_panels, kNC, n_k),
                    size_product(block_groups(n_q), kMR, size_sum(d, d_v, 2)), kBK * kMR);
}

void streaming_attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options,
                         float divisor, Workspace& ws, Matrix& out) {
    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    pack_keys(k, kNK, ws.k_packed);
    pack_values<kNC>(v, ws.v_packed);
    ensure(ws.q_packed, block_groups(n_q) * d * kMR);
    ensure(ws.scores, kBK * kMR);
    ensure(ws.acc, block_groups(n_q) * (d_v + 2) * kMR);
    float* const s = ws.scores.data();  // (BK, MR) one tile of scores of one group, then its weights
    const float* const kp = ws.k_packed.data();
    const float* const vp = ws.v_packed.data();  // panel b at vp + b·n_k·NC
    const float inv_divisor = 1.0f / divisor;
    // log2(e)/divisor folded into the packed queries, so the scores come out in base-2 units and
    // the softmax's exp is 2^(S − m) with no multiply per score. Only for factors that can neither
    // overflow a query component nor push ordinary ones into denormals (d = 64: 0.18); otherwise
    // the scores stay unscaled and exp_sum multiplies.
    const float q_scale = inv_divisor * exp_constants::log2e;
    const bool fold = q_scale <= 1.0f && q_scale >= 0x1p-20f;
    const float minus_inf = -std::numeric_limits<float>::infinity();

    // A block of up to G groups of MR query rows walks the key tiles together, so that each K and
    // V tile is read from memory once per block and then from cache by every group (at n = 16384
    // K and V are 4 MiB each: walking them once per group of 8 rows made the call memory-bound).
    for (std::size_t b0 = 0; b0 < n_q; b0 += kG * kMR) {
        const std::size_t groups = (std::min(kG * kMR, n_q - b0) + kMR - 1) / kMR;
        // per group g: its packed queries (d, MR) and its running state
        auto qp = [&](std::size_t g) { return ws.q_packed.data() + g * d * kMR; };
        auto rows_of = [&](std::size_t g) { return std::min(kMR, n_q - (b0 + g * kMR)); };
        for (std::size_t g = 0; g < groups; ++g) {
            pack_query_group(q, b0 + g * kMR, rows_of(g), kMR, qp(g), fold ? q_scale : 1.0f);
            const RunningRows run = running_rows(ws, g, d_v);
            std::fill(run.o, run.o + d_v * kMR, 0.0f);
            std::fill(run.m, run.m + kMR, minus_inf);  // (in the queries' units: base 2 when folded)
            std::fill(run.l, run.l + kMR, 0.0f);
        }
        const std::size_t block_keys =
            visible_keys(options.mask, b0 + (groups - 1) * kMR + rows_of(groups - 1) - 1, n_k);

        for (std::size_t j0 = 0; j0 < block_keys; j0 += kBK) {
            for (std::size_t g = 0; g < groups; ++g) {
                const std::size_t i0 = b0 + g * kMR, rows = rows_of(g);
                const std::size_t n_eff = visible_keys(options.mask, i0 + rows - 1, n_k);
                if (j0 >= n_eff) continue;  // causal: this group sees none of the tile
                const RunningRows run = running_rows(ws, g, d_v);
                const std::size_t nb = std::min(kBK, n_eff - j0);
                // S_t (nb, MR) = Q_group · K_tᵀ, masked
                qk_panels(qp(g), kp + j0 * d, d, (nb + kNK - 1) / kNK, s);
                mask_group(s, kMR, i0, rows, j0, nb, options.mask);
                // m' = max(m, max_j S_t); α = exp((m − m')/divisor) (0 while m = −∞; 1 while both
                // are); P_t = exp((S_t − m')/divisor); l = α·l + Σ_j P_t
                alignas(64) float m_new[kMR], lowest[kMR], l_tile[kMR], alpha[kMR];
                std::copy(run.m, run.m + kMR, m_new);
                std::fill(lowest, lowest + kMR, std::numeric_limits<float>::infinity());
                col_max(s, nb, m_new, lowest);
                for (std::size_t r = 0; r < kMR; ++r)
                    alpha[r] = m_new[r] == minus_inf ? 1.0f
                               : fold                ? exp2_scalar(run.m[r] - m_new[r])
                                                     : exp_scalar((run.m[r] - m_new[r]) * inv_divisor);
                if (fold) {
                    // 2^(S − m') needs its clamp at −127 (fast_exp.hpp) only if some exponent of
                    // the tile is below it: the lowest score's is the lowest (−∞ for a masked
                    // key: clamp). With scores of ordinary size it never is, and the exp loop
                    // skips one of its ~20 operations (n = 1024: −0.1 ms in wasm).
                    bool clamp = false;
                    for (std::size_t r = 0; r < kMR; ++r) {
                        const float shift = m_new[r] == minus_inf ? 0.0f : m_new[r];
                        if (!(lowest[r] - shift >= exp_constants::exp2_floor)) clamp = true;
                    }
                    exp2_sum_outlined(s, nb, m_new, l_tile, clamp);
                } else
                    exp_sum(s, nb, m_new, inv_divisor, l_tile);
                for (std::size_t r = 0; r < kMR; ++r) {
                    run.l[r] = run.l[r] * alpha[r] + l_tile[r];
                    run.m[r] = m_new[r];
                }
                // o = α·o + P_tᵀ · V_t, four value columns at a time from the packed V
                pv_block_outlined(s, vp + j0 * kNC, n_k * kNC, nb, d_v, run.o, alpha);
            }
        }
        // out = o / l; a fully masked row has l = 0 and gets zeros
        for (std::size_t g = 0; g < groups; ++g) {
            const RunningRows run = running_rows(ws, g, d_v);
            alignas(64) float inv_l[kMR];
            for (std::size_t r = 0; r < kMR; ++r) inv_l[r] = run.l[r] > 0.0f ? 1.0f / run.l[r] : 0.0f;
            unpack_rows(run.o, kMR, rows_of(g), inv_l, out, b0 + g * kMR);
        }
    }
}

}  // namespace fast

Result<Matrix> attention_streaming(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
    if (Error e = check_attention(q, k, v, options)) return Result<Matrix>::failure(e);
    const std::size_t n_q = q.rows, d = q.cols, d_v = v.cols;
    const float divisor = reference::score_divisor(options.scale, d, options.temperature);
    if (!options.stable || options.axis != Axis::Row || fast::needs_reference(q, k, v, divisor)) {
        // The teaching switches and NaN/overflow inputs: the reference (which holds n_q×n_k
        // matrices, so check_memory in attention_steps may refuse very large shapes).
        return fast::reference_output(q, k, v, options);
    }
    const std::uint64_t working = working_bytes(Operation::AttentionStreaming, {n_q, k.rows, d, d_v});
    if (Error e = check_memory("attention_streaming", "output", n_q, d_v, working)) return Result<Matrix>::failure(e);
    Matrix out(n_q, d_v);
    fast::Workspace& ws = fast::thread_workspace();
    fast::streaming_attention(q, k, v, options, divisor, ws, out);
    ws.give_back_if_larger_than(fast::kWorkspaceKeepBytes);
    return Result<Matrix>::success(std::move(out));
}

}  // namespace attn
