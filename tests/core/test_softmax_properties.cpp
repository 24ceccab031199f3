// What softmax promises (section 5 and the FAQ), checked on the reference path.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "attention.hpp"
#include "helpers.hpp"
#include "reference.hpp"

using attn::Matrix;
using testing::check_close;
using testing::random_matrix;

TEST_CASE("every row of weights sums to 1, and every weight is in [0, 1]") {
    // Scores of a few units (not near zero, which would make every row uniform and hide bugs).
    const Matrix q = random_matrix(7, 5, 1, -3, 3), k = random_matrix(9, 5, 2, -3, 3), v = random_matrix(9, 3, 3);
    const auto r = attn::attention_steps(q, k, v);
    REQUIRE(r.ok());
    for (std::size_t i = 0; i < 7; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < 9; ++j) {
            CHECK(r.value.weights(i, j) >= 0.0f);
            CHECK(r.value.weights(i, j) <= 1.0f);
            sum += r.value.weights(i, j);
        }
        CHECK(sum == doctest::Approx(1.0).epsilon(1e-6));
    }
}

TEST_CASE("adding a constant to a row of scores changes nothing (why subtracting the max is safe)") {
    const Matrix scores = random_matrix(4, 6, 7, -2, 2);
    Matrix shifted = scores;
    for (std::size_t j = 0; j < 6; ++j) shifted(2, j) += 37.5f;  // row 2 only

    auto softmax = [](const Matrix& s) {
        using namespace attn::reference;
        const Matrix m = row_max(s);
        const Matrix e = exp_minus_max(s, m, true);
        return softmax_weights(e, row_sums(e), s);
    };
    check_close(softmax(shifted), softmax(scores), 1e-6);
}

TEST_CASE("the shifted scores are scaled − max, ≤ 0 with a 0 at each max, and exps = exp(shifted)") {
    const Matrix q = random_matrix(6, 5, 3, -3, 3), k = random_matrix(8, 5, 4, -3, 3), v = random_matrix(8, 2, 5);
    for (attn::Axis axis : {attn::Axis::Row, attn::Axis::Column}) {
        attn::AttentionOptions o;
        o.axis = axis;
        const auto r = attn::attention_steps(q, k, v, o);
        REQUIRE(r.ok());
        const auto& st = r.value;
        const bool by_row = axis == attn::Axis::Row;
        for (std::size_t i = 0; i < 6; ++i)
            for (std::size_t j = 0; j < 8; ++j) {
                const float m = by_row ? st.row_max(i, 0) : st.row_max(0, j);
                CHECK(st.shifted(i, j) == st.scaled(i, j) - m);
                CHECK(st.shifted(i, j) <= 0.0f);
                CHECK(st.exps(i, j) == std::exp(st.shifted(i, j)));
                if (st.scaled(i, j) == m) CHECK(st.shifted(i, j) == 0.0f);
            }
    }
}

TEST_CASE("kept says which cells the mask keeps: causal keeps j ≤ i, a custom mask its own 1s") {
    const Matrix q = random_matrix(3, 2, 1), k = random_matrix(4, 2, 2), v = random_matrix(4, 2, 3);
    attn::AttentionOptions o;
    o.mask.kind = attn::MaskKind::Causal;
    const auto causal = attn::attention_steps(q, k, v, o);
    REQUIRE(causal.ok());
    check_close(causal.value.kept, Matrix(3, 4, {1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0}), 0);
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(3, 4, {0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0});
    const auto custom = attn::attention_steps(q, k, v, o);
    REQUIRE(custom.ok());
    check_close(custom.value.kept, o.mask.keep, 0);
    for (std::size_t t = 0; t < 12; ++t)
        CHECK(std::isinf(custom.value.scaled.data[t]) == (o.mask.keep.data[t] == 0.0f));
}

TEST_CASE("causal mask: weights above the diagonal are exactly 0, the rest still sum to 1") {
    const Matrix q = random_matrix(5, 4, 11, -2, 2), k = random_matrix(5, 4, 12, -2, 2), v = random_matrix(5, 2, 13);
    attn::AttentionOptions o;
    o.mask.kind = attn::MaskKind::Causal;
    const auto r = attn::attention_steps(q, k, v, o);
    REQUIRE(r.ok());
    for (std::size_t i = 0; i < 5; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j < 5; ++j) {
            if (j > i) {
                CHECK(r.value.scaled(i, j) == -std::numeric_limits<float>::infinity());
                CHECK(r.value.weights(i, j) == 0.0f);
            }
            sum += r.value.weights(i, j);
        }
        CHECK(sum == doctest::Approx(1.0).epsilon(1e-6));
    }
    CHECK(r.value.weights(0, 0) == 1.0f);  // the first word can only look at itself
}

