// Shared heads (MQA/GQA) and linear attention (core/efficiency_shared.hpp) against float64
// references computed here: the worked example, grouped heads equal to multi-head attention with
// each group's K and V repeated, the two orders of linear attention equal up to rounding (causal
// too, n_q ≠ n_k, d = 1), rows whose φ sums are tiny or 0, the multiply-add counts, and every refusal.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "attention.hpp"
#include "efficiency_shared.hpp"
#include "helpers.hpp"
#include "multi_head.hpp"
#include "validate.hpp"

using attn::AttentionOptions;
using attn::ErrorCode;
using attn::LinearOptions;
using attn::LinearOrder;
using attn::MaskKind;
using attn::Matrix;
using attn::Scale;
using testing::check_close;
using testing::random_matrix;

namespace {

// ---- float64 references -------------------------------------------------------------------------

using Rows = std::vector<std::vector<double>>;

Matrix to_matrix(const Rows& rows) {
    Matrix m(rows.size(), rows.front().size());
    for (std::size_t i = 0; i < m.rows; ++i)
        for (std::size_t j = 0; j < m.cols; ++j) m(i, j) = static_cast<float>(rows[i][j]);
    return m;
}

// softmax(Q_i K_gᵀ / √d_k)·V_g for every query head i, g = ⌊i·g/h⌋, in doubles; causal optional.
Matrix grouped_f64(const Matrix& q, const Matrix& k, const Matrix& v, std::size_t h, std::size_t g, bool causal) {
    const std::size_t d_k = q.cols / h, d_v = v.cols / g;
    Rows out(q.rows, std::vector<double>(h * d_v, 0.0));
    for (std::size_t head = 0; head < h; ++head) {
        const std::size_t kv = head * g / h;
        for (std::size_t i = 0; i < q.rows; ++i) {
            const std::size_t seen = causal ? std::min(i + 1, k.rows) : k.rows;
            std::vector<double> s(seen);
            double m = -INFINITY, sum = 0.0;
            for (std::size_t j = 0; j < seen; ++j) {
                double dot = 0.0;
                for (std::size_t c = 0; c < d_k; ++c) dot += double(q(i, head * d_k + c)) * k(j, kv * d_k + c);
                s[j] = dot / std::sqrt(double(d_k));
                m = std::max(m, s[j]);
            }
            for (double& x : s) sum += (x = std::exp(x - m));
            for (std::size_t j = 0; j < seen; ++j)
                for (std::size_t c = 0; c < d_v; ++c) out[i][head * d_v + c] += s[j] / sum * v(j, kv * d_v + c);
        }
    }
    return to_matrix(out);
}

double phi64(double x) { return x > 0 ? x + 1 : std::exp(x); }

// Σ_j φ(q_i)·φ(k_j) v_j / Σ_j φ(q_i)·φ(k_j), j ≤ i when causal, in doubles; the weights beside.
struct Linear64 {
    Matrix output, weights;
};
Linear64 linear_f64(const Matrix& q, const Matrix& k, const Matrix& v, bool causal) {
    Rows out(q.rows, std::vector<double>(v.cols, 0.0)), a(q.rows, std::vector<double>(k.rows, 0.0));
    for (std::size_t i = 0; i < q.rows; ++i) {
        const std::size_t seen = causal ? std::min(i + 1, k.rows) : k.rows;
        double den = 0.0;
        for (std::size_t j = 0; j < seen; ++j) {
            double w = 0.0;
            for (std::size_t c = 0; c < q.cols; ++c) w += phi64(q(i, c)) * phi64(k(j, c));
            a[i][j] = w;
            den += w;
        }
        for (std::size_t j = 0; j < seen; ++j) {
            a[i][j] /= den;
            for (std::size_t c = 0; c < v.cols; ++c) out[i][c] += a[i][j] * v(j, c);
        }
    }
    return {to_matrix(out), to_matrix(a)};
}

// K (n, g·d) with each of its g blocks repeated h/g times: (n, h·d), block i = block ⌊i·g/h⌋.
Matrix repeat_blocks(const Matrix& m, std::size_t g, std::size_t h) {
    const std::size_t d = m.cols / g;
    Matrix out(m.rows, h * d);
    for (std::size_t i = 0; i < h; ++i)
        for (std::size_t r = 0; r < m.rows; ++r)
            for (std::size_t c = 0; c < d; ++c) out(r, i * d + c) = m(r, (i * g / h) * d + c);
    return out;
}

Matrix identity(std::size_t n) {
    Matrix m(n, n);
    for (std::size_t i = 0; i < n; ++i) m(i, i) = 1.0f;
    return m;
}

bool same_bits(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols &&
           std::memcmp(a.data.data(), b.data.data(), a.size() * sizeof(float)) == 0;
}

// Q = K = I₂, V = 10·I₂: the article's worked example.
const Matrix kI2(2, 2, std::vector<float>{1, 0, 0, 1});
const Matrix kV10(2, 2, std::vector<float>{10, 0, 0, 10});

}  // namespace

