// The article's worked example (section 7), step by step, and its companions from the fixture.
#include <doctest/doctest.h>

#include <cmath>

#include "attention.hpp"
#include "fixture.hpp"
#include "helpers.hpp"

using attn::Matrix;
using testing::check_close;

namespace {

attn::AttentionOptions options_of(const fixture::Json& c) {
    attn::AttentionOptions o;
    o.scale = attn::option_value(attn::kScaleNames, c["scale"].string).value();
    o.mask.kind = attn::option_value(attn::kMaskNames, c["mask"].string).value();
    return o;
}

}  // namespace

TEST_CASE("the article's worked example: Q = K = I2, V = 10·I2 gives A ≈ [[0.67, 0.33], [0.33, 0.67]]") {
    const Matrix q(2, 2, {1, 0, 0, 1});
    const Matrix k(2, 2, {1, 0, 0, 1});
    const Matrix v(2, 2, {10, 0, 0, 10});
    const auto r = attn::attention_steps(q, k, v);
    REQUIRE(r.ok());
    const attn::AttentionSteps& st = r.value;

    SUBCASE("step 1, scores: QKᵀ = [[1, 0], [0, 1]] (each word is most like itself)") {
        check_close(st.scores, Matrix(2, 2, {1, 0, 0, 1}), 0);
    }
    SUBCASE("step 2, scaling: ÷√2 ≈ 1.41 gives 0.71 on the diagonal") {
        check_close(st.scaled, Matrix(2, 2, {0.7071f, 0, 0, 0.7071f}), 1e-4);
    }
    SUBCASE("no mask: every cell is kept") { check_close(st.kept, Matrix(2, 2, 1.0f), 0); }
    SUBCASE("step 3, row softmax: [e^0.71, e^0] / (e^0.71 + e^0) = [2.03, 1] / 3.03") {
        check_close(st.row_max, Matrix(2, 1, {0.7071f, 0.7071f}), 1e-4);
        // each row minus its max: [0.71, 0] − 0.71 = [0, −0.71]
        check_close(st.shifted, Matrix(2, 2, {0, -0.7071f, -0.7071f, 0}), 1e-4);
        // With the max subtracted, the article's [2.03, 1] / 3.03 becomes [1, 0.493] / 1.493.
        check_close(st.exps, Matrix(2, 2, {1, 0.4931f, 0.4931f, 1}), 1e-4);
        check_close(st.row_sum, Matrix(2, 1, {1.4931f, 1.4931f}), 1e-4);
        check_close(st.weights, Matrix(2, 2, {0.6698f, 0.3302f, 0.3302f, 0.6698f}), 1e-4);
        // ... which the article rounds to 0.67 / 0.33
        check_close(st.weights, Matrix(2, 2, {0.67f, 0.33f, 0.33f, 0.67f}), 0.005);
    }
    SUBCASE("step 4, weighting V: AV = [[6.698, 3.302], [3.302, 6.698]] ≈ [[6.7, 3.3], [3.3, 6.7]]") {
        check_close(st.output, Matrix(2, 2, {6.698f, 3.302f, 3.302f, 6.698f}), 1e-3);
        check_close(st.output, Matrix(2, 2, {6.7f, 3.3f, 3.3f, 6.7f}), 0.05);
    }
    SUBCASE("the fast path gives the same output") {
        const auto fast = attn::attention(q, k, v);
        REQUIRE(fast.ok());
        check_close(fast.value, st.output, 1e-5);
    }
}

TEST_CASE("every case of the shared fixture matches its float64 values at every step, to 1e-4") {
    const auto& root = fixture::load();
    const double tol = root["tolerance"].number;
    for (const auto& c : root["cases"].array) {
        INFO("case: " << c["name"].string);
        const auto r = attn::attention_steps(fixture::matrix(c["q"]), fixture::matrix(c["k"]), fixture::matrix(c["v"]),
                                             options_of(c));
        REQUIRE(r.ok());
        const auto& e = c["expected"];
        check_close(r.value.scores, fixture::matrix(e["scores"]), tol, tol, "scores");
        check_close(r.value.scaled, fixture::matrix(e["scaled"]), tol, tol, "scaled");
        check_close(r.value.row_max, fixture::matrix(e["row_max"]), tol, tol, "row_max");
        check_close(r.value.exps, fixture::matrix(e["exps"]), tol, tol, "exps");
        check_close(r.value.row_sum, fixture::matrix(e["row_sum"]), tol, tol, "row_sum");
        check_close(r.value.weights, fixture::matrix(e["weights"]), tol, 0, "weights");
        check_close(r.value.output, fixture::matrix(e["output"]), tol, tol, "output");

        const auto fast =
            attn::attention(fixture::matrix(c["q"]), fixture::matrix(c["k"]), fixture::matrix(c["v"]), options_of(c));
        REQUIRE(fast.ok());
        check_close(fast.value, fixture::matrix(e["output"]), tol, tol, "fast output");
    }
}

TEST_CASE("它 是 猫: X (3×4) through W_Q, W_K, W_V gives the fixture's Q, K, V") {
    const auto& c = fixture::case_named("它 是 猫 (X through W_Q, W_K, W_V)");
    const Matrix x = fixture::matrix(c["x"]);
    for (const char* name : {"q", "k", "v"}) {
        const std::string w = std::string("w_") + name;
        INFO(w);
        const auto projected = attn::project(x, fixture::matrix(c[w]));
        REQUIRE(projected.ok());
        check_close(projected.value, fixture::matrix(c[name]), 0);
    }
}

TEST_CASE("d_k = 4: the scaling divides by exactly 2") {
    const auto& c = fixture::case_named("d_k = 4, exact scaling");
    const auto r = attn::attention_steps(fixture::matrix(c["q"]), fixture::matrix(c["k"]), fixture::matrix(c["v"]));
    REQUIRE(r.ok());
    for (std::size_t t = 0; t < r.value.scores.size(); ++t)
        CHECK(r.value.scaled.data[t] == r.value.scores.data[t] / 2.0f);

    SUBCASE("÷d_k divides by 4 and no scaling leaves the scores as they are") {
        attn::AttentionOptions o;
        o.scale = attn::Scale::Dk;
        const auto by_dk =
            attn::attention_steps(fixture::matrix(c["q"]), fixture::matrix(c["k"]), fixture::matrix(c["v"]), o);
        o.scale = attn::Scale::None;
        const auto none =
            attn::attention_steps(fixture::matrix(c["q"]), fixture::matrix(c["k"]), fixture::matrix(c["v"]), o);
        REQUIRE(by_dk.ok());
        REQUIRE(none.ok());
        for (std::size_t t = 0; t < r.value.scores.size(); ++t) {
            CHECK(by_dk.value.scaled.data[t] == r.value.scores.data[t] / 4.0f);
            CHECK(none.value.scaled.data[t] == r.value.scores.data[t]);
        }
    }
    SUBCASE("temperature 2 halves the scaled scores again") {
        attn::AttentionOptions o;
        o.temperature = 2.0f;
        const auto hot =
            attn::attention_steps(fixture::matrix(c["q"]), fixture::matrix(c["k"]), fixture::matrix(c["v"]), o);
        REQUIRE(hot.ok());
        for (std::size_t t = 0; t < r.value.scores.size(); ++t)
            CHECK(hot.value.scaled.data[t] == r.value.scores.data[t] / 4.0f);
    }
}
