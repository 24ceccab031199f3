// The step-by-step SIMD path (attention_steps_simd, project_simd) against the reference: the
// article's worked example, every field equal at shapes around the vector width across every
// option, NaN in the same cells, and the same refusals. Runs natively (SSE/AVX) and in both wasm
// builds (SIMD128; scalar, where the kernels are plain loops).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "attention.hpp"
#include "fixture.hpp"
#include "helpers.hpp"

using attn::AttentionOptions;
using attn::AttentionSteps;
using attn::Axis;
using attn::MaskKind;
using attn::Matrix;
using attn::Scale;
using testing::check_close;
using testing::random_matrix;

namespace {

// Every field within kTol × (its largest finite magnitude, at least 1) of the reference's.
// Why that much: a score summed in W interleaved partial sums instead of one differs from the
// reference by a few ulp of the largest score (≈ 4e-7 of it here, measured, with up to 65
// products per dot); exp turns an absolute error δ of its argument into a relative error δ of
// its result, and without scaling at d_k = 65 the scores span tens of units, so exps, sums,
// weights and outputs differ by up to ≈ 1e-5 of their largest value (measured: 6e-6 in wasm
// SIMD128, 9e-6 natively with AVX-512). Why no more: an indexing or tail bug moves values by
// orders of magnitude more.
constexpr double kTol = 2e-5;

// "" when every cell of `got` matches `want` (NaN only against NaN, ±∞ only against itself),
// else how many cells differ and the first of them.
std::string mismatch(const Matrix& got, const Matrix& want, double tol = kTol) {
    if (got.rows != want.rows || got.cols != want.cols)
        return "shape " + attn::shape_string(got) + " instead of " + attn::shape_string(want);
    double scale = 1.0;
    for (float x : want.data)
        if (std::isfinite(x)) scale = std::max(scale, double(std::fabs(x)));
    std::size_t bad = 0;
    std::ostringstream first;
    for (std::size_t i = 0; i < got.rows; ++i)
        for (std::size_t j = 0; j < got.cols; ++j)
            if (!testing::close(got(i, j), want(i, j), tol * scale) && bad++ == 0)
                first << "(" << i << ", " << j << "): got " << got(i, j) << ", expected " << want(i, j);
    if (bad == 0) return {};
    return std::to_string(bad) + " cells differ, first " + first.str();
}

// Both paths on one input; every field of the SIMD path against the reference's.
void check_equal_to_reference(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& o) {
    INFO("q " << attn::shape_string(q) << ", k " << attn::shape_string(k) << ", v " << attn::shape_string(v)
              << ", scale " << std::string(attn::option_name(attn::kScaleNames, o.scale)) << ", mask "
              << std::string(attn::option_name(attn::kMaskNames, o.mask.kind)) << ", axis "
              << std::string(attn::option_name(attn::kAxisNames, o.axis)) << (o.stable ? ", stable" : ", naive")
              << ", temperature " << o.temperature);
    const auto ref = attn::attention_steps(q, k, v, o);
    const auto simd = attn::attention_steps_simd(q, k, v, o);
    REQUIRE(ref.ok());
    REQUIRE(simd.ok());
    const AttentionSteps &a = simd.value, &b = ref.value;
    CHECK_MESSAGE(mismatch(a.scores, b.scores).empty(), "scores: " << mismatch(a.scores, b.scores));
    CHECK_MESSAGE(mismatch(a.kept, b.kept, 0).empty(), "kept: " << mismatch(a.kept, b.kept, 0));
    CHECK_MESSAGE(mismatch(a.scaled, b.scaled).empty(), "scaled: " << mismatch(a.scaled, b.scaled));
    CHECK_MESSAGE(mismatch(a.row_max, b.row_max).empty(), "row_max: " << mismatch(a.row_max, b.row_max));
    CHECK_MESSAGE(mismatch(a.shifted, b.shifted).empty(), "shifted: " << mismatch(a.shifted, b.shifted));
    CHECK_MESSAGE(mismatch(a.exps, b.exps).empty(), "exps: " << mismatch(a.exps, b.exps));
    CHECK_MESSAGE(mismatch(a.row_sum, b.row_sum).empty(), "row_sum: " << mismatch(a.row_sum, b.row_sum));
    CHECK_MESSAGE(mismatch(a.weights, b.weights).empty(), "weights: " << mismatch(a.weights, b.weights));
    CHECK_MESSAGE(mismatch(a.output, b.output).empty(), "output: " << mismatch(a.output, b.output));
}

// About a quarter masked, row 1 (if any) fully masked, and column 0 masked (so that the column
// softmax has a fully masked column too).
Matrix custom_mask(std::size_t n_q, std::size_t n_k, unsigned seed) {
    Matrix keep = random_matrix(n_q, n_k, seed, 0.0f, 1.0f);
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = 0; j < n_k; ++j) keep(i, j) = (keep(i, j) < 0.25f || j == 0 || i == 1) ? 0.0f : 1.0f;
    return keep;
}

