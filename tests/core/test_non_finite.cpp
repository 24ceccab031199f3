// Which numbers of a result float32 could not hold: AttentionSteps::non_finite counts, per
// intermediate, every NaN and ±∞ but the −∞ a mask puts there on purpose, so that the page can say
// so instead of showing NaN silently. Both step-by-step paths count the same.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "attention.hpp"
#include "helpers.hpp"

using attn::AttentionOptions;
using attn::Matrix;
using attn::NonFinite;

namespace {

const Matrix I2(2, 2, {1, 0, 0, 1});
const Matrix V10(2, 2, {10, 0, 0, 10});

// "scores=0 scaled=2 …" — the counts in the article's order.
std::string counts(const NonFinite& n) {
    return "scores=" + std::to_string(n.scores) + " scaled=" + std::to_string(n.scaled) +
           " row_max=" + std::to_string(n.row_max) + " shifted=" + std::to_string(n.shifted) +
           " exps=" + std::to_string(n.exps) + " row_sum=" + std::to_string(n.row_sum) +
           " weights=" + std::to_string(n.weights) + " output=" + std::to_string(n.output);
}

// The counts of both paths, which must agree.
std::string counts_of(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& o) {
    const auto ref = attn::attention_steps(q, k, v, o);
    const auto simd = attn::attention_steps_simd(q, k, v, o);
    REQUIRE(ref.ok());
    REQUIRE(simd.ok());
    CHECK(counts(simd.value.non_finite) == counts(ref.value.non_finite));
    return counts(ref.value.non_finite);
}

}  // namespace

TEST_CASE("the worked example holds only finite numbers, with or without a mask") {
    const std::string none = "scores=0 scaled=0 row_max=0 shifted=0 exps=0 row_sum=0 weights=0 output=0";
    CHECK(counts_of(I2, I2, V10, {}) == none);
    AttentionOptions o;
    o.mask.kind = attn::MaskKind::Causal;  // the −∞ of a masked score is asked for
    CHECK(counts_of(I2, I2, V10, o) == none);
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(2, 2, {0, 0, 1, 1});  // a fully masked row: its max is −∞ on purpose
    CHECK(counts_of(I2, I2, V10, o) == none);
}

TEST_CASE("temperature 1e-40 on the worked example: S/(√2·τ) overflows, and NaN follows from there") {
    // scaled = [[+∞, 0], [0, +∞]]; max +∞; shifted ∞ − ∞ = NaN and 0 − ∞ = −∞; exps NaN and 0;
    // sums NaN; every weight and output NaN.
    AttentionOptions o;
    o.temperature = 1e-40f;
    CHECK(counts_of(I2, I2, V10, o) == "scores=0 scaled=2 row_max=2 shifted=4 exps=2 row_sum=2 weights=4 output=4");
    o.axis = attn::Axis::Column;
    CHECK(counts_of(I2, I2, V10, o) == "scores=0 scaled=2 row_max=2 shifted=4 exps=2 row_sum=2 weights=4 output=4");
}

TEST_CASE("3e38 in an input: the scores overflow; the naive softmax's exps overflow by themselves") {
    // q_0 · k_0 = 3·10³⁸ · 2 = +∞ in float32
    const Matrix q(2, 2, {3e38f, 0, 0, 1}), k2(2, 2, {2, 0, 0, 1});
    CHECK(counts_of(q, k2, V10, {}) == "scores=1 scaled=1 row_max=1 shifted=2 exps=1 row_sum=1 weights=2 output=2");
    AttentionOptions naive;
    naive.stable = false;
    naive.scale = attn::Scale::None;
    const Matrix k(2, 1, {1000, 999}), v(2, 1, {1, 0});
    CHECK(counts_of(Matrix(1, 1, std::vector<float>{1.0f}), k, v, naive) ==
          "scores=0 scaled=0 row_max=0 shifted=0 exps=2 row_sum=1 weights=2 output=1");
}

TEST_CASE("one query, softmax along columns: the column maxima are counted per column") {
    // row_max is 1×n_k here, like kept: each of its cells is the max of one column of one cell.
    AttentionOptions o;
    o.axis = attn::Axis::Column;
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(1, 3, {1, 0, 1});  // column 1 is fully masked: its max −∞ is on purpose
    const Matrix q(1, 2, {1, 0}), k(3, 2, {1, 0, 0, 1, 1, 1}), v(3, 1, {1, 2, 3});
    CHECK(counts_of(q, k, v, o) == "scores=0 scaled=0 row_max=0 shifted=0 exps=0 row_sum=0 weights=0 output=0");
}
