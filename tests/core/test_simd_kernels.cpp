// The SIMD kernels of simd_kernels.hpp against plain scalar loops, at every length from 1 to
// 2·batch + 1 and beyond: exactly equal where the kernel promises the reference's rounding (axpy,
// max, subtract, divide), within float32 rounding where it adds in another order (dot, exp_sum).
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

// Lengths below, at, around and well above the batch size (4 on SSE and SIMD128, 8 on AVX): every
// length to 17, then around 32 and 64, and two long ones.
std::vector<std::size_t> lengths() {
    std::vector<std::size_t> out;
    for (std::size_t n = 1; n <= 17; ++n) out.push_back(n);
    for (std::size_t n : {31, 32, 33, 63, 64, 65, 100, 257}) out.push_back(n);
    return out;
}

// y + a·x rounded in two steps, the product first, whatever the compiler may fuse: what axpy
// promises (and what wasm, which has no fused multiply–add, computes).
float mul_then_add(float a, float x, float y) {
    const volatile float product = a * x;
    return y + product;
}

}  // namespace

TEST_CASE("the build rounds a·b + c in two steps (-ffp-contract=off), as wasm does") {
    // (1 + 2⁻¹²)² = 1 + 2⁻¹¹ + 2⁻²⁴: rounded on its own, the product loses its last term (half an
    // ulp, to even), so adding −(1 + 2⁻¹¹) leaves 0; fused into one multiply–add it leaves 2⁻²⁴.
    // A build that fuses makes the SIMD kernels and the reference round differently (axpy and
    // project_simd's bit-for-bit promises fail), so it is caught here by name. Volatile inputs: no
    // folding at compile time.
    const volatile float a = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f);
    const float a_value = a, c_value = c;
    const float result = a_value * a_value + c_value;
    CHECK_MESSAGE(result == 0.0f,
                  "a·b + c was fused into one rounding: build with -ffp-contract=off "
                  "(CMakeLists.txt, ATTN_FP_FLAGS)");
    CHECK(mul_then_add(a, a, c) == 0.0f);
}

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
        const Matrix a = random_matrix(1, n, 100 + static_cast<unsigned>(n)),
                     b = random_matrix(1, n, 200 + static_cast<unsigned>(n));
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
        for (std::size_t i = 0; i < n; ++i) expected.data[i] = mul_then_add(0.375f, x.data[i], expected.data[i]);
        attn::simd::axpy(y.data.data(), 0.375f, x.data.data(), n);
        check_close(y, expected, 0);  // one multiply and one add per element: exact, in lanes or in the tail
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

TEST_CASE("subtract kernel gives x − s exactly, −∞ staying −∞") {
    for (std::size_t n : lengths()) {
        INFO("n = " << n);
        Matrix x = random_matrix(1, n, 550 + static_cast<unsigned>(n), -3.0f, 3.0f);
        x.data[n / 2] = -std::numeric_limits<float>::infinity();  // a masked score
        std::vector<float> out(n);
        attn::simd::subtract(out.data(), x.data.data(), 1.75f, n);
        for (std::size_t i = 0; i < n; ++i) CHECK(out[i] == x.data[i] - 1.75f);
    }
}

TEST_CASE("exp+sum kernel equals exp(x) and its sum, including −∞ → 0, +∞ above 88.7 and NaN") {
    for (std::size_t n : lengths()) {
        INFO("n = " << n);
        // the shifted scores of a row with scores in 90–100: x − max ∈ [−10, 0]
        Matrix x = random_matrix(1, n, 600 + static_cast<unsigned>(n), 90.0f, 100.0f);
        const float max = attn::simd::max(x.data.data(), n);
        for (float& xi : x.data) xi -= max;
        const bool has_masked = n > 1;  // a row of one masked score has no max to subtract
        if (has_masked) x.data[n / 2] = -std::numeric_limits<float>::infinity();
        std::vector<float> out(n);
        const float sum = attn::simd::exp_sum(out.data(), x.data.data(), n);
        double expected_sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double e = std::exp(double(x.data[i]));
            expected_sum += e;
            CHECK(testing::close(out[i], e, 1e-7, 1e-6));
        }
        if (has_masked) CHECK(out[n / 2] == 0.0f);
        CHECK(sum == doctest::Approx(expected_sum).epsilon(1e-5));
    }
    // the naive softmax's overflow and a NaN, in every lane and in the tail
    for (std::size_t n : lengths()) {
        std::vector<float> x(n, 100.0f), out(n);
        x[n - 1] = std::numeric_limits<float>::quiet_NaN();
        attn::simd::exp_sum(out.data(), x.data(), n);
        for (std::size_t i = 0; i + 1 < n; ++i) CHECK(out[i] == std::numeric_limits<float>::infinity());
        CHECK(std::isnan(out[n - 1]));
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
