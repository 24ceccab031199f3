// Multi-head attention (core/multi_head.hpp) on both paths: 它 是 猫 with 2 heads against the
// float64 fixture of scripts/make-multi-head-fixture.mjs (head 1 attends to the previous word,
// head 2 to the same word), h = 1 equal bit for bit to the single head, the multiply-adds that h
// heads share, the SIMD path against the reference on random shapes, and every refusal.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "attention.hpp"
#include "fixture.hpp"
#include "helpers.hpp"
#include "multi_head.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

using attn::AttentionOptions;
using attn::AttentionSteps;
using attn::Axis;
using attn::ErrorCode;
using attn::MaskKind;
using attn::Matrix;
using attn::MultiHeadInputs;
using attn::MultiHeadSteps;
using attn::Scale;
using attn::Shape;
using testing::random_matrix;

namespace {

const fixture::Json& multi_head_fixture() {
    static const fixture::Json root = [] {
        std::ifstream in(ATTN_MULTI_HEAD_FIXTURE);
        REQUIRE_MESSAGE(in, "cannot open " ATTN_MULTI_HEAD_FIXTURE);
        std::stringstream ss;
        ss << in.rdbuf();
        return fixture::Parser(ss.str()).parse();
    }();
    return root;
}

const fixture::Json& case_named(const std::string& name) {
    for (const fixture::Json& c : multi_head_fixture()["cases"].array)
        if (c["name"].string == name) return c;
    FAIL("no case " << name);
    throw;  // unreachable: FAIL ends the test
}

AttentionOptions options_of(const fixture::Json& c) {
    AttentionOptions o;
    o.scale = *attn::option_value(attn::kScaleNames, c["scale"].string);
    o.mask.kind = *attn::option_value(attn::kMaskNames, c["mask"].string);
    o.temperature = static_cast<float>(c["temperature"].number);
    return o;
}

// The two entry points, so that every check runs on both.
using Entry = attn::Result<MultiHeadSteps> (*)(const MultiHeadInputs&, std::size_t, const AttentionOptions&);
const std::pair<const char*, Entry> kPaths[] = {{"reference", attn::multi_head_attention_steps},
                                                {"simd", attn::multi_head_attention_steps_simd}};

// Equal bit for bit: same shape, same bytes (so NaN against the same NaN, −0 against −0).
bool same_bits(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols &&
           std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

void check_same_steps(const AttentionSteps& a, const AttentionSteps& b) {
    CHECK(same_bits(a.scores, b.scores));
    CHECK(same_bits(a.kept, b.kept));
    CHECK(same_bits(a.scaled, b.scaled));
    CHECK(same_bits(a.row_max, b.row_max));
    CHECK(same_bits(a.shifted, b.shifted));
    CHECK(same_bits(a.exps, b.exps));
    CHECK(same_bits(a.row_sum, b.row_sum));
    CHECK(same_bits(a.weights, b.weights));
    CHECK(same_bits(a.output, b.output));
    CHECK(a.divisor == b.divisor);
    CHECK(a.non_finite.output == b.non_finite.output);
}

// Every cell within tol · max(1, largest finite magnitude of `want`); NaN only against NaN, ±∞ only
// against itself.
void check_near(const Matrix& got, const Matrix& want, double tol, const std::string& what) {
    INFO(what);
    REQUIRE(got.rows == want.rows);
    REQUIRE(got.cols == want.cols);
    double scale = 1.0;
    for (float x : want.data)
        if (std::isfinite(x)) scale = std::max(scale, double(std::fabs(x)));
    std::size_t bad = 0;
    for (std::size_t t = 0; t < want.size(); ++t) bad += !testing::close(got.data[t], want.data[t], tol * scale);
    CHECK_MESSAGE(bad == 0, bad << " cells differ");
}

}  // namespace

TEST_CASE("它 是 猫 with 2 heads: head 1 attends to the previous word, head 2 to the same word") {
    const auto& c = case_named("它 是 猫, 2 heads");
    const Matrix x = fixture::matrix(c["x"]), wq = fixture::matrix(c["wq"]), wk = fixture::matrix(c["wk"]),
                 wv = fixture::matrix(c["wv"]), wo = fixture::matrix(c["wo"]);
    for (const auto& [path_name, entry] : kPaths) {
        const std::string path = path_name;  // (a structured binding cannot be captured by INFO in C++17)
        INFO(path);
        const auto r = entry({x, wq, wk, wv, wo}, 2, {});
        REQUIRE(r.ok());
        const MultiHeadSteps& st = r.value;
        REQUIRE(st.heads.size() == 2);
        // 是 (row 1) and 猫 (row 2) look back one word in head 1, at themselves in head 2: A ≈ 0.941.
        const Matrix &a1 = st.heads[0].steps.weights, &a2 = st.heads[1].steps.weights;
        CHECK(a1(1, 0) == doctest::Approx(0.941).epsilon(1e-3));
        CHECK(a1(2, 1) == doctest::Approx(0.941).epsilon(1e-3));
        CHECK(a1(0, 0) == doctest::Approx(1.0 / 3));  // 它 has no previous word: (0, 0) attends evenly
        for (std::size_t i = 0; i < 3; ++i) CHECK(a2(i, i) > 0.94f);
        CHECK(st.heads[0].steps.divisor == doctest::Approx(std::sqrt(2.0)));  // each head's own √d_k
        CHECK(st.concat.rows == 3);
        CHECK(st.concat.cols == 4);
        CHECK(st.output.cols == 4);
    }
}

TEST_CASE("every case of the float64 fixture, every field, on both paths") {
    const double tol = multi_head_fixture()["tolerance"].number;
    for (const auto& c : multi_head_fixture()["cases"].array) {
        const Matrix x = fixture::matrix(c["x"]), wq = fixture::matrix(c["wq"]), wk = fixture::matrix(c["wk"]),
                     wv = fixture::matrix(c["wv"]), wo = fixture::matrix(c["wo"]);
        const auto heads = static_cast<std::size_t>(c["heads"].number);
        const auto& want = c["expected"];
        for (const auto& [path_name, entry] : kPaths) {
            const std::string path = path_name;  // (a structured binding cannot be captured by INFO in C++17)
            INFO(c["name"].string << ", " << path);
            const auto r = entry({x, wq, wk, wv, wo}, heads, options_of(c));
            REQUIRE(r.ok());
            const MultiHeadSteps& st = r.value;
            check_near(st.q, fixture::matrix(want["q"]), tol, "q");
            check_near(st.k, fixture::matrix(want["k"]), tol, "k");
            check_near(st.v, fixture::matrix(want["v"]), tol, "v");
            REQUIRE(st.heads.size() == want["heads"].array.size());
            for (std::size_t i = 0; i < heads; ++i) {
                const auto& h = want["heads"].array[i];
                const AttentionSteps& s = st.heads[i].steps;
                INFO("head " << i + 1);
                check_near(st.heads[i].q, fixture::matrix(h["q"]), tol, "q_i");
                check_near(st.heads[i].k, fixture::matrix(h["k"]), tol, "k_i");
                check_near(st.heads[i].v, fixture::matrix(h["v"]), tol, "v_i");
                check_near(s.scores, fixture::matrix(h["scores"]), tol, "scores");
                check_near(s.scaled, fixture::matrix(h["scaled"]), tol, "scaled");
                check_near(s.row_max, fixture::matrix(h["row_max"]), tol, "row_max");
                check_near(s.exps, fixture::matrix(h["exps"]), tol, "exps");
                check_near(s.row_sum, fixture::matrix(h["row_sum"]), tol, "row_sum");
                check_near(s.weights, fixture::matrix(h["weights"]), tol, "weights");
                check_near(s.output, fixture::matrix(h["output"]), tol, "output");
                CHECK(s.divisor == doctest::Approx(h["divisor"].number).epsilon(1e-6));
            }
            check_near(st.concat, fixture::matrix(want["concat"]), tol, "concat");
            check_near(st.output, fixture::matrix(want["output"]), tol, "output");
            const auto& m = want["multiply_adds"];
            CHECK(st.multiply_adds.projections == m["projections"].number);
            CHECK(st.multiply_adds.scores == m["scores"].number);
            CHECK(st.multiply_adds.weighting == m["weighting"].number);
            CHECK(st.multiply_adds.output_projection == m["output_projection"].number);
            CHECK(st.non_finite.output == 0);
        }
    }
}

TEST_CASE("h = 1: the one head is today's attention_steps on Q, K, V, bit for bit, for every option") {
    const std::size_t n = 5, d_model = 6;
    const Matrix x = random_matrix(n, d_model, 1, -2, 2), wq = random_matrix(d_model, 3, 2),
                 wk = random_matrix(d_model, 3, 3), wv = random_matrix(d_model, 4, 4), wo = random_matrix(4, 2, 5);
    Matrix keep(n, n, 1.0f);
    keep(0, 1) = keep(2, 0) = keep(3, 3) = 0.0f;
    for (Scale scale : {Scale::SqrtDk, Scale::Dk, Scale::None})
        for (MaskKind mask : {MaskKind::None, MaskKind::Causal, MaskKind::Custom})
            for (Axis axis : {Axis::Row, Axis::Column})
                for (bool stable : {true, false}) {
                    AttentionOptions o;
                    o.scale = scale;
                    o.mask.kind = mask;
                    if (mask == MaskKind::Custom) o.mask.keep = keep;
                    o.axis = axis;
                    o.stable = stable;
                    o.temperature = 0.7f;
                    INFO("scale " << int(scale) << ", mask " << int(mask) << ", axis " << int(axis) << ", stable "
                                  << stable);
                    const auto ref = attn::multi_head_attention_steps({x, wq, wk, wv, wo}, 1, o);
                    const auto simd = attn::multi_head_attention_steps_simd({x, wq, wk, wv, wo}, 1, o);
                    REQUIRE(ref.ok());
                    REQUIRE(simd.ok());
                    const Matrix q = attn::project(x, wq).value, k = attn::project(x, wk).value,
                                 v = attn::project(x, wv).value;
                    CHECK(same_bits(ref.value.q, q));
                    CHECK(same_bits(simd.value.q, q));  // project_simd sums in the reference's order
                    check_same_steps(ref.value.heads[0].steps, attn::attention_steps(q, k, v, o).value);
                    check_same_steps(simd.value.heads[0].steps, attn::attention_steps_simd(q, k, v, o).value);
                    CHECK(same_bits(ref.value.concat, ref.value.heads[0].steps.output));
                }
}

TEST_CASE("h heads of d_k = d_model / h cost the multiply-adds of one head of d_k = d_model") {
    // n = 3 words, d_model = 8, d_out = 8: split into 1, 2, 4 and 8 heads.
    const std::size_t n = 3, d = 8;
    const Matrix x = random_matrix(n, d, 7), wq = random_matrix(d, d, 8), wk = random_matrix(d, d, 9),
                 wv = random_matrix(d, d, 10), wo = random_matrix(d, d, 11);
    const auto one = attn::multi_head_attention_steps_simd({x, wq, wk, wv, wo}, 1, {}).value.multiply_adds;
    CHECK(one.projections == 3 * n * d * d);  // Q, K, V: n·d_model·d_model each
    CHECK(one.scores == n * n * d);
    CHECK(one.weighting == n * n * d);
    CHECK(one.output_projection == n * d * d);
    CHECK(one.total() == 576 + 72 + 72 + 192);
    for (std::size_t h : {2u, 4u, 8u}) {
        INFO(h << " heads");
        const auto split = attn::multi_head_attention_steps_simd({x, wq, wk, wv, wo}, h, {});
        REQUIRE(split.ok());
        const attn::MultiplyAdds& m = split.value.multiply_adds;
        CHECK(m.projections == one.projections);
        CHECK(m.scores == one.scores);
        CHECK(m.weighting == one.weighting);
        CHECK(m.output_projection == one.output_projection);
    }
}

TEST_CASE("the SIMD path equals the reference on random shapes: h = 1…4, masks, temperature, every scaling") {
    unsigned seed = 100;
    for (std::size_t h = 1; h <= 4; ++h)
        for (std::size_t n : {1u, 3u, 9u})
            for (std::size_t d_k : {1u, 3u, 5u}) {
                const std::size_t d_model = 4 + h, d_v = d_k + 1, d_out = 3;
                const Matrix x = random_matrix(n, d_model, ++seed, -2, 2), wq = random_matrix(d_model, h * d_k, ++seed),
                             wk = random_matrix(d_model, h * d_k, ++seed), wv = random_matrix(d_model, h * d_v, ++seed),
                             wo = random_matrix(h * d_v, d_out, ++seed);
                Matrix keep = random_matrix(n, n, ++seed, 0, 1);
                for (float& c : keep.data) c = c < 0.3f ? 0.0f : 1.0f;
                for (Scale scale : {Scale::SqrtDk, Scale::Dk, Scale::None})
                    for (MaskKind mask : {MaskKind::None, MaskKind::Causal, MaskKind::Custom})
                        for (float temperature : {1.0f, 0.5f}) {
                            AttentionOptions o;
                            o.scale = scale;
                            o.mask.kind = mask;
                            if (mask == MaskKind::Custom) o.mask.keep = keep;
                            o.temperature = temperature;
                            INFO("h " << h << ", n " << n << ", d_k " << d_k << ", scale " << int(scale) << ", mask "
                                      << int(mask) << ", temperature " << temperature);
                            const auto ref = attn::multi_head_attention_steps({x, wq, wk, wv, wo}, h, o);
                            const auto simd = attn::multi_head_attention_steps_simd({x, wq, wk, wv, wo}, h, o);
                            REQUIRE(ref.ok());
                            REQUIRE(simd.ok());
                            CHECK(same_bits(simd.value.q, ref.value.q));
                            CHECK(same_bits(simd.value.v, ref.value.v));
                            for (std::size_t i = 0; i < h; ++i) {
                                const AttentionSteps &a = simd.value.heads[i].steps, &b = ref.value.heads[i].steps;
                                check_near(a.scores, b.scores, 2e-5, "scores");
                                check_near(a.weights, b.weights, 2e-5, "weights");
                                check_near(a.output, b.output, 2e-5, "head output");
                                CHECK(a.divisor == b.divisor);
                            }
                            check_near(simd.value.concat, ref.value.concat, 2e-5, "concat");
                            check_near(simd.value.output, ref.value.output, 2e-5, "output");
                        }
            }
}

TEST_CASE("each head divides by its own √d_k (and ÷d_k, and τ), the divisor the step reports") {
    const Matrix x = random_matrix(3, 4, 20), w = random_matrix(4, 8, 21), wo = random_matrix(8, 2, 22);
    AttentionOptions o;
    o.temperature = 2.0f;
    const auto four = attn::multi_head_attention_steps({x, w, w, w, wo}, 4, o).value;  // d_k = 2
    for (const auto& head : four.heads) CHECK(head.steps.divisor == doctest::Approx(std::sqrt(2.0) * 2.0));
    o.scale = Scale::Dk;
    CHECK(attn::multi_head_attention_steps({x, w, w, w, wo}, 2, o).value.heads[1].steps.divisor == 8.0f);
    o.scale = Scale::None;
    CHECK(attn::multi_head_attention_steps({x, w, w, w, wo}, 8, o).value.heads[7].steps.divisor == 2.0f);
    // and the single head reports its divisor too: √2 for the article's worked example
    const Matrix i2(2, 2, std::vector<float>{1, 0, 0, 1});
    CHECK(attn::attention_steps(i2, i2, i2).value.divisor == std::sqrt(2.0f));
    CHECK(attn::attention_steps_simd(i2, i2, i2).value.divisor == std::sqrt(2.0f));
}

TEST_CASE("multiply_adds saturates end to end: a stage at 2⁶⁴ − 1 keeps the total there (issue 27: 1.4e11)") {
    const std::uint64_t big = 2147483647;  // 2³¹ − 1, the largest size the JS API passes
    const attn::MultiplyAdds m = attn::multiply_adds({1, big, 64, big, 1, 1});
    CHECK(m.projections == attn::kSizeOverflow);
    CHECK(m.total() == attn::kSizeOverflow);
    CHECK(attn::multiply_adds({2, 3, 1, 3, 3, 3}).total() == 2 * 3 * 9 + 2 * 2 * 3 + 2 * 2 * 3 + 2 * 3 * 3);
    CHECK(attn::check_heads(64).code == ErrorCode::None);
    CHECK(attn::check_heads(65).message == "heads must be a whole number from 1 to 64 (got 65)");
}

TEST_CASE("multi-head refusals: a code, the argument at fault and a sentence, before anything is computed") {
    const Matrix x = random_matrix(3, 4, 30), w4 = random_matrix(4, 4, 31), wo = random_matrix(4, 4, 32);
    const auto refusal = [](const attn::Result<MultiHeadSteps>& r) { return r.error; };
    const auto call = [&](const Matrix& xx, const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& o,
                          std::size_t h, const AttentionOptions& options = {}) {
        return refusal(attn::multi_head_attention_steps_simd({xx, q, k, v, o}, h, options));
    };
    SUBCASE("h out of range: 0 and kMaxHeads + 1") {
        for (std::size_t h : {std::size_t{0}, attn::kMaxHeads + 1}) {
            const attn::Error e = call(x, w4, w4, w4, wo, h);
            CHECK(e.code == ErrorCode::OutOfRange);
            CHECK(e.argument == "heads");
            CHECK(e.message == "heads must be a whole number from 1 to 64 (got " + std::to_string(h) + ")");
        }
        const Shape s{3, 4, 12};
        CHECK(attn::check_multi_head_shapes(s, s, s, s, s, -1, {}, nullptr).code == ErrorCode::OutOfRange);
    }
    SUBCASE("h does not divide the columns of wq or wv") {
        attn::Error e = call(x, w4, w4, w4, wo, 3);
        CHECK(e.code == ErrorCode::HeadsIndivisible);
        CHECK(e.argument == "wq");
        CHECK(
            e.message ==
            "wq has 4 columns, which 3 heads cannot split into blocks of equal width; give it a multiple of 3 columns");
        const Matrix w6 = random_matrix(4, 6, 33), wo6 = random_matrix(6, 4, 34);
        e = call(x, w4, w4, w6, wo6, 4);
        CHECK(e.code == ErrorCode::HeadsIndivisible);
        CHECK(e.argument == "wv");
    }
    SUBCASE("wk with other columns than wq") {
        const attn::Error e = call(x, w4, random_matrix(4, 6, 35), w4, wo, 2);
        CHECK(e.code == ErrorCode::HeadWidthMismatch);
        CHECK(e.argument == "wk");
        CHECK(e.message == "wq has 4 columns (h·d_k) but wk has 6; each head's Q_i·K_iᵀ needs the same d_k in Q and K");
    }
    SUBCASE("x's columns against the rows of wq, wk, wv") {
        const Matrix w5 = random_matrix(5, 4, 36);
        for (const char* name : {"wq", "wk", "wv"}) {
            const std::string n = name;
            const attn::Error e = call(x, n == "wq" ? w5 : w4, n == "wk" ? w5 : w4, n == "wv" ? w5 : w4, wo, 2);
            CHECK(e.code == ErrorCode::ProjectionMismatch);
            CHECK(e.argument == name);
        }
        CHECK(call(x, w5, w4, w4, wo, 2).message ==
              "x is 3×4 but wq is 5×4; X·W_Q needs wq to have as many rows as x has columns (4)");
    }
    SUBCASE("wo's rows against concat's h·d_v columns") {
        const attn::Error e = call(x, w4, w4, w4, random_matrix(6, 4, 37), 2);
        CHECK(e.code == ErrorCode::WoMismatch);
        CHECK(e.argument == "wo");
        CHECK(e.message == "concat is 3×4 (n × h·d_v) but wo is 6×4; concat·W_O needs wo to have 4 rows");
    }
    SUBCASE("the single head's rules: empty, temperature, the mask's shape and values, ±Infinity") {
        CHECK(call(Matrix(0, 4), w4, w4, w4, wo, 1).code == ErrorCode::EmptyMatrix);
        AttentionOptions o;
        o.temperature = 0.0f;
        CHECK(call(x, w4, w4, w4, wo, 2, o).code == ErrorCode::BadTemperature);
        o = {};
        o.mask.kind = MaskKind::Custom;
        o.mask.keep = Matrix(3, 4, 1.0f);
        const attn::Error shape = call(x, w4, w4, w4, wo, 2, o);
        CHECK(shape.code == ErrorCode::MaskShape);
        CHECK(shape.message == "mask is 3×4 but the scores are 3×3 (n_q×n_k)");
        o.mask.keep = Matrix(3, 3, 1.0f);
        o.mask.keep(1, 2) = 0.5f;
        CHECK(call(x, w4, w4, w4, wo, 2, o).code == ErrorCode::MaskValue);
        Matrix inf = w4;
        inf(2, 1) = std::numeric_limits<float>::infinity();
        const attn::Error e = call(x, w4, w4, inf, wo, 2);
        CHECK(e.code == ErrorCode::NotFinite);
        CHECK(e.argument == "wv");
    }
    SUBCASE("Q = X·W_Q overflowing float32 to ±Infinity: projection_overflow, with its cell") {
        const Matrix big(1, 2, std::vector<float>{3e38f, 3e38f}), w(2, 2, std::vector<float>{2, 1, 0, 1}),
            o(2, 1, 1.0f);
        const attn::Error e = call(big, w, w, w, o, 1);
        CHECK(e.code == ErrorCode::ProjectionOverflow);
        CHECK(e.argument == "q");
        REQUIRE(e.cell.has_value());
        CHECK(e.cell->col == 0);
        CHECK(e.message ==
              "q[0][0] = (x·wq) is +Infinity: float32 overflowed; use smaller values in x or the projection");
    }
    SUBCASE("the 1 GiB rule counts every head's steps: refused by its shapes alone") {
        // n = 4096, h = 8 heads of d_k = 8: 8 × 7 n² floats ≈ 3.5 GiB.
        const Shape x_s{4096, 64, 4096 * 64}, w_s{64, 64, 64 * 64};
        const attn::Error e = attn::check_multi_head_shapes(x_s, w_s, w_s, w_s, w_s, 8, {}, nullptr);
        CHECK(e.code == ErrorCode::TooMuchMemory);
        CHECK(testing::params_of(e).find("multi_head_attention_steps") != std::string::npos);
        // and one head of the same size passes where eight do not
        const Shape x1{4096, 8, 4096 * 8}, w1{8, 8, 64};
        CHECK_FALSE(attn::check_multi_head_shapes(x1, w1, w1, w1, w1, 1, {}, nullptr));
        const std::uint64_t bytes = attn::multi_head_working_bytes({4096, 64, 8, 8, 8, 64}, Axis::Row);
        CHECK(bytes >= 8 * attn::working_bytes(attn::Operation::AttentionSteps, {4096, 4096, 8, 8}));
    }
    SUBCASE("the 1 GiB rule counts each head's record too, which outweighs the numbers at n = d = 1") {
        // tests/fuzz/fuzz_differential.cpp measured 628 bytes held against 84 counted for one
        // head of 1×1 matrices: the vector of HeadSteps was left out.
        const std::uint64_t steps = attn::working_bytes(attn::Operation::AttentionSteps, {1, 1, 1, 1});
        CHECK(attn::multi_head_working_bytes({1, 1, 1, 1, 1, 1}, Axis::Row) >= steps + sizeof(attn::HeadSteps));
        CHECK(attn::multi_head_working_bytes({1, 1, 3, 1, 1, 1}, Axis::Row) >= 3 * (steps + sizeof(attn::HeadSteps)));
    }
}
