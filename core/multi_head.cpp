// multi_head.cpp — multi-head attention step by step (multi_head.hpp), and its reference path.
//
// The steps around the heads are the same on both paths; only the product X·W and the single
// head differ (multi_head_path.hpp), so the SIMD path (multi_head_simd.cpp) is this file's run()
// with SIMD loops, and at h = 1 each path's one head is that path's single head, bit for bit.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "multi_head.hpp"
#include "multi_head_path.hpp"
#include "reference.hpp"

namespace attn {
namespace multi_head {

// Splitting into heads: head i's block of m, columns i·width … (i+1)·width − 1.
//   m: (n, h·width) → (n, width),  block_rc = m_r,(i·width + c)
// Backward of the concatenation too (multi_head_backward.cpp): head i's d(head_i) is block i of
// d(concat), since concatenating only moves numbers.
Matrix column_block(const Matrix& m, std::size_t i, std::size_t width) {
    Matrix block(m.rows, width);
    for (std::size_t r = 0; r < m.rows; ++r)
        for (std::size_t c = 0; c < width; ++c) block(r, c) = m(r, i * width + c);
    return block;
}

// Blocks side by side: [b_1 | … | b_h], block i in columns i·width … (i+1)·width − 1.
//   h blocks (n, width) → (n, h·width),  out_r,(i·width + c) = b_i,rc
// The concatenation of the heads' outputs, and the backward of splitting into heads
// (dQ = [dQ_1 | … | dQ_h], likewise dK and dV).
Matrix join_blocks(const std::vector<const Matrix*>& blocks) {
    const std::size_t n = blocks.front()->rows, width = blocks.front()->cols;
    Matrix out(n, blocks.size() * width);
    for (std::size_t i = 0; i < blocks.size(); ++i)
        for (std::size_t r = 0; r < n; ++r)
            for (std::size_t c = 0; c < width; ++c) out(r, i * width + c) = (*blocks[i])(r, c);
    return out;
}

namespace {

// Concatenation: [head_1 | … | head_h], head i's output in columns i·d_v … (i+1)·d_v − 1.
//   h outputs (n, d_v) → (n, h·d_v),  concat_r,(i·d_v + c) = head_i,rc
Matrix concat_heads(const std::vector<HeadSteps>& heads) {
    std::vector<const Matrix*> outputs;
    outputs.reserve(heads.size());  // h pointers, as multi_head_working_bytes counts them
    for (const HeadSteps& head : heads) outputs.push_back(&head.steps.output);
    return join_blocks(outputs);
}

std::size_t count_non_finite(const Matrix& m) {
    std::size_t n = 0;
    for (const float x : m.data) n += !std::isfinite(x);
    return n;
}

// Q, K or V with a ±∞ (X·W overflowed float32): refused, naming the product and its cell, as the
// single head refuses an infinite q. A NaN (∞ − ∞ in the product, or a NaN in X) is computed on.
Error check_overflow(const char* name, const char* product, const Matrix& m) {
    for (std::size_t t = 0; t < m.size(); ++t)
        if (std::isinf(m.data[t])) {
            const std::size_t i = t / m.cols, j = t % m.cols;
            Error e;
            e.code = ErrorCode::ProjectionOverflow;
            e.argument = name;
            e.cell = Cell{i, j};
            e.params = {{"value", static_cast<double>(m.data[t])}};
            e.message = std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + product +
                        " is " + (m.data[t] > 0 ? "+" : "-") +
                        "Infinity: float32 overflowed; use smaller values in x or the projection";
            return e;
        }
    return {};
}

}  // namespace

Result<MultiHeadSteps> run(const MultiHeadInputs& in, std::size_t heads, const AttentionOptions& options,
                           const Path& path) {
    using Steps = Result<MultiHeadSteps>;
    if (Error e = check_multi_head(in, static_cast<std::int64_t>(heads), options)) return Steps::failure(e);
    const MultiHeadShape shape =
        multi_head_shape(shape_of(in.x), shape_of(in.w_q), shape_of(in.w_v), shape_of(in.w_o), heads);

    MultiHeadSteps st;
    // The projections: Q = X·W_Q (n, h·d_k), K = X·W_K (n, h·d_k), V = X·W_V (n, h·d_v).
    st.q = path.project(in.x, in.w_q);
    st.k = path.project(in.x, in.w_k);
    st.v = path.project(in.x, in.w_v);
    if (Error e = check_overflow("q", "(x·wq)", st.q)) return Steps::failure(e);
    if (Error e = check_overflow("k", "(x·wk)", st.k)) return Steps::failure(e);
    if (Error e = check_overflow("v", "(x·wv)", st.v)) return Steps::failure(e);

    // The heads: head_i = softmax(Q_i K_iᵀ / √d_k) V_i on column block i, every intermediate kept.
    const std::size_t d_k = static_cast<std::size_t>(shape.d_k), d_v = static_cast<std::size_t>(shape.d_v);
    st.heads.reserve(heads);
    for (std::size_t i = 0; i < heads; ++i) {
        HeadSteps head{column_block(st.q, i, d_k), column_block(st.k, i, d_k), column_block(st.v, i, d_v), {}};
        auto steps = path.head(head.q, head.k, head.v, options);
        if (!steps.ok()) return Steps::failure(steps.error);  // checked above already; never dropped
        head.steps = std::move(steps.value);
        st.heads.push_back(std::move(head));
    }

    // concat = [head_1 | … | head_h] (n, h·d_v), then output = concat·W_O (n, d_out).
    st.concat = concat_heads(st.heads);
    st.output = path.project(st.concat, in.w_o);
    st.multiply_adds = multiply_adds(shape);
    st.non_finite = {count_non_finite(st.q), count_non_finite(st.k), count_non_finite(st.v),
                     count_non_finite(st.concat), count_non_finite(st.output)};
    return Steps::success(std::move(st));
}

}  // namespace multi_head

Result<MultiHeadSteps> multi_head_attention_steps(const MultiHeadInputs& in, std::size_t heads,
                                                  const AttentionOptions& options) {
    return multi_head::run(in, heads, options, {reference::project, attention_steps});
}

}  // namespace attn
