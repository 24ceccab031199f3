// core/working_memory.hpp: the bytes each entry point works in are the bytes its refusal names,
// and they grow as article §8 says — n² for the step-by-step path, n·d for the streaming one.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <variant>

#include "attention.hpp"
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

TEST_CASE("attention_steps: seven n_q×n_k float32 matrices and the output (eleven along columns)") {
    // The worked example: 7 · 2·2 + 2·2 floats.
    CHECK(working_bytes(Operation::AttentionSteps, {2, 2, 2, 2}) == (7 * 4 + 4) * 4);
    CHECK(working_bytes(Operation::AttentionSteps, {2, 2, 2, 2}, attn::Axis::Column) == (11 * 4 + 4) * 4);
    CHECK(working_bytes(Operation::AttentionSteps, {4096, 4096, 64, 64}) == (7ull * 4096 * 4096 + 4096 * 64) * 4);
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
