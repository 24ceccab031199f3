// model.cpp — see model.hpp: the embedding, the heads, the readout and the cross-entropy, forward
// and backward, for one sequence at a time.
#include "model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "backward_attention.hpp"
#include "backward_kernels.hpp"
#include "backward_simd.hpp"
#include "random.hpp"
#include "simd_kernels.hpp"
#include "train_workspace.hpp"

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

// Matrix product on the SIMD path, without checks (every shape here is the model's own):
// simd::product_rows, each element summed over t in order with a multiplication then an
// addition, as project_simd's axpy per term sums it.
void multiply_into(const Matrix& a, const Matrix& b, Matrix& out) {
    simd::product_rows<simd::mul_then_add>(out.data.data(), out.cols, a.rows, a.data.data(), 1, a.cols, b.data.data(),
                                           b.cols, a.cols, b.cols);
}
Matrix multiply(const Matrix& a, const Matrix& b) {
    Matrix out(a.rows, b.cols);
    multiply_into(a, b, out);
    return out;
}

// The three projections of every head, in the order of BatchRows::d_projected's column blocks:
// block 3h + j is head h's W_Q, W_K or W_V (j = 0, 1, 2).
constexpr std::size_t kProjections = 3;
std::vector<Matrix>& projection(Params& p, std::size_t j) { return j == 0 ? p.w_q : j == 1 ? p.w_k : p.w_v; }
const std::vector<Matrix>& projection(const Params& p, std::size_t j) { return projection(const_cast<Params&>(p), j); }

// Rows [from, from + count) of W = [W_Q1 W_K1 W_V1 … W_VH], every head's projections side by side
// (count, heads·3·d_head). Over X's token part (rows 0 … d_token − 1) every head's projections
// are then one product: E·W forward (project_embedding), G·Wᵀ back (add_batch_grads); the rows
// after it are the one-hot positions' (project_embedding).
Matrix side_by_side(const ModelConfig& c, const Params& p, std::size_t from, std::size_t count) {
    Matrix w(count, c.heads * kProjections * c.d_head);
    for (std::size_t h = 0; h < c.heads; ++h)
        for (std::size_t j = 0; j < kProjections; ++j) {
            const Matrix& part = projection(p, j)[h];
            for (std::size_t t = 0; t < count; ++t)
                std::copy(part.row(from + t), part.row(from + t) + c.d_head,
                          w.row(t) + (h * kProjections + j) * c.d_head);
        }
    return w;
}