TEST_CASE("a fully masked row gives all-zero weights and a zero output row, not NaN") {
    const Matrix q(2, 2, {1, 0, 0, 1}), k(2, 2, {1, 0, 0, 1}), v(2, 2, {10, 0, 0, 10});
    attn::AttentionOptions o;
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(2, 2, {0, 0, 1, 1});  // query 0 may look at nothing
    for (bool stable : {true, false}) {
        INFO("stable = " << stable);
        o.stable = stable;
        const auto r = attn::attention_steps(q, k, v, o);
        REQUIRE(r.ok());
        CHECK(r.value.row_max(0, 0) == -std::numeric_limits<float>::infinity());
        // its shifted scores are −∞ like its scores, never −∞ − (−∞) = NaN
        CHECK(r.value.shifted(0, 0) == -std::numeric_limits<float>::infinity());
        CHECK(r.value.shifted(0, 1) == -std::numeric_limits<float>::infinity());
        // row 1 is the worked example's second row: softmax([0, 0.71]) = [0.3302, 0.6698]
        check_close(r.value.weights, Matrix(2, 2, {0, 0, 0.3302f, 0.6698f}), 1e-4);
        check_close(r.value.output, Matrix(2, 2, {0, 0, 3.302f, 6.698f}), 1e-3);
        const auto fast = attn::attention(q, k, v, o);
        REQUIRE(fast.ok());
        check_close(fast.value, r.value.output, 1e-5);
    }
}

TEST_CASE("scores around 90–1000: the stable softmax stays finite, the naive one overflows") {
    // exp(88.7) is the largest float32; the article's "比如 1000" overflows to +Inf.
    for (float big : {90.0f, 100.0f, 500.0f, 1000.0f}) {
        INFO("scores " << big << " and " << big - 1);
        const Matrix q(1, 1, std::vector<float>{1}), k(2, 1, {big, big - 1.0f}), v(2, 1, {1, 0});
        attn::AttentionOptions o;
        o.scale = attn::Scale::None;
        const auto stable = attn::attention_steps(q, k, v, o);
        REQUIRE(stable.ok());
        // softmax([x, x − 1]) = [1/(1 + e⁻¹), e⁻¹/(1 + e⁻¹)] = [0.7311, 0.2689] whatever x is
        check_close(stable.value.weights, Matrix(1, 2, {0.7311f, 0.2689f}), 1e-4);
        for (float w : stable.value.weights.data) CHECK(std::isfinite(w));

        o.stable = false;
        const auto naive = attn::attention_steps(q, k, v, o);
        REQUIRE(naive.ok());
        CHECK(std::isinf(naive.value.exps(0, 0)));
        CHECK(std::isinf(naive.value.row_sum(0, 0)));
        CHECK(std::isnan(naive.value.weights(0, 0)));  // Inf / Inf
        CHECK(std::isnan(naive.value.output(0, 0)));
    }
}

TEST_CASE("NaN in an input propagates to exactly the cells it touches") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Matrix k = random_matrix(3, 2, 21), v = random_matrix(3, 2, 22);
    SUBCASE("NaN in q row 1 → scores row 1, weights row 1, output row 1; the other rows are clean") {
        Matrix q = random_matrix(3, 2, 20);
        q(1, 0) = nan;
        const auto r = attn::attention_steps(q, k, v);
        REQUIRE(r.ok());
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 3; ++j) {
                CHECK(std::isnan(r.value.scores(i, j)) == (i == 1));
                CHECK(std::isnan(r.value.shifted(i, j)) == (i == 1));
                CHECK(std::isnan(r.value.weights(i, j)) == (i == 1));
            }
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t c = 0; c < 2; ++c) CHECK(std::isnan(r.value.output(i, c)) == (i == 1));
    }
    SUBCASE("NaN in v[2][1] → output column 1 only") {
        Matrix vn = v;
        vn(2, 1) = nan;
        const auto r = attn::attention_steps(random_matrix(3, 2, 20), k, vn);
        REQUIRE(r.ok());
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK_FALSE(std::isnan(r.value.output(i, 0)));
            CHECK(std::isnan(r.value.output(i, 1)));
        }
    }
}

TEST_CASE("softmax along columns (the FAQ's misconception): columns sum to 1, rows do not") {
    const Matrix q = random_matrix(3, 4, 31, -2, 2), k = random_matrix(4, 4, 32, -2, 2), v = random_matrix(4, 2, 33);
    attn::AttentionOptions o;
    o.axis = attn::Axis::Column;
    const auto r = attn::attention_steps(q, k, v, o);
    REQUIRE(r.ok());
    CHECK(r.value.row_max.rows == 1);  // one max per column
    CHECK(r.value.row_max.cols == 4);
    CHECK(r.value.row_sum.rows == 1);
    bool some_row_is_not_1 = false;
    for (std::size_t j = 0; j < 4; ++j) {
        double col = 0;
        for (std::size_t i = 0; i < 3; ++i) col += r.value.weights(i, j);
        CHECK(col == doctest::Approx(1.0).epsilon(1e-6));
    }
    for (std::size_t i = 0; i < 3; ++i) {
        double row = 0;
        for (std::size_t j = 0; j < 4; ++j) row += r.value.weights(i, j);
        if (std::fabs(row - 1.0) > 1e-3) some_row_is_not_1 = true;
    }
    CHECK(some_row_is_not_1);
    // and it is exactly the row softmax of the transposed scores
    using namespace attn::reference;
    const Matrix t = transpose(r.value.scaled);
    const Matrix m = row_max(t);
    const Matrix e = exp_minus_max(t, m, true);
    check_close(r.value.weights, transpose(softmax_weights(e, row_sums(e), t)), 0);
}
