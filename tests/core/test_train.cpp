// The model and its training (model.hpp, train.hpp, tasks.hpp): the model's gradient against finite
// differences, §4's unit variance of q and k at initialisation, each learnable task learned within
// a stated number of steps, the two honest failures measured, the same seed giving the same run bit
// for bit, and the refusals. Small sizes and a few hundred steps, so that the suite stays cheap in
// every build (natively, and in wasm with and without SIMD).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <utility>

#include "backward_attention.hpp"
#include "fixture.hpp"
#include "helpers.hpp"
#include "madd.hpp"
#include "model.hpp"
#include "random.hpp"
#include "simd_kernels.hpp"
#include "train.hpp"
#include "train_workspace.hpp"

using attn::PositionKind;
using attn::TaskKind;
using attn::TrainConfig;
using attn::Trainer;

namespace {

TrainConfig config(TaskKind kind, std::size_t length = 6, std::size_t symbols = 6) {
    TrainConfig c;
    c.task.kind = kind;
    c.task.length = length;
    c.task.symbols = symbols;
    c.task.values = 4;
    c.task.shift = 2;
    c.seed = 7;
    return c;
}

// Trains `steps` steps, then evaluates on 256 held-out sequences (a stream the training never reads).
attn::TrainReport train(const TrainConfig& c, std::size_t steps) {
    auto t = Trainer::create(c);
    REQUIRE(t.ok());
    for (std::size_t s = 0; s < steps; ++s) t.value.step();
    return t.value.evaluate(256, 12345);
}

double cross_entropy(const attn::ModelConfig& m, const attn::Params& p, const std::vector<int>& tokens,
                     const std::vector<int>& targets) {
    double loss = 0.0;
    std::size_t scored = 0, correct = 0;
    attn::loss_and_backward(m, p, tokens.data(), targets.data(), 1.0f, &loss, &scored, &correct, nullptr);
    return loss;
}

}  // namespace

TEST_CASE("model: the backward pass agrees with finite differences of the loss, for every kind of parameter") {
    for (const PositionKind position : {PositionKind::OneHot, PositionKind::Learned})
        for (const bool causal : {false, true}) {
            attn::ModelConfig m;
            m.vocab = 5, m.classes = 4, m.length = 4, m.d_token = 3, m.heads = 2, m.d_head = 3;
            m.position = position, m.causal = causal;
            attn::Params p = attn::init_params(m, 3);
            const std::vector<int> tokens{1, 4, 0, 1}, targets{2, attn::kUnscored, 0, 3};
            attn::Params grads = attn::zero_params(m);
            double loss = 0.0;
            std::size_t scored = 0, correct = 0;
            attn::loss_and_backward(m, p, tokens.data(), targets.data(), 1.0f, &loss, &scored, &correct, &grads);
            CHECK(scored == 3);
            const std::vector<attn::Matrix*> theta = attn::tensors(p), g = attn::tensors(grads);
            for (std::size_t t = 0; t < theta.size(); ++t)
                for (std::size_t i = 0; i < theta[t]->size(); i += 2) {
                    // float32 differences: h large enough that rounding (≈ 1e-7 of a loss ≈ 4) stays
                    // small against h·gradient, small enough that curvature does too.
                    const float h = 1e-2f, x0 = theta[t]->data[i];
                    theta[t]->data[i] = x0 + h;
                    const double up = cross_entropy(m, p, tokens, targets);
                    theta[t]->data[i] = x0 - h;
                    const double down = cross_entropy(m, p, tokens, targets);
                    theta[t]->data[i] = x0;
                    const double want = (up - down) / (2.0 * h);
                    INFO("tensor " << t << ", element " << i << ": " << g[t]->data[i] << " vs " << want);
                    CHECK(testing::close(g[t]->data[i], want, 3e-3, 2e-2));
                }
        }
}