// ---- Shared heads -------------------------------------------------------------------------------

TEST_CASE("grouped attention: the worked example with one head and one key–value head") {
    // A = softmax(I/√2) = [[0.670, 0.330], [0.330, 0.670]], AV = 10·A.
    for (auto* path : {attn::attention_grouped, attn::attention_grouped_reference}) {
        const auto r = path(kI2, kI2, kV10, 1, 1, {});
        REQUIRE(r.ok());
        check_close(r.value, to_matrix({{6.698, 3.302}, {3.302, 6.698}}), 1e-3);
        check_close(r.value, grouped_f64(kI2, kI2, kV10, 1, 1, false), 1e-5);
    }
}

TEST_CASE("grouped attention: GQA (h = 4, g = 2) and MQA (g = 1) equal multi-head attention with K, V repeated") {
    const std::size_t h = 4, n = 5, d_k = 3, d_v = 2;
    for (const std::size_t g : {std::size_t{2}, std::size_t{1}}) {
        CAPTURE(g);
        const Matrix q = random_matrix(n, h * d_k, 11), k = random_matrix(n, g * d_k, 12),
                     v = random_matrix(n, g * d_v, 13);
        const Matrix k_rep = repeat_blocks(k, g, h), v_rep = repeat_blocks(v, g, h);

        // The SIMD path: bit for bit the same call with every query head given its own copy.
        const auto grouped = attn::attention_grouped(q, k, v, h, g);
        const auto repeated = attn::attention_grouped(q, k_rep, v_rep, h, h);
        REQUIRE(grouped.ok());
        REQUIRE(repeated.ok());
        CHECK(same_bits(grouped.value, repeated.value));
        // … and each head is the single head's attention on its blocks, bit for bit.
        for (std::size_t i = 0; i < h; ++i) {
            Matrix q_i(n, d_k), k_i(n, d_k), v_i(n, d_v), out_i(n, d_v);
            for (std::size_t r = 0; r < n; ++r) {
                for (std::size_t c = 0; c < d_k; ++c) {
                    q_i(r, c) = q(r, i * d_k + c);
                    k_i(r, c) = k_rep(r, i * d_k + c);
                }
                for (std::size_t c = 0; c < d_v; ++c) {
                    v_i(r, c) = v_rep(r, i * d_v + c);
                    out_i(r, c) = grouped.value(r, i * d_v + c);
                }
            }
            CHECK(same_bits(out_i, attn::attention(q_i, k_i, v_i).value));
        }

        // The reference path: bit for bit the core's multi-head attention on X = I, W_Q = Q, W_K =
        // the repeated K, W_V = the repeated V (so that X·W is W exactly), concat read before W_O.
        const Matrix x = identity(n), w_o = identity(h * d_v);
        const auto multi = attn::multi_head_attention_steps({x, q, k_rep, v_rep, w_o}, h);
        REQUIRE(multi.ok());
        const auto grouped_ref = attn::attention_grouped_reference(q, k, v, h, g);
        REQUIRE(grouped_ref.ok());
        CHECK(same_bits(grouped_ref.value, multi.value.concat));

        // Both paths against float64, and the SIMD one against the multi-head SIMD path.
        check_close(grouped.value, grouped_f64(q, k, v, h, g, false), 1e-5, 1e-5, "simd vs float64");
        check_close(grouped_ref.value, grouped_f64(q, k, v, h, g, false), 1e-5, 1e-5, "reference vs float64");
        const auto multi_simd = attn::multi_head_attention_steps_simd({x, q, k_rep, v_rep, w_o}, h);
        check_close(grouped.value, multi_simd.value.concat, 1e-6, 1e-5, "simd vs multi-head simd");
    }
}

