// model.hpp — the smallest model that learns with attention (issue 17), small enough to read:
//
//   tokens → x_i = E[token_i] ⊕ position_i → per head h: Q_h = X·W_Q^h, K_h = X·W_K^h, V_h = X·W_V^h,
//     O_h = softmax(Q_h K_hᵀ / √d_k)·V_h → O = [O_1 … O_H] → logits = O·W_out + b → cross-entropy
//
// Position, a switch: one-hot (x_i = E[token_i] followed by the one-hot vector of i, so that
// d_model = d_token + n and nothing about positions is learned), or learned (x_i = E[token_i] + P_i,
// d_model = d_token). Each head runs the single-head steps of attention.hpp (attention_steps_simd)
// and backward_attention.hpp (backward_steps_simd): in training without their checks, in the step's
// buffers (train_workspace.hpp, head_forward and head_backward), for the probe (forward_sequence)
// through the checked attention_steps_simd, with the same numbers.
//
// The initialisation is seeded (random.hpp) and chosen so that, at step 0, the components of q and
// k have mean 0 and variance 1 — the article's §4 assumption — whatever the sizes: the embeddings'
// values have a known E‖x‖², and W_Q, W_K, W_V are N(0, 1/E‖x‖²), so Var(q_c) = Σ_t E[x_t²]·Var(W_tc) = 1.
// W_out is N(0, 1/(H·d_k)), b = 0.
//
// Training (train.hpp) computes in float32 on one thread: the same seed and the same build give the
// same run bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attention.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "result.hpp"