// Every option: 3 scales × 3 masks × stable/naive × row/column, and two temperatures.
std::vector<AttentionOptions> every_option(std::size_t n_q, std::size_t n_k, unsigned seed) {
    std::vector<AttentionOptions> grid;
    for (Scale scale : {Scale::SqrtDk, Scale::Dk, Scale::None})
        for (MaskKind mask : {MaskKind::None, MaskKind::Causal, MaskKind::Custom})
            for (bool stable : {true, false})
                for (Axis axis : {Axis::Row, Axis::Column}) {
                    AttentionOptions o;
                    o.scale = scale;
                    o.mask.kind = mask;
                    if (mask == MaskKind::Custom) o.mask.keep = custom_mask(n_q, n_k, seed);
                    o.stable = stable;
                    o.axis = axis;
                    grid.push_back(o);
                }
    AttentionOptions hot, cold;
    hot.temperature = 0.25f;
    cold.temperature = 4.0f;
    cold.mask.kind = MaskKind::Causal;
    grid.push_back(hot);
    grid.push_back(cold);
    return grid;
}

const Matrix I2(2, 2, {1, 0, 0, 1});
const Matrix V10(2, 2, {10, 0, 0, 10});

}  // namespace

TEST_CASE("the article's worked example on the SIMD path: A ≈ [[0.6698, 0.3302], …], AV ≈ [[6.698, 3.302], …]") {
    const auto r = attn::attention_steps_simd(I2, I2, V10);
    REQUIRE(r.ok());
    const AttentionSteps& st = r.value;
    SUBCASE("scores QKᵀ = I, ÷√2 → 0.7071 on the diagonal, nothing masked") {
        check_close(st.scores, Matrix(2, 2, {1, 0, 0, 1}), 0);
        check_close(st.scaled, Matrix(2, 2, {0.7071f, 0, 0, 0.7071f}), 1e-4);
        check_close(st.kept, Matrix(2, 2, 1.0f), 0);
    }
    SUBCASE("softmax: max 0.7071, shifted [0, −0.7071], exps [1, 0.4931], sum 1.4931") {
        check_close(st.row_max, Matrix(2, 1, {0.7071f, 0.7071f}), 1e-4);
        check_close(st.shifted, Matrix(2, 2, {0, -0.7071f, -0.7071f, 0}), 1e-4);
        check_close(st.exps, Matrix(2, 2, {1, 0.4931f, 0.4931f, 1}), 1e-4);
        check_close(st.row_sum, Matrix(2, 1, {1.4931f, 1.4931f}), 1e-4);
    }
    SUBCASE("weights [[0.6698, 0.3302], [0.3302, 0.6698]], the article's 0.67 / 0.33") {
        check_close(st.weights, Matrix(2, 2, {0.6698f, 0.3302f, 0.3302f, 0.6698f}), 1e-4);
        check_close(st.weights, Matrix(2, 2, {0.67f, 0.33f, 0.33f, 0.67f}), 0.005);
    }
    SUBCASE("AV = [[6.698, 3.302], [3.302, 6.698]], the article's 6.7 / 3.3") {
        check_close(st.output, Matrix(2, 2, {6.698f, 3.302f, 3.302f, 6.698f}), 1e-3);
        check_close(st.output, Matrix(2, 2, {6.7f, 3.3f, 3.3f, 6.7f}), 0.05);
    }
    SUBCASE("and every field is the reference's") { check_equal_to_reference(I2, I2, V10, {}); }
}

TEST_CASE("every case of the shared fixture: the SIMD path equals the reference at every step") {
    for (const auto& c : fixture::load()["cases"].array) {
        INFO("case: " << c["name"].string);
        AttentionOptions o;
        o.scale = attn::option_value(attn::kScaleNames, c["scale"].string).value();
        o.mask.kind = attn::option_value(attn::kMaskNames, c["mask"].string).value();
        check_equal_to_reference(fixture::matrix(c["q"]), fixture::matrix(c["k"]), fixture::matrix(c["v"]), o);
    }
}