TEST_CASE("grouped attention: n_q ≠ n_k, d = 1, more than 64 keys, causal and ÷d_k against float64") {
    struct Case {
        std::size_t n_q, n_k, h, g, d_k, d_v;
    };
    for (const Case c : {Case{3, 7, 6, 3, 1, 1}, Case{9, 2, 2, 1, 4, 3}, Case{70, 130, 4, 2, 8, 5}}) {
        CAPTURE(c.n_q);
        const Matrix q = random_matrix(c.n_q, c.h * c.d_k, 21, -2, 2), k = random_matrix(c.n_k, c.g * c.d_k, 22, -2, 2),
                     v = random_matrix(c.n_k, c.g * c.d_v, 23);
        for (const bool causal : {false, true}) {
            AttentionOptions o;
            o.mask.kind = causal ? MaskKind::Causal : MaskKind::None;
            for (auto* path : {attn::attention_grouped, attn::attention_grouped_reference}) {
                const auto r = path(q, k, v, c.h, c.g, o);
                REQUIRE(r.ok());
                check_close(r.value, grouped_f64(q, k, v, c.h, c.g, causal), 2e-6, 1e-5);
            }
        }
        // ÷d_k is ÷√d_k with the scores divided by √d_k once more: the same as q / √d_k.
        AttentionOptions dk;
        dk.scale = Scale::Dk;
        Matrix q_scaled = q;
        for (float& x : q_scaled.data) x /= std::sqrt(static_cast<float>(c.d_k));
        check_close(attn::attention_grouped(q, k, v, c.h, c.g, dk).value, grouped_f64(q_scaled, k, v, c.h, c.g, false),
                    2e-6, 1e-5);
    }
}

TEST_CASE("grouped attention: NaN in a key–value head reaches exactly the query heads of its group") {
    const Matrix q = random_matrix(3, 4 * 2, 31), v = random_matrix(3, 2 * 2, 33);
    Matrix k = random_matrix(3, 2 * 2, 32);
    k(1, 2) = std::numeric_limits<float>::quiet_NaN();  // key–value head 1, read by query heads 2 and 3
    for (auto* path : {attn::attention_grouped, attn::attention_grouped_reference}) {
        const auto r = path(q, k, v, 4, 2, {});
        REQUIRE(r.ok());
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t c = 0; c < 8; ++c) CHECK(std::isnan(r.value(i, c)) == (c >= 4));
    }
}

