// backward_simd.cpp — the backward steps through the SIMD loops, and attention_backward_simd.
// See backward_simd.hpp for which kernel each step runs, and backward.hpp for the formulas.
#include "backward_simd.hpp"

#include <utility>

#include "backward.hpp"
#include "backward_attention.hpp"
#include "backward_kernels.hpp"
#include "reference.hpp"
#include "simd_kernels.hpp"

namespace attn {
namespace simd_backward {

Matrix d_values(const Matrix& a, const Matrix& kept, const Matrix& d_output) {
    Matrix dv(a.cols, d_output.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t j = 0; j < a.cols; ++j)
            if (kept(i, j) != 0.0f) simd::backward_axpy(dv.row(j), a(i, j), d_output.row(i), d_output.cols);
    return dv;
}

Matrix d_weights(const Matrix& d_output, const Matrix& v) {
    Matrix da(d_output.rows, v.rows);
    for (std::size_t i = 0; i < d_output.rows; ++i)
        for (std::size_t j = 0; j < v.rows; ++j) da(i, j) = simd::backward_dot(d_output.row(i), v.row(j), v.cols);
    return da;
}

Matrix d_softmax(const Matrix& a, const Matrix& kept, const Matrix& d_weights) {
    Matrix dz(a.rows, a.cols);
    for (std::size_t i = 0; i < a.rows; ++i) {
        const float weighted = simd::weighted_sum(a.row(i), kept.row(i), d_weights.row(i), a.cols);
        simd::softmax_grad(dz.row(i), a.row(i), kept.row(i), d_weights.row(i), weighted, a.cols);
    }
    return dz;
}

Matrix d_scale_scores(const Matrix& d_scaled, float divisor) {
    Matrix ds = d_scaled;
    simd::divide(ds.data.data(), divisor, ds.size());
    return ds;
}

Matrix d_queries(const Matrix& d_scores, const Matrix& kept, const Matrix& k) {
    Matrix dq(d_scores.rows, k.cols);
    for (std::size_t i = 0; i < d_scores.rows; ++i)
        for (std::size_t j = 0; j < k.rows; ++j)
            if (kept(i, j) != 0.0f) simd::backward_axpy(dq.row(i), d_scores(i, j), k.row(j), k.cols);
    return dq;
}

Matrix d_keys(const Matrix& d_scores, const Matrix& kept, const Matrix& q) {
    Matrix dk(d_scores.cols, q.cols);
    for (std::size_t i = 0; i < d_scores.rows; ++i)
        for (std::size_t j = 0; j < d_scores.cols; ++j)
            if (kept(i, j) != 0.0f) simd::backward_axpy(dk.row(j), d_scores(i, j), q.row(i), q.cols);
    return dk;
}

Matrix d_project_weights(const Matrix& x, const Matrix& d_out) {
    Matrix dw(x.cols, d_out.cols);
    for (std::size_t i = 0; i < x.rows; ++i)
        for (std::size_t t = 0; t < x.cols; ++t) simd::backward_axpy(dw.row(t), x(i, t), d_out.row(i), d_out.cols);
    return dw;
}

Matrix d_project_input(const Matrix& d_out, const Matrix& w) {
    Matrix dx(d_out.rows, w.rows);
    for (std::size_t i = 0; i < d_out.rows; ++i)
        for (std::size_t t = 0; t < w.rows; ++t) dx(i, t) = simd::backward_dot(d_out.row(i), w.row(t), w.cols);
    return dx;
}

}  // namespace simd_backward

AttentionGrads backward_steps_simd(const AttentionSteps& forward, const Matrix& q, const Matrix& k, const Matrix& v,
                                   const Matrix& d_output, const AttentionOptions& options) {
    using namespace simd_backward;
    AttentionGrads g;
    g.d_v = d_values(forward.weights, forward.kept, d_output);
    g.d_weights = d_weights(d_output, v);
    Matrix dz =
        options.axis == Axis::Row
            ? d_softmax(forward.weights, forward.kept, g.d_weights)
            : reference::transpose(d_softmax(reference::transpose(forward.weights), reference::transpose(forward.kept),
                                             reference::transpose(g.d_weights)));
    g.d_scaled = reference::d_apply_mask(std::move(dz), forward.kept);  // the mask's rule lives there
    g.d_scores = d_scale_scores(g.d_scaled, reference::score_divisor(options.scale, q.cols, options.temperature));
    g.d_q = d_queries(g.d_scores, forward.kept, k);
    g.d_k = d_keys(g.d_scores, forward.kept, q);
    return g;
}

Result<AttentionBackward> attention_backward_simd(const Matrix& q, const Matrix& k, const Matrix& v,
                                                  const Matrix& d_output, const AttentionOptions& options) {
    if (Error e = check_backward(q, k, v, d_output, options)) return Result<AttentionBackward>::failure(e);
    auto forward = attention_steps_simd(q, k, v, options);
    if (!forward.ok()) return Result<AttentionBackward>::failure(forward.error);
    AttentionBackward out;
    out.grads = backward_steps_simd(forward.value, q, k, v, d_output, options);
    out.forward = std::move(forward.value);
    return Result<AttentionBackward>::success(std::move(out));
}

}  // namespace attn
