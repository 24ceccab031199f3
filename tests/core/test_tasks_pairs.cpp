// The pairs task (issue 26, item 7): the reader's own rule, as a table of up to 12 input → output
// sequences the batches are drawn from. A typed rule one layer learns, one it cannot fit (measured),
// and the table's refusals, each naming the pair at fault.
#include <doctest/doctest.h>

#include <vector>

#include "train.hpp"

using attn::ErrorCode;
using attn::TaskKind;
using attn::TaskPair;
using attn::TrainConfig;
using attn::Trainer;

namespace {

TrainConfig pairs_config(std::size_t length, std::size_t symbols, std::vector<TaskPair> pairs, std::int64_t seed) {
    TrainConfig c;
    c.task.kind = TaskKind::Pairs;
    c.task.length = length;
    c.task.symbols = symbols;
    c.task.pairs = std::move(pairs);
    c.seed = seed;
    return c;
}

// `code` in base `base`, least significant digit first: `length` tokens.
std::vector<double> digits(unsigned code, std::size_t length, unsigned base) {
    std::vector<double> out(length);
    for (std::size_t i = 0; i < length; ++i, code /= base) out[i] = code % base;
    return out;
}

// The held-out accuracy after `steps` steps: 64 sequences of the stream seed 1, as the lab scores.
double accuracy_after(const TrainConfig& c, int steps) {
    auto t = Trainer::create(c);
    REQUIRE(t.ok());
    for (int s = 0; s < steps; ++s) t.value.step();
    return t.value.evaluate(64, 1).accuracy;
}

}  // namespace

TEST_CASE("pairs: reverse typed as 12 pairs over 甲乙丙丁 (tokens 0 … 3), length 4, is learned") {
    // 甲乙丙丁 → 丁丙乙甲 and 11 more inputs: each query attends to its mirror position.
    std::vector<TaskPair> reverse;
    for (unsigned k = 0; k < 12; ++k) {
        const std::vector<double> in = digits(k * 21 + 5, 4, 4);
        reverse.push_back({in, {in[3], in[2], in[1], in[0]}});
    }
    // Measured natively: seed 8 fits all 12 pairs (accuracy 1.000) by step 50; seed 7 settles at
    // 0.91 (one position of one pair wrong) — a typed table of 12 is small, and a seed can stall.
    CHECK(accuracy_after(pairs_config(4, 4, reverse, 8), 100) >= 0.9);
}

TEST_CASE("pairs: parity (every output the count of 1s mod 2) cannot be fitted by one layer") {
    // 12 of the 16 sequences of 4 bits; every position's answer is the parity of the whole sequence.
    // Attention gives each position a weighted mean of the others, and a mean of bits does not turn
    // into their parity by the one linear read-out that follows. Measured natively, 3 seeds: the
    // accuracy wanders between 0.58 and 0.79 from step 100 to step 2000 (chance 0.5), the loss stays
    // near 0.5 nats.
    std::vector<TaskPair> parity;
    for (unsigned k = 0; k < 12; ++k) {
        const std::vector<double> bits = digits(k, 4, 2);
        const double p = static_cast<double>(static_cast<int>(bits[0] + bits[1] + bits[2] + bits[3]) % 2);
        parity.push_back({bits, {p, p, p, p}});
    }
    for (const std::int64_t seed : {7, 8, 9}) {
        const double accuracy = accuracy_after(pairs_config(4, 2, parity, seed), 1000);
        INFO("seed " << seed << ": accuracy " << accuracy);
        CHECK(accuracy < 0.85);
    }
}

TEST_CASE("pairs: the same seed draws the same batches; a probe's targets are its pair's output") {
    const std::vector<TaskPair> table{{{0, 1, 2}, {2, 1, 0}}, {{2, 2, 0}, {0, 2, 2}}};
    attn::TaskConfig task = pairs_config(3, 3, table, 0).task;
    attn::SplitMix64 a(5), b(5);
    const attn::Batch x = attn::make_batch(task, 8, a), y = attn::make_batch(task, 8, b);
    CHECK(x.tokens == y.tokens);
    CHECK(x.targets == y.targets);
    for (std::size_t s = 0; s < 8; ++s) {  // every drawn row is a row of the table
        const int* row = x.tokens.data() + s * 3;
        const bool first = row[0] == 0 && row[1] == 1 && row[2] == 2, second = row[0] == 2 && row[1] == 2;
        CHECK((first || second));
    }
    int targets[3];
    const int known[3] = {2, 2, 0}, unknown[3] = {1, 1, 1};
    attn::task_targets(task, known, targets);
    CHECK(std::vector<int>(targets, targets + 3) == std::vector<int>{0, 2, 2});
    attn::task_targets(task, unknown, targets);  // not in the table: nothing to score
    CHECK(std::vector<int>(targets, targets + 3) ==
          std::vector<int>{attn::kUnscored, attn::kUnscored, attn::kUnscored});
}

TEST_CASE("pairs: the table's refusals name the pair, the side and the token") {
    auto refused = [](const TrainConfig& c) { return Trainer::create(c).error; };
    const TaskPair ok{{0, 1}, {1, 0}};
    CHECK(refused(pairs_config(2, 2, {}, 0)).code == ErrorCode::OutOfRange);  // no pair
    CHECK(refused(pairs_config(2, 2, std::vector<TaskPair>(13, ok), 0)).code == ErrorCode::OutOfRange);
    CHECK(refused(pairs_config(2, 13, {ok}, 0)).argument == "symbols");  // more than 12 tokens
    CHECK(refused(pairs_config(13, 2, {ok}, 0)).argument == "length");
    const attn::Error short_output = refused(pairs_config(2, 2, {ok, {{0, 1}, {1}}}, 0));
    CHECK(short_output.code == ErrorCode::WrongLength);
    CHECK(short_output.message == "pairs[1].output has 1 tokens but the sequences have 2");
    const attn::Error outside = refused(pairs_config(2, 2, {ok, {{0, 2}, {1, 0}}}, 0));
    CHECK(outside.code == ErrorCode::OutOfRange);
    CHECK(outside.argument == "pairs");
    CHECK(outside.message == "pairs[1].input[1] must be a whole number from 0 to 1 (got 2)");
    CHECK(refused(pairs_config(2, 2, {{{0, 0.5}, {1, 0}}}, 0)).code == ErrorCode::OutOfRange);
    CHECK(Trainer::create(pairs_config(2, 2, {ok}, 0)).ok());
}