TEST_CASE("grouped attention: every refusal, with the argument at fault") {
    const Matrix q = random_matrix(2, 8, 41), k = random_matrix(2, 4, 42), v = random_matrix(2, 4, 43);
    const auto refusal = [](const attn::Result<Matrix>& r) { return r.error; };
    SUBCASE("heads not a multiple of kvHeads") {
        const auto e = refusal(
            attn::attention_grouped(random_matrix(2, 6, 1), random_matrix(2, 4, 2), random_matrix(2, 4, 3), 3, 2));
        CHECK(e.code == ErrorCode::KvHeadsIndivisible);
        CHECK(e.argument == "kvHeads");
        CHECK(testing::params_of(e) == "heads=3 kvHeads=2");
        CHECK(e.message ==
              "3 query heads cannot share 2 key–value heads in groups of equal size; kvHeads must divide heads");
    }
    SUBCASE("heads and kvHeads out of range") {
        for (const std::int64_t heads : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{65}}) {
            const auto e = refusal(attn::attention_grouped(q, k, v, heads, 1));
            CHECK(e.code == ErrorCode::OutOfRange);
            CHECK(e.argument == "heads");
        }
        for (const std::int64_t kv : {std::int64_t{0}, std::int64_t{5}, std::int64_t{1} << 40}) {
            const auto e = refusal(attn::attention_grouped(q, k, v, 4, kv));
            CHECK(e.code == ErrorCode::OutOfRange);
            CHECK(e.argument == "kvHeads");
            CHECK(e.message == "kvHeads must be a whole number from 1 to heads = 4 (got " + std::to_string(kv) + ")");
        }
    }
    SUBCASE("columns the heads cannot split") {
        const auto e = refusal(attn::attention_grouped(random_matrix(2, 6, 1), k, v, 4, 2));
        CHECK(e.code == ErrorCode::HeadsIndivisible);
        CHECK(e.argument == "q");
        CHECK(testing::params_of(e) == "cols=6 heads=4");
        const auto ek = refusal(attn::attention_grouped(q, random_matrix(2, 3, 2), v, 4, 2));
        CHECK(ek.code == ErrorCode::HeadsIndivisible);
        CHECK(ek.argument == "k");
        CHECK(testing::params_of(ek) == "cols=3 heads=2");
        const auto ev = refusal(attn::attention_grouped(q, k, random_matrix(2, 5, 3), 4, 2));
        CHECK(ev.argument == "v");
    }
    SUBCASE("a query head's d_k other than a key–value head's") {
        const auto e = refusal(attn::attention_grouped(q, random_matrix(2, 6, 2), v, 4, 2));  // 2 against 3
        CHECK(e.code == ErrorCode::DkMismatch);
        CHECK(e.argument == "k");
        CHECK(testing::params_of(e) == "got=3 need=2");
    }
    SUBCASE("keys without values, a bad temperature, ±Infinity") {
        CHECK(refusal(attn::attention_grouped(q, k, random_matrix(3, 4, 3), 4, 2)).code == ErrorCode::KeyValueMismatch);
        AttentionOptions cold;
        cold.temperature = 0.0f;
        CHECK(refusal(attn::attention_grouped(q, k, v, 4, 2, cold)).code == ErrorCode::BadTemperature);
        Matrix bad = v;
        bad(1, 3) = -std::numeric_limits<float>::infinity();
        const auto e = refusal(attn::attention_grouped(q, k, bad, 4, 2));
        CHECK(e.code == ErrorCode::NotFinite);
        CHECK(e.argument == "v");
        REQUIRE(e.cell);
        CHECK(e.cell->row == 1);
        CHECK(e.cell->col == 3);
    }
    SUBCASE("the 1 GiB rule, on the shapes alone") {
        // 2²⁰ queries and keys with 8 heads of d_v = 64: the output alone is 2 GiB.
        const std::size_t n = std::size_t{1} << 20;
        const attn::Shape qs{n, 8 * 64, n * 8 * 64}, ks{n, 64, n * 64};
        for (const bool simd : {true, false}) {
            const auto e = attn::check_grouped_shapes(qs, ks, ks, 8, 1, {}, nullptr, simd);
            CHECK(e.code == ErrorCode::TooMuchMemory);
            CHECK(e.message.rfind("attention_grouped on 1048576×1048576 scores needs", 0) == 0);
        }
        // The reference path keeps a head's n×n scores: 4096 × 4096 × 6 floats is 384 MiB per head,
        // accepted; the SIMD path needs a few MiB.
        const attn::Shape q4{4096, 64, 4096 * 64};
        CHECK(!attn::check_grouped_shapes(q4, q4, q4, 1, 1, {}, nullptr, false));
        CHECK(attn::grouped_working_bytes(q4, q4, q4, 1, 1, {}, true) < (std::uint64_t{8} << 20));
    }
}