// The training step's batch path (sequence_backward for each sequence, then add_batch_grads over
// all their rows, as Trainer::step runs it) against loss_and_backward summed sequence by sequence:
// the same loss and counts; b bit for bit (the same terms in the same order); the projections'
// weights and E and P, summed over the whole batch's rows by token and by position before their
// products (model.cpp, add_batch_grads), within float32 rounding.
TEST_CASE("model: a batch's gradient from its rows equals loss_and_backward summed over its sequences") {
    for (const PositionKind position : {PositionKind::OneHot, PositionKind::Learned}) {
        attn::ModelConfig m;
        m.vocab = 7, m.classes = 7, m.length = 5, m.d_token = 6, m.heads = 2, m.d_head = 5, m.position = position;
        const attn::Params p = attn::init_params(m, 11);
        const std::size_t count = 6;
        attn::SplitMix64 random(5);
        std::vector<int> tokens(count * m.length), targets(count * m.length);
        for (std::size_t t = 0; t < tokens.size(); ++t) {
            tokens[t] = static_cast<int>(random.next() % m.vocab);
            targets[t] = t % 4 == 3 ? attn::kUnscored : static_cast<int>(random.next() % m.classes);
        }
        attn::Params per_sequence = attn::zero_params(m), batched = attn::zero_params(m);
        double loss_a = 0.0, loss_b = 0.0, gradient_a = 0.0, gradient_b = 0.0;
        std::size_t scored_a = 0, scored_b = 0, correct_a = 0, correct_b = 0;
        attn::TrainWorkspace ws(m, count);
        attn::begin_batch(m, p, &ws);
        for (std::size_t s = 0; s < count; ++s) {
            const int* x = tokens.data() + s * m.length;
            const int* y = targets.data() + s * m.length;
            attn::loss_and_backward(m, p, x, y, 0.1f, &loss_a, &scored_a, &correct_a, &per_sequence, &gradient_a);
            attn::sequence_backward(m, p, &ws, x, y, 0.1f, &loss_b, &scored_b, &correct_b, &batched, &gradient_b, s);
        }
        attn::add_batch_grads(m, p, ws.rows, tokens.data(), &batched);
        CHECK(loss_a == loss_b);
        CHECK(gradient_a == gradient_b);
        CHECK(scored_a == scored_b);
        CHECK(correct_a == correct_b);
        CHECK(batched.b_out.data == per_sequence.b_out.data);
        const std::vector<attn::Matrix*> a = attn::tensors(per_sequence), b = attn::tensors(batched);
        for (std::size_t t = 0; t < a.size(); ++t)
            for (std::size_t i = 0; i < a[t]->size(); ++i) {
                INFO("tensor " << t << ", element " << i);
                CHECK(testing::close(b[t]->data[i], a[t]->data[i], 1e-6, 1e-5));
            }
    }
}

// Q, K and V are made from E·W and the positions' rows (model.hpp, project_embedding), not from X:
// they must still be X·W over every column of X, with one-hot positions (a row of W left out, or
// the wrong one added, is off by O(1)) and with learned ones (E·W + P·W for (E + P)·W).
TEST_CASE("model: Q, K and V are X·W over all of X's columns, with one-hot or learned positions") {
    for (const PositionKind position : {PositionKind::OneHot, PositionKind::Learned}) {
        attn::ModelConfig m;
        m.vocab = 6, m.classes = 6, m.length = 6, m.d_token = 16, m.heads = 2, m.d_head = 4, m.position = position;
        const attn::Params p = attn::init_params(m, 7);
        const std::vector<int> tokens{0, 1, 2, 3, 4, 5};  // the training lab's reverse probe
        const attn::SequencePass s = attn::forward_sequence(m, p, tokens.data());
        REQUIRE(s.x.cols == attn::model_width(m));
        const auto plain = [&](const attn::Matrix& w) {
            attn::Matrix out(s.x.rows, w.cols);
            for (std::size_t i = 0; i < s.x.rows; ++i)
                for (std::size_t j = 0; j < w.cols; ++j) {
                    double sum = 0.0;
                    for (std::size_t t = 0; t < s.x.cols; ++t) sum += double(s.x(i, t)) * double(w(t, j));
                    out(i, j) = float(sum);
                }
            return out;
        };
        // Within float32 rounding of the exact products.
        for (std::size_t h = 0; h < m.heads; ++h)
            for (const auto& [got, w] : {std::pair{&s.q[h], &p.w_q[h]}, {&s.k[h], &p.w_k[h]}, {&s.v[h], &p.w_v[h]}}) {
                const attn::Matrix want = plain(*w);
                for (std::size_t i = 0; i < want.size(); ++i)
                    CHECK(testing::close(got->data[i], want.data[i], 1e-6, 1e-5));
            }
    }
}

TEST_CASE("model: at initialisation the components of q and k have mean 0 and variance 1 (article §4)") {
    for (const PositionKind position : {PositionKind::OneHot, PositionKind::Learned}) {
        attn::ModelConfig m;
        m.vocab = 16, m.classes = 16, m.length = 8, m.d_token = 32, m.heads = 4, m.d_head = 32;
        m.position = position;
        double sum = 0.0, squares = 0.0, count = 0.0;
        attn::SplitMix64 tokens_stream(5);
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            const attn::Params p = attn::init_params(m, seed);
            for (int s = 0; s < 16; ++s) {
                std::vector<int> tokens(m.length);
                for (int& t : tokens) t = static_cast<int>(attn::uniform_below(tokens_stream, m.vocab));
                const attn::SequencePass pass = attn::forward_sequence(m, p, tokens.data());
                for (std::size_t h = 0; h < m.heads; ++h)
                    for (const attn::Matrix* qk : {&pass.q[h], &pass.k[h]})
                        for (float x : qk->data) sum += x, squares += double(x) * x, count += 1;
            }
        }
        const double mean = sum / count, variance = squares / count - mean * mean;
        INFO("position " << attn::option_name(attn::kPositionNames, position) << ": mean " << mean << ", variance "
                         << variance);
        CHECK(std::fabs(mean) < 0.1);
        CHECK(variance > 0.85);
        CHECK(variance < 1.15);
    }
}

