// train.hpp — the training loop in the core: batches from a task (tasks.hpp), the model's
// forward and backward pass (model.hpp), and Adam or plain SGD, one step at a time.
//
// One step: `batch` sequences drawn from the task's seeded stream; the loss is the mean
// cross-entropy over every scored position of the batch; the gradient of that mean, summed over
// the sequences in order; then the optimizer:
//   SGD   θ ← θ − lr·g
//   Adam  m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², θ ← θ − lr·m̂ / (√v̂ + ε), m̂ = m/(1−β₁ᵗ),
//         v̂ = v/(1−β₂ᵗ), with β₁ = 0.9, β₂ = 0.999, ε = 10⁻⁸ (Kingma & Ba's defaults)
// Everything is float32 on one thread, in a fixed order: the same config (seed included) and the
// same build give the same run bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model.hpp"
#include "result.hpp"
#include "tasks.hpp"
#include "train_workspace.hpp"

namespace attn {

enum class OptimizerKind { Adam, Sgd };
inline constexpr OptionName<OptimizerKind> kOptimizerNames[] = {{"adam", OptimizerKind::Adam},
                                                                {"sgd", OptimizerKind::Sgd}};

struct TrainConfig {
    TaskConfig task;
    std::size_t d_token = 16;  // 1 … 256
    std::size_t heads = 1;     // 1 … 4
    std::size_t d_head = 16;   // d_k, 1 … 256
    PositionKind position = PositionKind::OneHot;
    Scale scale = Scale::SqrtDk;
    OptimizerKind optimizer = OptimizerKind::Adam;
    // > 0 and ≤ 1, as given (a JS number is checked before float32 rounds it); the steps use the
    // float32 nearest it, which must not be 0.
    double learning_rate = 0.01;
    std::size_t batch = 16;  // 1 … 256
    std::int64_t seed = 0;   // 0 … 2³² − 1: the initialisation, and the batches' stream
};

// What a step or an evaluation measured.
struct TrainReport {
    double loss = 0.0;      // mean cross-entropy per scored position (nats)
    double accuracy = 0.0;  // the fraction of scored positions whose argmax is the target
    // step() only: the size of the gradient through the softmax, ‖∂ℓ/∂Z‖_F with Z every head's
    // scaled scores (model.hpp) and ℓ one sequence's own mean loss, averaged over the batch — the
    // number §4 says falls towards 0 when, unscaled, the softmax saturates. 0 in evaluate().
    double softmax_gradient = 0.0;
};

// learningRate as given: out_of_range unless 0 < lr ≤ 1 and float32 holds it as a number above 0.
// The message quotes lr as given (number_text.hpp): "… at most 1 (got 1.0000001)".
Error check_learning_rate(double lr);

// A probe's tokens, as given (a JS array's numbers, checked to be whole by the API), against the
// model: wrong_length unless there are the model's n of them, out_of_range for a token outside its
// vocabulary 0 … vocab − 1 (naming tokens[i] and the value as given). On success *sequence holds them.
Error read_tokens(const ModelConfig& model, const std::vector<double>& tokens, std::vector<int>* sequence);

class Trainer {
  public:
    // The config checked (out_of_range naming the field), then the seeded initialisation.
    static Result<Trainer> create(const TrainConfig& config);

    // One optimizer step on a fresh batch; reports that batch's loss and accuracy before the update.
    TrainReport step();
    // Loss and accuracy on `count` sequences from another stream (`seed`), without learning.
    TrainReport evaluate(std::size_t count, std::uint64_t seed) const;

    // One sequence's loss and its gradient at the heads' output (model.hpp, HeadsGradient), with
    // the targets the task asks of these tokens (task_targets); tokens of the model's length and
    // vocabulary (the caller checks them). Learns nothing.
    HeadsGradient probe_gradient(const int* tokens) const;

    // A fork (the training lab's, issue 26): the steps from now on use another learning rate or
    // scaling; the parameters, Adam's moments and step count, and the batches' stream are kept, so
    // that the next step is the one the run would have taken, with the new setting alone changed.
    // set_learning_rate checks lr as create() does (check_learning_rate) and keeps the old one if
    // it refuses.
    Error set_learning_rate(double lr);
    void set_scale(Scale scale);
    double learning_rate() const { return config_.learning_rate; }
    Scale scale() const { return model_.scale; }

    const ModelConfig& model() const { return model_; }
    const Params& params() const { return params_; }
    std::size_t steps() const { return steps_; }

    Trainer() = default;  // for Result; create() makes a usable one

  private:
    TrainConfig config_;
    ModelConfig model_;
    Params params_, m_, v_;
    SplitMix64 batches_{0};
    std::size_t steps_ = 0;
    // Every step's buffers, made once here for the model and the batch (train_workspace.hpp).
    TrainWorkspace workspace_;
};

}  // namespace attn
