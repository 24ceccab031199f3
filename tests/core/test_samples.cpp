// The sampler of the lab "why divide by √d_k" (core/samples.hpp): the article's §4 measured.
// For q, k with independent N(0, 1) components, E[q·k] = 0 and Var(q·k) = d_k; these tests check
// that the samples say so within their statistical error, that they are the same numbers in every
// build (values computed independently in Python), and that bad arguments are refused.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "samples.hpp"
#include "simd_kernels.hpp"

using attn::ErrorCode;
using testing::params_of;

namespace {

// Sample moments in float64: mean, variance (÷ N), fourth central moment (÷ N).
struct Moments {
    double mean = 0, var = 0, m4 = 0;
};
Moments moments(const std::vector<float>& x) {
    Moments m;
    for (float v : x) m.mean += v;
    m.mean /= static_cast<double>(x.size());
    for (float v : x) {
        const double c = v - m.mean, c2 = c * c;
        m.var += c2;
        m.m4 += c2 * c2;
    }
    m.var /= static_cast<double>(x.size());
    m.m4 /= static_cast<double>(x.size());
    return m;
}

std::vector<float> samples(std::int64_t dk, std::int64_t count, std::int64_t seed) {
    auto r = attn::dot_product_samples(dk, count, seed);
    REQUIRE(r.ok());
    return r.value;
}

}  // namespace

TEST_CASE("the same numbers in every build: SplitMix64 and Box–Muller as computed independently in Python") {
    // The first eight N(0, 1) values of seed 42, from a separate Python implementation of
    // SplitMix64 + Box–Muller (float64, then rounded to float32). Exact: the stream is integer
    // arithmetic and the float64 → float32 rounding hides any last-ulp difference of libm.
    const auto m = attn::normal_matrix(1, 8, 42);
    REQUIRE(m.ok());
    const std::vector<float> python = {0.41471976041793823f, 0.6526812314987183f, -0.8918862342834473f,
                                       1.3268336057662964f,  1.72959303855896f,   -1.883416771888733f,
                                       0.5456204414367676f,  -1.6568357944488525f};
    CHECK(m.value.data == python);
    // d_k = 1: each sample is one product q₀·k₀, rounded once — the same bits in every build.
    const std::vector<float> products = {0.2706798017024994f, -1.183384656906128f, -3.25754451751709f,
                                         -0.9040035009384155f};
    CHECK(samples(1, 4, 42) == products);
    // Seed 0 is as good a seed as any (SplitMix64 has no bad seeds).
    const auto zero = attn::normal_matrix(1, 2, 0);
    REQUIRE(zero.ok());
    CHECK(zero.value.data == std::vector<float>{-0.45275774598121643f, 0.20776604115962982f});
}

TEST_CASE("same seed, same values; another seed, other values") {
    const auto a = samples(64, 1000, 7), b = samples(64, 1000, 7), c = samples(64, 1000, 8);
    CHECK(a == b);
    int same = 0;
    for (std::size_t p = 0; p < a.size(); ++p) same += a[p] == c[p];
    CHECK(same == 0);
}

TEST_CASE("sample p is q_p · k_p with q_p, k_p rows 2p and 2p + 1 of normal_matrix, through simd::dot") {
    const std::int64_t dk = 37, count = 50;  // 37: batches of 4 or 8 and a scalar tail
    const auto m = attn::normal_matrix(2 * count, dk, 2024);
    REQUIRE(m.ok());
    const auto s = samples(dk, count, 2024);
    for (std::size_t p = 0; p < s.size(); ++p) {
        CHECK(s[p] == attn::simd::dot(m.value.row(2 * p), m.value.row(2 * p + 1), dk));
        // …which is the exact dot product within float32 rounding: every build agrees to that
        double exact = 0, magnitude = 0;
        for (std::int64_t i = 0; i < dk; ++i) {
            exact += double(m.value(2 * p, i)) * m.value(2 * p + 1, i);
            magnitude += std::fabs(double(m.value(2 * p, i)) * m.value(2 * p + 1, i));
        }
        CHECK(std::fabs(s[p] - exact) <= 1e-6 * magnitude);
    }
}

