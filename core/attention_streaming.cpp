// attention_streaming.cpp — softmax(QKᵀ/√d_k)·V with O(n·d) memory: the online softmax.
//
// What it is: the fast path's microkernels (fast_kernels.hpp) run over tiles of BK = 256 keys for
// each group of MR query rows, and each query row carries a running max m, a running sum l and an unnormalised output o
// instead of a whole row of scores (FlashAttention's "online softmax"). For each key tile:
//     S_t  = q · K_tᵀ                          scores of the tile, masked
//     m'   = max(m, max_j S_t,j)               the new running max
//     α    = exp((m − m')/divisor)             how much the old terms shrink under the new max
//     P_t  = exp((S_t − m')/divisor)
//     l    = α·l + Σ_j P_t,j,   o = α·o + P_t·V_t
// and at the end out = o / l (0 for a fully masked row). The result equals the two-pass softmax:
// every term ends up scaled by exp((s − m_final)/divisor) exactly once.
//
// Working memory: the packed K (n_k·d floats, as the fast path) plus one tile of scores and one
// group of running outputs — never an n_q×n_k matrix, so n = 16384 at d = 64 needs a few
// MiB beyond the inputs. It is slower than attn::attention when a block of scores fits in cache
// (the rescaling costs extra passes); its point is memory. The same fallbacks to the reference as
// the fast path apply (NaN, huge magnitudes, teaching switches).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "attention.hpp"
#include "fast_kernels.hpp"
#include "fast_path.hpp"
#include "packing.hpp"
#include "reference.hpp"
#include "validate.hpp"

namespace attn {

namespace {

constexpr std::size_t kBK = 256;  // keys per tile
static_assert(kBK % fast::kNK == 0, "a tile is whole key panels");

fast::Workspace& workspace() {
    static fast::Workspace ws;
    return ws;
}

}  // namespace

Result<Matrix> attention_streaming(const Matrix& q, const Matrix& k, const Matrix& v,
                                   const AttentionOptions& options) {
    if (auto e = check_attention(q, k, v, options); !e.empty()) return Result<Matrix>::failure(e);
    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const float divisor = reference::score_divisor(options.scale, d, options.temperature);
    if (!options.stable || options.axis != Axis::Row || fast::needs_reference(q, k, v, divisor)) {
        // The teaching switches and NaN/overflow inputs: the reference (which holds n_q×n_k
        // matrices, so check_memory in attention_steps may refuse very large shapes).
        auto steps = attention_steps(q, k, v, options);
        if (!steps.ok()) return Result<Matrix>::failure(steps.error);
        return Result<Matrix>::success(std::move(steps.value.output));
    }

    using fast::kMR;
    using fast::kNC;
    using fast::kNK;
    const std::size_t key_panels = (n_k + kNK - 1) / kNK;
    const std::uint64_t working = std::uint64_t{key_panels} * kNK * d + std::uint64_t{kMR} * (d + kBK + d_v) +
                                  std::uint64_t{n_q} * d_v;
    if (auto e = check_memory("attention_streaming on " + shape_string(n_q, d_v) + " output", float_bytes(working));
        !e.empty())
        return Result<Matrix>::failure(e);

    fast::Workspace& ws = workspace();
    fast::pack_keys(k, kNK, ws.k_packed);
    fast::ensure(ws.q_packed, d * kMR);
    fast::ensure(ws.scores, kBK * kMR);
    fast::ensure(ws.acc, d_v * kMR);
    float* const qp = ws.q_packed.data();  // (d, MR) the current query group
    float* const s = ws.scores.data();     // (BK, MR) one tile of scores, then of weights
    float* const o = ws.acc.data();        // (d_v, MR) running unnormalised outputs
    const float* const kp = ws.k_packed.data();
    const float inv_divisor = 1.0f / divisor;
    const float minus_inf = -std::numeric_limits<float>::infinity();
    Matrix out(n_q, d_v);

    for (std::size_t i0 = 0; i0 < n_q; i0 += kMR) {
        const std::size_t rows = std::min(kMR, n_q - i0);
        const std::size_t n_eff = fast::visible_keys(options.mask, i0 + rows - 1, n_k);
        fast::pack_query_group(q, i0, rows, kMR, qp);
        alignas(64) float m[kMR], l[kMR], m_new[kMR], l_tile[kMR], alpha[kMR];
        std::fill(m, m + kMR, minus_inf);   // running max per row (of unscaled scores)
        std::fill(l, l + kMR, 0.0f);        // running Σ exp per row
        std::fill(o, o + d_v * kMR, 0.0f);

        for (std::size_t j0 = 0; j0 < n_eff; j0 += kBK) {
            const std::size_t nb = std::min(kBK, n_eff - j0);
            // S_t (nb, MR) = Q_group · K_tᵀ, masked
            for (std::size_t p = 0; p * kNK < nb; ++p)
                fast::qk_panel(qp, kp + (j0 / kNK + p) * d * kNK, d, s + p * kNK * kMR);
            fast::mask_group(s, kMR, i0, rows, j0, nb, options.mask);
            // m' = max(m, max_j S_t); α = exp((m − m')/divisor) (0 while m = −∞; 1 while both are);
            // P_t = exp((S_t − m')/divisor); l = α·l + Σ_j P_t
            std::copy(m, m + kMR, m_new);
            fast::col_max(s, nb, m_new);
            for (std::size_t r = 0; r < kMR; ++r)
                alpha[r] = m_new[r] == minus_inf ? 1.0f : fast::exp_scalar((m[r] - m_new[r]) * inv_divisor);
            fast::exp_sum(s, nb, m_new, inv_divisor, l_tile);
            for (std::size_t r = 0; r < kMR; ++r) {
                l[r] = l[r] * alpha[r] + l_tile[r];
                m[r] = m_new[r];
            }
            // o = α·o + P_tᵀ · V_t, four value columns at a time
            for (std::size_t c0 = 0; c0 < d_v; c0 += kNC)
                fast::pv_cols(std::min(kNC, d_v - c0), s, v.row(j0) + c0, d_v, nb, o + c0 * kMR, alpha);
        }
        // out = o / l; a fully masked row has l = 0 and gets zeros
        for (std::size_t r = 0; r < rows; ++r) {
            const float inv_l = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
            float* dst = out.row(i0 + r);
            for (std::size_t c = 0; c < d_v; ++c) dst[c] = o[c * kMR + r] * inv_l;
        }
    }
    return Result<Matrix>::success(std::move(out));
}

}  // namespace attn
