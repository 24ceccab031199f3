// tasks.hpp — the toy tasks a model of one attention layer is trained on (issue 17), each making
// its batches from a seeded generator (random.hpp), so that a seed gives the same batches everywhere.
//
// A sequence is `length` tokens; its targets are one class per position, or kUnscored where the
// position is not part of the loss. What one layer can learn, and why:
//   reverse    y_i = x_{n−1−i}: each query attends to its mirror position (A anti-diagonal)
//   shift      y_i = x_{(i−k) mod n}: attend k positions back, wrapping round (an offset diagonal)
//   lookup     positions 0 … n−2 hold pair tokens (key, value) with distinct keys, the last a query
//              key; y_{n−1} = the value paired with it: the query attends to the position whose key
//              matches (a comparison of q and k, which attention is made of)
// Offered as honest failures, which one layer cannot fully learn:
//   sort       y = x sorted: each output needs the rank of every token, a comparison of tokens
//              with each other, not of a query with a key
//   induction  distinct tokens, the last a repeat of an earlier one at p; y_{n−1} = x_{p+1}
//              (causal): it takes two look-ups in a chain (find p, then read p + 1), two layers
// The reader's own rule (issue 26, item 7):
//   pairs      a table of up to 12 input → output sequences over `symbols` tokens, typed by the
//              reader or expanded from a rule; each sequence of a batch is one row of it, drawn
//              uniformly. Whether one layer can fit it depends on the rule: the page measures it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "options.hpp"
#include "random.hpp"

namespace attn {

enum class TaskKind { Reverse, Shift, Lookup, Sort, Induction, Pairs };
inline constexpr OptionName<TaskKind> kTaskNames[] = {{"reverse", TaskKind::Reverse},     {"shift", TaskKind::Shift},
                                                      {"lookup", TaskKind::Lookup},       {"sort", TaskKind::Sort},
                                                      {"induction", TaskKind::Induction}, {"pairs", TaskKind::Pairs}};

inline constexpr int kUnscored = -1;  // a target left out of the loss and the accuracy

// The pairs task's limits: a table the reader can type and read.
inline constexpr std::size_t kMaxPairs = 12, kMaxPairSymbols = 12, kMaxPairLength = 12;

// One row of the pairs task: `length` input tokens and the `length` tokens the rule asks for, as
// given (a JS array's numbers: check_task checks that they are whole and in the vocabulary).
struct TaskPair {
    std::vector<double> input, output;
};

struct TaskConfig {
    TaskKind kind = TaskKind::Reverse;
    std::size_t length = 6;       // n, the tokens of one sequence
    std::size_t symbols = 6;      // distinct symbols: tokens (reverse, shift, sort, induction), keys (lookup)
    std::size_t values = 4;       // lookup only: the distinct values of a pair
    std::size_t shift = 1;        // shift only: k
    std::vector<TaskPair> pairs;  // pairs only: the table the batches are drawn from
};

// The sizes a task implies for the model: its input tokens, its output classes, whether its
// attention is causal.
struct TaskShape {
    std::size_t vocab = 0, classes = 0;
    bool causal = false;
};
TaskShape task_shape(const TaskConfig& task);

// A task's limits, checked by check_task: length 2 … 64, symbols 2 … 64, values 2 … 16, shift
// 1 … length − 1; lookup needs symbols ≥ length − 1 (distinct keys), induction symbols ≥ length − 1.
// Pairs: length 2 … 12, symbols 2 … 12, 1 … 12 pairs (out_of_range, argument "pairs"), each side
// of each pair `length` tokens (wrong_length, params index, side 0 input / 1 output, got, need),
// each token a whole number 0 … symbols − 1 (out_of_range, params index, side, position, got, min, max).
Error check_task(const TaskConfig& task);

// `count` sequences: tokens and targets, each count×length, row-major.
struct Batch {
    std::size_t count = 0, length = 0;
    std::vector<int> tokens, targets;
};
Batch make_batch(const TaskConfig& task, std::size_t count, SplitMix64& random);

// The targets the task asks of one sequence of `task.length` tokens (its vocabulary's, unchecked
// here): targets[i] as make_batch would pair with these tokens, kUnscored where the position is not
// scored — and for lookup or induction whose last token has no match (no pair with the asked key, no
// earlier repeat followed by a token), the last position too; for pairs, the output of the first
// pair whose input these tokens are, every position kUnscored when none is. For a fixed sequence
// such as the training lab's probe.
void task_targets(const TaskConfig& task, const int* tokens, int* targets);

}  // namespace attn
