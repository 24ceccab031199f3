// train_workspace.hpp — the memory of a training step, made once for a model (Trainer::create) and
// written again by every step, so that a step allocates nothing per sequence (issue 31, item 4).
//
// A step runs each sequence of its batch through the same buffers: the sequence's forward pass
// (model.cpp, sequence_backward), each head's steps and their backward (head_forward and
// head_backward below, train_head.cpp), then its rows of the batch (BatchRows), from which the
// step's gradient follows (add_batch_grads). Every buffer has the shape the model gives it, so
// the steps write over it in place; the comment of each says which step writes it.
//
// head_forward and head_backward are attention_steps_simd and backward_steps_simd (attention.hpp,
// backward_attention.hpp) without their checks: the same kernels, called in the same order, so the
// same numbers bit for bit (tests/core/test_train.cpp holds them to it). The checks have nothing
// to find here: the shapes are the model's own, checked once when the trainer was made, and the
// one value the public step refuses, ±∞ in Q, K or V (weights that have diverged), is seen by the
// overflow guard's pass over them, and gives the refused head's NaN (model.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "attention.hpp"
#include "backward_attention.hpp"
#include "matrix.hpp"
#include "model.hpp"

namespace attn {

// One head's buffers for one sequence at a time. n = the model's length, d = d_head.
struct HeadWorkspace {
    explicit HeadWorkspace(const ModelConfig& c);
    HeadWorkspace() = default;

    Matrix q, k, v;        // (n, d) each: this head's Q, K, V — written by the forward pass (model.cpp, project_into)
    AttentionSteps steps;  // head_forward: S, the scaled scores, the softmax's intermediates, A and O;
                           // kept, the model's mask, copied in (its non_finite counts are not made:
                           // training reads none of them)
    Matrix d_out;          // (n, d) dO, this head's columns of ∂/∂O — written by the backward pass (model.cpp)
    Matrix v_t;            // (d, n) Vᵀ — head_backward, for dA = dO·Vᵀ
    AttentionGrads grads;  // head_backward: dV, dA, dZ, dS, dQ, dK
};

// Every buffer of a step. The (n, n) and (n, d) ones serve each sequence in turn; `rows` the batch.
struct TrainWorkspace {
    // For `sequences` sequences a step (their rows for the batch's products; 0 for the loss alone).
    TrainWorkspace(const ModelConfig& c, std::size_t sequences);
    TrainWorkspace() = default;  // for a Trainer not made yet (Result)

    Matrix kept;                       // (n, n) the heads' mask: 1 kept, 0 masked (causal or none) — made here, once
    std::vector<HeadWorkspace> heads;  // one per head
    ProjectedEmbedding projected;      // E·W and the positions' rows — begin_batch (model.cpp), made anew each
                                       // batch (W changed), as add_batch_grads' products over the batch are
    Matrix w_out_t;                    // (classes, heads·d) W_outᵀ — begin_batch, for ∂/∂O
    Matrix heads_out;                  // (n, heads·d) O = [O_1 … O_H] — the forward pass, from each head's output
    Matrix logits;                     // (n, classes) O·W_out + b — the forward pass
    std::vector<float> exps;           // (classes) e^(z_j − max z) of one position — the cross-entropy
    Matrix d_logits;                   // (n, classes) ∂/∂logits, 0 on unscored rows — the cross-entropy
    Matrix d_heads;                    // (n, heads·d) ∂/∂O = ∂/∂logits · W_outᵀ — the backward pass
    BatchRows rows;                    // every sequence's O, ∂/∂logits, dQ dK dV — the backward pass, sequence s
                                       // at its rows; read by add_batch_grads
    Params grads;                      // the step's gradient — zeroed by Trainer::step, summed over the batch
};

// One head's forward steps on w.q, w.k, w.v (written already), into w.steps, with the model's mask
// `kept` and the options the model gives every head (its scale and mask; row softmax, stable,
// temperature 1). As attention_steps_simd computes them, without its checks (the header comment).
void head_forward(HeadWorkspace& w, const Matrix& kept, const AttentionOptions& options);
// The backward steps of that forward pass with w.d_out (written already), into w.grads: as
// backward_steps_simd computes them.
void head_backward(HeadWorkspace& w, const AttentionOptions& options);

}  // namespace attn
