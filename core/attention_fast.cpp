// attention_fast.cpp — softmax(QKᵀ/√d_k)·V, output only: the fast path behind attn::attention.
//
// What it is: a tiled two-pass kernel. K and V are packed once per call into panels
// (packing.hpp); then for each block of MB = 16 query rows
//   1. S_block = Q_block · Kᵀ            (MB, n_k)  register-blocked microkernel, 4 rows × NR keys
//   2. per row: mask, m = max, p = exp((s − m)/divisor) in place, l = Σ p   (exact softmax, two
//      passes over a row that stays in cache: MB·n_k floats = 128 KiB at n_k = 2048)
//   3. out_block = (P_block · V) / l     (MB, d_v)  the same microkernel shape over the keys
// so the full n_q×n_k matrix never exists: working memory is the packed K and V plus one block of
// scores. Under a causal mask, key panels that every row of the block masks are skipped.
//
// What it is not: it keeps no intermediates (attention_steps does), it has no teaching switches
// (stable == false and axis == Column go to the reference), and it does not track NaN or
// overflow (inputs with NaN or with magnitudes that could overflow go to the reference: see
// fast::needs_reference). It divides by l after A·V (one divide per output instead of one per
// weight) and uses fast::exp_batch (≈ 2 ulp), so it equals attention_steps(...).output within
// float32 rounding, not bit for bit; tests/core/test_fast_paths.cpp checks that across shapes,
// masks and scalings.
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

bool simd_enabled() { return ATTN_HAVE_SIMD != 0; }

namespace {

constexpr std::size_t kMB = 16;  // query rows per block (4 microkernel row groups)
static_assert(kMB % fast::kMR == 0, "a block is whole microkernel row groups");

Result<Matrix> reference_output(const Matrix& q, const Matrix& k, const Matrix& v,
                                const AttentionOptions& options) {
    auto steps = attention_steps(q, k, v, options);
    if (!steps.ok()) return Result<Matrix>::failure(steps.error);
    return Result<Matrix>::success(std::move(steps.value.output));
}

fast::Workspace& workspace() {
    static fast::Workspace ws;
    return ws;
}

}  // namespace

Result<Matrix> attention(const Matrix& q, const Matrix& k, const Matrix& v,
                         const AttentionOptions& options) {
    if (auto e = check_attention(q, k, v, options); !e.empty()) return Result<Matrix>::failure(e);
    // The teaching switches (naive softmax, column softmax) live only on the reference path.
    if (!options.stable || options.axis != Axis::Row) return reference_output(q, k, v, options);
    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const float divisor = reference::score_divisor(options.scale, d, options.temperature);
    if (fast::needs_reference(q, k, v, divisor)) return reference_output(q, k, v, options);

    using fast::kMR;
    using fast::kNR;
    const std::size_t key_panels = (n_k + kNR - 1) / kNR, value_panels = (d_v + kNR - 1) / kNR;
    const std::size_t lds = key_panels * kNR;  // stride of a row of the score block
    const std::uint64_t working = std::uint64_t{key_panels} * kNR * d + std::uint64_t{value_panels} * kNR * n_k +
                                  std::uint64_t{kMB} * lds + std::uint64_t{n_q} * d_v;
    if (auto e = check_memory("attention on " + shape_string(n_q, n_k) + " scores", float_bytes(working));
        !e.empty())
        return Result<Matrix>::failure(e);

    fast::Workspace& ws = workspace();
    fast::pack_keys(k, kNR, ws.k_packed);
    fast::pack_values(v, kNR, ws.v_packed);
    fast::ensure(ws.scores, kMB * lds);
    fast::ensure(ws.row_a, kMB);
    float* const s = ws.scores.data();
    float* const inv_l = ws.row_a.data();
    const float* const kp = ws.k_packed.data();
    const float* const vp = ws.v_packed.data();
    const float inv_divisor = 1.0f / divisor;
    Matrix out(n_q, d_v);

    for (std::size_t i0 = 0; i0 < n_q; i0 += kMB) {
        const std::size_t mb = std::min(kMB, n_q - i0);
        const std::size_t n_eff = fast::visible_keys(options.mask, i0 + mb - 1, n_k);
        const std::size_t panels = (n_eff + kNR - 1) / kNR;

        // 1. S_block (mb, n_eff) = Q_block · Kᵀ, one K panel at a time (it stays in L1 for the
        //    block's row groups).
        for (std::size_t p = 0; p < panels; ++p)
            for (std::size_t g = 0; g < mb; g += kMR)
                fast::qk_rows(std::min(kMR, mb - g), q.row(i0 + g), d, kp + p * d * kNR, d,
                              s + g * lds + p * kNR, lds);

        // 2. softmax numerators in place; 1/l per row (0 for a fully masked row → zero output).
        for (std::size_t r = 0; r < mb; ++r) {
            float* row = s + r * lds;
            fast::mask_row(row, i0 + r, 0, n_eff, options.mask);
            const float m = fast::row_max(row, n_eff);
            if (m == -std::numeric_limits<float>::infinity()) {
                std::fill(row, row + n_eff, 0.0f);
                inv_l[r] = 0.0f;
                continue;
            }
            inv_l[r] = 1.0f / fast::exp_shift_sum(row, n_eff, m, inv_divisor);
        }

        // 3. out_block = P_block · V / l, one V panel (NR output columns) at a time.
        for (std::size_t p = 0; p < value_panels; ++p) {
            const std::size_t cols = std::min(kNR, d_v - p * kNR);
            for (std::size_t g = 0; g < mb; g += kMR)
                fast::pv_rows(std::min(kMR, mb - g), s + g * lds, lds, vp + p * n_k * kNR, n_eff,
                              out.row(i0 + g) + p * kNR, d_v, nullptr, inv_l + g, cols);
        }
    }
    return Result<Matrix>::success(std::move(out));
}

}  // namespace attn