TEST_CASE("training: each task one layer can learn is learned within a stated number of steps") {
    // Held-out loss (mean cross-entropy, nats, on 256 sequences) after the stated steps, Adam at
    // lr 0.01, batch 16, d_token = d_k = 16, seed 7. Measured natively: below 0.001 for reverse
    // (both) and shift after 150 steps, 0.056 (accuracy 0.969) for lookup after 500; chance is
    // ln 6 = 1.79 and ln 4 = 1.39.
    SUBCASE("reverse, n = 6, 6 symbols: held-out loss < 0.05 within 150 steps") {
        const auto r = train(config(TaskKind::Reverse), 150);
        INFO("loss " << r.loss << ", accuracy " << r.accuracy);
        CHECK(r.loss < 0.05);
        CHECK(r.accuracy > 0.99);
    }
    SUBCASE("reverse with learned positions and 2 heads: held-out loss < 0.05 within 150 steps") {
        TrainConfig c = config(TaskKind::Reverse);
        c.position = PositionKind::Learned;
        c.heads = 2;
        c.d_head = 8;
        const auto r = train(c, 150);
        INFO("loss " << r.loss << ", accuracy " << r.accuracy);
        CHECK(r.loss < 0.05);
        CHECK(r.accuracy > 0.99);
    }
    SUBCASE("shift by 2, n = 6, 6 symbols: held-out loss < 0.05 within 150 steps") {
        const auto r = train(config(TaskKind::Shift), 150);
        INFO("loss " << r.loss << ", accuracy " << r.accuracy);
        CHECK(r.loss < 0.05);
        CHECK(r.accuracy > 0.99);
    }
    SUBCASE("lookup, 7 pairs of 8 keys × 4 values and a query: held-out loss < 0.1 within 500 steps") {
        const auto r = train(config(TaskKind::Lookup, 8, 8), 500);
        INFO("loss " << r.loss << ", accuracy " << r.accuracy);
        CHECK(r.loss < 0.1);
        CHECK(r.accuracy > 0.95);
    }
}

TEST_CASE("training: sort and induction, which one layer cannot fully learn, stay short of it") {
    // Measured natively after 300 steps (seed 7): sort (n = 8, 16 symbols) gets 0.83 of positions
    // right (it can favour small tokens early and large ones late, but not rank them); induction
    // (n = 8, 8 symbols) 0.18, near chance (1/7 of the tokens it could repeat): it would need to find the
    // earlier copy, then read the token after it.
    const auto sort = train(config(TaskKind::Sort, 8, 16), 300);
    const auto induction = train(config(TaskKind::Induction, 8, 8), 300);
    INFO("sort: accuracy " << sort.accuracy << "; induction: accuracy " << induction.accuracy);
    CHECK(sort.accuracy < 0.95);
    CHECK(sort.accuracy > 0.3);  // but far better than chance (1/16): it learns what it can
    CHECK(induction.accuracy < 0.35);
}

TEST_CASE("training: the same seed gives the same run bit for bit; another seed another run") {
    TrainConfig c = config(TaskKind::Shift);
    auto a = Trainer::create(c), b = Trainer::create(c);
    c.seed = 8;
    auto other = Trainer::create(c);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    REQUIRE(other.ok());
    for (int s = 0; s < 20; ++s) {
        const auto ra = a.value.step(), rb = b.value.step();
        CHECK(ra.loss == rb.loss);
        CHECK(ra.accuracy == rb.accuracy);
        other.value.step();
    }
    const auto pa = attn::tensors(a.value.params()), pb = attn::tensors(b.value.params()),
               po = attn::tensors(other.value.params());
    bool same_as_other = true;
    for (std::size_t t = 0; t < pa.size(); ++t) {
        CHECK(pa[t]->data == pb[t]->data);
        same_as_other = same_as_other && pa[t]->data == po[t]->data;
    }
    CHECK_FALSE(same_as_other);
    CHECK(a.value.steps() == 20);
}

TEST_CASE("training: plain SGD behind the switch steps along −lr·g; Adam does not") {
    // ∂L/∂W_out = Oᵀ·(softmax − one-hot), and softmax − one-hot sums to 0 over the classes, so each
    // row of the gradient sums to 0: so does each row of SGD's first change to W_out. Adam's first
    // step moves each parameter by about lr·sign(g) (m̂/√v̂ = ±1), whose rows do not sum to 0.
    auto largest_row_sum = [](attn::OptimizerKind optimizer, float lr) {
        TrainConfig c = config(TaskKind::Reverse);
        c.optimizer = optimizer;
        c.learning_rate = lr;
        auto t = Trainer::create(c);
        REQUIRE(t.ok());
        const attn::Matrix before = t.value.params().w_out;
        t.value.step();
        const attn::Matrix& after = t.value.params().w_out;
        double largest = 0.0, moved = 0.0;
        for (std::size_t i = 0; i < before.rows; ++i) {
            double row = 0.0;
            for (std::size_t j = 0; j < before.cols; ++j)
                row += after(i, j) - before(i, j), moved += std::fabs(after(i, j) - before(i, j));
            largest = std::max(largest, std::fabs(row));
        }
        CHECK(moved > 0.0);
        return largest;
    };
    CHECK(largest_row_sum(attn::OptimizerKind::Sgd, 0.5f) < 1e-5);
    CHECK(largest_row_sum(attn::OptimizerKind::Adam, 0.01f) > 1e-3);
}

