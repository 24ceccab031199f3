// backward.cpp — the backward steps on the reference path. See backward.hpp for the formula of each.
#include "backward.hpp"

namespace attn::reference {

Matrix d_values(const Matrix& a, const Matrix& kept, const Matrix& d_output) {
    Matrix dv(a.cols, d_output.cols);
    for (std::size_t j = 0; j < a.cols; ++j)
        for (std::size_t c = 0; c < d_output.cols; ++c) {
            float sum = 0.0f;
            for (std::size_t i = 0; i < a.rows; ++i)
                if (kept(i, j) != 0.0f) sum += a(i, j) * d_output(i, c);  // a masked key: output_i took nothing
            dv(j, c) = sum;
        }
    return dv;
}

Matrix d_weights(const Matrix& d_output, const Matrix& v) {
    Matrix da(d_output.rows, v.rows);
    for (std::size_t i = 0; i < d_output.rows; ++i)
        for (std::size_t j = 0; j < v.rows; ++j) {
            float dot = 0.0f;  // dO_i · v_j
            for (std::size_t c = 0; c < v.cols; ++c) dot += d_output(i, c) * v(j, c);
            da(i, j) = dot;
        }
    return da;
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
    Matrix ds(d_scaled.rows, d_scaled.cols);
    for (std::size_t t = 0; t < d_scaled.size(); ++t) ds.data[t] = d_scaled.data[t] / divisor;
    return ds;
}

Matrix d_queries(const Matrix& d_scores, const Matrix& kept, const Matrix& k) {
    Matrix dq(d_scores.rows, k.cols);
    for (std::size_t i = 0; i < d_scores.rows; ++i)
        for (std::size_t c = 0; c < k.cols; ++c) {
            float sum = 0.0f;
            for (std::size_t j = 0; j < k.rows; ++j)
                if (kept(i, j) != 0.0f) sum += d_scores(i, j) * k(j, c);  // a masked pair: no term
            dq(i, c) = sum;
        }
    return dq;
}

Matrix d_keys(const Matrix& d_scores, const Matrix& kept, const Matrix& q) {
    Matrix dk(d_scores.cols, q.cols);
    for (std::size_t j = 0; j < d_scores.cols; ++j)
        for (std::size_t c = 0; c < q.cols; ++c) {
            float sum = 0.0f;
            for (std::size_t i = 0; i < q.rows; ++i)
                if (kept(i, j) != 0.0f) sum += d_scores(i, j) * q(i, c);
            dk(j, c) = sum;
        }
    return dk;
}

Matrix d_project_weights(const Matrix& x, const Matrix& d_out) {
    Matrix dw(x.cols, d_out.cols);
    for (std::size_t t = 0; t < x.cols; ++t)
        for (std::size_t c = 0; c < d_out.cols; ++c) {
            float sum = 0.0f;
            for (std::size_t i = 0; i < x.rows; ++i) sum += x(i, t) * d_out(i, c);
            dw(t, c) = sum;
        }
    return dw;
}

Matrix d_project_input(const Matrix& d_out, const Matrix& w) {
    Matrix dx(d_out.rows, w.rows);
    for (std::size_t i = 0; i < d_out.rows; ++i)
        for (std::size_t t = 0; t < w.rows; ++t) {
            float dot = 0.0f;  // dOut_i · w_t
            for (std::size_t c = 0; c < w.cols; ++c) dot += d_out(i, c) * w(t, c);
            dx(i, t) = dot;
        }
    return dx;
}

}  // namespace attn::reference
