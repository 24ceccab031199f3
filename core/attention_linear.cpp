// attention_linear.cpp — linear attention with φ(x) = elu(x) + 1, in its two orders, on the
// reference path and the SIMD path (efficiency_shared.hpp has the formulas and the costs).
//
// The two paths share the feature map, the normalisation and the prefix-sum walk of the linear
// order; they differ only in their inner loops (an Arithmetic below): the reference sums each
// product term by term in the formula's order, the SIMD path through simd_kernels.hpp.
#include <cmath>
#include <string>
#include <utility>

#include "checked_size.hpp"
#include "efficiency_shared.hpp"
#include "simd_kernels.hpp"

namespace attn {
namespace {

// Which keys query i sees: all n_k, or j ≤ i when causal (at least key 0, so no row is empty).
std::size_t visible_keys(std::size_t i, std::size_t n_k, bool causal) { return causal && i + 1 < n_k ? i + 1 : n_k; }

bool runs_quadratic(const LinearOptions& o) { return o.order != LinearOrder::Linear; }
bool runs_linear(const LinearOptions& o) { return o.order != LinearOrder::Quadratic; }

// The feature map φ(x) = elu(x) + 1 = x + 1 for x > 0, eˣ for x ≤ 0, on every cell.
//   (n, d) → (n, d), positive (or 0 where eˣ underflows); φ(NaN) = NaN
float phi(float x) { return x > 0.0f ? x + 1.0f : std::exp(x); }
Matrix feature_map(const Matrix& m) {
    Matrix out(m.rows, m.cols);
    for (std::size_t t = 0; t < m.size(); ++t) out.data[t] = phi(m.data[t]);
    return out;
}

// The inner loops of one path.
struct Arithmetic {
    // a · b over n values
    float (*dot)(const float* a, const float* b, std::size_t n);
    // y += alpha · x over n values, each y element summed in the callers' order
    void (*axpy)(float* y, float alpha, const float* x, std::size_t n);
    // x /= d over n values: a row of numerators over its denominator (a division, so that both
    // paths round alike; 0/0 is NaN)
    void (*divide)(float* x, float d, std::size_t n);
};

float dot_in_order(const float* a, const float* b, std::size_t n) {
    float sum = 0.0f;
    for (std::size_t c = 0; c < n; ++c) sum += a[c] * b[c];
    return sum;
}
void axpy_in_order(float* y, float alpha, const float* x, std::size_t n) {
    for (std::size_t c = 0; c < n; ++c) y[c] += alpha * x[c];
}
void divide_each(float* x, float d, std::size_t n) {
    for (std::size_t c = 0; c < n; ++c) x[c] /= d;
}

constexpr Arithmetic kReference{dot_in_order, axpy_in_order, divide_each};
constexpr Arithmetic kSimd{simd::dot, simd::axpy, simd::divide};

std::size_t count_non_finite(const Matrix& m) {
    std::size_t n = 0;
    for (const float x : m.data) n += !std::isfinite(x);
    return n;
}

// ---- The quadratic order: W = φ(Q)φ(K)ᵀ first ----------------------------------------------------

// Reference. W (n_q, n_k), W_ij = φ(q_i)·φ(k_j) for the visible keys, 0 for the masked ones; then
//   out_i = Σ_j W_ij v_j / Σ_j W_ij        (n_q, d_v), j over the visible keys in order
// and, when asked, the weights A_ij = W_ij / Σ_j W_ij (n_q, n_k).
void quadratic_reference(const Matrix& fq, const Matrix& fk, const Matrix& v, const LinearOptions& o,
                         LinearAttention& r) {
    const std::size_t n_q = fq.rows, n_k = fk.rows, d_v = v.cols;
    Matrix w(n_q, n_k);
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = 0; j < visible_keys(i, n_k, o.causal); ++j)
            w(i, j) = dot_in_order(fq.row(i), fk.row(j), fq.cols);
    r.quadratic = Matrix(n_q, d_v);
    if (o.weights) r.weights = Matrix(n_q, n_k);
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t seen = visible_keys(i, n_k, o.causal);
        float den = 0.0f;  // (W·1)_i
        for (std::size_t j = 0; j < seen; ++j) den += w(i, j);
        for (std::size_t c = 0; c < d_v; ++c) {
            float num = 0.0f;  // (W·V)_ic
            for (std::size_t j = 0; j < seen; ++j) num += w(i, j) * v(j, c);
            r.quadratic(i, c) = num / den;
        }
        if (o.weights)
            for (std::size_t j = 0; j < seen; ++j) r.weights(i, j) = w(i, j) / den;
    }
}

