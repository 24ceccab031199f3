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
#include <string>

#include "checked_size.hpp"
#include "efficiency_paths.hpp"
#include "efficiency_rows.hpp"
#include "overflow_guard.hpp"
#include "reference.hpp"

namespace attn {

namespace {
constexpr double kMaxWindow = 9007199254740991.0;  // 2⁵³ − 1: any whole number JS can pass exactly
}

Error check_window_shapes(const Shape& q, const Shape& k, const Shape& v, std::int64_t window) {
    if (Error e = check_attention_shapes(q, k, v, 1.0f, nullptr)) return e;
    if (window < 1 || static_cast<double>(window) > kMaxWindow)
        return rows::whole_number_out_of_range("window", window, 1, kMaxWindow, "of at least 1");
    // The output and one row's scores (at most w + 2 batches of lanes; n_k bounds it).
    const std::uint64_t floats = size_sum(size_product(q.rows, v.cols), k.rows);
    return check_memory("attention_window", "output", q.rows, v.cols, float_bytes(floats));
}

Result<Matrix> attention_window(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t window, Scale scale) {
    if (Error e = check_window_shapes(shape_of(q), shape_of(k), shape_of(v), window)) return Result<Matrix>::failure(e);
    AttentionOptions options;
    options.scale = scale;
    if (Error e = check_attention(q, k, v, options)) return Result<Matrix>::failure(e);

    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const auto w = static_cast<std::uint64_t>(window);
    const float divisor = reference::score_divisor(scale, d, 1.0f);
    const auto arithmetic = could_overflow(q, k, v, divisor) ? rows::Arithmetic::Reference : rows::Arithmetic::Simd;
    Matrix out(n_q, d_v);
    rows::RowScratch scratch;
    for (std::size_t i = 0; i < n_q; ++i) {
        // keys j with i − w < j ≤ i (and j < n_k)
        const std::size_t first = i + 1 > w ? static_cast<std::size_t>(i + 1 - w) : 0;
        const std::size_t end = std::min(i + 1, n_k);
        rows::attend_row(
            q.row(i), d, [&](std::size_t j) { return k.row(j); }, [&](std::size_t j) { return v.row(j); }, d_v, first,
            std::max(first, end), n_k, divisor, arithmetic, scratch, out.row(i));
    }
    return Result<Matrix>::success(std::move(out));
}

}  // namespace attn