TEST_CASE("training: a config outside its limits is refused with out_of_range, naming the field") {
    auto refused = [](TrainConfig c) { return Trainer::create(c).error; };
    TrainConfig c = config(TaskKind::Reverse);
    c.heads = 5;
    CHECK(refused(c).argument == "heads");
    CHECK(refused(c).message == "heads must be a whole number from 1 to 4 (got 5)");
    c = config(TaskKind::Shift);
    c.task.shift = 6;
    CHECK(refused(c).argument == "shift");
    c = config(TaskKind::Lookup, 8, 6);  // 7 pairs need 7 distinct keys
    CHECK(refused(c).argument == "symbols");
    c = config(TaskKind::Reverse);
    c.learning_rate = 0.0f;
    CHECK(refused(c).code == attn::ErrorCode::OutOfRange);
    CHECK(refused(c).argument == "learningRate");
    c = config(TaskKind::Reverse, 1);
    CHECK(refused(c).argument == "length");
}

TEST_CASE("training: learningRate is refused with the value as given (issue 27: it said 1.000000, 0.000000, nan)") {
    const auto message = [](double lr) {
        TrainConfig c = config(TaskKind::Reverse);
        c.learning_rate = lr;
        const attn::Error e = Trainer::create(c).error;
        CHECK(e.code == attn::ErrorCode::OutOfRange);
        CHECK(e.argument == "learningRate");
        return e.message;
    };
    CHECK(message(1.0000001) == "learningRate must be a number greater than 0 and at most 1 (got 1.0000001)");
    CHECK(message(0.0) == "learningRate must be a number greater than 0 and at most 1 (got 0)");
    CHECK(message(std::nan("")) == "learningRate must be a number greater than 0 and at most 1 (got NaN)");
    CHECK(message(HUGE_VAL) == "learningRate must be a number greater than 0 and at most 1 (got Infinity)");
    // Above 0 as given, but 0 in float32, where the steps use it.
    CHECK(message(1e-50) ==
          "learningRate rounds to 0 in float32, whose smallest positive number is 1.401298464324817e-45 (got 1e-50)");
    CHECK_FALSE(attn::check_learning_rate(1.0));
    CHECK_FALSE(attn::check_learning_rate(1e-45));  // float32 rounds it to its smallest positive number, not to 0
}

TEST_CASE("training: a probe's tokens are checked against the model, naming the token and its value") {
    auto t = Trainer::create(config(TaskKind::Reverse));  // n = 6, vocabulary 0 … 5
    REQUIRE(t.ok());
    std::vector<int> sequence;
    CHECK_FALSE(attn::read_tokens(t.value.model(), {0, 1, 2, 3, 4, 5}, &sequence));
    CHECK(sequence == std::vector<int>{0, 1, 2, 3, 4, 5});
    const attn::Error length = attn::read_tokens(t.value.model(), {0, 1}, &sequence);
    CHECK(length.code == attn::ErrorCode::WrongLength);
    CHECK(length.message == "tokens has 2 tokens but this trainer's sequences have 6");
    const attn::Error outside = attn::read_tokens(t.value.model(), {0, 1, 2, 3, 4, 6}, &sequence);
    CHECK(outside.code == attn::ErrorCode::OutOfRange);
    CHECK(outside.argument == "tokens");
    CHECK(outside.message == "tokens[5] must be a whole number from 0 to 5 (got 6)");
    CHECK(attn::read_tokens(t.value.model(), {0, 1, 2, 3, 4, 5.5}, &sequence).message ==
          "tokens[5] must be a whole number from 0 to 5 (got 5.5)");
    CHECK(attn::read_tokens(t.value.model(), {-1e-50, 1, 2, 3, 4, 5}, &sequence).message ==
          "tokens[0] must be a whole number from 0 to 5 (got -1e-50)");
}

TEST_CASE("training: the √d_k race (article §4) — unscaled, the gradient through the softmax shrinks and it 学不动") {
    // Reverse (n = 6), seed 7, Adam at lr 0.01, the same initialisation for both runs: q and k of
    // unit variance, so unscaled scores have variance d_k. Measured natively (x86-64, AVX) after
    // 150 steps, held-out loss scaled / unscaled: d_k = 16: 0.0002 / 0.0008 (both learn);
    // d_k = 64: 0.0001 / 1.56; d_k = 256: 0.0001 / 1.71 (chance is ln 6 = 1.79). The first step's
    // gradient through the softmax, scaled / unscaled: 0.13 / 0.095, 0.094 / 0.040, 0.11 / 0.027.
    for (const std::size_t d_k : {64, 256}) {
        TrainConfig scaled = config(TaskKind::Reverse), unscaled = scaled;
        scaled.d_head = unscaled.d_head = d_k;
        unscaled.scale = attn::Scale::None;
        auto a = Trainer::create(scaled), b = Trainer::create(unscaled);
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        const attn::TrainReport first_scaled = a.value.step(), first_unscaled = b.value.step();
        INFO("d_k " << d_k << ": first gradient " << first_scaled.softmax_gradient << " scaled, "
                    << first_unscaled.softmax_gradient << " unscaled");
        CHECK(first_unscaled.softmax_gradient < 0.5 * first_scaled.softmax_gradient);
        CHECK(first_unscaled.softmax_gradient > 0.0);
        for (int s = 1; s < 150; ++s) a.value.step(), b.value.step();
        const auto held_scaled = a.value.evaluate(256, 12345), held_unscaled = b.value.evaluate(256, 12345);
        INFO("held-out loss " << held_scaled.loss << " scaled, " << held_unscaled.loss << " unscaled");
        CHECK(held_scaled.loss < 0.05);
        CHECK(held_unscaled.loss > 1.0);
        CHECK(held_scaled.softmax_gradient == 0.0);  // evaluate() learns nothing, measures no gradient
    }
}

