// train.cpp — see train.hpp.
#include "train.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "number_text.hpp"
#include "random.hpp"

namespace attn {
namespace {

// The batches' stream: the seed's own, apart from the initialisation's (a fixed odd offset).
constexpr std::uint64_t kBatchStream = 0xB5AD4ECEDA1CE2A9u;

Error check_config(const TrainConfig& c) {
    if (Error e = check_task(c.task)) return e;
    if (Error e = check_range("dToken", static_cast<std::int64_t>(c.d_token), 1, 256)) return e;
    if (Error e = check_range("heads", static_cast<std::int64_t>(c.heads), 1, 4)) return e;
    if (Error e = check_range("dHead", static_cast<std::int64_t>(c.d_head), 1, 256)) return e;
    if (Error e = check_range("batch", static_cast<std::int64_t>(c.batch), 1, 256)) return e;
    if (Error e = check_range("seed", c.seed, 0, 4294967295)) return e;
    return check_learning_rate(c.learning_rate);
}

ModelConfig model_for(const TrainConfig& c) {
    const TaskShape shape = task_shape(c.task);
    ModelConfig m;
    m.vocab = shape.vocab;
    m.classes = shape.classes;
    m.length = c.task.length;
    m.d_token = c.d_token;
    m.heads = c.heads;
    m.d_head = c.d_head;
    m.position = c.position;
    m.scale = c.scale;
    m.causal = shape.causal;
    return m;
}

// Loss and accuracy of a batch, computed in *ws (made for m, with rows for the batch when grads is
// given); with grads, the gradient of its mean loss added to *grads and the batch's mean size of the
// gradient through the softmax (train.hpp) in the report.
TrainReport run_batch(const ModelConfig& m, const Params& p, const Batch& b, TrainWorkspace* ws, Params* grads) {
    std::size_t scored_per_batch = 0;
    for (int y : b.targets) scored_per_batch += y != kUnscored;
    const float scale = 1.0f / static_cast<float>(scored_per_batch);
    double loss = 0.0, softmax_gradient = 0.0;
    std::size_t scored = 0, correct = 0, sequences = 0;
    // The projections' weights, dX and the embedding: products over the whole batch's rows after the loop.
    begin_batch(m, p, ws);
    for (std::size_t s = 0; s < b.count; ++s) {
        const std::size_t scored_before = scored;
        double sequence_gradient = 0.0;
        sequence_backward(m, p, ws, b.tokens.data() + s * b.length, b.targets.data() + s * b.length, scale, &loss,
                          &scored, &correct, grads, &sequence_gradient, s);
        // The gradient of the batch's mean loss, scale·Σ, back to this sequence's own mean.
        const std::size_t sequence_scored = scored - scored_before;
        if (sequence_scored == 0) continue;
        softmax_gradient += sequence_gradient / (double(scale) * double(sequence_scored));
        ++sequences;
    }
    if (grads) add_batch_grads(m, p, ws->rows, b.tokens.data(), grads);
    TrainReport r{loss / double(scored), double(correct) / double(scored)};
    if (grads && sequences > 0) r.softmax_gradient = softmax_gradient / double(sequences);
    return r;
}

}  // namespace

Error check_learning_rate(double lr) {
    const bool in_range = std::isfinite(lr) && lr > 0.0 && lr <= 1.0;
    if (in_range && static_cast<float>(lr) > 0.0f) return {};
    Error e;
    e.code = ErrorCode::OutOfRange;
    e.argument = "learningRate";
    e.params = {{"got", lr}, {"min", 0.0}, {"max", 1.0}};
    e.message = in_range ? "learningRate rounds to 0 in float32, whose smallest positive number is " +
                               number_text(static_cast<double>(std::numeric_limits<float>::denorm_min()))
                         : std::string("learningRate must be a number greater than 0 and at most 1");
    e.message += " (got " + number_text(lr) + ")";
    return e;
}

Error read_tokens(const ModelConfig& model, const std::vector<double>& tokens, std::vector<int>* sequence) {
    Error e;
    if (tokens.size() != model.length) {
        e.code = ErrorCode::WrongLength;
        e.argument = "tokens";
        e.params = {{"got", static_cast<double>(tokens.size())}, {"need", static_cast<double>(model.length)}};
        e.message = "tokens has " + std::to_string(tokens.size()) + " tokens but this trainer's sequences have " +
                    std::to_string(model.length);
        return e;
    }
    const double most = static_cast<double>(model.vocab) - 1.0;
    sequence->resize(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const double token = tokens[i];
        if (!(token >= 0.0 && token <= most && token == std::floor(token))) {
            e.code = ErrorCode::OutOfRange;
            e.argument = "tokens";
            e.params = {{"index", static_cast<double>(i)}, {"got", token}, {"min", 0.0}, {"max", most}};
            e.message = "tokens[" + std::to_string(i) + "] must be a whole number from 0 to " + number_text(most) +
                        " (got " + number_text(token) + ")";
            return e;
        }
        (*sequence)[i] = static_cast<int>(token);
    }
    return e;
}

Result<Trainer> Trainer::create(const TrainConfig& config) {
    if (Error e = check_config(config)) return Result<Trainer>::failure(e);
    Trainer t;
    t.config_ = config;
    t.model_ = model_for(config);
    const auto seed = static_cast<std::uint64_t>(config.seed);
    t.params_ = init_params(t.model_, seed);
    t.m_ = zero_params(t.model_);
    t.v_ = zero_params(t.model_);
    t.batches_ = SplitMix64(seed ^ kBatchStream);
    // check_config held n ≤ 64 and d_k ≤ 256: every head's Q, K, V are shapes the checked steps
    // take, so the steps run on them unchecked (train_workspace.hpp).
    t.workspace_ = TrainWorkspace(t.model_, config.batch);
    return Result<Trainer>::success(std::move(t));
}

TrainReport Trainer::step() {
    const Batch b = make_batch(config_.task, config_.batch, batches_);
    Params& grads = workspace_.grads;
    for (Matrix* g : tensors(grads)) std::fill(g->data.begin(), g->data.end(), 0.0f);
    const TrainReport report = run_batch(model_, params_, b, &workspace_, &grads);
    ++steps_;
    const float lr = static_cast<float>(config_.learning_rate);
    const std::vector<Matrix*> theta = tensors(params_), g = tensors(grads), m = tensors(m_), v = tensors(v_);
    if (config_.optimizer == OptimizerKind::Sgd) {
        for (std::size_t t = 0; t < theta.size(); ++t)
            for (std::size_t i = 0; i < theta[t]->size(); ++i) theta[t]->data[i] -= lr * g[t]->data[i];
        return report;
    }
    constexpr float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
    const float correction1 = 1.0f - static_cast<float>(std::pow(double(beta1), double(steps_)));
    const float correction2 = 1.0f - static_cast<float>(std::pow(double(beta2), double(steps_)));
    for (std::size_t t = 0; t < theta.size(); ++t)
        for (std::size_t i = 0; i < theta[t]->size(); ++i) {
            const float gi = g[t]->data[i];
            float& mi = m[t]->data[i];
            float& vi = v[t]->data[i];
            mi = beta1 * mi + (1.0f - beta1) * gi;
            vi = beta2 * vi + (1.0f - beta2) * gi * gi;
            theta[t]->data[i] -= lr * (mi / correction1) / (std::sqrt(vi / correction2) + eps);
        }
    return report;
}

Error Trainer::set_learning_rate(double lr) {
    if (Error e = check_learning_rate(lr)) return e;
    config_.learning_rate = lr;
    return {};
}

// Every head reads the scaling from the model at each step (head_options, model.cpp).
void Trainer::set_scale(Scale scale) {
    config_.scale = scale;
    model_.scale = scale;
}

TrainReport Trainer::evaluate(std::size_t count, std::uint64_t seed) const {
    SplitMix64 stream(seed);
    TrainWorkspace ws(model_, 0);  // the loss alone: no rows
    return run_batch(model_, params_, make_batch(config_.task, count, stream), &ws, nullptr);
}

HeadsGradient Trainer::probe_gradient(const int* tokens) const {
    std::vector<int> targets(model_.length);
    task_targets(config_.task, tokens, targets.data());
    return heads_gradient(model_, params_, tokens, targets.data());
}

}  // namespace attn
