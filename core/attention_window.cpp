// attention_window.cpp — sliding-window attention: query i sees key j iff i − w < j ≤ i, the w most
// recent keys including its own (Longformer's and Mistral's local attention).
//
//   output_i = Σ_{j = max(0, i−w+1)}^{i} softmax_j(q_i·k_j / divisor) · v_j         (1, d_v)
//
// Each row reads at most w keys, so the whole call costs O(n_q·w·d) time and O(w) scratch, never
// an n_q×n_k matrix: at fixed w the cost grows like n, not n². With n_q ≠ n_k the window is aligned
// at the top left, as the causal mask is; a row whose window holds no key (i ≥ n_k + w − 1) is
// fully masked and gets 0. The rows come from rows::attend_row, whose sums run in the lanes the
// full row's would (efficiency_rows.hpp): the output equals attention_steps_simd with the band as a
// custom mask, bit for bit on the same build (the reference's, for inputs that could overflow).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "checked_size.hpp"
#include "efficiency_paths.hpp"
#include "efficiency_rows.hpp"
#include "fast_kernels.hpp"
#include "fast_path.hpp"
#include "overflow_guard.hpp"
#include "packing.hpp"
#include "reference.hpp"

namespace attn {

namespace {

constexpr double kMaxWindow = 9007199254740991.0;  // 2⁵³ − 1: any whole number JS can pass exactly

// The window one row at a time (efficiency_rows.hpp), bit for bit the banded steps' rows.
void window_rows(const Matrix& q, const Matrix& k, const Matrix& v, std::uint64_t w, float divisor,
                 rows::Arithmetic arithmetic, Matrix& out) {
    const std::size_t n_k = k.rows, d = q.cols, d_v = v.cols;
    rows::RowScratch scratch;
    for (std::size_t i = 0; i < q.rows; ++i) {
        // keys j with i − w < j ≤ i (and j < n_k)
        const std::size_t first = i + 1 > w ? static_cast<std::size_t>(i + 1 - w) : 0;
        const std::size_t end = std::min(i + 1, n_k);
        rows::attend_row(
            q.row(i), d, [&](std::size_t j) { return k.row(j); }, [&](std::size_t j) { return v.row(j); }, d_v, first,
            std::max(first, end), n_k, divisor, arithmetic, scratch, out.row(i));
    }
}

// The window on the microkernels, MR query rows at a time (the header's second paragraph).
void window_groups(const Matrix& q, const Matrix& k, const Matrix& v, std::uint64_t w, float divisor, Matrix& out) {
    using fast::kMR;
    using fast::kNC;
    using fast::kNK;
    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const float minus_inf = -std::numeric_limits<float>::infinity(), inv_divisor = 1.0f / divisor;
    std::vector<float> kp, vp, qp(d * kMR), acc((d_v + kNC - 1) / kNC * kNC * kMR);
    fast::pack_keys(k, kNK, kp);
    fast::pack_values<kNC>(v, vp);
    // A group's keys: w + MR − 1, plus up to NK − 1 before them to start at a panel.
    const std::size_t span_max = static_cast<std::size_t>(std::min<std::uint64_t>(w + kMR + kNK, n_k + kNK));
    std::vector<float> s((span_max + kNK) * kMR);
    for (std::size_t i0 = 0; i0 < n_q; i0 += kMR) {
        const std::size_t rows = std::min(kMR, n_q - i0);
        // keys [first, end): from the first row's window start to the last row's own key
        const std::size_t first = i0 + 1 > w ? static_cast<std::size_t>(i0 + 1 - w) : 0;
        const std::size_t end = std::min(i0 + rows, n_k);
        if (first >= end) continue;  // past the last key's window: zero rows
        const std::size_t p0 = first / kNK * kNK, nb = end - p0;
        fast::pack_query_group(q, i0, rows, kMR, qp.data());
        // S (nb, MR) = Q_group · K_spanᵀ; keys outside a row's band i − w < j ≤ i → −∞
        fast::qk_panels(qp.data(), kp.data() + p0 * d, d, (nb + kNK - 1) / kNK, s.data());
        // (only the span's two ends: keys before row i's window start, and after i)
        for (std::size_t r = 0; r < rows; ++r) {
            const std::size_t i = i0 + r;
            const std::size_t start = i + 1 > w ? static_cast<std::size_t>(i + 1 - w) : 0;
            for (std::size_t j = p0; j < start; ++j) s[(j - p0) * kMR + r] = minus_inf;
            for (std::size_t j = i + 1; j < end; ++j) s[(j - p0) * kMR + r] = minus_inf;
        }
        // m = max, p = exp((s − m)/divisor), l = Σ p; out = Pᵀ·V / l (0 for a row that sees nothing)
        float m[kMR], l[kMR], inv_l[kMR];
        std::fill(m, m + kMR, minus_inf);
        fast::col_max(s.data(), nb, m);
        fast::exp_sum(s.data(), nb, m, inv_divisor, l);
        for (std::size_t r = 0; r < kMR; ++r) inv_l[r] = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
        fast::pv_block(s.data(), vp.data() + p0 * kNC, n_k * kNC, nb, d_v, acc.data(), nullptr);
        fast::unpack_rows(acc.data(), kMR, rows, inv_l, out, i0);
    }
}

}  // namespace

Error check_window_shapes(const Shape& q, const Shape& k, const Shape& v, std::int64_t window) {
    if (Error e = check_attention_shapes(q, k, v, 1.0f, nullptr)) return e;
    if (window < 1 || static_cast<double>(window) > kMaxWindow)
        return rows::whole_number_out_of_range("window", window, 1, kMaxWindow, "of at least 1");
    // The output; K and V packed for the microkernels (whole panels); one group's queries, scores
    // and output (at most n_k + NK keys of MR lanes); a row's scores on the other loop need less.
    using fast::kMR;
    using fast::kNC;
    using fast::kNK;
    const std::uint64_t floats =
        size_sum(size_product(q.rows, v.cols), size_product(size_sum(k.rows, kNK), k.cols),
                 size_product(size_sum(v.cols, kNC), k.rows),
                 size_product(kMR, size_sum(k.cols, size_sum(v.cols, kNC), size_product(2, size_sum(k.rows, kNK)))));
    return check_memory("attention_window", "output", q.rows, v.cols, float_bytes(floats));
}

Result<Matrix> attention_window(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t window, Scale scale) {
    if (Error e = check_window_shapes(shape_of(q), shape_of(k), shape_of(v), window)) return Result<Matrix>::failure(e);
    AttentionOptions options;
    options.scale = scale;
    if (Error e = check_attention(q, k, v, options)) return Result<Matrix>::failure(e);

    const auto w = static_cast<std::uint64_t>(window);
    const float divisor = reference::score_divisor(scale, q.cols, 1.0f);
    Matrix out(q.rows, v.cols);
    if (k.rows > fast::kStreamingAboveKeys && !fast::needs_reference(q, k, v, divisor))
        window_groups(q, k, v, w, divisor, out);
    else
        window_rows(q, k, v, w, divisor,
                    could_overflow(q, k, v, divisor) ? rows::Arithmetic::Reference : rows::Arithmetic::Simd, out);
    return Result<Matrix>::success(std::move(out));
}

}  // namespace attn
