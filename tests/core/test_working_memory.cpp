// core/working_memory.hpp: the bytes each entry point works in are the bytes its refusal names,
// and they grow as article §8 says — n² for the step-by-step path, n·d for the streaming one.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>
#include <variant>

#include "attention.hpp"
#include "fast_path.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

using attn::AttentionShape;
using attn::Operation;
using attn::working_bytes;

namespace {

double param(const attn::Error& e, const std::string& name) {
    for (const attn::Param& p : e.params)
        if (p.name == name) return std::get<double>(p.value);
    FAIL("no param " << name);
    return 0;
}
std::string text_param(const attn::Error& e, const std::string& name) {
    for (const attn::Param& p : e.params)
        if (p.name == name) return std::get<std::string>(p.value);
    FAIL("no param " << name);
    return "";
}

}  // namespace

// What attention_steps holds at its peak (working_memory.cpp counts each buffer): along rows six
// n_q×n_k matrices, the row maxima and sums and the output; along columns nine n_q×n_k matrices
// and four vectors of n_k (the column softmax's results and their transposed copies).
TEST_CASE("attention_steps: every matrix and vector it holds at its peak, along rows and along columns") {
    // The worked example: 6 · 2·2 + 2·2 + 2·2 floats; along columns 9 · 2·2 + 4·2.
    CHECK(working_bytes(Operation::AttentionSteps, {2, 2, 2, 2}) == (6 * 4 + 2 * 2 + 4) * 4);
    CHECK(working_bytes(Operation::AttentionSteps, {2, 2, 2, 2}, attn::Axis::Column) == (9 * 4 + 4 * 2) * 4);
    CHECK(working_bytes(Operation::AttentionSteps, {4096, 4096, 64, 64}) ==
          (6ull * 4096 * 4096 + 2 * 4096 + 4096 * 64) * 4);
    // Along columns, a wide output outweighs the softmax's copies: 6 matrices, 2 vectors, the output.
    CHECK(working_bytes(Operation::AttentionSteps, {2, 2, 2, 64}, attn::Axis::Column) == (6 * 4 + 2 * 2 + 2 * 64) * 4);
}

// Issue 19, item 6: the count left out the vectors and the transposed copies. One query against
// 24,403,223 keys along columns was counted at 11·n_k + 1 floats = 1,073,741,816 B and accepted;
// it holds 13·n_k floats (1.18 GiB) at its peak. One key along rows: 9 floats per query, not 8.
TEST_CASE("issue 19: the vectors and transposed copies count, so one query against 24,403,223 keys is refused") {
    const AttentionShape column_case{1, 24403223, 1, 1};
    CHECK(working_bytes(Operation::AttentionSteps, column_case, attn::Axis::Column) == 13ull * 24403223 * 4);
    CHECK(working_bytes(Operation::AttentionSteps, column_case, attn::Axis::Column) > attn::kMemoryLimitBytes);
    attn::Matrix q(1, 1, 0.5f), k, v;  // shapes only: the check reads no value
    k.rows = v.rows = 24403223;
    k.cols = v.cols = 1;
    attn::AttentionOptions by_column;
    by_column.axis = attn::Axis::Column;
    const attn::Error e = attn::check_steps_memory(q, k, v, by_column);
    CHECK(e.code == attn::ErrorCode::TooMuchMemory);
    CHECK(working_bytes(Operation::AttentionSteps, {1000, 1, 1, 1}) == 9 * 1000 * 4);
}

// Issue 19, item 6: the fast paths' workspace grew by std::vector's doubling (resize past the
// capacity may allocate twice the old size) while the count assumed the size asked for.
TEST_CASE("the fast paths' workspace grows to exactly the floats it is asked for") {
    std::vector<float> buffer(100);
    attn::fast::ensure(buffer, 150);
    CHECK(buffer.size() == 150);
    CHECK(buffer.capacity() == 150);
    attn::fast::ensure(buffer, 120);  // large enough already: kept as it is
    CHECK(buffer.capacity() == 150);
}

TEST_CASE("a refusal carries exactly the bytes working_bytes counts, under the operation's own name") {
    // attention_steps: 12000×12000 scores from 12000×1 inputs.
    const attn::Matrix q(12000, 1, 0.5f);
    const auto steps = attn::attention_steps(q, q, q);
    REQUIRE(steps.error.code == attn::ErrorCode::TooMuchMemory);
    CHECK(text_param(steps.error, "operation") == attn::option_name(attn::kOperationNames, Operation::AttentionSteps));
    CHECK(param(steps.error, "bytes") == double(working_bytes(Operation::AttentionSteps, {12000, 12000, 1, 1})));
    CHECK(param(steps.error, "limit") == double(attn::kMemoryLimitBytes));

    // attention and attention_streaming: small inputs, one key, but a 32768×8192 output (1 GiB).
    const attn::Matrix wide_q(32768, 1, 0.5f), one_key(1, 1, 0.5f), wide_v(1, 8192, 0.5f);
    const AttentionShape shape{32768, 1, 1, 8192};
    for (const Operation op : {Operation::Attention, Operation::AttentionStreaming}) {
        const char* name = attn::option_name(attn::kOperationNames, op);
        INFO(name);
        const auto r = op == Operation::Attention ? attn::attention(wide_q, one_key, wide_v)
                                                  : attn::attention_streaming(wide_q, one_key, wide_v);
        REQUIRE(r.error.code == attn::ErrorCode::TooMuchMemory);
        CHECK(text_param(r.error, "operation") == name);
        CHECK(param(r.error, "bytes") == double(working_bytes(op, shape)));
        CHECK(working_bytes(op, shape) > attn::kMemoryLimitBytes);
    }
}