TEST_CASE("tasks: task_targets gives a sequence's targets as make_batch pairs them, for every task") {
    for (const TaskKind kind :
         {TaskKind::Reverse, TaskKind::Shift, TaskKind::Lookup, TaskKind::Sort, TaskKind::Induction}) {
        const TrainConfig c = config(kind, kind == TaskKind::Lookup ? 8 : 6, 8);
        attn::SplitMix64 random(11);
        const attn::Batch b = attn::make_batch(c.task, 20, random);
        for (std::size_t s = 0; s < b.count; ++s) {
            std::vector<int> targets(b.length);
            attn::task_targets(c.task, b.tokens.data() + s * b.length, targets.data());
            CHECK(std::equal(targets.begin(), targets.end(), b.targets.begin() + s * b.length));
        }
    }
}

TEST_CASE("model: heads_gradient is the mean cross-entropy of one sequence and its gradient at the heads' output") {
    attn::ModelConfig m;
    m.vocab = 5, m.classes = 4, m.length = 4, m.d_token = 3, m.heads = 2, m.d_head = 3;
    const attn::Params p = attn::init_params(m, 3);
    const std::vector<int> tokens{1, 4, 0, 2};
    const std::vector<int> targets{2, attn::kUnscored, 0, 3};
    const attn::HeadsGradient g = attn::heads_gradient(m, p, tokens.data(), targets.data());
    CHECK(g.scored == 3);
    CHECK(g.loss == doctest::Approx(cross_entropy(m, p, tokens, targets) / 3).epsilon(1e-6));
    const attn::SequencePass s = attn::forward_sequence(m, p, tokens.data());
    testing::check_close(g.x, s.x, 0.0);
    // ℓ(O) in float64: logits = O·W_out + b, the mean of −log softmax(logits_i)[y_i] over the scored rows.
    auto loss_of = [&](const std::vector<double>& o) {
        double total = 0.0;
        for (std::size_t i = 0; i < m.length; ++i) {
            if (targets[i] < 0) continue;
            std::vector<double> z(m.classes);
            for (std::size_t j = 0; j < m.classes; ++j) {
                z[j] = p.b_out(0, j);
                for (std::size_t t = 0; t < s.heads_out.cols; ++t) z[j] += o[i * s.heads_out.cols + t] * p.w_out(t, j);
            }
            const double top = *std::max_element(z.begin(), z.end());
            double sum = 0.0;
            for (double v : z) sum += std::exp(v - top);
            total += std::log(sum) - (z[static_cast<std::size_t>(targets[i])] - top);
        }
        return total / 3.0;
    };
    std::vector<double> o(s.heads_out.data.begin(), s.heads_out.data.end());
    REQUIRE(g.d_heads.rows == m.length);
    REQUIRE(g.d_heads.cols == m.heads * m.d_head);
    const double h = 1e-4;
    for (std::size_t k = 0; k < o.size(); ++k) {
        const double keep = o[k];
        o[k] = keep + h;
        const double up = loss_of(o);
        o[k] = keep - h;
        const double down = loss_of(o);
        o[k] = keep;
        CHECK(g.d_heads.data[k] == doctest::Approx((up - down) / (2 * h)).epsilon(1e-3).scale(1e-3));
    }
}

TEST_CASE("training: probe_gradient pairs the probe with the task's targets; an unscored probe gives ℓ = 0") {
    auto t = Trainer::create(config(TaskKind::Reverse));
    REQUIRE(t.ok());
    const std::vector<int> probe{0, 1, 2, 3, 4, 5};
    const attn::HeadsGradient g = t.value.probe_gradient(probe.data());
    CHECK(g.scored == 6);
    CHECK(g.loss > 0.0);
    auto lookup = Trainer::create(config(TaskKind::Lookup, 8, 8));
    REQUIRE(lookup.ok());
    // 7 pairs with keys 0 … 6 (value 0 each), then the query for key 7, which none of them holds.
    const std::vector<int> unanswerable{0, 4, 8, 12, 16, 20, 24, 8 * 4 + 7};
    const attn::HeadsGradient none = lookup.value.probe_gradient(unanswerable.data());
    CHECK(none.scored == 0);
    CHECK(none.loss == 0.0);
    CHECK(std::all_of(none.d_heads.data.begin(), none.d_heads.data.end(), [](float x) { return x == 0.0f; }));
}

