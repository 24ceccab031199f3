// backward_attention.cpp — the checks of a backward call, the backward steps in order on either
// path (backward_path.hpp) and the reference path. See backward_attention.hpp.
#include "backward_attention.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "backward.hpp"
#include "backward_path.hpp"
#include "reference.hpp"
#include "working_memory.hpp"

namespace attn {
namespace {

std::string position(const char* name, std::size_t i, std::size_t j) {
    return std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

constexpr const char* kGradOutput = "gradOutput";  // the argument's name, as JS spells it

Error check_memory_of(const Shape& q, const Shape& k, const Shape& v, Axis axis) {
    return check_memory("attention_backward", "scores", q.rows, k.rows, backward_working_bytes(q, k, v, axis));
}

}  // namespace

std::uint64_t backward_working_bytes(const Shape& q, const Shape& k, const Shape& v, Axis axis) {
    const std::uint64_t forward = working_bytes(Operation::AttentionSteps, {q.rows, k.rows, q.cols, v.cols}, axis);
    return size_sum(forward, backward_own_bytes(q, k, v, axis));
}

std::uint64_t backward_own_bytes(const Shape& q, const Shape& k, const Shape& v, Axis axis) {
    const std::uint64_t scores = size_product(q.rows, k.rows, axis == Axis::Column ? 6 : 3);
    const std::uint64_t grads =
        size_sum(size_product(q.rows, q.cols), size_product(k.rows, k.cols), size_product(v.rows, v.cols));
    const std::uint64_t v_transposed = size_product(v.cols, v.rows);  // the SIMD path's Vᵀ, for dA = dO·Vᵀ
    return float_bytes(size_sum(scores, grads, v_transposed));
}

Error check_backward_shapes(const Shape& q, const Shape& k, const Shape& v, float temperature, const Shape* mask,
                            const Shape& d_output) {
    if (Error e = check_attention_shapes(q, k, v, temperature, mask)) return e;
    if (Error e = check_shape(kGradOutput, d_output)) return e;
    if (d_output.rows != q.rows || d_output.cols != v.cols)
        return Error{ErrorCode::GradientShape,
                     kGradOutput,
                     std::nullopt,
                     {{"rows", static_cast<double>(d_output.rows)},
                      {"cols", static_cast<double>(d_output.cols)},
                      {"needRows", static_cast<double>(q.rows)},
                      {"needCols", static_cast<double>(v.cols)}},
                     std::string(kGradOutput) + " is " + shape_string(d_output.rows, d_output.cols) +
                         " but the output A·V is " + shape_string(q.rows, v.cols) + " (n_q×d_v)"};
    return {};
}

Error check_gradient_finite(const Matrix& d_output) {
    for (std::size_t t = 0; t < d_output.size(); ++t)
        if (!std::isfinite(d_output.data[t])) {
            const std::size_t i = t / d_output.cols, j = t % d_output.cols;
            const float x = d_output.data[t];
            const std::string what = std::isnan(x) ? "NaN" : x > 0 ? "+Infinity" : "-Infinity";
            return Error{ErrorCode::GradientNotFinite,
                         kGradOutput,
                         Cell{i, j},
                         {{"value", static_cast<double>(x)}},
                         position(kGradOutput, i, j) + " is " + what + "; a gradient must be a finite number"};
        }
    return {};
}

Error check_backward(const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& d_output,
                     const AttentionOptions& options) {
    const bool custom = options.mask.kind == MaskKind::Custom;
    const Shape mask = shape_of(options.mask.keep);
    if (Error e = check_backward_shapes(shape_of(q), shape_of(k), shape_of(v), options.temperature,
                                        custom ? &mask : nullptr, shape_of(d_output)))
        return e;
    if (Error e = check_attention(q, k, v, options)) return e;
    if (Error e = check_gradient_finite(d_output)) return e;
    return check_memory_of(shape_of(q), shape_of(k), shape_of(v), options.axis);
}

namespace backward {

AttentionGrads steps(const AttentionSteps& forward, const Matrix& q, const Matrix& k, const Matrix& v,
                     const Matrix& d_output, const AttentionOptions& options, const Path& path) {
    using reference::transpose;
    AttentionGrads g;
    // Section 6 backward: the output was A·V.
    g.d_v = path.d_values(forward.weights, forward.kept, d_output);
    g.d_weights = path.d_weights(d_output, v);
    // Section 5 backward: the softmax, along rows, or down columns on the transposes.
    Matrix dz =
        options.axis == Axis::Row
            ? path.d_softmax(forward.weights, forward.kept, g.d_weights)
            : transpose(path.d_softmax(transpose(forward.weights), transpose(forward.kept), transpose(g.d_weights)));
    // Masking and section 4 backward: no gradient where masked, then the scaling's divisor.
    g.d_scaled = reference::d_apply_mask(std::move(dz), forward.kept);
    g.d_scores = path.d_scale_scores(g.d_scaled, reference::score_divisor(options.scale, q.cols, options.temperature));
    // Section 3 backward: S = Q·Kᵀ.
    g.d_q = path.d_queries(g.d_scores, forward.kept, k);
    g.d_k = path.d_keys(g.d_scores, forward.kept, q);
    return g;
}

Result<AttentionBackward> run(const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& d_output,
                              const AttentionOptions& options, const Path& path) {
    if (Error e = check_backward(q, k, v, d_output, options)) return Result<AttentionBackward>::failure(e);
    auto forward = path.forward(q, k, v, options);
    if (!forward.ok()) return Result<AttentionBackward>::failure(forward.error);
    AttentionBackward out;
    out.grads = steps(forward.value, q, k, v, d_output, options, path);
    out.forward = std::move(forward.value);
    return Result<AttentionBackward>::success(std::move(out));
}

}  // namespace backward

namespace {

// The reference path: attention_steps and backward.hpp's steps.
const backward::Path kReferencePath{attention_steps,      reference::d_values,       reference::d_weights,
                                    reference::d_softmax, reference::d_scale_scores, reference::d_queries,
                                    reference::d_keys};

}  // namespace

AttentionGrads backward_steps(const AttentionSteps& forward, const Matrix& q, const Matrix& k, const Matrix& v,
                              const Matrix& d_output, const AttentionOptions& options) {
    return backward::steps(forward, q, k, v, d_output, options, kReferencePath);
}

Result<AttentionBackward> attention_backward(const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& d_output,
                                             const AttentionOptions& options) {
    return backward::run(q, k, v, d_output, options, kReferencePath);
}

}  // namespace attn