// ∂L/∂W for Q = X·W over the batch's rows, Xᵀ·dQ, added to `grad` from column block `block` of
// `token`, the product over X's token part, and of `by_position`, dQ's rows summed by position
// (add_batch_grads). With one-hot positions, row d_token + i of the gradient is Σ_s dQ[s·n + i] (the
// only rows where X's column d_token + i is 1): by_position's row i.
void add_weight_gradient(const ModelConfig& c, const Matrix& token, const Matrix& by_position, std::size_t block,
                         Matrix& grad) {
    const std::size_t from = block * c.d_head;
    for (std::size_t t = 0; t < c.d_token; ++t)
        for (std::size_t j = 0; j < c.d_head; ++j) grad(t, j) += token(t, from + j);
    if (c.position != PositionKind::OneHot) return;
    for (std::size_t i = 0; i < c.length; ++i)
        for (std::size_t j = 0; j < c.d_head; ++j) grad(c.d_token + i, j) += by_position(i, from + j);
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

ProjectedEmbedding project_embedding(const ModelConfig& c, const Params& p) {
    const Matrix w = side_by_side(c, p, 0, c.d_token);
    ProjectedEmbedding e;
    e.by_token = multiply(p.token_embedding, w);
    e.by_position = c.position == PositionKind::Learned ? multiply(p.position_embedding, w)
                                                        : side_by_side(c, p, c.d_token, c.length);
    return e;
}

namespace {

// Head h's projection j (Q, K or V) of one sequence into out (n, d_head): row i is
// by_token[token_i] + by_position[i], their block 3h + j.
void project_into(const ModelConfig& c, const ProjectedEmbedding& e, const int* tokens, std::size_t h, std::size_t j,
                  Matrix& out) {
    const std::size_t from = (h * kProjections + j) * c.d_head;
    for (std::size_t i = 0; i < c.length; ++i) {
        const float* token = e.by_token.row(static_cast<std::size_t>(tokens[i])) + from;
        const float* position = e.by_position.row(i) + from;
        for (std::size_t t = 0; t < c.d_head; ++t) out(i, t) = token[t] + position[t];
    }
}
Matrix projected(const ModelConfig& c, const ProjectedEmbedding& e, const int* tokens, std::size_t h, std::size_t j) {
    Matrix out(c.length, c.d_head);
    project_into(c, e, tokens, h, j, out);
    return out;
}

// O_h, head h's output (n, d_head), into its columns of O = [O_1 … O_H].
void put_head(const ModelConfig& c, const Matrix& output, std::size_t h, Matrix& heads_out) {
    for (std::size_t i = 0; i < c.length; ++i)
        std::copy(output.row(i), output.row(i) + c.d_head, heads_out.row(i) + h * c.d_head);
}

// logits = O·W_out + b.
void readout(const ModelConfig& c, const Params& p, const Matrix& heads_out, Matrix& logits) {
    multiply_into(heads_out, p.w_out, logits);
    for (std::size_t i = 0; i < c.length; ++i)
        for (std::size_t j = 0; j < c.classes; ++j) logits(i, j) += p.b_out(0, j);
}

}  // namespace

SequencePass forward_sequence(const ModelConfig& c, const Params& p, const int* tokens) {
    const ProjectedEmbedding e = project_embedding(c, p);
    SequencePass s;
    s.x = embed(c, p, tokens);
    s.heads_out = Matrix(c.length, c.heads * c.d_head);
    const AttentionOptions o = head_options(c);
    for (std::size_t h = 0; h < c.heads; ++h) {
        s.q.push_back(projected(c, e, tokens, h, 0));
        s.k.push_back(projected(c, e, tokens, h, 1));
        s.v.push_back(projected(c, e, tokens, h, 2));
        s.steps.push_back(forward_head(s.q[h], s.k[h], s.v[h], o));
        put_head(c, s.steps[h].output, h, s.heads_out);
    }
    s.logits = Matrix(c.length, c.classes);
    readout(c, p, s.heads_out, s.logits);
    return s;
}

BatchRows::BatchRows(const ModelConfig& c, std::size_t sequences)
    : heads_out(sequences * c.length, c.heads * c.d_head),
      d_logits(sequences * c.length, c.classes),
      d_projected(sequences * c.length, c.heads * kProjections * c.d_head) {}

namespace {

// m's rows into `into` from row `at` on (their first into.cols values).
void put_rows(Matrix& into, std::size_t at, const Matrix& m) {
    for (std::size_t i = 0; i < m.rows; ++i) std::copy(m.row(i), m.row(i) + into.cols, into.row(at + i));
}
// m's rows into `into`'s columns from `column` on, from row `at` on.
void put_block(Matrix& into, std::size_t at, std::size_t column, const Matrix& m) {
    for (std::size_t i = 0; i < m.rows; ++i) std::copy(m.row(i), m.row(i) + m.cols, into.row(at + i) + column);
}

}  // namespace

void begin_batch(const ModelConfig& c, const Params& p, TrainWorkspace* ws) {
    ws->projected = project_embedding(c, p);
    for (std::size_t j = 0; j < c.classes; ++j)
        for (std::size_t t = 0; t < p.w_out.rows; ++t) ws->w_out_t(j, t) = p.w_out(t, j);
}

namespace {

// The forward pass of one sequence in *ws: each head's Q, K, V and steps, O and the logits.
void forward_in(const ModelConfig& c, const Params& p, TrainWorkspace* ws, const int* tokens) {
    const AttentionOptions o = head_options(c);
    for (std::size_t h = 0; h < c.heads; ++h) {
        HeadWorkspace& head = ws->heads[h];
        project_into(c, ws->projected, tokens, h, 0, head.q);
        project_into(c, ws->projected, tokens, h, 1, head.k);
        project_into(c, ws->projected, tokens, h, 2, head.v);
        head_forward(head, ws->kept, o);
        put_head(c, head.steps.output, h, ws->heads_out);
    }
    readout(c, p, ws->heads_out, ws->logits);
}

// Cross-entropy of one sequence: −log softmax(logits_i)[y_i] into *loss, *scored and *correct;
// its gradient, scale·(softmax(logits_i) − onehot(y_i)), into ws->d_logits (0 on an unscored row).
void cross_entropy(const ModelConfig& c, const int* targets, float scale, TrainWorkspace* ws, double* loss,
                   std::size_t* scored, std::size_t* correct) {
    std::fill(ws->d_logits.data.begin(), ws->d_logits.data.end(), 0.0f);
    std::vector<float>& exps = ws->exps;  // e^(z_j − m), each computed once
    for (std::size_t i = 0; i < c.length; ++i) {
        if (targets[i] < 0) continue;  // kUnscored
        const auto y = static_cast<std::size_t>(targets[i]);
        const float* z = ws->logits.row(i);
        const float m = *std::max_element(z, z + c.classes);
        float sum = 0.0f;
        for (std::size_t j = 0; j < c.classes; ++j) {
            exps[j] = std::exp(z[j] - m);
            sum += exps[j];
        }
        *loss += static_cast<double>(std::log(sum) - (z[y] - m));
        *scored += 1;
        *correct += static_cast<std::size_t>(std::max_element(z, z + c.classes) - z) == y;
        for (std::size_t j = 0; j < c.classes; ++j)
            ws->d_logits(i, j) = scale * (exps[j] / sum - (j == y ? 1.0f : 0.0f));
    }
}

}  // namespace

void sequence_backward(const ModelConfig& c, const Params& p, TrainWorkspace* ws, const int* tokens, const int* targets,
                       float scale, double* loss, std::size_t* scored, std::size_t* correct, Params* grads,
                       double* softmax_gradient, std::size_t s) {
    forward_in(c, p, ws, tokens);
    cross_entropy(c, targets, scale, ws, loss, scored, correct);
    if (!grads) return;

    // The readout: logits = O·W_out + b (W_out's gradient, Oᵀ·∂logits, from the rows), and
    // ∂/∂O = ∂/∂logits · W_outᵀ, four rows at a time (d_project_input's product, with W_outᵀ made once a batch).
    const std::size_t at = s * c.length;
    put_rows(ws->rows.heads_out, at, ws->heads_out);
    put_rows(ws->rows.d_logits, at, ws->d_logits);
    for (std::size_t i = 0; i < c.length; ++i)
        for (std::size_t j = 0; j < c.classes; ++j) grads->b_out(0, j) += ws->d_logits(i, j);
    const Matrix &d_logits = ws->d_logits, &w_out_t = ws->w_out_t;
    simd::product_rows(ws->d_heads.data.data(), ws->d_heads.cols, d_logits.rows, d_logits.data.data(), 1, d_logits.cols,
                       w_out_t.data.data(), w_out_t.cols, d_logits.cols, w_out_t.cols);

    // Each head: its columns of dO, back through attention (its dQ, dK, dV into the rows: the
    // projections' weights and dX from them).
    const AttentionOptions o = head_options(c);
    double d_scaled_norm2 = 0.0;
    for (std::size_t h = 0; h < c.heads; ++h) {
        HeadWorkspace& head = ws->heads[h];
        for (std::size_t i = 0; i < c.length; ++i)
            std::copy(ws->d_heads.row(i) + h * c.d_head, ws->d_heads.row(i) + (h + 1) * c.d_head, head.d_out.row(i));
        head_backward(head, o);
        const AttentionGrads& g = head.grads;
        for (float z : g.d_scaled.data) d_scaled_norm2 += double(z) * double(z);
        const std::size_t block = h * kProjections * c.d_head;
        put_block(ws->rows.d_projected, at, block, g.d_q);
        put_block(ws->rows.d_projected, at, block + c.d_head, g.d_k);
        put_block(ws->rows.d_projected, at, block + 2 * c.d_head, g.d_v);
    }
    if (softmax_gradient) *softmax_gradient += std::sqrt(d_scaled_norm2);
}

void add_batch_grads(const ModelConfig& c, const Params& p, const BatchRows& rows, const int* tokens, Params* grads) {
    add_into(grads->w_out, simd_backward::d_project_weights(rows.heads_out, rows.d_logits));
    // Through every head's projections at once (BatchRows), with X's token part E[token_r] (+ P_i,
    // learned positions) and W = [W_Q1 W_K1 W_V1 …] over it. Each product over the batch's rows is
    // one over D's rows summed by token, G, and by position, H:
    //   Xᵀ·D = Eᵀ·G (+ Pᵀ·H)      G_v = Σ_{r: token_r = v} D_r,  H_i = Σ_s D_{s·n+i}
    //   ∂E_v = Σ_{r: token_r = v} (D·Wᵀ)_r = G_v·Wᵀ,   ∂P_i = H_i·Wᵀ
    // — products with vocab and n rows, not with the batch's: what gathering rows of E into X costs
    // (the one-hot positions are not learned; learned ones are added to the token part, d_token = d_model).
    const Matrix& d = rows.d_projected;
    Matrix by_token(c.vocab, d.cols), by_position(c.length, d.cols);
    for (std::size_t r = 0; r < d.rows; ++r) {
        float* g = by_token.row(static_cast<std::size_t>(tokens[r]));
        float* h = by_position.row(r % c.length);
        for (std::size_t j = 0; j < d.cols; ++j) g[j] += d(r, j), h[j] += d(r, j);
    }
    const bool learned = c.position == PositionKind::Learned;
    Matrix token = simd_backward::d_project_weights(p.token_embedding, by_token);
    if (learned) add_into(token, simd_backward::d_project_weights(p.position_embedding, by_position));
    for (std::size_t h = 0; h < c.heads; ++h)
        for (std::size_t j = 0; j < kProjections; ++j)
            add_weight_gradient(c, token, by_position, h * kProjections + j, projection(*grads, j)[h]);
    const Matrix w = side_by_side(c, p, 0, c.d_token);
    add_into(grads->token_embedding, simd_backward::d_project_input(by_token, w));
    if (learned) add_into(grads->position_embedding, simd_backward::d_project_input(by_position, w));
}

void loss_and_backward(const ModelConfig& c, const Params& p, const int* tokens, const int* targets, float scale,
                       double* loss, std::size_t* scored, std::size_t* correct, Params* grads,
                       double* softmax_gradient) {
    TrainWorkspace ws(c, grads ? 1 : 0);
    begin_batch(c, p, &ws);
    sequence_backward(c, p, &ws, tokens, targets, scale, loss, scored, correct, grads, softmax_gradient, 0);
    if (grads) add_batch_grads(c, p, ws.rows, tokens, grads);
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
