// backward.cpp — the backward steps on the reference path. See backward.hpp for the formula of each.
#include "backward.hpp"

#include "reference.hpp"

namespace attn::reference {

namespace {

// aᵀ·b over the pairs a mask keeps: out_jc = Σ_i a_ij b_ic for the i with kept_ij ≠ 0 (every i
// when kept is null), summed over i in order. a: (n, m), b: (n, p) → (m, p). dV = Aᵀ·dO,
// dK = dSᵀ·Q and dW = Xᵀ·dOut are this product.
Matrix transposed_times(const Matrix& a, const Matrix* kept, const Matrix& b) {
    Matrix out(a.cols, b.cols);
    for (std::size_t j = 0; j < a.cols; ++j)
        for (std::size_t c = 0; c < b.cols; ++c) {
            float sum = 0.0f;
            for (std::size_t i = 0; i < a.rows; ++i)
                if (!kept || (*kept)(i, j) != 0.0f) sum += a(i, j) * b(i, c);  // a masked pair: no term
            out(j, c) = sum;
        }
    return out;
}

}  // namespace

Matrix d_values(const Matrix& a, const Matrix& kept, const Matrix& d_output) {
    return transposed_times(a, &kept, d_output);  // a masked key: output_i took nothing from v_j
}

Matrix d_weights(const Matrix& d_output, const Matrix& v) {
    return scores_qkt(d_output, v);  // dO_i · v_j: the row-by-row dot products S = Q·Kᵀ is made of
}

Matrix d_softmax(const Matrix& a, const Matrix& kept, const Matrix& d_weights) {
    Matrix dz(a.rows, a.cols);
    for (std::size_t i = 0; i < a.rows; ++i) {
        // Σ_t A_it dA_it, over the kept keys (as weighted_values): a masked key's dA, NaN when its
        // value row is, takes no part, so it cannot spoil the row.
        float weighted = 0.0f;
        for (std::size_t t = 0; t < a.cols; ++t)
            if (kept(i, t) != 0.0f) weighted += a(i, t) * d_weights(i, t);
        for (std::size_t j = 0; j < a.cols; ++j)
            dz(i, j) = kept(i, j) == 0.0f ? 0.0f : a(i, j) * (d_weights(i, j) - weighted);
    }
    return dz;
}

Matrix d_apply_mask(Matrix d_masked, const Matrix& kept) {
    for (std::size_t t = 0; t < d_masked.size(); ++t)
        if (kept.data[t] == 0.0f) d_masked.data[t] = 0.0f;
    return d_masked;
}

Matrix d_scale_scores(const Matrix& d_scaled, float divisor) {
    return scale_scores(d_scaled, divisor);  // dS_ij = d_scaled_ij / divisor: the forward's own division
}

Matrix d_queries(const Matrix& d_scores, const Matrix& kept, const Matrix& k) {
    return weighted_values(d_scores, kept, k);  // Σ_j dS_ij k_j over the kept keys: output = A·V's product
}

Matrix d_keys(const Matrix& d_scores, const Matrix& kept, const Matrix& q) {
    return transposed_times(d_scores, &kept, q);
}

Matrix d_project_weights(const Matrix& x, const Matrix& d_out) { return transposed_times(x, nullptr, d_out); }

Matrix d_project_input(const Matrix& d_out, const Matrix& w) {
    return scores_qkt(d_out, w);  // dOut_i · w_t, as dA = dO·Vᵀ
}

}  // namespace attn::reference
