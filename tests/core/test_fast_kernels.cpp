// The fast paths' exponentials (fast_exp.hpp) on their own, over their whole range with their
// edge cases.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "fast_kernels.hpp"
#include "helpers.hpp"

using attn::fast::kMR;
using attn::fast::kNK;



TEST_CASE("the softmax's 2^y (y ≤ 0) is within 1e-6 relative of std::exp2 and keeps the edge cases") {
    // Through exp2_sum with m = 0 (so y = s), in every lane and, in the scalar build, exp2_scalar.
    std::vector<float> y;
    for (double t = -126.0; t <= 0.0; t += 0.00377) y.push_back(static_cast<float>(t));
    for (float t : {0.0f, -0.0f, -1e-8f, -0.5f, -0.49999997f, -0.50000006f, -1.0f, -125.99f}) y.push_back(t);
    y.resize((y.size() + kMR - 1) / kMR * kMR, 0.0f);
    std::vector<float> got = y, zero(kMR, 0.0f), l(kMR);
    attn::fast::exp2_sum(got.data(), y.size() / kMR, zero.data(), l.data());
    double worst = 0.0;
    float worst_y = 0.0f;
    for (std::size_t i = 0; i < y.size(); ++i) {
        const double want = std::exp2(static_cast<double>(y[i]));
        const double rel = std::fabs(got[i] - want) / want;
        if (rel > worst) worst = rel, worst_y = y[i];
        const float one = attn::fast::exp2_scalar(y[i]);  // the scalar version follows the same steps
        if (std::fabs(one - want) / want > 1e-6) CHECK(one == doctest::Approx(want).epsilon(1e-6));
    }
    INFO("worst relative error " << worst << " at y = " << worst_y);
    CHECK(worst < 1e-6);

    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> edge = {-inf, -126.5f, -200.0f, nan, 0.0f, -inf, nan, -1000.0f, -0.0f};
    edge.resize((edge.size() + kMR - 1) / kMR * kMR, 0.0f);
    std::vector<float> out = edge;
    attn::fast::exp2_sum(out.data(), edge.size() / kMR, zero.data(), l.data());
    for (std::size_t i : {std::size_t{0}, std::size_t{2}, std::size_t{5}, std::size_t{7}}) CHECK(out[i] == 0.0f);
    // −126.5: 0 or the subnormal 2^−126.5 (the batch version flushes to 0 only from −126.5 down)
    CHECK(out[1] >= 0.0f);
    CHECK(out[1] <= 0x1p-126f);
    for (std::size_t i : {std::size_t{3}, std::size_t{6}}) CHECK(std::isnan(out[i]));
    CHECK(out[4] == 1.0f);
    CHECK(out[8] == 1.0f);
    for (std::size_t i : {std::size_t{0}, std::size_t{2}, std::size_t{7}}) CHECK(attn::fast::exp2_scalar(edge[i]) == 0.0f);
    CHECK(std::isnan(attn::fast::exp2_scalar(nan)));
}

TEST_CASE("the streaming kernel's scalar exp is within 1e-6 relative of std::exp and keeps the edge cases") {
    SUBCASE("over [−87.33, 88.7], where the result is a normal float") {
        double worst = 0.0;
        float worst_x = 0.0f;
        std::vector<float> x;
        for (double t = -87.33; t <= 88.7; t += 0.00731) x.push_back(static_cast<float>(t));
        for (float t : {0.0f, -0.0f, 1e-8f, -1e-8f, 0.5f, -0.5f, 1.0f, -1.0f, 0.34657359f, -0.34657359f}) x.push_back(t);
        for (float xi : x) {
            const double want = std::exp(static_cast<double>(xi));
            const double rel = std::fabs(attn::fast::exp_scalar(xi) - want) / want;
            if (rel > worst) worst = rel, worst_x = xi;
        }
        INFO("worst relative error " << worst << " at x = " << worst_x);
        CHECK(worst < 1e-6);
    }
    SUBCASE("below FLT_MIN the result is flushed to zero, never above the true value") {
        for (float t : {-87.34f, -87.5f, -88.0f, -100.0f, -1000.0f}) {
            const float got = attn::fast::exp_scalar(t);
            CHECK(got >= 0.0f);
            CHECK(got <= std::numeric_limits<float>::min());
        }
    }
    SUBCASE("−∞ → 0, +∞ and overflow → +∞, NaN → NaN") {
        const float inf = std::numeric_limits<float>::infinity();
        CHECK(attn::fast::exp_scalar(-inf) == 0.0f);
        for (float t : {inf, 89.0f, 1000.0f}) CHECK(attn::fast::exp_scalar(t) == inf);
        CHECK(std::isnan(attn::fast::exp_scalar(std::numeric_limits<float>::quiet_NaN())));
        CHECK(attn::fast::exp_scalar(0.0f) == 1.0f);
    }
}
