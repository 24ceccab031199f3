// reference.cpp — the readable scalar path. See reference.hpp for the formula of each step.
#include "reference.hpp"

#include <cmath>
#include <limits>

namespace attn::reference {

namespace {

// a (n, m) · b (m, p) → (n, p): "row times column, then add up", the product both the
// projections (section 2) and the weighting of V (section 6) are made of.
Matrix matmul(const Matrix& a, const Matrix& b) {
    Matrix out(a.rows, b.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t c = 0; c < b.cols; ++c) {
            float sum = 0.0f;
            for (std::size_t t = 0; t < a.cols; ++t) sum += a(i, t) * b(t, c);
            out(i, c) = sum;
        }
    return out;
}

}  // namespace

Matrix project(const Matrix& x, const Matrix& w) { return matmul(x, w); }

Matrix scores_qkt(const Matrix& q, const Matrix& k) {
    Matrix s(q.rows, k.rows);
    for (std::size_t i = 0; i < q.rows; ++i)
        for (std::size_t j = 0; j < k.rows; ++j) {
            float dot = 0.0f;  // q_i · k_j: pairwise products, summed in order
            for (std::size_t c = 0; c < q.cols; ++c) dot += q(i, c) * k(j, c);
            s(i, j) = dot;
        }
    return s;
}

float score_divisor(Scale scale, std::size_t d_k, float temperature) {
    switch (scale) {
        case Scale::SqrtDk:
            return std::sqrt(static_cast<float>(d_k)) * temperature;
        case Scale::Dk:
            return static_cast<float>(d_k) * temperature;
        case Scale::None:
            break;
    }
    return temperature;
}

Matrix scale_scores(const Matrix& scores, float divisor) {
    Matrix scaled(scores.rows, scores.cols);
    for (std::size_t t = 0; t < scores.size(); ++t) scaled.data[t] = scores.data[t] / divisor;
    return scaled;
}

Matrix kept_cells(const Mask& mask, std::size_t n_q, std::size_t n_k) {
    Matrix kept(n_q, n_k, 1.0f);
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = 0; j < n_k; ++j) {
            const bool masked =
                (mask.kind == MaskKind::Causal && j > i) || (mask.kind == MaskKind::Custom && mask.keep(i, j) == 0.0f);
            if (masked) kept(i, j) = 0.0f;
        }
    return kept;
}

Matrix apply_mask(const Matrix& scaled, const Matrix& kept) {
    Matrix out = scaled;
    for (std::size_t t = 0; t < out.size(); ++t)
        if (kept.data[t] == 0.0f) out.data[t] = -std::numeric_limits<float>::infinity();
    return out;
}

Matrix row_max(const Matrix& scaled) {
    Matrix m(scaled.rows, 1);
    for (std::size_t i = 0; i < scaled.rows; ++i) {
        float best = -std::numeric_limits<float>::infinity();
        for (std::size_t j = 0; j < scaled.cols; ++j) {
            const float x = scaled(i, j);
            if (std::isnan(x)) {
                best = x;
                break;
            }  // NaN propagates: the row has no max
            if (x > best) best = x;
        }
        m(i, 0) = best;
    }
    return m;
}

namespace {

// A masked score: left out of its row's softmax (see apply_mask in reference.hpp).
bool masked(float scaled) { return scaled == -std::numeric_limits<float>::infinity(); }

}  // namespace

Matrix subtract_row_max(const Matrix& scaled, const Matrix& row_max) {
    Matrix shifted(scaled.rows, scaled.cols);
    for (std::size_t i = 0; i < scaled.rows; ++i) {
        const float m = row_max(i, 0);
        for (std::size_t j = 0; j < scaled.cols; ++j)
            shifted(i, j) = masked(scaled(i, j)) ? scaled(i, j) : scaled(i, j) - m;
    }
    return shifted;
}

Matrix exp_minus_max(const Matrix& scaled, const Matrix& row_max, bool stable) {
    Matrix e(scaled.rows, scaled.cols);
    for (std::size_t i = 0; i < scaled.rows; ++i) {
        const float shift = stable ? row_max(i, 0) : 0.0f;
        for (std::size_t j = 0; j < scaled.cols; ++j)
            e(i, j) = masked(scaled(i, j)) ? 0.0f : std::exp(scaled(i, j) - shift);
    }
    return e;
}

Matrix row_sums(const Matrix& exps) {
    Matrix s(exps.rows, 1);
    for (std::size_t i = 0; i < exps.rows; ++i) {
        float sum = 0.0f;
        for (std::size_t j = 0; j < exps.cols; ++j) sum += exps(i, j);
        s(i, 0) = sum;
    }
    return s;
}

Matrix softmax_weights(const Matrix& exps, const Matrix& row_sum, const Matrix& scaled) {
    Matrix a(exps.rows, exps.cols);
    for (std::size_t i = 0; i < exps.rows; ++i)
        for (std::size_t j = 0; j < exps.cols; ++j) a(i, j) = masked(scaled(i, j)) ? 0.0f : exps(i, j) / row_sum(i, 0);
    return a;
}

Matrix weighted_values(const Matrix& a, const Matrix& kept, const Matrix& v) {
    Matrix out(a.rows, v.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t c = 0; c < v.cols; ++c) {
            float sum = 0.0f;
            for (std::size_t j = 0; j < a.cols; ++j)
                if (kept(i, j) != 0.0f) sum += a(i, j) * v(j, c);  // a masked key adds nothing
            out(i, c) = sum;
        }
    return out;
}

Matrix transpose(const Matrix& m) {
    Matrix t(m.cols, m.rows);
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) t(j, i) = m(i, j);
    return t;
}

}  // namespace attn::reference
