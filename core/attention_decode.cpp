// attention_decode.cpp — causal attention as a language model generates text: one token at a time,
// each new query against a cache of the keys and values of the tokens so far.
//
// Token t brings q_t, k_t and v_t. k_t and v_t are appended to the cache (which then holds
// min(t + 1, n_k) rows: 2·len·d·4 bytes per head), and q_t attends to the whole cache:
//
//   output_t = Σ_{j ≤ t} softmax_j(q_t·k_j / divisor) · v_j           (1, d_v)
//
// which is row t of causal attention: the mask hides keys j > t, and those are exactly the tokens
// not generated yet. Each step costs O(t·d) instead of the O(t²·d) of recomputing the whole causal
// attention for the sequence so far. The row is computed by rows::attend_row, whose sums run in the
// lanes the full causal row's would (efficiency_rows.hpp), so output equals attention_steps_simd's
// causal output bit for bit on the same build — or the reference's, for inputs that could
// overflow, which attention_steps_simd hands to the reference.
#include <algorithm>
#include <utility>

#include "checked_size.hpp"
#include "efficiency_paths.hpp"
#include "efficiency_rows.hpp"
#include "overflow_guard.hpp"
#include "reference.hpp"

namespace attn {

Error check_decode_shapes(const Shape& q, const Shape& k, const Shape& v) {
    if (Error e = check_attention_shapes(q, k, v, 1.0f, nullptr)) return e;
    // The output and the steps' rows (n_q·d_v each), the cache (n_k·(d + d_v)) and a row of scores.
    const std::uint64_t floats = size_sum(size_product(2, q.rows, v.cols),
                                          size_product(k.rows, size_sum(k.cols, v.cols)), size_product(2, k.rows));
    return check_memory("attention_decode", "output", q.rows, v.cols, float_bytes(floats));
}

Result<DecodedAttention> attention_decode(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale) {
    using Out = Result<DecodedAttention>;
    if (Error e = check_decode_shapes(shape_of(q), shape_of(k), shape_of(v))) return Out::failure(e);
    AttentionOptions options;
    options.scale = scale;
    if (Error e = check_attention(q, k, v, options)) return Out::failure(e);

    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const float divisor = reference::score_divisor(scale, d, 1.0f);
    const auto arithmetic = could_overflow(q, k, v, divisor) ? rows::Arithmetic::Reference : rows::Arithmetic::Simd;
    DecodedAttention result;
    result.output = Matrix(n_q, d_v);
    result.steps.reserve(n_q);
    // The cache: the K and V rows of the tokens so far, one appended per step.
    std::vector<float> k_cache, v_cache;
    k_cache.reserve(n_k * d);
    v_cache.reserve(n_k * d_v);
    rows::RowScratch scratch;
    for (std::size_t t = 0; t < n_q; ++t) {
        if (t < n_k) {  // token t's key and value join the cache (past n_k there are no more keys)
            k_cache.insert(k_cache.end(), k.row(t), k.row(t) + d);
            v_cache.insert(v_cache.end(), v.row(t), v.row(t) + d_v);
        }
        const std::size_t cached = k_cache.size() / d;
        DecodeStep step{cached, Matrix(1, d_v)};
        rows::attend_row(
            q.row(t), d, [&](std::size_t j) { return k_cache.data() + j * d; },
            [&](std::size_t j) { return v_cache.data() + j * d_v; }, d_v, 0, cached, n_k, divisor, arithmetic, scratch,
            step.row.data.data());
        std::copy(step.row.data.begin(), step.row.data.end(), result.output.row(t));
        result.steps.push_back(std::move(step));
    }
    return Out::success(std::move(result));
}

}  // namespace attn