TEST_CASE("equal to the reference at shapes around the vector width, across every option") {
    // Lengths to 17, around 32 and around 64, rotated so that each of n_q, n_k, d_k and d_v takes
    // every one (the kernels run over d_k for QKᵀ, n_k or n_q for the softmax, d_v for A·V) and
    // n_q ≠ n_k.
    const std::vector<std::size_t> sizes = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                            13, 14, 15, 16, 17, 31, 32, 33, 63, 64, 65};
    const std::size_t n = sizes.size();
    for (std::size_t s = 0; s < n; ++s) {
        const std::size_t n_q = sizes[s], n_k = sizes[(s + 1) % n], d_k = sizes[(s + 2) % n], d_v = sizes[(s + 3) % n];
        const unsigned seed = 100 + static_cast<unsigned>(s) * 7;
        const Matrix q = random_matrix(n_q, d_k, seed, -2, 2), k = random_matrix(n_k, d_k, seed + 1, -2, 2);
        const Matrix v = random_matrix(n_k, d_v, seed + 2, -3, 3);
        for (const AttentionOptions& o : every_option(n_q, n_k, seed + 3)) check_equal_to_reference(q, k, v, o);
    }
}

TEST_CASE("NaN in an input: NaN in exactly the reference's cells, at every step") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Matrix q0 = random_matrix(6, 9, 801, -2, 2), k0 = random_matrix(11, 9, 802, -2, 2),
                 v0 = random_matrix(11, 5, 803);
    Matrix q = q0, k = k0, v = v0;
    q(2, 3) = nan;  // row 2 of everything from the scores on
    k(7, 8) = nan;  // column 7 of the scores; under the column softmax, column 7 only
    v(4, 1) = nan;  // column 1 of the output
    const std::vector<AttentionOptions> options = every_option(6, 11, 804);
    SUBCASE("in q") {
        for (const AttentionOptions& o : options) check_equal_to_reference(q, k0, v0, o);
    }
    SUBCASE("in k") {
        for (const AttentionOptions& o : options) check_equal_to_reference(q0, k, v0, o);
    }
    SUBCASE("in v") {
        for (const AttentionOptions& o : options) check_equal_to_reference(q0, k0, v, o);
    }
}

TEST_CASE("a fully masked row: shifted −∞, exps, weights and output 0, never NaN") {
    AttentionOptions o;
    o.mask.kind = MaskKind::Custom;
    o.mask.keep = Matrix(2, 2, {0, 0, 1, 1});  // query 0 may look at nothing
    for (bool stable : {true, false}) {
        o.stable = stable;
        const auto r = attn::attention_steps_simd(I2, I2, V10, o);
        REQUIRE(r.ok());
        const float minus_inf = -std::numeric_limits<float>::infinity();
        CHECK(r.value.row_max(0, 0) == minus_inf);
        CHECK(r.value.shifted(0, 0) == minus_inf);
        CHECK(r.value.shifted(0, 1) == minus_inf);
        // row 1 is the worked example's second row
        check_close(r.value.weights, Matrix(2, 2, {0, 0, 0.3302f, 0.6698f}), 1e-4);
        check_close(r.value.output, Matrix(2, 2, {0, 0, 3.302f, 6.698f}), 1e-3);
        check_equal_to_reference(I2, I2, V10, o);
    }
}

TEST_CASE("scores near 1000: stable is finite, naive overflows to Inf and NaN, as on the reference") {
    const Matrix q(1, 1, std::vector<float>{1}), k(9, 1, {1000, 999, 998, 997, 996, 995, 994, 993, 992});
    const Matrix v = random_matrix(9, 3, 901);
    AttentionOptions o;
    o.scale = Scale::None;
    const auto stable = attn::attention_steps_simd(q, k, v, o);
    REQUIRE(stable.ok());
    for (float w : stable.value.weights.data) CHECK(std::isfinite(w));
    o.stable = false;
    const auto naive = attn::attention_steps_simd(q, k, v, o);
    REQUIRE(naive.ok());
    CHECK(std::isinf(naive.value.exps(0, 0)));
    CHECK(std::isinf(naive.value.row_sum(0, 0)));
    CHECK(std::isnan(naive.value.weights(0, 0)));
    CHECK(std::isnan(naive.value.output(0, 0)));
    check_equal_to_reference(q, k, v, o);
}