namespace attn {

enum class PositionKind { OneHot, Learned };
inline constexpr OptionName<PositionKind> kPositionNames[] = {{"one_hot", PositionKind::OneHot},
                                                              {"learned", PositionKind::Learned}};

struct ModelConfig {
    std::size_t vocab = 6;     // input tokens
    std::size_t classes = 6;   // output classes
    std::size_t length = 6;    // n, positions
    std::size_t d_token = 16;  // the width of a token's embedding
    std::size_t heads = 1;     // 1 … 4
    std::size_t d_head = 16;   // d_k = d_v of each head
    PositionKind position = PositionKind::OneHot;
    Scale scale = Scale::SqrtDk;
    bool causal = false;
};

// d_model: the width of x_i.
std::size_t model_width(const ModelConfig& c);

// Every learned number; the optimizer's moments have the same shape.
struct Params {
    Matrix token_embedding;             // (vocab, d_token) E
    Matrix position_embedding;          // (n, d_model) P, learned positions only; 0×0 for one-hot
    std::vector<Matrix> w_q, w_k, w_v;  // per head: (d_model, d_head)
    Matrix w_out;                       // (heads·d_head, classes)
    Matrix b_out;                       // (1, classes)
};

// Every matrix of p in one fixed order (the optimizer walks them; tests compare them).
std::vector<Matrix*> tensors(Params& p);
std::vector<const Matrix*> tensors(const Params& p);

// Params of c's shapes, all zero (for gradients and moments).
Params zero_params(const ModelConfig& c);
// The seeded initialisation described at the top.
Params init_params(const ModelConfig& c, std::uint64_t seed);

// X for one sequence: (n, d_model).
Matrix embed(const ModelConfig& c, const Params& p, const int* tokens);

// What one sequence's forward pass keeps for its backward pass and for the page.
struct SequencePass {
    Matrix x;                           // (n, d_model)
    std::vector<Matrix> q, k, v;        // per head: (n, d_head)
    std::vector<AttentionSteps> steps;  // per head: every intermediate, the weights A (n, n) among them
    Matrix heads_out;                   // (n, heads·d_head)  O = [O_1 … O_H]
    Matrix logits;                      // (n, classes)
};
SequencePass forward_sequence(const ModelConfig& c, const Params& p, const int* tokens);

// X·W for every token and every position, once for the parameters: x_i is E[token_i] ⊕ one-hot(i)
// or E[token_i] + P_i, so x_i·W = E[token_i]·W' + W[d_token + i] or E[token_i]·W + P_i·W (W' the
// first d_token rows of W). W = [W_Q1 W_K1 W_V1 … W_VH] side by side, as BatchRows::d_projected.
// A sequence's Q, K and V are then rows of these, added: a training step makes the products once,
// with vocab and n rows, not once per sequence.
struct ProjectedEmbedding {
    Matrix by_token;     // (vocab, heads·3·d_head)  E·W'
    Matrix by_position;  // (n, heads·3·d_head)      W's one-hot rows, or P·W
};
ProjectedEmbedding project_embedding(const ModelConfig& c, const Params& p);

// The rows a batch's backward pass leaves for the projections' weights and the embedding,
// sequence s at rows s·n … s·n + n − 1: O = [O_1 … O_H], ∂/∂logits, and every head's dQ, dK, dV
// side by side, D = [dQ_1 dK_1 dV_1 … dQ_H dK_H dV_H]. What follows from them is a few products over
// the whole batch (add_batch_grads), not small ones per sequence, head and projection.
struct BatchRows {
    BatchRows(const ModelConfig& c, std::size_t sequences);
    BatchRows() = default;
    Matrix heads_out;    // (sequences·n, heads·d_head)
    Matrix d_logits;     // (sequences·n, classes)
    Matrix d_projected;  // (sequences·n, heads·3·d_head) D: head h's dQ, dK, dV at columns (3h + 0, 1, 2)·d_head
};

struct TrainWorkspace;  // a step's buffers, train_workspace.hpp

// What every sequence of a batch shares, made once a batch into *ws: the projected embedding
// (project_embedding) and W_outᵀ.
void begin_batch(const ModelConfig& c, const Params& p, TrainWorkspace* ws);
// One sequence's cross-entropy and backward pass as loss_and_backward (below) computes them, down
// to each head's dQ, dK, dV, in the buffers of *ws (begin_batch made for p): what follows from them
// (the projections' weights, dX and the embedding's gradient) is left in ws->rows at sequence `s`'s
// rows for add_batch_grads; b's gradient is added to *grads. With grads null, the loss alone (rows
// untouched). The heads run unchecked (head_forward, head_backward): the shapes are the model's.
void sequence_backward(const ModelConfig& c, const Params& p, TrainWorkspace* ws, const int* tokens, const int* targets,
                       float scale, double* loss, std::size_t* scored, std::size_t* correct, Params* grads,
                       double* softmax_gradient, std::size_t s);
// Adds to *grads what the rows give, over every row: W_out += Oᵀ·∂logits; per head W_Q += Xᵀ·dQ,
// W_K += Xᵀ·dK, W_V += Xᵀ·dV; then dX = Σ_h dQ_h·W_Qᵀ + dK_h·W_Kᵀ + dV_h·W_Vᵀ into E (and P) —
// each as a product with E (and P) of D's rows summed by token (and by position), model.cpp.
// `tokens`: the rows' tokens, sequence after sequence.
void add_batch_grads(const ModelConfig& c, const Params& p, const BatchRows& rows, const int* tokens, Params* grads);

// Cross-entropy of one sequence: adds Σ −log softmax(logits_i)[y_i] over its scored positions to
// *loss, and 1 per scored position to *scored and per argmax = y_i to *correct.
// With grads non-null, also adds ∂(scale · that sum)/∂θ to *grads (the backward pass), and, with
// softmax_gradient non-null too, ‖∂(scale · that sum)/∂Z‖_F to *softmax_gradient: Z is every head's
// scaled scores, the softmax's input (Z = S/√d_k, or S unscaled), so this is the size of the
// gradient that reaches the scores through the softmax — near 0 when the softmax saturates (§4).
void loss_and_backward(const ModelConfig& c, const Params& p, const int* tokens, const int* targets, float scale,
                       double* loss, std::size_t* scored, std::size_t* correct, Params* grads,
                       double* softmax_gradient = nullptr);

// What the loss sends back to the heads for one sequence (the training lab's probe, walked through
// the stepper): the sequence's own mean cross-entropy over its scored positions,
//   ℓ = (1/m) Σ_{i scored} −log softmax(logits_i)[y_i],
// and its gradient ∂ℓ/∂O with respect to O = [O_1 … O_H], the heads' outputs side by side:
//   ∂ℓ/∂logits_i = (softmax(logits_i) − onehot(y_i)) / m   (0 on an unscored row)
//   ∂ℓ/∂O        = ∂ℓ/∂logits · W_outᵀ                      (n, heads·d_head)
// Head h's dO = ∂ℓ/∂O_h is its columns h·d_head … (h+1)·d_head − 1. With no scored position, ℓ = 0
// and the gradient is 0.
struct HeadsGradient {
    Matrix x;           // (n, d_model) X = E[token] ⊕ position, the heads' input
    Matrix d_heads;     // (n, heads·d_head) ∂ℓ/∂O
    double loss = 0.0;  // ℓ (nats)
    std::size_t scored = 0;
};
HeadsGradient heads_gradient(const ModelConfig& c, const Params& p, const int* tokens, const int* targets);

}  // namespace attn
