// backward_simd.cpp — the backward steps through the SIMD loops, and the SIMD path of
// backward_path.hpp made of them (attention_backward_simd). See backward_simd.hpp for which kernel
// each step runs, and backward.hpp for the formulas.
#include "backward_simd.hpp"

#include "backward_attention.hpp"
#include "backward_kernels.hpp"
#include "backward_path.hpp"
#include "simd_kernels.hpp"

namespace attn {
namespace simd_backward {
namespace {

// aᵀ·b over the pairs a mask keeps (every pair when kept is null): out_j = Σ_i a_ij · b_i, i in
// order, one simd::combine_rows per output row (column j of a and of kept as its coefficients), so
// each element is summed in the reference's order. dV = Aᵀ·dO and dK = dSᵀ·Q.
Matrix transposed_times(const Matrix& a, const Matrix* kept, const Matrix& b) {
    Matrix out(a.cols, b.cols);
    for (std::size_t j = 0; j < a.cols; ++j)
        simd::combine_rows(out.row(j), a.data.data() + j, a.cols, kept ? kept->data.data() + j : nullptr,
                           kept ? kept->cols : 0, b.data.data(), b.cols, a.rows, b.cols);
    return out;
}

// a·bᵀ: out_ij = a_i · b_j = Σ_t a_it b_jt, t in order: bᵀ once, then simd::product_rows (four
// rows at a time), so each element is summed as the reference's dot product sums it. dA = dO·Vᵀ
// and dX = dOut·Wᵀ.
Matrix times_transposed(const Matrix& a, const Matrix& b) {
    Matrix bt(b.cols, b.rows);
    for (std::size_t j = 0; j < b.rows; ++j)
        for (std::size_t t = 0; t < b.cols; ++t) bt(t, j) = b(j, t);
    Matrix out(a.rows, b.rows);
    simd::product_rows(out.data.data(), out.cols, a.rows, a.data.data(), 1, a.cols, bt.data.data(), bt.cols, a.cols,
                       b.rows);
    return out;
}

}  // namespace

Matrix d_values(const Matrix& a, const Matrix& kept, const Matrix& d_output) {
    return transposed_times(a, &kept, d_output);
}

Matrix d_weights(const Matrix& d_output, const Matrix& v) { return times_transposed(d_output, v); }

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
        simd::combine_rows(dq.row(i), d_scores.row(i), 1, kept.row(i), 1, k.data.data(), k.cols, k.rows, k.cols);
    return dq;
}

Matrix d_keys(const Matrix& d_scores, const Matrix& kept, const Matrix& q) {
    return transposed_times(d_scores, &kept, q);
}

// Xᵀ·dOut: its rows are X's columns, four at a time (simd::product_rows: dOut read a quarter as
// often), each element summed over X's rows in order, as transposed_times sums it.
Matrix d_project_weights(const Matrix& x, const Matrix& d_out) {
    Matrix out(x.cols, d_out.cols);
    simd::product_rows(out.data.data(), out.cols, x.cols, x.data.data(), x.cols, 1, d_out.data.data(), d_out.cols,
                       x.rows, d_out.cols);
    return out;
}

Matrix d_project_input(const Matrix& d_out, const Matrix& w) { return times_transposed(d_out, w); }

}  // namespace simd_backward

namespace {

// The SIMD path: attention_steps_simd and the steps above.
const backward::Path kSimdPath{attention_steps_simd,     simd_backward::d_values,       simd_backward::d_weights,
                               simd_backward::d_softmax, simd_backward::d_scale_scores, simd_backward::d_queries,
                               simd_backward::d_keys};

}  // namespace

AttentionGrads backward_steps_simd(const AttentionSteps& forward, const Matrix& q, const Matrix& k, const Matrix& v,
                                   const Matrix& d_output, const AttentionOptions& options) {
    return backward::steps(forward, q, k, v, d_output, options, kSimdPath);
}

Result<AttentionBackward> attention_backward_simd(const Matrix& q, const Matrix& k, const Matrix& v,
                                                  const Matrix& d_output, const AttentionOptions& options) {
    return backward::run(q, k, v, d_output, options, kSimdPath);
}

}  // namespace attn