namespace {

// The fixture of runs recorded from the code before the training workspace (issue 31, item 4),
// beside worked-example.json.
const fixture::Json& training_runs() {
    static const fixture::Json runs = [] {
        std::string path = ATTN_FIXTURE;
        path = path.substr(0, path.rfind('/') + 1) + "training-runs.json";
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot open " + path);
        std::stringstream text;
        text << in.rdbuf();
        return fixture::Parser(text.str()).parse();
    }();
    return runs;
}

// The build's key in the fixture: the wasm modules' names, or native-<xsimd arch> (-march=native
// gives each machine its own SIMD, and with it its own last bits).
std::string build_key() {
#if defined(__wasm__)
    return ATTN_RELAXED_SIMD ? "relaxed" : ATTN_HAVE_SIMD ? "simd" : "scalar";
#elif ATTN_HAVE_SIMD
    return std::string("native-") + attn::simd::arch::name();
#else
    return "native-scalar";
#endif
}

// FNV-1a (32-bit) over `bytes` little-endian bytes, as tests/node/training.test.mjs computes it.
std::uint32_t fnv1a(const void* bytes, std::size_t count, std::uint32_t h) {
    const auto* b = static_cast<const unsigned char*>(bytes);
    for (std::size_t i = 0; i < count; ++i) h = (h ^ b[i]) * 0x01000193u;
    return h;
}
constexpr std::uint32_t kFnvStart = 0x811c9dc5u;

std::string hex(std::uint32_t h) {
    char text[9];
    std::snprintf(text, sizeof text, "%08x", h);
    return text;
}

// A run's config as createTrainer reads it: the fields the fixture names, the defaults elsewhere.
TrainConfig fixture_config(const fixture::Json& c) {
    TrainConfig t;
    auto size = [&](const char* key, std::size_t& field) {
        if (c.has(key)) field = static_cast<std::size_t>(c[key].number);
    };
    t.task.kind = *attn::option_value(attn::kTaskNames, c["task"].string);
    size("length", t.task.length);
    size("symbols", t.task.symbols);
    size("values", t.task.values);
    size("shift", t.task.shift);
    size("dToken", t.d_token);
    size("heads", t.heads);
    size("dHead", t.d_head);
    size("batch", t.batch);
    if (c.has("position")) t.position = *attn::option_value(attn::kPositionNames, c["position"].string);
    if (c.has("scale")) t.scale = *attn::option_value(attn::kScaleNames, c["scale"].string);
    if (c.has("optimizer")) t.optimizer = *attn::option_value(attn::kOptimizerNames, c["optimizer"].string);
    if (c.has("learningRate")) t.learning_rate = c["learningRate"].number;
    t.seed = static_cast<std::int64_t>(c["seed"].number);
    return t;
}

struct RunRecord {
    std::vector<double> losses;
    std::string trajectory, weights;
};

RunRecord record_run(const TrainConfig& config, std::size_t steps, std::size_t every) {
    auto t = Trainer::create(config);
    REQUIRE(t.ok());
    RunRecord r;
    std::uint32_t trajectory = kFnvStart;
    for (std::size_t s = 1; s <= steps; ++s) {
        const attn::TrainReport report = t.value.step();
        for (double x : {report.loss, report.accuracy, report.softmax_gradient})
            trajectory = fnv1a(&x, sizeof x, trajectory);
        if (s == 1 || s % every == 0) r.losses.push_back(report.loss);
    }
    const attn::Params& p = t.value.params();
    std::vector<const attn::Matrix*> order{&p.token_embedding, &p.position_embedding};
    for (const auto* heads : {&p.w_q, &p.w_k, &p.w_v})
        for (const attn::Matrix& w : *heads) order.push_back(&w);
    order.push_back(&p.w_out);
    order.push_back(&p.b_out);
    std::uint32_t weights = kFnvStart;
    for (const attn::Matrix* m : order) weights = fnv1a(m->data.data(), m->size() * sizeof(float), weights);
    r.trajectory = hex(trajectory);
    r.weights = hex(weights);
    return r;
}

std::string json(const RunRecord& r) {
    std::string text = "{\"losses\":[";
    for (std::size_t i = 0; i < r.losses.size(); ++i) {
        char number[32];
        std::snprintf(number, sizeof number, "%.17g", r.losses[i]);
        text += (i ? "," : "") + std::string(number);
    }
    return text + "],\"trajectory\":\"" + r.trajectory + "\",\"weights\":\"" + r.weights + "\"}";
}

}  // namespace