TEST_CASE("§8: doubling n quadruples the step path's memory and only doubles the streaming path's") {
    for (std::uint64_t n : {1024u, 4096u, 16384u}) {
        INFO("n = " << n);
        const AttentionShape at_n{n, n, 64, 64}, at_2n{2 * n, 2 * n, 64, 64};
        const double steps = double(working_bytes(Operation::AttentionSteps, at_2n)) /
                             double(working_bytes(Operation::AttentionSteps, at_n));
        const double streaming = double(working_bytes(Operation::AttentionStreaming, at_2n)) /
                                 double(working_bytes(Operation::AttentionStreaming, at_n));
        CHECK(steps == doctest::Approx(4).epsilon(0.01));
        // linear in n plus a fixed block of running rows and one tile: at most twice, never four times
        CHECK(streaming > 1.5);
        CHECK(streaming <= 2.0);
    }
    // n = 16384, d = 64: the scores alone would be 1 GiB; the streaming path needs a few MiB.
    CHECK(working_bytes(Operation::AttentionSteps, {16384, 16384, 64, 64}) > attn::kMemoryLimitBytes);
    CHECK(working_bytes(Operation::AttentionStreaming, {16384, 16384, 64, 64}) < (std::uint64_t{16} << 20));
}

TEST_CASE("absurd shapes saturate instead of wrapping around to a small number") {
    constexpr std::uint64_t all = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t huge = std::uint64_t{1} << 40;
    CHECK(working_bytes(Operation::AttentionSteps, {huge, huge, 1, 1}) == all);
    CHECK(working_bytes(Operation::Attention, {1, all, huge, 1}) == all);
    CHECK(working_bytes(Operation::AttentionStreaming, {1, huge, huge, 1}) == all);
    CHECK(working_bytes(Operation::AttentionStreaming, {huge, 1, 1, huge}) == all);
}

TEST_CASE("attention counts the kernel that runs: above 64 keys, the streaming kernel's buffers") {
    // n_q = 1, n_k = 65, d = 2,030,000 (issue 9): the two-pass formula said 0.6 GB and let the call
    // through to the streaming kernel; now both entry points count the streaming kernel's packed
    // keys and the one query group a single row needs.
    const attn::AttentionShape wide{1, 65, 2030000, 1};
    CHECK(working_bytes(Operation::Attention, wide) == working_bytes(Operation::AttentionStreaming, wide));
    CHECK(working_bytes(Operation::Attention, wide) < attn::kMemoryLimitBytes);
    const attn::AttentionShape few_keys{1, 64, 2030000, 1};  // the two-pass kernel: no running state
    CHECK(working_bytes(Operation::Attention, few_keys) < working_bytes(Operation::AttentionStreaming, few_keys));
}

TEST_CASE("attention_tiled: its refusal carries working_bytes' count for the tiles, with and without the trace") {
    const attn::TiledPlan traced{{1, 1}, attn::Trace::Keep, attn::MaskKind::None};
    const attn::TiledPlan output_only{{1, 1}, attn::Trace::Skip, attn::MaskKind::None};
    // 1×1 tiles at n = 16,384, d = 64: the trace keeps every cell's m, ℓ, α and O — refused, with these bytes.
    const AttentionShape big{16384, 16384, 64, 64};
    const attn::Shape q{16384, 64, 16384 * 64};
    const attn::Error refused = attn::check_tiled_shapes(q, q, q, nullptr, {1, 1}, {});
    REQUIRE(refused.code == attn::ErrorCode::TooMuchMemory);
    CHECK(text_param(refused, "operation") == std::string("attention_tiled"));
    CHECK(param(refused, "bytes") == double(working_bytes(Operation::AttentionTiled, big, attn::Axis::Row, traced)));
    CHECK(param(refused, "bytes") >= 16384.0 * 16384 * (64 + 3) * 4);  // every tile counted
    // Without it the same tiles fit: O(n·d) (K padded tile by tile to whole panels), far below the scores.
    CHECK(!attn::check_tiled_shapes(q, q, q, nullptr, {1, 1}, {}, attn::Trace::Skip));
    CHECK(working_bytes(Operation::AttentionTiled, big, attn::Axis::Row, output_only) < (std::uint64_t{1} << 30) / 16);
    // 64×64 at n = 1024: the trace is n·⌈n/64⌉·(64 + 3) floats beside the output-only working set;
    // a causal mask keeps about half the tiles.
    const AttentionShape n1024{1024, 1024, 64, 64};
    const auto bytes = [&](attn::Trace trace, attn::MaskKind mask) {
        return working_bytes(Operation::AttentionTiled, n1024, attn::Axis::Row, {{64, 64}, trace, mask});
    };
    const std::uint64_t trace_floats = 1024 * 16 * (64 + 3);
    CHECK(bytes(attn::Trace::Keep, attn::MaskKind::None) - bytes(attn::Trace::Skip, attn::MaskKind::None) >=
          trace_floats * 4);
    CHECK(bytes(attn::Trace::Keep, attn::MaskKind::Causal) < bytes(attn::Trace::Keep, attn::MaskKind::None));
    CHECK(bytes(attn::Trace::Skip, attn::MaskKind::Causal) == bytes(attn::Trace::Skip, attn::MaskKind::None));
    // Tile sizes the call would refuse count as too much, never as a small number.
    constexpr std::uint64_t all = std::numeric_limits<std::uint64_t>::max();
    CHECK(working_bytes(Operation::AttentionTiled, n1024, attn::Axis::Row, {{0, 64}}) == all);
    CHECK(working_bytes(Operation::AttentionTiled, n1024, attn::Axis::Row, {{64, 1025}}) == all);
}