// ---- Linear attention ---------------------------------------------------------------------------

TEST_CASE("linear attention: the worked example, both orders, against float64") {
    // φ(I₂) = [[2, 1], [1, 2]]; W = φ(Q)φ(K)ᵀ = [[5, 4], [4, 5]]; A = W / 9; AV = [[50, 40], [40, 50]] / 9.
    for (auto* path : {attn::attention_linear, attn::attention_linear_reference}) {
        LinearOptions o;
        o.weights = true;
        const auto r = path(kI2, kI2, kV10, o);
        REQUIRE(r.ok());
        const Matrix expected = to_matrix({{50.0 / 9, 40.0 / 9}, {40.0 / 9, 50.0 / 9}});
        check_close(r.value.linear, expected, 1e-5, 1e-6, "linear");
        check_close(r.value.quadratic, expected, 1e-5, 1e-6, "quadratic");
        check_close(r.value.weights, to_matrix({{5.0 / 9, 4.0 / 9}, {4.0 / 9, 5.0 / 9}}), 1e-7, 1e-6, "weights");
        // Softmax's AV is [[6.698, 3.302], …]: linear attention's weights are flatter, its output too.
        CHECK(r.value.linear(0, 0) < 6.0f);
    }
}

TEST_CASE("linear attention: the two orders agree within rounding, and with float64, on random shapes") {
    struct Case {
        std::size_t n_q, n_k, d_k, d_v;
    };
    for (const Case c :
         {Case{1, 1, 1, 1}, Case{4, 9, 1, 3}, Case{7, 3, 5, 1}, Case{33, 40, 17, 9}, Case{64, 64, 16, 16}}) {
        const Matrix q = random_matrix(c.n_q, c.d_k, 51, -3, 3), k = random_matrix(c.n_k, c.d_k, 52, -3, 3),
                     v = random_matrix(c.n_k, c.d_v, 53, -2, 2);
        for (const bool causal : {false, true}) {
            CAPTURE(c.n_q);
            CAPTURE(c.n_k);
            CAPTURE(causal);
            LinearOptions o;
            o.causal = causal;
            o.weights = true;
            const Linear64 want = linear_f64(q, k, v, causal);
            const auto simd = attn::attention_linear(q, k, v, o);
            const auto ref = attn::attention_linear_reference(q, k, v, o);
            REQUIRE(simd.ok());
            REQUIRE(ref.ok());
            for (const auto* r : {&simd.value, &ref.value}) {
                check_close(r->quadratic, want.output, 1e-5, 1e-5, "quadratic vs float64");
                check_close(r->linear, want.output, 1e-5, 1e-5, "linear vs float64");
                check_close(r->linear, r->quadratic, 1e-5, 1e-5, "linear vs quadratic");
                check_close(r->weights, want.weights, 1e-7, 1e-5, "weights vs float64");
                CHECK(r->non_finite.quadratic + r->non_finite.linear + r->non_finite.weights == 0);
            }
            // The linear order sums in the same order on both paths: equal bit for bit.
            CHECK(same_bits(simd.value.linear, ref.value.linear));
        }
    }
}