// SIMD. The same sums one query row at a time, so that only a row of W (n_k) is ever held:
//   w_j = φ(q_i)·φ(k_j) (simd::dot), den = Σ_j w_j in order, out_i = Σ_j w_j v_j (simd::axpy, j in
//   order), out_i ⊘ den.
void quadratic_simd(const Matrix& fq, const Matrix& fk, const Matrix& v, const LinearOptions& o, LinearAttention& r) {
    const std::size_t n_q = fq.rows, n_k = fk.rows, d_k = fq.cols, d_v = v.cols;
    Matrix w(1, n_k);
    r.quadratic = Matrix(n_q, d_v);
    if (o.weights) r.weights = Matrix(n_q, n_k);
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t seen = visible_keys(i, n_k, o.causal);
        float den = 0.0f;
        float* out = r.quadratic.row(i);
        for (std::size_t j = 0; j < seen; ++j) {
            w.data[j] = simd::dot(fq.row(i), fk.row(j), d_k);
            den += w.data[j];
            simd::axpy(out, w.data[j], v.row(j), d_v);
        }
        simd::divide(out, den, d_v);
        if (o.weights) {
            float* a = r.weights.row(i);
            for (std::size_t j = 0; j < seen; ++j) a[j] = w.data[j];
            simd::divide(a, den, seen);
        }
    }
}

// ---- The linear order: S = φ(K)ᵀV first -----------------------------------------------------------

// S (d_k, d_v) = Σ_j φ(k_j)ᵀ v_j and z (d_k) = Σ_j φ(k_j), over all keys — or, causal, over the
// keys j ≤ i only, as prefix sums: key i joins S and z just before query i reads them. Then
//   num_i = φ(q_i)·S = Σ_c φ(q_ic) S_c (d_v),  den_i = φ(q_i)·z = Σ_c φ(q_ic) z_c,  out_i = num_i / den_i.
// Every sum runs in order (S over j, num over c) on both paths: axpy adds term by term, and den is
// summed in order too, so the two paths agree bit for bit.
void linear_order(const Matrix& fq, const Matrix& fk, const Matrix& v, bool causal, const Arithmetic& a,
                  LinearAttention& r) {
    const std::size_t n_q = fq.rows, n_k = fk.rows, d_k = fq.cols, d_v = v.cols;
    Matrix s(d_k, d_v), z(1, d_k);
    std::size_t added = 0;  // keys in S and z so far
    const auto add_key = [&](std::size_t j) {
        for (std::size_t c = 0; c < d_k; ++c) a.axpy(s.row(c), fk(j, c), v.row(j), d_v);
        a.axpy(z.data.data(), 1.0f, fk.row(j), d_k);
        ++added;
    };
    if (!causal)
        while (added < n_k) add_key(added);
    r.linear = Matrix(n_q, d_v);
    for (std::size_t i = 0; i < n_q; ++i) {
        while (added < visible_keys(i, n_k, causal)) add_key(added);
        float* out = r.linear.row(i);
        for (std::size_t c = 0; c < d_k; ++c) a.axpy(out, fq(i, c), s.row(c), d_v);
        a.divide(out, dot_in_order(fq.row(i), z.data.data(), d_k), d_v);
    }
}

