// Masks and NaN: only the mask leaves a key out of its query's sum. A masked key's weight is
// exactly 0 and its value row is never read, so a NaN in its score or its value changes nothing;
// a kept key's value row is always read, even when its weight underflowed to 0, so a NaN the
// query sees makes that query's row NaN. On the worked example's shapes (and issue 19's input), on
// every path: the reference, the SIMD steps and both fast paths (which hand NaN inputs to the
// reference).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "attention.hpp"
#include "helpers.hpp"

using attn::AttentionOptions;
using attn::MaskKind;
using attn::Matrix;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const Matrix I2(2, 2, {1, 0, 0, 1});
const Matrix V10(2, 2, {10, 0, 0, 10});

AttentionOptions causal() {
    AttentionOptions o;
    o.mask.kind = MaskKind::Causal;
    return o;
}

// The output of every path equals `want` (NaN where `want` is NaN), and the step-by-step paths'
// masked weights are exactly 0.
void check_paths(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& o, const Matrix& want) {
    for (auto steps : {attn::attention_steps, attn::attention_steps_simd}) {
        const auto r = steps(q, k, v, o);
        REQUIRE(r.ok());
        for (std::size_t t = 0; t < r.value.kept.size(); ++t)
            if (r.value.kept.data[t] == 0.0f) {
                CHECK(r.value.weights.data[t] == 0.0f);
                CHECK(r.value.exps.data[t] == 0.0f);
                CHECK(r.value.shifted.data[t] == -std::numeric_limits<float>::infinity());
            }
        testing::check_close(r.value.output, want, 1e-3, 0, "steps");
    }
    testing::check_close(attn::attention(q, k, v, o).value, want, 1e-3, 0, "attention");
    testing::check_close(attn::attention_streaming(q, k, v, o).value, want, 1e-3, 0, "attention_streaming");
}

}  // namespace

TEST_CASE("causal mask, q row 0 = [NaN, 0]: the masked weight is exactly 0, the seen one NaN") {
    const Matrix q(2, 2, {kNaN, 0, 0, 1});
    const auto r = attn::attention_steps(q, I2, V10, causal());
    REQUIRE(r.ok());
    CHECK(std::isnan(r.value.weights(0, 0)));
    CHECK(r.value.weights(0, 1) == 0.0f);
    // row 1 is the worked example's second row
    CHECK(r.value.weights(1, 0) == doctest::Approx(0.3302).epsilon(1e-4));
    check_paths(q, I2, V10, causal(), Matrix(2, 2, {kNaN, kNaN, 3.302f, 6.698f}));
}

TEST_CASE("causal mask, v row 1 = NaN: query 0 never reads it, query 1 does") {
    const Matrix v(2, 2, {10, 0, kNaN, kNaN});
    check_paths(I2, I2, v, causal(), Matrix(2, 2, {10, 0, kNaN, kNaN}));
}

TEST_CASE("a NaN in a masked key's row changes nothing (what pytorch/pytorch#101967 asked for)") {
    const Matrix k(2, 2, {1, 0, kNaN, 1});
    AttentionOptions o;
    o.mask.kind = MaskKind::Custom;
    o.mask.keep = Matrix(2, 2, {1, 0, 1, 0});  // no query sees key 1
    check_paths(I2, k, V10, o, Matrix(2, 2, {10, 0, 10, 0}));
}

TEST_CASE("a fully masked row outputs zeros even when v holds NaN") {
    const Matrix v(2, 2, {10, 0, kNaN, 10});
    AttentionOptions o;
    o.mask.kind = MaskKind::Custom;
    o.mask.keep = Matrix(2, 2, {0, 0, 1, 1});  // query 0 sees nothing
    for (bool stable : {true, false}) {
        o.stable = stable;
        check_paths(I2, I2, v, o, Matrix(2, 2, {0, 0, kNaN, 6.698f}));
    }
    o.stable = true;
    o.axis = attn::Axis::Column;  // a fully masked column: the same rule down the columns
    o.mask.keep = Matrix(2, 2, {1, 0, 1, 0});
    const auto r = attn::attention_steps(I2, I2, v, o);
    REQUIRE(r.ok());
    CHECK(r.value.weights(0, 1) == 0.0f);
    CHECK(r.value.weights(1, 1) == 0.0f);
    CHECK_FALSE(std::isnan(r.value.output(0, 1)));
}

// Issue 19, item 1. q = [[1]], k = [[0], [−100], [−100], [−100]], scale none: the scores are
// [0, −100, −100, −100], so keys 1–3 get exp(−100) = 3.7·10⁻⁴⁴ — a denormal from std::exp, exactly
// 0 from xsimd's exp, which flushes below −87.3. Key 3's value is NaN. The rule: only the mask
// leaves a key out; every kept key's value row is read whatever its weight underflowed to, so
// NaN reaches the output on every path (it did not on the SIMD steps, which skipped weight 0).
TEST_CASE("issue 19: a NaN value behind a kept key whose weight underflowed reaches the output on every path") {
    const Matrix q(1, 1, {1}), k(4, 1, {0, -100, -100, -100}), v(4, 1, {1, 2, 3, kNaN});
    AttentionOptions o;
    o.scale = attn::Scale::None;
    for (auto steps : {attn::attention_steps, attn::attention_steps_simd}) {
        const auto r = steps(q, k, v, o);
        REQUIRE(r.ok());
        CHECK(r.value.weights(0, 0) == 1.0f);
        for (std::size_t j = 1; j < 4; ++j) {
            INFO("key " << j << ": weight " << r.value.weights(0, j));
            CHECK(r.value.weights(0, j) < std::numeric_limits<float>::min());  // 3.7e-44 or 0
        }
        CHECK(std::isnan(r.value.output(0, 0)));
        CHECK(r.value.non_finite.output == 1);
        CHECK(r.value.non_finite.weights == 0);
    }
    check_paths(q, k, v, o, Matrix(1, 1, {kNaN}));
    // Further down exp(−200) is 0 in float32 on every path, std::exp's too: the same rule.
    check_paths(q, Matrix(2, 1, {0, -200}), Matrix(2, 1, {1, kNaN}), o, Matrix(1, 1, {kNaN}));

    // Masked, the same key is left out: output 1 on every path, nothing non-finite.
    o.mask.kind = MaskKind::Custom;
    o.mask.keep = Matrix(1, 4, {1, 1, 1, 0});
    for (auto steps : {attn::attention_steps, attn::attention_steps_simd}) {
        const auto r = steps(q, k, v, o);
        REQUIRE(r.ok());
        CHECK(r.value.output(0, 0) == 1.0f);
        CHECK(r.value.non_finite.output == 0);
    }
    check_paths(q, k, v, o, Matrix(1, 1, {1}));
}
