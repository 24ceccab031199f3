// attention_steps_simd.cpp — the article step by step, every intermediate kept, with the SIMD
// loops of simd_kernels.hpp: the path whose numbers the page shows.
//
// The same steps, options and AttentionSteps as attention_steps (attention_steps.cpp), in the
// same order; the loops over the numbers run W lanes at a time:
//   S = Q·Kᵀ               one simd::dot per score
//   ÷ (√d_k · τ), mask     simd::divide over all the scores; the mask as in the reference
//   m_i = max_j            simd::max (NaN-tracking: a NaN anywhere gives NaN)
//   x − m_i                simd::subtract
//   e = exp(·), s_i = Σ_j  simd::exp_sum
//   A = e / s_i            simd::divide
//   A·V (and X·W)          simd::axpy, one weighted row of V per kept key, keys in order
// Division, max, subtraction and the axpy sums round exactly as the reference's loops; the dot
// products and the row sums add in W interleaved partial sums, and xsimd's exp is within ~1 ulp
// of std::exp, so scores, exps and what follows them differ from the reference in the last bits.
// Near float32's limit the last bits decide where ±∞ and NaN appear (the order of a sum whose
// partial sums overflow, an exp on the edge of overflowing), so two kinds of call are handed to
// the reference (attention_steps) whole, and their non-finite cells are the reference's own:
//  - values so large that a score, a scaled score or a sum of weighted values could overflow
//    (could_overflow, overflow_guard.hpp: the fast paths' rule, one copy for both);
//  - the naive softmax (options.stable == false), whose exps overflow by design past 88.7.
// tests/core/test_steps_simd.cpp checks every field against attention_steps.
//
// The fast paths (attention_fast.cpp, attention_streaming.cpp) are faster still, but keep no
// intermediates; the page needs every one, at sizes (n ≤ 64) where this path takes microseconds.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>

#include "attention.hpp"
#include "non_finite.hpp"
#include "overflow_guard.hpp"
#include "reference.hpp"
#include "simd_kernels.hpp"
#include "validate.hpp"

