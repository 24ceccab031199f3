// tasks.cpp — see tasks.hpp: one generator per task, all from the same SplitMix64 stream.
#include "tasks.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "number_text.hpp"

namespace attn {
namespace {

// The first `count` of a seeded shuffle of 0 … n − 1 (Fisher–Yates): distinct symbols.
std::vector<int> distinct(std::size_t n, std::size_t count, SplitMix64& random) {
    std::vector<int> all(n);
    std::iota(all.begin(), all.end(), 0);
    for (std::size_t i = 0; i < count; ++i) std::swap(all[i], all[i + uniform_below(random, n - i)]);
    all.resize(count);
    return all;
}

// The pair whose input is tokens[0 … n), or null.
const TaskPair* pair_with_input(const TaskConfig& task, const int* tokens) {
    for (const TaskPair& pair : task.pairs)
        if (std::equal(pair.input.begin(), pair.input.end(), tokens,
                       [](double given, int token) { return given == static_cast<double>(token); }))
            return &pair;
    return nullptr;
}

// The pairs table's refusals (tasks.hpp, check_task), pair by pair, input before output.
Error check_pairs(const TaskConfig& task) {
    if (Error e =
            check_range("pairs", static_cast<std::int64_t>(task.pairs.size()), 1, static_cast<std::int64_t>(kMaxPairs)))
        return e;
    const double most = static_cast<double>(task.symbols) - 1.0;
    for (std::size_t p = 0; p < task.pairs.size(); ++p)
        for (int side = 0; side < 2; ++side) {
            const std::vector<double>& tokens = side == 0 ? task.pairs[p].input : task.pairs[p].output;
            const std::string name = "pairs[" + std::to_string(p) + "]." + (side == 0 ? "input" : "output");
            Error e;
            e.argument = "pairs";
            if (tokens.size() != task.length) {
                e.code = ErrorCode::WrongLength;
                e.params = {{"index", static_cast<double>(p)},
                            {"side", static_cast<double>(side)},
                            {"got", static_cast<double>(tokens.size())},
                            {"need", static_cast<double>(task.length)}};
                e.message = name + " has " + std::to_string(tokens.size()) + " tokens but the sequences have " +
                            std::to_string(task.length);
                return e;
            }
            for (std::size_t i = 0; i < tokens.size(); ++i) {
                const double token = tokens[i];
                if (token >= 0.0 && token <= most && token == std::floor(token)) continue;
                e.code = ErrorCode::OutOfRange;
                e.params = {{"index", static_cast<double>(p)},
                            {"side", static_cast<double>(side)},
                            {"position", static_cast<double>(i)},
                            {"got", token},
                            {"min", 0.0},
                            {"max", most}};
                e.message = name + "[" + std::to_string(i) + "] must be a whole number from 0 to " + number_text(most) +
                            " (got " + number_text(token) + ")";
                return e;
            }
        }
    return {};
}

// One sequence of `task` into tokens[0 … n) and targets[0 … n).
void make_sequence(const TaskConfig& task, int* tokens, int* targets, SplitMix64& random) {
    const std::size_t n = task.length;
    std::fill(targets, targets + n, kUnscored);
    switch (task.kind) {
        case TaskKind::Reverse:
            for (std::size_t i = 0; i < n; ++i) tokens[i] = static_cast<int>(uniform_below(random, task.symbols));
            for (std::size_t i = 0; i < n; ++i) targets[i] = tokens[n - 1 - i];
            break;
        case TaskKind::Shift:
            for (std::size_t i = 0; i < n; ++i) tokens[i] = static_cast<int>(uniform_below(random, task.symbols));
            for (std::size_t i = 0; i < n; ++i) targets[i] = tokens[(i + n - task.shift) % n];
            break;
        case TaskKind::Sort:
            for (std::size_t i = 0; i < n; ++i) tokens[i] = static_cast<int>(uniform_below(random, task.symbols));
            std::copy(tokens, tokens + n, targets);
            std::sort(targets, targets + n);
            break;
        case TaskKind::Lookup: {
            // Pair token (key, value) = key·values + value; query token for key = symbols·values + key.
            const std::vector<int> keys = distinct(task.symbols, n - 1, random);
            const int v = static_cast<int>(task.values);
            std::vector<int> vals(n - 1);
            for (std::size_t i = 0; i + 1 < n; ++i) {
                vals[i] = static_cast<int>(uniform_below(random, task.values));
                tokens[i] = keys[i] * v + vals[i];
            }
            const std::size_t asked = uniform_below(random, n - 1);
            tokens[n - 1] = static_cast<int>(task.symbols) * v + keys[asked];
            targets[n - 1] = vals[asked];
            break;
        }
        case TaskKind::Induction: {
            const std::vector<int> seq = distinct(task.symbols, n - 1, random);
            std::copy(seq.begin(), seq.end(), tokens);
            const std::size_t p = uniform_below(random, n - 2);  // x_{p+1} exists and is not the repeat
            tokens[n - 1] = seq[p];
            targets[n - 1] = seq[p + 1];
            break;
        }
        case TaskKind::Pairs: {
            const TaskPair& pair = task.pairs[uniform_below(random, task.pairs.size())];
            for (std::size_t i = 0; i < n; ++i) {
                tokens[i] = static_cast<int>(pair.input[i]);
                targets[i] = static_cast<int>(pair.output[i]);
            }
            break;
        }
    }
}

}  // namespace

TaskShape task_shape(const TaskConfig& task) {
    switch (task.kind) {
        case TaskKind::Lookup:
            return {task.symbols * task.values + task.symbols, task.values, false};
        case TaskKind::Induction:
            return {task.symbols, task.symbols, true};
        default:
            return {task.symbols, task.symbols, false};
    }
}

Error check_task(const TaskConfig& task) {
    const auto n = static_cast<std::int64_t>(task.length);
    if (task.kind == TaskKind::Pairs) {
        if (Error e = check_range("length", n, 2, static_cast<std::int64_t>(kMaxPairLength))) return e;
        if (Error e = check_range("symbols", static_cast<std::int64_t>(task.symbols), 2,
                                  static_cast<std::int64_t>(kMaxPairSymbols)))
            return e;
        return check_pairs(task);
    }
    if (Error e = check_range("length", n, 2, 64)) return e;
    if (task.kind == TaskKind::Lookup || task.kind == TaskKind::Induction) {
        // distinct symbols for n − 1 positions (induction also needs n ≥ 3 for a p + 1 to read)
        if (Error e = check_range("length", n, 3, 64)) return e;
        if (Error e = check_range("symbols", static_cast<std::int64_t>(task.symbols), n - 1, 64)) return e;
    } else if (Error e = check_range("symbols", static_cast<std::int64_t>(task.symbols), 2, 64)) {
        return e;
    }
    if (task.kind == TaskKind::Lookup)
        if (Error e = check_range("values", static_cast<std::int64_t>(task.values), 2, 16)) return e;
    if (task.kind == TaskKind::Shift)
        if (Error e = check_range("shift", static_cast<std::int64_t>(task.shift), 1, n - 1)) return e;
    return {};
}

Batch make_batch(const TaskConfig& task, std::size_t count, SplitMix64& random) {
    Batch b{count, task.length, std::vector<int>(count * task.length), std::vector<int>(count * task.length)};
    for (std::size_t s = 0; s < count; ++s)
        make_sequence(task, b.tokens.data() + s * task.length, b.targets.data() + s * task.length, random);
    return b;
}

void task_targets(const TaskConfig& task, const int* tokens, int* targets) {
    const std::size_t n = task.length;
    std::fill(targets, targets + n, kUnscored);
    switch (task.kind) {
        case TaskKind::Reverse:  // y_i = x_{n−1−i}
            for (std::size_t i = 0; i < n; ++i) targets[i] = tokens[n - 1 - i];
            break;
        case TaskKind::Shift:  // y_i = x_{(i−k) mod n}
            for (std::size_t i = 0; i < n; ++i) targets[i] = tokens[(i + n - task.shift) % n];
            break;
        case TaskKind::Sort:  // y = x sorted
            std::copy(tokens, tokens + n, targets);
            std::sort(targets, targets + n);
            break;
        case TaskKind::Lookup: {  // y_{n−1} = the value paired with the asked key
            const int v = static_cast<int>(task.values);
            const int asked = tokens[n - 1] - static_cast<int>(task.symbols) * v;
            for (std::size_t i = 0; i + 1 < n; ++i)
                if (tokens[i] / v == asked) {
                    targets[n - 1] = tokens[i] % v;
                    break;
                }
            break;
        }
        case TaskKind::Induction:  // y_{n−1} = x_{p+1}, p the earlier position of the last token
            for (std::size_t p = 0; p + 2 < n; ++p)
                if (tokens[p] == tokens[n - 1]) {
                    targets[n - 1] = tokens[p + 1];
                    break;
                }
            break;
        case TaskKind::Pairs:  // the output of the pair whose input this is
            if (const TaskPair* pair = pair_with_input(task, tokens))
                for (std::size_t i = 0; i < n; ++i) targets[i] = static_cast<int>(pair->output[i]);
            break;
    }
}

}  // namespace attn