TEST_CASE("training: the runs recorded before the training workspace (issue 31) come out bit for bit the same") {
    const fixture::Json& f = training_runs();
    const std::string key = build_key();
    const auto steps = static_cast<std::size_t>(f["steps"].number), every = static_cast<std::size_t>(f["every"].number);
    const fixture::Json& runs = f["runs"];
    if (!f["builds"].has(key)) {
        // Another machine's -march=native: nothing recorded to compare with. Say what this one gives.
        REQUIRE_MESSAGE(key.rfind("native-", 0) == 0, "no recorded runs for the " << key << " build");
        std::string records;
        for (const fixture::Json& run : runs.array)
            records += (records.empty() ? "" : ",") + json(record_run(fixture_config(run["config"]), steps, every));
        MESSAGE("no runs recorded for " << key << "; this build gives \"" << key << "\": [" << records << "]");
        return;
    }
    const fixture::Json& recorded = f["builds"][key];
    REQUIRE(recorded.array.size() == runs.array.size());
    for (std::size_t i = 0; i < runs.array.size(); ++i) {
        CAPTURE(runs.array[i]["name"].string);
        const RunRecord r = record_run(fixture_config(runs.array[i]["config"]), steps, every);
        const fixture::Json& want = recorded.array[i];
        REQUIRE(r.losses.size() == want["losses"].array.size());
        for (std::size_t s = 0; s < r.losses.size(); ++s) CHECK(r.losses[s] == want["losses"].array[s].number);
        CHECK(r.trajectory == want["trajectory"].string);
        CHECK(r.weights == want["weights"].string);
    }
}

namespace {

// The same float32 bits, NaN's included.
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

attn::Matrix identity(std::size_t n) {
    attn::Matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i) m(i, i) = 1.0f;
    return m;
}

// Every field head_forward and head_backward write, against the checked steps the page calls.
void check_same_steps(const attn::AttentionSteps& got, const attn::AttentionSteps& want) {
    for (auto field : {&attn::AttentionSteps::scores, &attn::AttentionSteps::kept, &attn::AttentionSteps::scaled,
                       &attn::AttentionSteps::row_max, &attn::AttentionSteps::shifted, &attn::AttentionSteps::exps,
                       &attn::AttentionSteps::row_sum, &attn::AttentionSteps::weights, &attn::AttentionSteps::output})
        CHECK(same_bits((got.*field).data, (want.*field).data));
    CHECK(got.divisor == want.divisor);
}
void check_same_grads(const attn::AttentionGrads& got, const attn::AttentionGrads& want) {
    for (auto field : {&attn::AttentionGrads::d_v, &attn::AttentionGrads::d_weights, &attn::AttentionGrads::d_scaled,
                       &attn::AttentionGrads::d_scores, &attn::AttentionGrads::d_q, &attn::AttentionGrads::d_k})
        CHECK(same_bits((got.*field).data, (want.*field).data));
}

}  // namespace

TEST_CASE(
    "training: a head's unchecked steps in the workspace are attention_steps_simd and backward_steps_simd, bit for "
    "bit") {
    // Sizes around the SIMD widths, both masks and both scales; each workspace used again and
    // again, as a step uses it for every sequence: nothing of one call may reach the next.
    for (const std::size_t n : {3u, 8u, 13u})
        for (const std::size_t d : {4u, 9u, 16u})
            for (const bool causal : {false, true})
                for (const attn::Scale scale : {attn::Scale::SqrtDk, attn::Scale::None}) {
                    CAPTURE(n);
                    CAPTURE(d);
                    CAPTURE(causal);
                    attn::ModelConfig m;
                    m.length = n, m.d_head = d, m.causal = causal, m.scale = scale;
                    attn::TrainWorkspace ws(m, 0);
                    attn::HeadWorkspace& head = ws.heads[0];
                    attn::AttentionOptions o;
                    o.scale = scale;
                    o.mask.kind = causal ? attn::MaskKind::Causal : attn::MaskKind::None;
                    attn::NormalStream normal(n * 100 + d);
                    for (int call = 0; call < 3; ++call) {
                        for (attn::Matrix* x : {&head.q, &head.k, &head.v, &head.d_out})
                            for (float& value : x->data) value = 3.0f * normal.next();
                        attn::head_forward(head, ws.kept, o);
                        attn::head_backward(head, o);
                        const auto want = attn::attention_steps_simd(head.q, head.k, head.v, o);
                        REQUIRE(want.ok());
                        check_same_steps(head.steps, want.value);
                        check_same_grads(head.grads,
                                         attn::backward_steps_simd(want.value, head.q, head.k, head.v, head.d_out, o));
                    }
                }
}

TEST_CASE(
    "training: a head whose weights diverged is NaN, as the checked step's refusal gives, and the next is whole") {
    attn::ModelConfig m;
    m.length = 4, m.d_head = 4, m.causal = true;
    attn::TrainWorkspace ws(m, 0);
    attn::HeadWorkspace& head = ws.heads[0];
    attn::AttentionOptions o;
    o.mask.kind = attn::MaskKind::Causal;
    head.q = identity(4), head.k = identity(4), head.v = identity(4);
    head.k(2, 1) = std::numeric_limits<float>::infinity();  // attention_steps_simd refuses it: not_finite
    REQUIRE_FALSE(attn::attention_steps_simd(head.q, head.k, head.v, o).ok());
    attn::head_forward(head, ws.kept, o);
    for (float a : head.steps.weights.data) CHECK(std::isnan(a));
    for (float x : head.steps.output.data) CHECK(std::isnan(x));
    head.k(2, 1) = 0.0f;  // the next sequence's keys are finite: its steps are the checked ones again, mask and all
    attn::head_forward(head, ws.kept, o);
    check_same_steps(head.steps, attn::attention_steps_simd(head.q, head.k, head.v, o).value);
    // Values so large that a score could overflow go to the reference's steps, as attention_steps_simd sends them.
    for (float& x : head.v.data) x *= 1e36f;
    attn::head_forward(head, ws.kept, o);
    check_same_steps(head.steps, attn::attention_steps_simd(head.q, head.k, head.v, o).value);
}