// Issue 27, item 4: a dot product whose partial sums leave float32's range. q = [1, 1, …] against
// key 0 (its values below) and key 1 = 1/√d_k each (score √d_k, scaled 1); V = 10·I₂. In order,
// 3e38 − 3e38 + 3e38 − 3e38 = 0 and 3e38 + 3e38 − 3e38 − 3e38 = ∞; added in W lanes, the first
// gave NaN and the second 0 (d_k = 4 on 4 lanes: wasm SIMD128, SSE; d_k = 16 on every width, key
// 0's terms placed so that each lane's partial sums overflow, or cancel, where the order's do not).
namespace {

struct NearTheLimit {
    const char* name;
    std::vector<float> key0;
    bool finite;  // the reference's score: 0 (finite), or +∞
};

std::vector<NearTheLimit> near_the_limit() {
    const float b = 3e38f;
    return {
        {"d_k = 4, k₀ = [3e38, −3e38, 3e38, −3e38]: score 0", {b, -b, b, -b}, true},
        {"d_k = 4, k₀ = [3e38, 3e38, −3e38, −3e38]: score ∞", {b, b, -b, -b}, false},
        {"d_k = 16, k₀ = ±3e38 alternating: score 0", {b, -b, b, -b, b, -b, b, -b, b, -b, b, -b, b, -b, b, -b}, true},
        {"d_k = 16, k₀ = [3e38, 3e38, 0 ×6, −3e38, −3e38, 0 ×6]: score ∞",
         {b, b, 0, 0, 0, 0, 0, 0, -b, -b, 0, 0, 0, 0, 0, 0},
         false}};
}

}  // namespace

TEST_CASE("a score whose partial sums overflow: summed in the reference's order, the same finite cells") {
    for (const NearTheLimit& c : near_the_limit()) {
        INFO(std::string(c.name));
        const std::size_t d = c.key0.size();
        const Matrix q(1, d, 1.0f);
        Matrix k(2, d, 1.0f / std::sqrt(static_cast<float>(d)));
        std::copy(c.key0.begin(), c.key0.end(), k.row(0));
        const auto r = attn::attention_steps_simd(q, k, V10);
        REQUIRE(r.ok());
        const AttentionSteps& st = r.value;
        if (c.finite) {
            // scaled [0, 1]: A = [1, e] / (1 + e) ≈ [0.2689, 0.7311], AV ≈ [2.689, 7.311]
            CHECK(st.scores(0, 0) == 0.0f);
            check_close(st.weights, Matrix(1, 2, {0.2689f, 0.7311f}), 1e-4);
            check_close(st.output, Matrix(1, 2, {2.689f, 7.311f}), 1e-3);
            CHECK(st.non_finite.output == 0);
        } else {
            // scaled [∞, 1]: max ∞, ∞ − ∞ = NaN, and NaN from there to the output
            CHECK(st.scores(0, 0) == std::numeric_limits<float>::infinity());
            CHECK(std::isnan(st.output(0, 0)));
            CHECK(std::isnan(st.output(0, 1)));
            CHECK(st.non_finite.output == 2);
        }
        check_equal_to_reference(q, k, V10, {});
        for (const auto& fast : {attn::attention(q, k, V10), attn::attention_streaming(q, k, V10)}) {
            REQUIRE(fast.ok());
            CHECK_MESSAGE(mismatch(fast.value, st.output).empty(),
                          "the fast paths: " << mismatch(fast.value, st.output));
        }
    }
}

TEST_CASE("project_simd equals project bit for bit: each element summed in the same order") {
    const std::vector<std::size_t> sizes = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
    for (std::size_t s = 0; s < sizes.size(); ++s) {
        const std::size_t n = sizes[s], d = sizes[(s + 3) % sizes.size()], d_out = sizes[(s + 7) % sizes.size()];
        INFO("x " << n << "×" << d << ", w " << d << "×" << d_out);
        const Matrix x = random_matrix(n, d, 1000 + static_cast<unsigned>(s), -2, 2);
        const Matrix w = random_matrix(d, d_out, 2000 + static_cast<unsigned>(s), -2, 2);
        const auto simd = attn::project_simd(x, w);
        const auto ref = attn::project(x, w);
        REQUIRE(simd.ok());
        check_close(simd.value, ref.value, 0);
    }
}

TEST_CASE("它 是 猫: X through W_Q, W_K, W_V on the SIMD path gives the fixture's Q, K, V") {
    const auto& c = fixture::case_named("它 是 猫 (X through W_Q, W_K, W_V)");
    for (const char* name : {"q", "k", "v"}) {
        INFO(name);
        const auto projected =
            attn::project_simd(fixture::matrix(c["x"]), fixture::matrix(c[std::string("w_") + name]));
        REQUIRE(projected.ok());
        check_close(projected.value, fixture::matrix(c[name]), 0);
    }
}