TEST_CASE("linear attention: causal is the quadratic order with the keys after i masked out") {
    // The causal prefix sums against a full (non-causal) call on the first i + 1 keys, row by row.
    const Matrix q = random_matrix(6, 4, 61), k = random_matrix(6, 4, 62), v = random_matrix(6, 3, 63);
    LinearOptions causal;
    causal.causal = true;
    const auto r = attn::attention_linear(q, k, v, causal);
    REQUIRE(r.ok());
    for (std::size_t i = 0; i < 6; ++i) {
        const Matrix k_i(i + 1, 4, std::vector<float>(k.data.begin(), k.data.begin() + (i + 1) * 4));
        const Matrix v_i(i + 1, 3, std::vector<float>(v.data.begin(), v.data.begin() + (i + 1) * 3));
        const Matrix q_i(1, 4, std::vector<float>(q.row(i), q.row(i) + 4));
        const auto row = attn::attention_linear_reference(q_i, k_i, v_i, {});
        for (std::size_t c = 0; c < 3; ++c) {
            CHECK(testing::close(r.value.linear(i, c), row.value.quadratic(0, c), 1e-6, 1e-5));
            CHECK(testing::close(r.value.quadratic(i, c), row.value.quadratic(0, c), 1e-6, 1e-5));
        }
    }
    // The first row sees key 0 alone: its output is v_0 whatever the weights.
    for (std::size_t c = 0; c < 3; ++c) CHECK(r.value.linear(0, c) == doctest::Approx(v(0, c)).epsilon(1e-6));
}

TEST_CASE("linear attention: a row whose φ sums are tiny keeps its digits; one that underflows to 0 is NaN, counted") {
    // q_0 = −30: φ = e⁻³⁰ ≈ 9.4e−14 in each column, every φ(q_0)·φ(k_j) ≈ 1e−13 — tiny but normal.
    Matrix q = random_matrix(3, 2, 71);
    q(0, 0) = q(0, 1) = -30.0f;
    const Matrix k = random_matrix(4, 2, 72), v = random_matrix(4, 2, 73);
    const Linear64 want = linear_f64(q, k, v, false);
    for (auto* path : {attn::attention_linear, attn::attention_linear_reference}) {
        const auto r = path(q, k, v, {});
        REQUIRE(r.ok());
        check_close(r.value.linear, want.output, 1e-5, 1e-5, "linear");
        check_close(r.value.quadratic, want.output, 1e-5, 1e-5, "quadratic");
    }
    // q_0 = −200: e⁻²⁰⁰ is 0 in float32, so both sums are 0 and the row is 0/0 — NaN, not a made-up
    // number; the other rows are untouched, and non_finite says how many cells.
    q(0, 0) = q(0, 1) = -200.0f;
    LinearOptions o;
    o.weights = true;
    for (auto* path : {attn::attention_linear, attn::attention_linear_reference}) {
        const auto r = path(q, k, v, o);
        REQUIRE(r.ok());
        CHECK(r.value.non_finite.linear == 2);
        CHECK(r.value.non_finite.quadratic == 2);
        CHECK(r.value.non_finite.weights == 4);
        CHECK(std::isnan(r.value.linear(0, 0)));
        CHECK(std::isfinite(r.value.linear(1, 0)));
    }
}

TEST_CASE("linear attention: NaN propagates in both orders; one order alone; weights only when asked") {
    Matrix v = random_matrix(3, 2, 81);
    v(2, 0) = std::numeric_limits<float>::quiet_NaN();
    const Matrix q = random_matrix(3, 2, 82), k = random_matrix(3, 2, 83);
    LinearOptions causal;
    causal.causal = true;
    const auto r = attn::attention_linear(q, k, v, causal);
    // Causal: rows 0 and 1 never see key 2, so never its NaN; row 2 does, in column 0 only.
    for (const Matrix* m : {&r.value.quadratic, &r.value.linear}) {
        CHECK(std::isfinite((*m)(1, 0)));
        CHECK(std::isnan((*m)(2, 0)));
        CHECK(std::isfinite((*m)(2, 1)));
    }
    CHECK(r.value.weights.size() == 0);

    LinearOptions linear_only, quadratic_only;
    linear_only.order = LinearOrder::Linear;
    quadratic_only.order = LinearOrder::Quadratic;
    const auto a = attn::attention_linear(q, k, random_matrix(3, 2, 84), linear_only);
    const auto b = attn::attention_linear(q, k, random_matrix(3, 2, 84), quadratic_only);
    CHECK(a.value.quadratic.size() == 0);
    CHECK(a.value.linear.size() == 6);
    CHECK(b.value.linear.size() == 0);
    CHECK(b.value.quadratic.size() == 6);
    check_close(a.value.linear, b.value.quadratic, 1e-6, 1e-5);
}