Result<LinearAttention> run(const Matrix& q, const Matrix& k, const Matrix& v, const LinearOptions& o, bool simd) {
    using Out = Result<LinearAttention>;
    if (Error e = check_linear(q, k, v, o, simd)) return Out::failure(e);
    LinearAttention r;
    const Matrix fq = feature_map(q), fk = feature_map(k);
    if (runs_quadratic(o)) {
        if (simd)
            quadratic_simd(fq, fk, v, o, r);
        else
            quadratic_reference(fq, fk, v, o, r);
    }
    if (runs_linear(o)) linear_order(fq, fk, v, o.causal, simd ? kSimd : kReference, r);
    r.multiply_adds = linear_multiply_adds(q.rows, k.rows, q.cols, v.cols, o.causal);
    r.non_finite = {count_non_finite(r.quadratic), count_non_finite(r.linear), count_non_finite(r.weights)};
    return Out::success(std::move(r));
}

}  // namespace

LinearMultiplyAdds linear_multiply_adds(std::uint64_t n_q, std::uint64_t n_k, std::uint64_t d_k, std::uint64_t d_v,
                                        bool causal) {
    // C: the visible cells. Causal, rows i < n_k see i + 1 keys (1 + 2 + … + m, m = min(n_q, n_k)),
    // the rows after them all n_k.
    std::uint64_t cells = size_product(n_q, n_k), keys = n_k;
    if (causal) {
        const std::uint64_t m = n_q < n_k ? n_q : n_k;
        const std::uint64_t triangle = m % 2 == 0 ? size_product(m / 2, m + 1) : size_product(m, (m + 1) / 2);
        cells = size_sum(triangle, size_product(n_q - m, n_k));
        keys = m;
    }
    return {size_product(cells, size_sum(d_k, d_v, 1)), size_product(size_sum(keys, n_q), d_k, size_sum(d_v, 1))};
}

std::uint64_t linear_working_bytes(const Shape& q, const Shape& k, const Shape& v, const LinearOptions& o, bool simd) {
    const std::uint64_t d_k = q.cols, d_v = v.cols;
    std::uint64_t floats = size_product(size_sum(q.rows, k.rows), d_k);  // φ(Q), φ(K)
    if (runs_quadratic(o)) {
        const std::uint64_t w = simd ? k.rows : size_product(q.rows, k.rows);
        floats = size_sum(floats, size_product(q.rows, d_v), w, o.weights ? size_product(q.rows, k.rows) : 0);
    }
    if (runs_linear(o)) floats = size_sum(floats, size_product(q.rows, d_v), size_product(d_k, d_v), d_k);
    return float_bytes(floats);
}

Error check_linear_shapes(const Shape& q, const Shape& k, const Shape& v, const LinearOptions& options, bool simd) {
    // empty_matrix, wrong_length, dk_mismatch, key_value_mismatch: the single head's rules (its
    // temperature is the default, always accepted; there is no mask).
    if (Error e = check_attention_shapes(q, k, v, 1.0f, nullptr)) return e;
    return check_memory("attention_linear", "scores", q.rows, k.rows, linear_working_bytes(q, k, v, options, simd));
}

Error check_linear(const Matrix& q, const Matrix& k, const Matrix& v, const LinearOptions& options, bool simd) {
    if (Error e = check_linear_shapes(shape_of(q), shape_of(k), shape_of(v), options, simd)) return e;
    const std::pair<const char*, const Matrix&> inputs[] = {{"q", q}, {"k", k}, {"v", v}};
    for (const auto& [name, m] : inputs)
        if (Error e = check_finite(name, m)) return e;
    return {};
}

Result<LinearAttention> attention_linear_reference(const Matrix& q, const Matrix& k, const Matrix& v,
                                                   const LinearOptions& options) {
    return run(q, k, v, options, false);
}

Result<LinearAttention> attention_linear(const Matrix& q, const Matrix& k, const Matrix& v,
                                         const LinearOptions& options) {
    return run(q, k, v, options, true);
}

}  // namespace attn
