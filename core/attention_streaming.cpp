// attention_streaming.cpp — softmax(QKᵀ/√d_k)·V with O(n·d) memory: the online softmax.
//
// What it is: the fast path's microkernels (fast_kernels.hpp) run over tiles of BK = 256 keys,
// and each query row carries a running max m, a running sum l and an unnormalised output o
// instead of a whole row of scores (FlashAttention's "online softmax"). For each key tile:
//     S_t  = q · K_tᵀ                          scores of the tile, masked
//     m'   = max(m, max_j S_t,j)               the new running max
//     α    = exp((m − m')/divisor)             how much the old terms shrink under the new max
//     P_t  = exp((S_t − m')/divisor)
//     l    = α·l + Σ_j P_t,j,   o = α·o + P_t·V_t
// and at the end out = o / l (0 for a fully masked row). The result equals the two-pass softmax:
// every term ends up scaled by exp((s − m_final)/divisor) exactly once.
//
// Working memory: the packed K and V (2·n_k·d floats, as the fast path) plus one tile of scores
// and one block of running outputs — never an n_q×n_k matrix, so n = 16384 at d = 64 needs a few
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

constexpr std::size_t kMB = 16;   // query rows per block
constexpr std::size_t kBK = 256;  // keys per tile
static_assert(kBK % fast::kNR == 0, "a tile is whole key panels");

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
    using fast::kNR;
    const std::size_t key_panels = (n_k + kNR - 1) / kNR, value_panels = (d_v + kNR - 1) / kNR;
    const std::size_t ldo = value_panels * kNR;  // stride of a running output row
    const std::uint64_t working = std::uint64_t{key_panels} * kNR * d + std::uint64_t{value_panels} * kNR * n_k +
                                  std::uint64_t{kMB} * (kBK + ldo) + std::uint64_t{n_q} * d_v;
    if (auto e = check_memory("attention_streaming on " + shape_string(n_q, d_v) + " output", float_bytes(working));
        !e.empty())
        return Result<Matrix>::failure(e);

    fast::Workspace& ws = workspace();
    fast::pack_keys(k, kNR, ws.k_packed);
    fast::pack_values(v, kNR, ws.v_packed);
    fast::ensure(ws.scores, kMB * kBK);
    fast::ensure(ws.acc, kMB * ldo);
    fast::ensure(ws.row_a, kMB);
    fast::ensure(ws.row_b, kMB);
    fast::ensure(ws.row_c, kMB);
    float* const s = ws.scores.data();   // (MB, BK) one tile of scores, then of P
    float* const o = ws.acc.data();      // (MB, ldo) running unnormalised outputs
    float* const m = ws.row_a.data();    // running max per row (of unscaled scores)
    float* const l = ws.row_b.data();    // running Σ exp per row
    float* const alpha = ws.row_c.data();  // per-tile rescale factor exp((m_old − m_new)/divisor)
    const float* const kp = ws.k_packed.data();
    const float* const vp = ws.v_packed.data();
    const float inv_divisor = 1.0f / divisor;
    const float minus_inf = -std::numeric_limits<float>::infinity();
    const float ones[kMR] = {1.0f, 1.0f, 1.0f, 1.0f};
    Matrix out(n_q, d_v);

    for (std::size_t i0 = 0; i0 < n_q; i0 += kMB) {
        const std::size_t mb = std::min(kMB, n_q - i0);
        const std::size_t n_eff = fast::visible_keys(options.mask, i0 + mb - 1, n_k);
        std::fill(m, m + mb, minus_inf);
        std::fill(l, l + mb, 0.0f);
        std::fill(o, o + mb * ldo, 0.0f);

        for (std::size_t j0 = 0; j0 < n_eff; j0 += kBK) {
            const std::size_t nb = std::min(kBK, n_eff - j0);
            const std::size_t panels = (nb + kNR - 1) / kNR;
            // S_t (mb, nb) = Q_block · K_tᵀ
            for (std::size_t p = 0; p < panels; ++p)
                for (std::size_t g = 0; g < mb; g += kMR)
                    fast::qk_rows(std::min(kMR, mb - g), q.row(i0 + g), d, kp + (j0 / kNR + p) * d * kNR, d,
                                  s + g * kBK + p * kNR, kBK);
            // the online softmax update of each row
            for (std::size_t r = 0; r < mb; ++r) {
                float* row = s + r * kBK;
                fast::mask_row(row, i0 + r, j0, nb, options.mask);
                const float m_new = std::max(m[r], fast::row_max(row, nb));
                if (m_new == minus_inf) {  // every key so far masked: nothing to add, o stays 0
                    std::fill(row, row + nb, 0.0f);
                    alpha[r] = 1.0f;
                    continue;
                }
                alpha[r] = fast::exp_scalar((m[r] - m_new) * inv_divisor);  // m = −∞ → 0
                l[r] = l[r] * alpha[r] + fast::exp_shift_sum(row, nb, m_new, inv_divisor);
                m[r] = m_new;
            }
            // o = α·o + P_t · V_t
            for (std::size_t p = 0; p < value_panels; ++p)
                for (std::size_t g = 0; g < mb; g += kMR)
                    fast::pv_rows(std::min(kMR, mb - g), s + g * kBK, kBK, vp + p * n_k * kNR + j0 * kNR, nb,
                                  o + g * ldo + p * kNR, ldo, alpha + g, ones, kNR);
        }
        // out = o / l; a fully masked row has l = 0 and gets zeros
        for (std::size_t r = 0; r < mb; ++r) {
            const float inv_l = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
            float* dst = out.row(i0 + r);
            for (std::size_t c = 0; c < d_v; ++c) dst[c] = o[r * ldo + c] * inv_l;
        }
    }
    return Result<Matrix>::success(std::move(out));
}

}  // namespace attn