namespace {

// Every parameter of a trainer, in tensors()' order.
std::vector<float> all_params(const Trainer& t) {
    std::vector<float> out;
    for (const attn::Matrix* m : attn::tensors(t.params())) out.insert(out.end(), m->data.begin(), m->data.end());
    return out;
}

}  // namespace

TEST_CASE("training: a fork at step 0 is the run created with the new learning rate or scaling, bit for bit") {
    TrainConfig c = config(TaskKind::Reverse);
    TrainConfig faster = c, unscaled = c;
    faster.learning_rate = 0.1;
    unscaled.scale = attn::Scale::None;
    auto a = Trainer::create(c), b = Trainer::create(faster), u = Trainer::create(c), v = Trainer::create(unscaled);
    REQUIRE((a.ok() && b.ok() && u.ok() && v.ok()));
    CHECK_FALSE(a.value.set_learning_rate(0.1));
    CHECK(a.value.learning_rate() == 0.1);
    u.value.set_scale(attn::Scale::None);
    CHECK(u.value.scale() == attn::Scale::None);
    for (int s = 0; s < 20; ++s) {
        CHECK(a.value.step().loss == b.value.step().loss);
        CHECK(u.value.step().loss == v.value.step().loss);
    }
    CHECK(all_params(a.value) == all_params(b.value));
    CHECK(all_params(u.value) == all_params(v.value));
}

TEST_CASE("training: a fork after 30 steps keeps Adam's moments — its next update is the run's, times lr'/lr") {
    // From the same state, Adam's update is lr·m̂/(√v̂ + ε) with the same m̂ and v̂: ten times the rate,
    // ten times the update. Moments started afresh would move each parameter by about lr'·sign(g) instead.
    TrainConfig c = config(TaskKind::Reverse);
    auto run = Trainer::create(c), fork = Trainer::create(c);
    REQUIRE((run.ok() && fork.ok()));
    for (int s = 0; s < 30; ++s) run.value.step(), fork.value.step();
    const std::vector<float> before = all_params(run.value);
    REQUIRE(all_params(fork.value) == before);
    CHECK_FALSE(fork.value.set_learning_rate(0.1));
    CHECK(run.value.step().loss == fork.value.step().loss);  // the same batch, from the same model
    CHECK(fork.value.steps() == 31);
    const std::vector<float> after_run = all_params(run.value), after_fork = all_params(fork.value);
    std::size_t moved = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
        const double run_moved = double(after_run[i]) - before[i], fork_moved = double(after_fork[i]) - before[i];
        if (std::fabs(run_moved) < 1e-5) continue;  // too small to read a ratio through float32's rounding
        ++moved;
        CHECK(fork_moved / run_moved == doctest::Approx(10.0).epsilon(0.01));
    }
    CHECK(moved > 100);
    for (int s = 0; s < 20; ++s) run.value.step(), fork.value.step();
    CHECK(all_params(run.value) != all_params(fork.value));
}

TEST_CASE("training: a fork to no scaling changes the next step's scores, not the model it starts from") {
    TrainConfig c = config(TaskKind::Reverse);
    c.d_head = 64;
    auto run = Trainer::create(c), fork = Trainer::create(c);
    REQUIRE((run.ok() && fork.ok()));
    for (int s = 0; s < 30; ++s) run.value.step(), fork.value.step();
    fork.value.set_scale(attn::Scale::None);
    CHECK(all_params(fork.value) == all_params(run.value));
    // Unscaled, the scores are √64 = 8 times larger: the softmax saturates, its gradient shrinks (§4).
    const attn::TrainReport scaled = run.value.step(), unscaled = fork.value.step();
    CHECK(unscaled.loss != scaled.loss);
    CHECK(unscaled.softmax_gradient < scaled.softmax_gradient);
    CHECK(fork.value.scale() == attn::Scale::None);
    CHECK(run.value.scale() == attn::Scale::SqrtDk);
}

TEST_CASE("training: a fork's learning rate is checked as create()'s; refused, the old rate stays") {
    auto t = Trainer::create(config(TaskKind::Reverse));
    REQUIRE(t.ok());
    const attn::Error e = t.value.set_learning_rate(1.5);
    CHECK(e.code == attn::ErrorCode::OutOfRange);
    CHECK(e.argument == "learningRate");
    CHECK(e.message == "learningRate must be a number greater than 0 and at most 1 (got 1.5)");
    CHECK(t.value.set_learning_rate(1e-50).argument == "learningRate");
    CHECK(t.value.learning_rate() == 0.01);
}
