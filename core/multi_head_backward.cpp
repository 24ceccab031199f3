// multi_head_backward.cpp — one training step through the whole multi-head layer
// (multi_head_backward.hpp): its checks, its steps in order on either path, and the two entry
// points. The steps are multi_head.cpp's read backwards; each product is one of backward.hpp's
// (or backward_simd.hpp's), and splitting and joining the heads' blocks are multi_head.cpp's.
#include "multi_head_backward.hpp"

#include <string>
#include <utility>

#include "backward.hpp"
#include "backward_simd.hpp"
#include "checked_size.hpp"
#include "multi_head_path.hpp"
#include "working_memory.hpp"

namespace attn {
namespace {

constexpr const char* kGradOutput = "gradOutput";  // the argument's name, as JS spells it

// One path's arithmetic: its forward steps, one head's backward steps, and the two products of a
// projection's backward (Xᵀ·dOut for the weights, dOut·Wᵀ for the input).
struct Path {
    Result<MultiHeadSteps> (*forward)(const MultiHeadInputs& in, std::size_t heads, const AttentionOptions& options);
    AttentionGrads (*head)(const AttentionSteps& forward, const Matrix& q, const Matrix& k, const Matrix& v,
                           const Matrix& d_output, const AttentionOptions& options);
    Matrix (*d_project_weights)(const Matrix& x, const Matrix& d_out);
    Matrix (*d_project_input)(const Matrix& d_out, const Matrix& w);
};

// Backward of X feeding three projections: X's gradient is the sum of what each sends back.
//   three (n, d_model) → (n, d_model),  dX = from_q + from_k + from_v, added in that order
Matrix sum_of(Matrix from_q, const Matrix& from_k, const Matrix& from_v) {
    for (std::size_t t = 0; t < from_q.size(); ++t) from_q.data[t] = from_q.data[t] + from_k.data[t] + from_v.data[t];
    return from_q;
}

// Every head's `field` of its gradients, in head order (for join_blocks).
std::vector<const Matrix*> each_head(const std::vector<AttentionGrads>& heads, Matrix AttentionGrads::*field) {
    std::vector<const Matrix*> out;
    out.reserve(heads.size());
    for (const AttentionGrads& g : heads) out.push_back(&(g.*field));
    return out;
}

MultiHeadGrads steps(const MultiHeadSteps& st, const MultiHeadInputs& in, const Matrix& d_output,
                     const AttentionOptions& options, const Path& path) {
    MultiHeadGrads g;
    // The output projection O = concat·W_O backward: dW_O = concatᵀ·dO, d(concat) = dO·W_Oᵀ.
    g.d_w_o = path.d_project_weights(st.concat, d_output);
    g.d_concat = path.d_project_input(d_output, in.w_o);
    // The concatenation backward: head i's gradient is its block of d(concat); then the article's
    // backward steps on that head, from its own forward steps.
    const std::size_t d_v = st.heads.front().v.cols;
    for (std::size_t i = 0; i < st.heads.size(); ++i) {
        g.d_heads.push_back(multi_head::column_block(g.d_concat, i, d_v));
        const HeadSteps& head = st.heads[i];
        g.heads.push_back(path.head(head.steps, head.q, head.k, head.v, g.d_heads.back(), options));
    }
    // The split into heads backward: the heads' blocks side by side.
    g.d_q = multi_head::join_blocks(each_head(g.heads, &AttentionGrads::d_q));
    g.d_k = multi_head::join_blocks(each_head(g.heads, &AttentionGrads::d_k));
    g.d_v = multi_head::join_blocks(each_head(g.heads, &AttentionGrads::d_v));
    // The projections Q = X·W_Q, K = X·W_K, V = X·W_V backward: dW = Xᵀ·dQ …, dX = dQ·W_Qᵀ + ….
    g.d_w_q = path.d_project_weights(in.x, g.d_q);
    g.d_w_k = path.d_project_weights(in.x, g.d_k);
    g.d_w_v = path.d_project_weights(in.x, g.d_v);
    g.d_x = sum_of(path.d_project_input(g.d_q, in.w_q), path.d_project_input(g.d_k, in.w_k),
                   path.d_project_input(g.d_v, in.w_v));
    return g;
}

Result<MultiHeadBackward> run(const MultiHeadInputs& in, std::size_t heads, const Matrix& d_output,
                              const AttentionOptions& options, const Path& path) {
    using Back = Result<MultiHeadBackward>;
    if (Error e = check_multi_head_backward(in, static_cast<std::int64_t>(heads), d_output, options))
        return Back::failure(e);
    auto forward = path.forward(in, heads, options);
    if (!forward.ok()) return Back::failure(forward.error);  // Q, K or V overflowed float32
    MultiHeadBackward out;
    out.grads = steps(forward.value, in, d_output, options, path);
    out.forward = std::move(forward.value);
    return Back::success(std::move(out));
}

const Path kReferencePath{multi_head_attention_steps, backward_steps, reference::d_project_weights,
                          reference::d_project_input};
const Path kSimdPath{multi_head_attention_steps_simd, backward_steps_simd, simd_backward::d_project_weights,
                     simd_backward::d_project_input};

}  // namespace

std::uint64_t multi_head_backward_working_bytes(const MultiHeadShape& s, Axis axis) {
    const std::size_t n = static_cast<std::size_t>(s.n);
    const Shape q_i{n, static_cast<std::size_t>(s.d_k), 0}, v_i{n, static_cast<std::size_t>(s.d_v), 0};
    const std::uint64_t per_head =
        size_sum(backward_own_bytes(q_i, q_i, v_i, axis), float_bytes(size_product(s.n, s.d_v)));
    const std::uint64_t widths = size_product(s.heads, size_sum(s.d_k, s.d_k, s.d_v));  // h·(d_k + d_k + d_v)
    const std::uint64_t floats = size_sum(size_product(2, s.heads, s.d_v, s.d_out),     // dW_O and W_Oᵀ
                                          size_product(s.n, s.heads, s.d_v),            // d(concat)
                                          size_product(s.n, widths),                    // dQ, dK, dV
                                          size_product(2, s.d_model, widths),           // the dW and the Wᵀ
                                          size_product(4, s.n, s.d_model));             // dX and its three terms
    return size_sum(multi_head_working_bytes(s, axis), size_product(s.heads, per_head), float_bytes(floats));
}

Error check_multi_head_backward_shapes(const Shape& x, const Shape& w_q, const Shape& w_k, const Shape& w_v,
                                       const Shape& w_o, std::int64_t heads, const AttentionOptions& options,
                                       const Shape* mask, const Shape& d_output) {
    if (Error e = check_multi_head_shapes(x, w_q, w_k, w_v, w_o, heads, options, mask)) return e;
    if (Error e = check_shape(kGradOutput, d_output)) return e;
    if (d_output.rows != x.rows || d_output.cols != w_o.cols)
        return Error{ErrorCode::GradientShape,
                     kGradOutput,
                     std::nullopt,
                     {{"rows", static_cast<double>(d_output.rows)},
                      {"cols", static_cast<double>(d_output.cols)},
                      {"needRows", static_cast<double>(x.rows)},
                      {"needCols", static_cast<double>(w_o.cols)}},
                     std::string(kGradOutput) + " is " + shape_string(d_output.rows, d_output.cols) +
                         " but the output concat·W_O is " + shape_string(x.rows, w_o.cols) + " (n×d_out)"};
    const MultiHeadShape s = multi_head_shape(x, w_q, w_v, w_o, static_cast<std::size_t>(heads));
    return check_memory("multi_head_attention_backward", "scores", x.rows, x.rows,
                        multi_head_backward_working_bytes(s, options.axis));
}

Error check_multi_head_backward(const MultiHeadInputs& in, std::int64_t heads, const Matrix& d_output,
                                const AttentionOptions& options) {
    const bool custom = options.mask.kind == MaskKind::Custom;
    const Shape mask = shape_of(options.mask.keep);
    if (Error e = check_multi_head_backward_shapes(shape_of(in.x), shape_of(in.w_q), shape_of(in.w_k), shape_of(in.w_v),
                                                   shape_of(in.w_o), heads, options, custom ? &mask : nullptr,
                                                   shape_of(d_output)))
        return e;
    if (Error e = check_multi_head(in, heads, options)) return e;
    return check_gradient_finite(d_output);
}

Result<MultiHeadBackward> multi_head_attention_backward(const MultiHeadInputs& in, std::size_t heads,
                                                        const Matrix& d_output, const AttentionOptions& options) {
    return run(in, heads, d_output, options, kReferencePath);
}

Result<MultiHeadBackward> multi_head_attention_backward_simd(const MultiHeadInputs& in, std::size_t heads,
                                                             const Matrix& d_output, const AttentionOptions& options) {
    return run(in, heads, d_output, options, kSimdPath);
}

}  // namespace attn
