// train_head.cpp — one head's steps inside a training step, forward and then backward, written into
// the step's buffers (train_workspace.hpp). The same kernels in the same order as the checked steps
// the page calls, attention_steps_simd (attention_steps_simd.cpp) and backward_steps_simd
// (backward_simd.cpp, backward_path.hpp's order): the numbers are theirs bit for bit, in every
// build. Only what a trainer's heads use is here: row softmax, the stable form, temperature 1,
// no mask or the causal one.
#include <algorithm>
#include <cmath>
#include <limits>

#include "backward_kernels.hpp"
#include "overflow_guard.hpp"
#include "reference.hpp"
#include "simd_kernels.hpp"
#include "train_workspace.hpp"

namespace attn {
namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// What the checked step gives in place of a refusal (model.hpp): ±∞ in Q, K or V, weights that
// have diverged, make every number of the head NaN, and so the loss, which says so.
void refused_head(AttentionSteps& st) {
    std::fill(st.kept.data.begin(), st.kept.data.end(), 1.0f);
    std::fill(st.weights.data.begin(), st.weights.data.end(), std::numeric_limits<float>::quiet_NaN());
    std::fill(st.output.data.begin(), st.output.data.end(), std::numeric_limits<float>::quiet_NaN());
}

// Section 5 — one row's softmax, every intermediate kept, as attention_steps_simd's softmax_rows:
// a fully masked row (max −∞) has shifted −∞ and exps, sum and weights 0; a row whose max or sum
// breaks the arithmetic (NaN, +∞, a sum of 0) gets its masked cells back.
void softmax_row(AttentionSteps& st, std::size_t i) {
    const std::size_t m = st.scaled.cols;
    const float* x = st.scaled.row(i);
    const float max = simd::max(x, m);
    st.row_max(i, 0) = max;
    if (max == kMinusInfinity) {
        std::fill(st.shifted.row(i), st.shifted.row(i) + m, kMinusInfinity);
        std::fill(st.exps.row(i), st.exps.row(i) + m, 0.0f);
        std::fill(st.weights.row(i), st.weights.row(i) + m, 0.0f);
        st.row_sum(i, 0) = 0.0f;
        return;
    }
    simd::subtract(st.shifted.row(i), x, max, m);
    const float sum = simd::exp_sum(st.exps.row(i), st.shifted.row(i), m);
    st.row_sum(i, 0) = sum;
    std::copy(st.exps.row(i), st.exps.row(i) + m, st.weights.row(i));
    simd::divide(st.weights.row(i), sum, m);
    if (!(std::isfinite(max) && sum > 0.0f))
        for (std::size_t j = 0; j < m; ++j)
            if (x[j] == kMinusInfinity)
                st.shifted(i, j) = kMinusInfinity, st.exps(i, j) = 0.0f, st.weights(i, j) = 0.0f;
}

// aᵀ·b over the pairs `kept` keeps, into out: one simd::combine_rows per output row (dV = Aᵀ·dO,
// dK = dSᵀ·Q), as backward_simd.cpp's transposed_times.
void transposed_times(const Matrix& a, const Matrix& kept, const Matrix& b, Matrix& out) {
    for (std::size_t j = 0; j < a.cols; ++j)
        simd::combine_rows(out.row(j), a.data.data() + j, a.cols, kept.data.data() + j, kept.cols, b.data.data(),
                           b.cols, a.rows, b.cols);
}

}  // namespace