TEST_CASE("the components are N(0, 1): mean 0, variance 1, kurtosis 3, 68.27% within one σ") {
    const auto m = attn::normal_matrix(32768, 8, 11);  // 262144 values
    REQUIRE(m.ok());
    const Moments mo = moments(m.value.data);
    const double n = static_cast<double>(m.value.size());
    std::size_t within = 0;
    for (float x : m.value.data) within += std::fabs(x) < 1.0f;
    // Five standard errors each: for N(0, 1), SE(mean) = 1/√n, SE(var) = √(2/n),
    // SE(kurtosis) = √(24/n), SE(fraction) = √(p(1 − p)/n). A uniform distribution scaled to
    // variance 1 has kurtosis 1.8 and 57.7% within one σ: rejected by a wide margin.
    CHECK(std::fabs(mo.mean) < 5 / std::sqrt(n));
    CHECK(std::fabs(mo.var - 1) < 5 * std::sqrt(2 / n));
    CHECK(std::fabs(mo.m4 / (mo.var * mo.var) - 3) < 5 * std::sqrt(24 / n));
    CHECK(std::fabs(within / n - 0.682689) < 5 * std::sqrt(0.682689 * 0.317311 / n));
}

TEST_CASE("§4 measured: E[q·k] = 0 and Var(q·k) = d_k, so Var(q·k/√d_k) = 1") {
    for (std::int64_t dk : {1, 2, 16, 64, 256, 1024}) {
        INFO("d_k = " << dk);
        const std::int64_t count = dk < 1024 ? 32768 : 8192;  // fewer at 1024: 2·count·d_k normals
        const Moments m = moments(samples(dk, count, 1000 + dk));
        const double n = static_cast<double>(count);
        // Standard errors from the samples themselves: SE(mean) = √(var/n), SE(var) =
        // √((m₄ − var²)/n) (q·k is far from normal at small d_k: a product of two normals has
        // kurtosis 9). Five of them is a tolerance a correct sampler passes, and with these counts
        // it is still below 10% of d_k — so Var = d_k/2 or 2·d_k (or a uniform's d_k/9) fails.
        const double se_mean = std::sqrt(m.var / n), se_var = std::sqrt((m.m4 - m.var * m.var) / n);
        CHECK(std::fabs(m.mean) < 5 * se_mean);
        CHECK(std::fabs(m.var - dk) < 5 * se_var);
        CHECK(5 * se_var < 0.1 * dk);
        CHECK(std::fabs(m.var / dk - 1) < 5 * se_var / dk);  // the scaled scores' variance, ≈ 1
    }
}

TEST_CASE("out_of_range: d_k, count, seed, rows and cols outside their limits are refused with their numbers") {
    const auto lim = attn::kSampleLimits;
    CHECK(lim.max_dk == 1024);
    CHECK(attn::dot_product_samples(1024, 1, 0).ok());
    CHECK(attn::dot_product_samples(1, 32768, 4294967295).ok());

    const auto e = attn::dot_product_samples(0, 10, 1).error;
    CHECK(e.code == ErrorCode::OutOfRange);
    CHECK(std::string(attn::code_name(e.code)) == "out_of_range");
    CHECK(e.argument == "dk");
    CHECK(params_of(e) == "got=0 min=1 max=1024");
    CHECK(e.message == "dk must be a whole number from 1 to 1024 (got 0)");

    CHECK(attn::dot_product_samples(1025, 10, 1).error.message ==
          "dk must be a whole number from 1 to 1024 (got 1025)");
    const auto count = attn::dot_product_samples(4, 32769, 1).error;
    CHECK(count.argument == "count");
    CHECK(count.message == "count must be a whole number from 1 to 32768 (got 32769)");
    CHECK(attn::dot_product_samples(4, -5, 1).error.message == "count must be a whole number from 1 to 32768 (got -5)");
    const auto seed = attn::dot_product_samples(4, 10, 4294967296).error;
    CHECK(seed.argument == "seed");
    CHECK(params_of(seed) == "got=4.29497e+09 min=0 max=4.29497e+09");
    CHECK(attn::dot_product_samples(4, 10, -1).error.message ==
          "seed must be a whole number from 0 to 4294967295 (got -1)");

    CHECK(attn::normal_matrix(0, 4, 1).error.argument == "rows");
    CHECK(attn::normal_matrix(4, 2000, 1).error.message == "cols must be a whole number from 1 to 1024 (got 2000)");
    CHECK(attn::normal_matrix(4, 4, -1).error.argument == "seed");
}
