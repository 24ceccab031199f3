// attention_steps.cpp — the article end to end on the reference path, keeping every intermediate.
#include "attention.hpp"
#include "non_finite.hpp"
#include "reference.hpp"
#include "validate.hpp"

namespace attn {

Result<AttentionSteps> attention_steps(const Matrix& q, const Matrix& k, const Matrix& v,
                                       const AttentionOptions& options) {
    if (Error e = check_attention(q, k, v, options)) return Result<AttentionSteps>::failure(e);
    if (Error e = check_steps_memory(q, k, v, options)) return Result<AttentionSteps>::failure(e);

    using namespace reference;
    AttentionSteps st;
    st.scores = scores_qkt(q, k);
    const float divisor = score_divisor(options.scale, q.cols, options.temperature);
    st.divisor = divisor;
    st.kept = kept_cells(options.mask, q.rows, k.rows);
    st.scaled = apply_mask(scale_scores(st.scores, divisor), st.kept);

    if (options.axis == Axis::Row) {
        st.row_max = row_max(st.scaled);
        st.shifted = subtract_row_max(st.scaled, st.row_max);
        st.exps = exp_minus_max(st.scaled, st.row_max, options.stable);
        st.row_sum = row_sums(st.exps);
        st.weights = softmax_weights(st.exps, st.row_sum, st.scaled);
    } else {
        // The FAQ's misconception: softmax down each column = row softmax of the transpose.
        const Matrix by_column = transpose(st.scaled);
        const Matrix m = row_max(by_column);
        const Matrix e = exp_minus_max(by_column, m, options.stable);
        const Matrix s = row_sums(e);
        st.row_max = transpose(m);
        st.shifted = transpose(subtract_row_max(by_column, m));
        st.exps = transpose(e);
        st.row_sum = transpose(s);
        st.weights = transpose(softmax_weights(e, s, by_column));
    }
    st.output = weighted_values(st.weights, st.kept, v);
    st.non_finite = count_non_finite(st, options.axis);
    return Result<AttentionSteps>::success(std::move(st));
}

Result<Matrix> project(const Matrix& x, const Matrix& w) {
    if (Error e = check_projection(x, w)) return Result<Matrix>::failure(e);
    return Result<Matrix>::success(reference::project(x, w));
}

const char* version() { return ATTN_VERSION; }

}  // namespace attn