namespace attn {
namespace {

// Section 3 — S = Q·Kᵀ: S_ij = q_i · k_j, one SIMD dot product per score.
//   q: (n_q, d_k), k: (n_k, d_k) → (n_q, n_k)
Matrix scores_qkt(const Matrix& q, const Matrix& k) {
    Matrix s(q.rows, k.rows);
    for (std::size_t i = 0; i < q.rows; ++i)
        for (std::size_t j = 0; j < k.rows; ++j) s(i, j) = simd::dot(q.row(i), k.row(j), q.cols);
    return s;
}

// Section 4 — scaled_ij = S_ij / divisor.   (n_q, n_k) → (n_q, n_k)
Matrix scale_scores(const Matrix& scores, float divisor) {
    Matrix scaled = scores;
    simd::divide(scaled.data.data(), divisor, scaled.size());
    return scaled;
}

// a (n, m) · b (m, p) → (n, p), as out_i = Σ_t a_it · b_t: one axpy per term, t in order, so
// that each output element is summed in the reference's order. Section 2's projections and
// section 6's weighting of V.
Matrix matmul(const Matrix& a, const Matrix& b) {
    Matrix out(a.rows, b.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t t = 0; t < a.cols; ++t) simd::axpy(out.row(i), a(i, t), b.row(t), b.cols);
    return out;
}

// Section 6 — output_i = Σ_j A_ij v_j: one axpy per key the mask keeps, j in order, as the
// reference's weighted_values sums. A masked key adds nothing, not 0 · v_j; a kept key is added
// whatever its weight: xsimd's exp flushes to 0 what std::exp leaves a denormal (exp(−100)), and
// a NaN value behind that key must still reach the output (reference.hpp, apply_mask).
Matrix weighted_values(const Matrix& a, const Matrix& kept, const Matrix& v) {
    Matrix out(a.rows, v.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t j = 0; j < a.cols; ++j)
            if (kept(i, j) != 0.0f) simd::axpy(out.row(i), a(i, j), v.row(j), v.cols);
    return out;
}

// Section 5 — softmax along each row of x (n, m), every intermediate kept:
//   row_max (n, 1), shifted = x − max (n, m), exps (n, m), row_sum (n, 1), weights (n, m).
// The policies are the reference's (reference.hpp): a masked cell (−∞) has shifted −∞, exp 0 and
// weight 0 whatever the rest of its row holds; a fully masked row (max −∞) has sum 0 too; a row
// with a NaN is NaN from its max on, masked cells apart. Always the stable form: the naive one
// goes to the reference (the header comment).
struct RowSoftmax {
    Matrix row_max, shifted, exps, row_sum, weights;
};

RowSoftmax softmax_rows(const Matrix& x) {
    const std::size_t n = x.rows, m = x.cols;
    const float minus_inf = -std::numeric_limits<float>::infinity();
    RowSoftmax sm{Matrix(n, 1), Matrix(n, m), Matrix(n, m), Matrix(n, 1), Matrix(n, m)};
    for (std::size_t i = 0; i < n; ++i) {
        const float max = simd::max(x.row(i), m);
        sm.row_max(i, 0) = max;
        if (max == minus_inf) {  // every key masked: nothing to attend to
            std::fill(sm.shifted.row(i), sm.shifted.row(i) + m, minus_inf);
            continue;  // exps, row_sum and weights stay 0
        }
        simd::subtract(sm.shifted.row(i), x.row(i), max, m);
        const float sum = simd::exp_sum(sm.exps.row(i), sm.shifted.row(i), m);
        sm.row_sum(i, 0) = sum;
        std::copy(sm.exps.row(i), sm.exps.row(i) + m, sm.weights.row(i));
        simd::divide(sm.weights.row(i), sum, m);
        // With a finite max and a positive sum, −∞ − max = −∞, exp(−∞) = 0 and 0 / sum = 0 already.
        // A NaN or +∞ max, or a sum of 0 or NaN, breaks that arithmetic: put masked cells back.
        if (!(std::isfinite(max) && sum > 0.0f))
            for (std::size_t j = 0; j < m; ++j)
                if (x(i, j) == minus_inf) sm.shifted(i, j) = minus_inf, sm.exps(i, j) = 0.0f, sm.weights(i, j) = 0.0f;
    }
    return sm;
}

}  // namespace

Result<AttentionSteps> attention_steps_simd(const Matrix& q, const Matrix& k, const Matrix& v,
                                            const AttentionOptions& options) {
    if (Error e = check_attention(q, k, v, options)) return Result<AttentionSteps>::failure(e);
    if (Error e = check_steps_memory(q, k, v, options)) return Result<AttentionSteps>::failure(e);
    const float divisor = reference::score_divisor(options.scale, q.cols, options.temperature);
    if (!options.stable || could_overflow(q, k, v, divisor)) return attention_steps(q, k, v, options);

    AttentionSteps st;
    st.scores = scores_qkt(q, k);
    st.divisor = divisor;
    st.kept = reference::kept_cells(options.mask, q.rows, k.rows);  // the mask's rule lives there
    st.scaled = reference::apply_mask(scale_scores(st.scores, divisor), st.kept);

    if (options.axis == Axis::Row) {
        RowSoftmax sm = softmax_rows(st.scaled);
        st.row_max = std::move(sm.row_max);
        st.shifted = std::move(sm.shifted);
        st.exps = std::move(sm.exps);
        st.row_sum = std::move(sm.row_sum);
        st.weights = std::move(sm.weights);
    } else {
        // The FAQ's misconception: softmax down each column = row softmax of the transpose.
        const RowSoftmax sm = softmax_rows(reference::transpose(st.scaled));
        st.row_max = reference::transpose(sm.row_max);
        st.shifted = reference::transpose(sm.shifted);
        st.exps = reference::transpose(sm.exps);
        st.row_sum = reference::transpose(sm.row_sum);
        st.weights = reference::transpose(sm.weights);
    }
    st.output = weighted_values(st.weights, st.kept, v);
    st.non_finite = count_non_finite(st, options.axis);
    return Result<AttentionSteps>::success(std::move(st));
}

Result<Matrix> project_simd(const Matrix& x, const Matrix& w) {
    if (Error e = check_projection(x, w)) return Result<Matrix>::failure(e);
    return Result<Matrix>::success(matmul(x, w));
}

}  // namespace attn
