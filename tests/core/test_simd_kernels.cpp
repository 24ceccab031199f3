// The SIMD kernels against plain scalar loops, at every length from 1 to 2·batch + 1 and beyond,
// and the fast attention path against the reference at odd shapes.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attention.hpp"
#include "helpers.hpp"
#include "simd_kernels.hpp"

using attn::Matrix;
using testing::check_close;
using testing::random_matrix;

namespace {

// Lengths below, at, around and well above the batch size (4 on SSE and SIMD128, 8 on AVX).
std::vector<std::size_t> lengths() {
    std::vector<std::size_t> out;
    const std::size_t w = attn::simd::batch_size();
    for (std::size_t n = 1; n <= 2 * w + 1; ++n) out.push_back(n);
    for (std::size_t n : {std::size_t{17}, std::size_t{31}, std::size_t{64}, std::size_t{100}, std::size_t{257}})
        out.push_back(n);
    return out;
}

}  // namespace

TEST_CASE("the SIMD build is what it says") {
#if defined(__wasm_simd128__) || defined(__SSE2__) || defined(__AVX__)
    CHECK(attn::simd_enabled());
    CHECK(attn::simd::batch_size() >= 4);
#else
    CHECK_FALSE(attn::simd_enabled());
    CHECK(attn::simd::batch_size() == 1);
#endif
}

TEST_CASE("dot kernel equals the scalar dot product at every length") {
    for (std::size_t n : lengths()) {
        INFO("n = " << n);
        const Matrix a = random_matrix(1, n, 100 + static_cast<unsigned>(n)), b = random_matrix(1, n, 200 + static_cast<unsigned>(n));
        double expected = 0;
        for (std::size_t i = 0; i < n; ++i) expected += double(a.data[i]) * b.data[i];
        CHECK(attn::simd::dot(a.data.data(), b.data.data(), n) == doctest::Approx(expected).epsilon(1e-5).scale(1));
    }
}

TEST_CASE("axpy kernel adds alpha·x into y at every length") {
    for (std::size_t n : lengths()) {
        INFO("n = " << n);
        const Matrix x = random_matrix(1, n, 300 + static_cast<unsigned>(n));
        Matrix y = random_matrix(1, n, 400 + static_cast<unsigned>(n));
        Matrix expected = y;
        for (std::size_t i = 0; i < n; ++i) expected.data[i] += 0.375f * x.data[i];
        attn::simd::axpy(y.data.data(), 0.375f, x.data.data(), n);
        check_close(y, expected, 0);  // one multiply and one add per element: exact either way
    }
}

TEST_CASE("max kernel finds the max wherever it is, and NaN wherever it is") {
    for (std::size_t n : lengths()) {
        for (std::size_t at = 0; at < n; at += (n > 20 ? 7 : 1)) {
            INFO("n = " << n << ", max at " << at);
            Matrix x = random_matrix(1, n, 500 + static_cast<unsigned>(n));
            x.data[at] = 5.0f;
            CHECK(attn::simd::max(x.data.data(), n) == 5.0f);
            x.data[at] = std::numeric_limits<float>::quiet_NaN();
            CHECK(std::isnan(attn::simd::max(x.data.data(), n)));
        }
        std::vector<float> masked(n, -std::numeric_limits<float>::infinity());
        CHECK(attn::simd::max(masked.data(), n) == -std::numeric_limits<float>::infinity());
    }
}

TEST_CASE("exp+sum kernel equals exp(x − shift) and its sum, including −∞ → 0 and 90–100") {
    for (std::size_t n : lengths()) {
        INFO("n = " << n);
        Matrix x = random_matrix(1, n, 600 + static_cast<unsigned>(n), 90.0f, 100.0f);
        const bool has_masked = n > 1;  // a row of one masked score has no max to subtract
        if (has_masked) x.data[n / 2] = -std::numeric_limits<float>::infinity();
        const float shift = attn::simd::max(x.data.data(), n);
        std::vector<float> out(n);
        const float sum = attn::simd::exp_sum(out.data(), x.data.data(), shift, n);
        double expected_sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double e = std::exp(double(x.data[i]) - shift);
            expected_sum += e;
            CHECK(testing::close(out[i], e, 1e-7, 1e-6));
        }
        if (has_masked) CHECK(out[n / 2] == 0.0f);
        CHECK(sum == doctest::Approx(expected_sum).epsilon(1e-5));
    }
}

TEST_CASE("divide kernel normalises a row exactly as x / d") {
    for (std::size_t n : lengths()) {
        const Matrix x = random_matrix(1, n, 700 + static_cast<unsigned>(n), 0.0f, 3.0f);
        Matrix y = x;
        attn::simd::divide(y.data.data(), 2.7f, n);
        for (std::size_t i = 0; i < n; ++i) CHECK(y.data[i] == x.data[i] / 2.7f);
    }
}

TEST_CASE("fast attention equals the reference at odd shapes, with every mask and scaling") {
    struct Shape { std::size_t n_q, n_k, d_k, d_v; };
    const Shape shapes[] = {{1, 1, 1, 1}, {1, 5, 3, 2}, {7, 5, 7, 5}, {5, 7, 1, 9}, {13, 13, 9, 4},
                            {3, 17, 16, 8}, {31, 29, 33, 7}, {64, 64, 64, 64}, {2, 100, 5, 1}};
    unsigned seed = 1;
    for (const Shape& s : shapes) {
        const Matrix q = random_matrix(s.n_q, s.d_k, seed++, -2, 2), k = random_matrix(s.n_k, s.d_k, seed++, -2, 2);
        const Matrix v = random_matrix(s.n_k, s.d_v, seed++);
        Matrix keep = random_matrix(s.n_q, s.n_k, seed++, 0, 1);
        for (float& m : keep.data) m = m < 0.3f ? 0.0f : 1.0f;
        for (int scale = 0; scale < 3; ++scale)
            for (int mask = 0; mask < 3; ++mask) {
                INFO(s.n_q << "×" << s.d_k << " · (" << s.n_k << "×" << s.d_k << ")ᵀ · " << s.n_k << "×" << s.d_v
                            << ", scale " << scale << ", mask " << mask);
                attn::AttentionOptions o;
                o.scale = static_cast<attn::Scale>(scale);
                o.mask.kind = static_cast<attn::MaskKind>(mask);
                if (o.mask.kind == attn::MaskKind::Custom) o.mask.keep = keep;
                const auto ref = attn::attention_steps(q, k, v, o);
                const auto fast = attn::attention(q, k, v, o);
                REQUIRE(ref.ok());
                REQUIRE(fast.ok());
                check_close(fast.value, ref.value.output, 1e-5, 1e-4);
            }
    }
}

TEST_CASE("fast attention with a teaching switch falls back to the reference, never differs") {
    const Matrix q = random_matrix(4, 3, 41, -2, 2), k = random_matrix(5, 3, 42, -2, 2), v = random_matrix(5, 2, 43);
    attn::AttentionOptions o;
    o.axis = attn::Axis::Column;
    check_close(attn::attention(q, k, v, o).value, attn::attention_steps(q, k, v, o).value.output, 0);
    o.axis = attn::Axis::Row;
    o.stable = false;
    check_close(attn::attention(q, k, v, o).value, attn::attention_steps(q, k, v, o).value.output, 0);
}