TEST_CASE("linear attention: the multiply-add counts of each order") {
    // n = 64, d = 16: quadratic 64·64·33 = 135,168; linear 2·64·16·17 = 34,816.
    const auto full = attn::linear_multiply_adds(64, 64, 16, 16, false);
    CHECK(full.quadratic == 135168);
    CHECK(full.linear == 34816);
    // Causal, 64·65/2 = 2080 cells: 2080·33 = 68,640; the linear order the same 34,816.
    const auto causal = attn::linear_multiply_adds(64, 64, 16, 16, true);
    CHECK(causal.quadratic == 68640);
    CHECK(causal.linear == 34816);
    // n_q = 5 > n_k = 3, causal: cells 1 + 2 + 3 + 3 + 3 = 12; keys 3.
    const auto tall = attn::linear_multiply_adds(5, 3, 2, 4, true);
    CHECK(tall.quadratic == 12 * 7);
    CHECK(tall.linear == (3 + 5) * 2 * 5);
    // n_q = 2 < n_k = 6, causal: cells 1 + 2; only keys 0 and 1 are ever added.
    const auto wide = attn::linear_multiply_adds(2, 6, 1, 1, true);
    CHECK(wide.quadratic == 3 * 3);
    CHECK(wide.linear == (2 + 2) * 1 * 2);
    // A call carries the counts of its shape.
    CHECK(attn::attention_linear(kI2, kI2, kV10, {}).value.multiply_adds.quadratic == 2 * 2 * 5);
    // Past 2⁶⁴ they saturate instead of wrapping around.
    const std::uint64_t big = std::uint64_t{1} << 40;
    CHECK(attn::linear_multiply_adds(big, big, 64, 64, false).quadratic == attn::kSizeOverflow);
}

TEST_CASE("linear attention: every refusal") {
    const auto refusal = [](const attn::Result<attn::LinearAttention>& r) { return r.error; };
    CHECK(refusal(attn::attention_linear(kI2, random_matrix(2, 3, 1), kV10, {})).code == ErrorCode::DkMismatch);
    CHECK(refusal(attn::attention_linear(kI2, kI2, random_matrix(3, 2, 1), {})).code == ErrorCode::KeyValueMismatch);
    CHECK(refusal(attn::attention_linear(Matrix(0, 2), kI2, kV10, {})).code == ErrorCode::EmptyMatrix);
    Matrix bad = kI2;
    bad(0, 1) = std::numeric_limits<float>::infinity();
    const auto e = refusal(attn::attention_linear(kI2, bad, kV10, {}));
    CHECK(e.code == ErrorCode::NotFinite);
    CHECK(e.argument == "k");

    // The 1 GiB rule: at n = 2¹⁵ the weights are 4 GiB, and so is the reference's W; the SIMD path's
    // orders alone need a few MiB.
    const std::size_t n = std::size_t{1} << 15;
    const attn::Shape s{n, 16, n * 16};
    LinearOptions weights;
    weights.weights = true;
    const auto too_much = attn::check_linear_shapes(s, s, s, weights, true);
    CHECK(too_much.code == ErrorCode::TooMuchMemory);
    CHECK(too_much.message.rfind("attention_linear on 32768×32768 scores needs", 0) == 0);
    CHECK(attn::check_linear_shapes(s, s, s, {}, false).code == ErrorCode::TooMuchMemory);
    CHECK(!attn::check_linear_shapes(s, s, s, {}, true));
    CHECK(attn::linear_working_bytes(s, s, s, {}, true) < (std::uint64_t{16} << 20));
}