void head_forward(HeadWorkspace& w, const Matrix& kept, const AttentionOptions& options) {
    const Matrix &q = w.q, &k = w.k, &v = w.v;
    AttentionSteps& st = w.steps;
    const float divisor = reference::score_divisor(options.scale, q.cols, options.temperature);
    // The overflow guard's one pass over Q, K and V finds ±∞ too (as an infinite magnitude).
    const Magnitudes size = magnitudes(q, k, v);
    constexpr double infinity = std::numeric_limits<double>::infinity();
    if (size.q == infinity || size.k == infinity || size.v == infinity) return refused_head(st);
    if (could_overflow(size, q.cols, k.rows, divisor)) {  // as attention_steps_simd: the reference's steps
        st = std::move(attention_steps(q, k, v, options).value);
        return;
    }
    // Section 3 — S = Q·Kᵀ, one SIMD dot product per score.
    for (std::size_t i = 0; i < q.rows; ++i)
        for (std::size_t j = 0; j < k.rows; ++j) st.scores(i, j) = simd::dot(q.row(i), k.row(j), q.cols);
    // Section 4 — S / divisor; the mask's cells −∞.
    st.divisor = divisor;
    st.kept.data = kept.data;
    st.scaled.data = st.scores.data;
    simd::divide(st.scaled.data.data(), divisor, st.scaled.size());
    for (std::size_t t = 0; t < st.scaled.size(); ++t)
        if (st.kept.data[t] == 0.0f) st.scaled.data[t] = kMinusInfinity;
    // Section 5 — the softmax along each row.
    for (std::size_t i = 0; i < st.scaled.rows; ++i) softmax_row(st, i);
    // Section 6 — output_i = Σ_j A_ij v_j over the kept keys, j in order.
    std::fill(st.output.data.begin(), st.output.data.end(), 0.0f);
    for (std::size_t i = 0; i < st.weights.rows; ++i)
        for (std::size_t j = 0; j < st.weights.cols; ++j)
            if (st.kept(i, j) != 0.0f) simd::axpy(st.output.row(i), st.weights(i, j), v.row(j), v.cols);
}

void head_backward(HeadWorkspace& w, const AttentionOptions& options) {
    const AttentionSteps& st = w.steps;
    const Matrix &a = st.weights, &kept = st.kept;
    AttentionGrads& g = w.grads;
    // Section 6 backward: the output was A·V. dV = Aᵀ·dO; dA = dO·Vᵀ, Vᵀ copied, four rows at a time.
    transposed_times(a, kept, w.d_out, g.d_v);
    for (std::size_t j = 0; j < w.v.rows; ++j)
        for (std::size_t t = 0; t < w.v.cols; ++t) w.v_t(t, j) = w.v(j, t);
    simd::product_rows(g.d_weights.data.data(), g.d_weights.cols, w.d_out.rows, w.d_out.data.data(), 1, w.d_out.cols,
                       w.v_t.data.data(), w.v_t.cols, w.d_out.cols, w.v.rows);
    // Section 5 backward: dZ_ij = A_ij·(dA_ij − Σ_t A_it dA_it), then no gradient where masked.
    for (std::size_t i = 0; i < a.rows; ++i) {
        const float weighted = simd::weighted_sum(a.row(i), kept.row(i), g.d_weights.row(i), a.cols);
        simd::softmax_grad(g.d_scaled.row(i), a.row(i), kept.row(i), g.d_weights.row(i), weighted, a.cols);
    }
    for (std::size_t t = 0; t < g.d_scaled.size(); ++t)
        if (kept.data[t] == 0.0f) g.d_scaled.data[t] = 0.0f;
    // Section 4 backward: dS = dZ / divisor.
    g.d_scores.data = g.d_scaled.data;
    simd::divide(g.d_scores.data.data(), reference::score_divisor(options.scale, w.q.cols, options.temperature),
                 g.d_scores.size());
    // Section 3 backward: S = Q·Kᵀ. dQ = dS·K, dK = dSᵀ·Q, over the kept pairs.
    for (std::size_t i = 0; i < g.d_scores.rows; ++i)
        simd::combine_rows(g.d_q.row(i), g.d_scores.row(i), 1, kept.row(i), 1, w.k.data.data(), w.k.cols, w.k.rows,
                           w.k.cols);
    transposed_times(g.d_scores, kept, w.q, g.d_k);
}

}  // namespace attn
