// model.cpp — see model.hpp: the embedding, the heads, the readout and the cross-entropy, forward
// and backward, for one sequence at a time.
#include "model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "backward_attention.hpp"
#include "backward_kernels.hpp"
#include "backward_simd.hpp"
#include "random.hpp"
#include "simd_kernels.hpp"

namespace attn {
namespace {

void add_into(Matrix& sum, const Matrix& term) {
    for (std::size_t t = 0; t < sum.size(); ++t) sum.data[t] += term.data[t];
}

// N(0, σ²) values from `normal`, in row-major order.
Matrix normal(std::size_t rows, std::size_t cols, double sigma, NormalStream& normal) {
    Matrix m(rows, cols);
    for (float& x : m.data) x = static_cast<float>(sigma * static_cast<double>(normal.next()));
    return m;
}

// Matrix product on the SIMD path, without checks (every shape here is the model's own): one
// simd::combine_rows per output row, each element summed over t in order with a multiplication
// then an addition, as project_simd's axpy per term sums it.
Matrix multiply(const Matrix& a, const Matrix& b) {
    Matrix out(a.rows, b.cols);
    for (std::size_t i = 0; i < a.rows; ++i)
        simd::combine_rows<simd::mul_then_add>(out.row(i), a.row(i), 1, nullptr, 0, b.data.data(), b.cols, a.cols,
                                               b.cols);
    return out;
}

// The first `count` rows of w: the rows that multiply X's token part.
Matrix top_rows(const Matrix& w, std::size_t count) {
    Matrix top(count, w.cols);
    std::copy(w.data.begin(), w.data.begin() + static_cast<std::ptrdiff_t>(count * w.cols), top.data.begin());
    return top;
}

// X·W for the model's X (n, d_model). With one-hot positions x_i = E[token_i] ⊕ one-hot(i), so
// (X·W)_i = E[token_i]·W[0 … d_token − 1] + W[d_token + i]: the product over the token part, then
// row d_token + i of W added. Equal in value to multiply(x, w) while W is finite (the terms left
// out are 0·W, and 1·W is exact; only a zero's sign can differ); a third fewer multiplications at
// d_token = 2n.
Matrix project(const ModelConfig& c, const Matrix& x, const Matrix& w) {
    if (c.position != PositionKind::OneHot) return multiply(x, w);
    Matrix out(x.rows, w.cols);
    for (std::size_t i = 0; i < x.rows; ++i) {
        simd::combine_rows<simd::mul_then_add>(out.row(i), x.row(i), 1, nullptr, 0, w.data.data(), w.cols, c.d_token,
                                               w.cols);
        const float* position = w.row(c.d_token + i);
        for (std::size_t j = 0; j < w.cols; ++j) out(i, j) += position[j];
    }
    return out;
}

// ∂L/∂W for Q = X·W over the batch's rows, from dQ: Xᵀ·dQ. Its token rows are the product over X's
// token part; with one-hot positions, row d_token + i is Σ_s dQ[s·n + i], s in order (the only
// rows where X's column d_token + i is 1) — what Xᵀ·dQ sums, without its 0·dQ terms.
Matrix weight_gradient(const ModelConfig& c, const Matrix& x_token, const Matrix& d_out) {
    const Matrix token = simd_backward::d_project_weights(x_token, d_out);
    if (c.position != PositionKind::OneHot) return token;
    Matrix g(model_width(c), d_out.cols);
    std::copy(token.data.begin(), token.data.end(), g.data.begin());
    for (std::size_t r = 0; r < d_out.rows; ++r) {
        float* row = g.row(c.d_token + r % c.length);
        for (std::size_t j = 0; j < d_out.cols; ++j) row[j] += d_out(r, j);
    }
    return g;
}

AttentionOptions head_options(const ModelConfig& c) {
    AttentionOptions o;
    o.scale = c.scale;
    o.mask.kind = c.causal ? MaskKind::Causal : MaskKind::None;
    return o;
}

// One head, forward: the single-head steps. Its only refusal here would be ±∞ in Q, K or V (weights
// that have diverged): then every number of the head is NaN, and so is the loss, which says so.
AttentionSteps forward_head(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& o) {
    auto r = attention_steps_simd(q, k, v, o);
    if (r.ok()) return std::move(r.value);
    AttentionSteps st;
    st.kept = Matrix(q.rows, k.rows, 1.0f);
    st.weights = Matrix(q.rows, k.rows, std::numeric_limits<float>::quiet_NaN());
    st.output = Matrix(q.rows, v.cols, std::numeric_limits<float>::quiet_NaN());
    return st;
}

}  // namespace

std::size_t model_width(const ModelConfig& c) {
    return c.d_token + (c.position == PositionKind::OneHot ? c.length : 0);
}

std::vector<Matrix*> tensors(Params& p) {
    std::vector<Matrix*> out{&p.token_embedding, &p.position_embedding};
    for (std::size_t h = 0; h < p.w_q.size(); ++h) {
        out.push_back(&p.w_q[h]);
        out.push_back(&p.w_k[h]);
        out.push_back(&p.w_v[h]);
    }
    out.push_back(&p.w_out);
    out.push_back(&p.b_out);
    return out;
}
std::vector<const Matrix*> tensors(const Params& p) {
    std::vector<const Matrix*> out;
    for (Matrix* m : tensors(const_cast<Params&>(p))) out.push_back(m);
    return out;
}

Params zero_params(const ModelConfig& c) {
    const std::size_t d = model_width(c);
    Params p;
    p.token_embedding = Matrix(c.vocab, c.d_token);
    if (c.position == PositionKind::Learned) p.position_embedding = Matrix(c.length, d);
    for (std::size_t h = 0; h < c.heads; ++h) {
        p.w_q.emplace_back(d, c.d_head);
        p.w_k.emplace_back(d, c.d_head);
        p.w_v.emplace_back(d, c.d_head);
    }
    p.w_out = Matrix(c.heads * c.d_head, c.classes);
    p.b_out = Matrix(1, c.classes);
    return p;
}

Params init_params(const ModelConfig& c, std::uint64_t seed) {
    NormalStream n(seed);
    Params p = zero_params(c);
    // E‖x‖²: one-hot positions add one 1 to d_token values of variance 1; learned ones add P_i to
    // E[token], both of variance ½, so that each component has variance 1.
    const bool one_hot = c.position == PositionKind::OneHot;
    const double embedding_sigma = one_hot ? 1.0 : std::sqrt(0.5);
    const double x_norm2 = one_hot ? double(c.d_token) + 1.0 : double(c.d_token);
    p.token_embedding = normal(c.vocab, c.d_token, embedding_sigma, n);
    if (!one_hot) p.position_embedding = normal(c.length, c.d_token, embedding_sigma, n);
    const double w_sigma = 1.0 / std::sqrt(x_norm2);
    const std::size_t d = model_width(c);
    for (std::size_t h = 0; h < c.heads; ++h) {
        p.w_q[h] = normal(d, c.d_head, w_sigma, n);
        p.w_k[h] = normal(d, c.d_head, w_sigma, n);
        p.w_v[h] = normal(d, c.d_head, w_sigma, n);
    }
    p.w_out = normal(c.heads * c.d_head, c.classes, 1.0 / std::sqrt(double(c.heads * c.d_head)), n);
    return p;
}

Matrix embed(const ModelConfig& c, const Params& p, const int* tokens) {
    Matrix x(c.length, model_width(c));
    for (std::size_t i = 0; i < c.length; ++i) {
        const float* e = p.token_embedding.row(static_cast<std::size_t>(tokens[i]));
        std::copy(e, e + c.d_token, x.row(i));
        if (c.position == PositionKind::OneHot)
            x(i, c.d_token + i) = 1.0f;
        else
            for (std::size_t t = 0; t < c.d_token; ++t) x(i, t) += p.position_embedding(i, t);
    }
    return x;
}

SequencePass forward_sequence(const ModelConfig& c, const Params& p, const int* tokens) {
    SequencePass s;
    s.x = embed(c, p, tokens);
    s.heads_out = Matrix(c.length, c.heads * c.d_head);
    const AttentionOptions o = head_options(c);
    for (std::size_t h = 0; h < c.heads; ++h) {
        s.q.push_back(project(c, s.x, p.w_q[h]));
        s.k.push_back(project(c, s.x, p.w_k[h]));
        s.v.push_back(project(c, s.x, p.w_v[h]));
        s.steps.push_back(forward_head(s.q[h], s.k[h], s.v[h], o));
        for (std::size_t i = 0; i < c.length; ++i)  // O_h into its columns of O
            std::copy(s.steps[h].output.row(i), s.steps[h].output.row(i) + c.d_head, s.heads_out.row(i) + h * c.d_head);
    }
    s.logits = multiply(s.heads_out, p.w_out);
    for (std::size_t i = 0; i < c.length; ++i)
        for (std::size_t j = 0; j < c.classes; ++j) s.logits(i, j) += p.b_out(0, j);
    return s;
}

BatchRows::BatchRows(const ModelConfig& c, std::size_t sequences)
    : x(sequences * c.length, c.d_token),
      heads_out(sequences * c.length, c.heads * c.d_head),
      d_logits(sequences * c.length, c.classes) {
    for (std::size_t h = 0; h < c.heads; ++h) {
        d_q.emplace_back(sequences * c.length, c.d_head);
        d_k.emplace_back(sequences * c.length, c.d_head);
        d_v.emplace_back(sequences * c.length, c.d_head);
    }
}

namespace {

// m's rows into `into` from row `at` on (their first into.cols values).
void put_rows(Matrix& into, std::size_t at, const Matrix& m) {
    for (std::size_t i = 0; i < m.rows; ++i) std::copy(m.row(i), m.row(i) + into.cols, into.row(at + i));
}

}  // namespace

void sequence_backward(const ModelConfig& c, const Params& p, const int* tokens, const int* targets, float scale,
                       double* loss, std::size_t* scored, std::size_t* correct, Params* grads, double* softmax_gradient,
                       BatchRows* rows, std::size_t s) {
    const SequencePass pass = forward_sequence(c, p, tokens);
    const std::size_t at = s * c.length;
    // Cross-entropy: −log softmax(logits_i)[y_i]; its gradient is softmax(logits_i) − onehot(y_i).
    Matrix d_logits(c.length, c.classes);
    for (std::size_t i = 0; i < c.length; ++i) {
        if (targets[i] < 0) continue;  // kUnscored
        const auto y = static_cast<std::size_t>(targets[i]);
        const float* z = pass.logits.row(i);
        const float m = *std::max_element(z, z + c.classes);
        float sum = 0.0f;
        for (std::size_t j = 0; j < c.classes; ++j) sum += std::exp(z[j] - m);
        *loss += static_cast<double>(std::log(sum) - (z[y] - m));
        *scored += 1;
        *correct += static_cast<std::size_t>(std::max_element(z, z + c.classes) - z) == y;
        for (std::size_t j = 0; j < c.classes; ++j)
            d_logits(i, j) = scale * (std::exp(z[j] - m) / sum - (j == y ? 1.0f : 0.0f));
    }
    if (!grads) return;

    // The readout: logits = O·W_out + b (W_out's gradient, Oᵀ·∂logits, from the rows).
    put_rows(rows->x, at, pass.x);
    put_rows(rows->heads_out, at, pass.heads_out);
    put_rows(rows->d_logits, at, d_logits);
    for (std::size_t i = 0; i < c.length; ++i)
        for (std::size_t j = 0; j < c.classes; ++j) grads->b_out(0, j) += d_logits(i, j);
    const Matrix d_heads = simd_backward::d_project_input(d_logits, p.w_out);

    // Each head: its columns of dO, back through attention (its dQ, dK, dV into the rows: the
    // projections' weights and dX from them).
    const AttentionOptions o = head_options(c);
    double d_scaled_norm2 = 0.0;
    for (std::size_t h = 0; h < c.heads; ++h) {
        Matrix d_out(c.length, c.d_head);
        for (std::size_t i = 0; i < c.length; ++i)
            std::copy(d_heads.row(i) + h * c.d_head, d_heads.row(i) + (h + 1) * c.d_head, d_out.row(i));
        const AttentionGrads g = backward_steps_simd(pass.steps[h], pass.q[h], pass.k[h], pass.v[h], d_out, o);
        for (float z : g.d_scaled.data) d_scaled_norm2 += double(z) * double(z);
        put_rows(rows->d_q[h], at, g.d_q);
        put_rows(rows->d_k[h], at, g.d_k);
        put_rows(rows->d_v[h], at, g.d_v);
    }
    if (softmax_gradient) *softmax_gradient += std::sqrt(d_scaled_norm2);
}

void add_batch_grads(const ModelConfig& c, const Params& p, const BatchRows& rows, const int* tokens, Params* grads) {
    add_into(grads->w_out, simd_backward::d_project_weights(rows.heads_out, rows.d_logits));
    // Through each head's projections: W_Q += Xᵀ·dQ …, and dX = Σ_h dQ_h·W_Qᵀ + dK_h·W_Kᵀ + dV_h·W_Vᵀ,
    // over X's token part only: the one-hot positions are not learned, and learned ones are added
    // to the token part (then d_token = d_model).
    Matrix dx(rows.x.rows, c.d_token);
    for (std::size_t h = 0; h < c.heads; ++h) {
        add_into(grads->w_q[h], weight_gradient(c, rows.x, rows.d_q[h]));
        add_into(grads->w_k[h], weight_gradient(c, rows.x, rows.d_k[h]));
        add_into(grads->w_v[h], weight_gradient(c, rows.x, rows.d_v[h]));
        add_into(dx, simd_backward::d_project_input(rows.d_q[h], top_rows(p.w_q[h], c.d_token)));
        add_into(dx, simd_backward::d_project_input(rows.d_k[h], top_rows(p.w_k[h], c.d_token)));
        add_into(dx, simd_backward::d_project_input(rows.d_v[h], top_rows(p.w_v[h], c.d_token)));
    }
    // The embedding: x_i = E[token_i] ⊕ one-hot(i), or E[token_i] + P_i (row r is position r mod n).
    for (std::size_t r = 0; r < dx.rows; ++r) {
        float* de = grads->token_embedding.row(static_cast<std::size_t>(tokens[r]));
        for (std::size_t t = 0; t < c.d_token; ++t) de[t] += dx(r, t);
        if (c.position == PositionKind::Learned)
            for (std::size_t t = 0; t < c.d_token; ++t) grads->position_embedding(r % c.length, t) += dx(r, t);
    }
}

void loss_and_backward(const ModelConfig& c, const Params& p, const int* tokens, const int* targets, float scale,
                       double* loss, std::size_t* scored, std::size_t* correct, Params* grads,
                       double* softmax_gradient) {
    BatchRows rows(c, grads ? 1 : 0);
    sequence_backward(c, p, tokens, targets, scale, loss, scored, correct, grads, softmax_gradient, &rows, 0);
    if (grads) add_batch_grads(c, p, rows, tokens, grads);
}

namespace {

// ∂ℓ/∂logits for ℓ the mean cross-entropy over the scored rows (model.hpp, HeadsGradient), and ℓ.
Matrix mean_cross_entropy_gradient(const Matrix& logits, const int* targets, double* loss, std::size_t* scored) {
    Matrix d_logits(logits.rows, logits.cols);
    for (std::size_t i = 0; i < logits.rows; ++i) *scored += targets[i] >= 0;
    if (*scored == 0) return d_logits;
    const float scale = 1.0f / static_cast<float>(*scored);
    for (std::size_t i = 0; i < logits.rows; ++i) {
        if (targets[i] < 0) continue;  // kUnscored
        const auto y = static_cast<std::size_t>(targets[i]);
        const float* z = logits.row(i);
        const float m = *std::max_element(z, z + logits.cols);
        float sum = 0.0f;
        for (std::size_t j = 0; j < logits.cols; ++j) sum += std::exp(z[j] - m);
        *loss += static_cast<double>(std::log(sum) - (z[y] - m)) / static_cast<double>(*scored);
        for (std::size_t j = 0; j < logits.cols; ++j)
            d_logits(i, j) = scale * (std::exp(z[j] - m) / sum - (j == y ? 1.0f : 0.0f));
    }
    return d_logits;
}

}  // namespace

HeadsGradient heads_gradient(const ModelConfig& c, const Params& p, const int* tokens, const int* targets) {
    const SequencePass s = forward_sequence(c, p, tokens);
    HeadsGradient g;
    const Matrix d_logits = mean_cross_entropy_gradient(s.logits, targets, &g.loss, &g.scored);
    g.d_heads = simd_backward::d_project_input(d_logits, p.w_out);  // ∂ℓ/∂logits · W_outᵀ
    g.x = s.x;
    return g;
}

}  // namespace attn
