// The fast paths' microkernels (fast_kernels.hpp) and exponentials (fast_exp.hpp) on their own,
// against plain scalar loops: qk_panel, pv_cols, col_max, exp_sum and exp2_sum at lengths around
// the vector width, on random data in their packed layouts, the block kernels the fast paths call
// (qk_panels, pv_block on V packed by pack_values) around their loops' chunk of 8, and the
// exponentials over their whole range with their edge cases. Natively the kernels use real FMAs;
// in wasm a multiply and an add.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "fast_kernels.hpp"
#include "helpers.hpp"
#include "packing.hpp"

using attn::fast::kMR;
using attn::fast::kNC;
using attn::fast::kNK;
using testing::random_matrix;

namespace {

// Lengths below, at, around and well above the vector width (the d of a Q·Kᵀ panel, the keys of
// a score block): every length to 17, then around 32 and 64.
const std::size_t kLengths[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 32, 33, 63, 64, 65};

std::vector<float> random_values(std::size_t n, unsigned seed, float lo = -2.0f, float hi = 2.0f) {
    return random_matrix(1, n, seed, lo, hi).data;
}

// How far a float32 sum of n products may be from the exact one, in any order and with or
// without fused multiply-adds: n rounding errors of at most 2^-24 of the running magnitude.
double sum_bound(std::size_t n, double sum_of_abs) { return (static_cast<double>(n) + 1) * 0x1p-24 * sum_of_abs; }

}  // namespace

TEST_CASE("qk_panel: the NK scores of a key panel for the MR rows of a query group, at every d") {
    for (std::size_t d : kLengths) {
        INFO("d = " << d);
        const std::vector<float> qp = random_values(d * kMR, 10 + unsigned(d));  // (d, MR)
        const std::vector<float> kp = random_values(d * kNK, 20 + unsigned(d));  // (d, NK)
        std::vector<float> s(kNK * kMR, -1.0f);
        attn::fast::qk_panel(qp.data(), kp.data(), d, s.data());
        for (std::size_t h = 0; h < kNK; ++h)
            for (std::size_t r = 0; r < kMR; ++r) {
                double exact = 0, magnitude = 0;
                for (std::size_t c = 0; c < d; ++c) {
                    exact += double(qp[c * kMR + r]) * kp[c * kNK + h];
                    magnitude += std::fabs(double(qp[c * kMR + r]) * kp[c * kNK + h]);
                }
                INFO("key " << h << ", row " << r);
                CHECK(std::fabs(s[h * kMR + r] - exact) <= sum_bound(d, magnitude));
            }
    }
}

TEST_CASE("pv_cols: P·V for 1 to 4 value columns, from zero and rescaling a running output") {
    const std::size_t ldv = 7;  // V's row length: the kernel reads v[j·ldv + h] for h < nc
    for (std::size_t nj : kLengths) {
        const std::vector<float> p = random_values(nj * kMR, 30 + unsigned(nj), 0.0f, 1.0f);  // (nj, MR) weights
        const std::vector<float> v = random_values(nj * ldv, 40 + unsigned(nj));
        const std::vector<float> alpha = random_values(kMR, 50 + unsigned(nj), 0.0f, 1.0f);
        for (std::size_t nc = 1; nc <= 4; ++nc)
            for (bool rescale : {false, true}) {
                INFO("keys " << nj << ", columns " << nc << (rescale ? ", rescaling" : ", from zero"));
                const std::vector<float> before = random_values(nc * kMR, 60 + unsigned(nj + nc));
                std::vector<float> acc = before;  // (nc, MR)
                attn::fast::pv_cols(nc, p.data(), v.data(), ldv, nj, acc.data(), rescale ? alpha.data() : nullptr);
                for (std::size_t h = 0; h < nc; ++h)
                    for (std::size_t r = 0; r < kMR; ++r) {
                        double exact = rescale ? double(alpha[r]) * before[h * kMR + r] : 0.0;
                        double magnitude = std::fabs(exact);
                        for (std::size_t j = 0; j < nj; ++j) {
                            exact += double(p[j * kMR + r]) * v[j * ldv + h];
                            magnitude += std::fabs(double(p[j * kMR + r]) * v[j * ldv + h]);
                        }
                        INFO("column " << h << ", row " << r);
                        CHECK(std::fabs(acc[h * kMR + r] - exact) <= sum_bound(nj + 1, magnitude));
                    }
            }
    }
}

TEST_CASE("qk_panels: np panels in one call, each as qk_panel computes it") {
    for (std::size_t d : {std::size_t{1}, std::size_t{5}, std::size_t{64}})
        for (std::size_t np : {1, 2, 7, 8, 9, 16, 17, 64}) {
            INFO("d = " << d << ", panels " << np);
            const std::vector<float> qp = random_values(d * kMR, 90 + unsigned(d));
            const std::vector<float> kp = random_values(np * d * kNK, 100 + unsigned(np));
            std::vector<float> s(np * kNK * kMR + 1, -1.0f), one(kNK * kMR);
            attn::fast::qk_panels(qp.data(), kp.data(), d, np, s.data());
            for (std::size_t p = 0; p < np; ++p) {
                attn::fast::qk_panel(qp.data(), kp.data() + p * d * kNK, d, one.data());
                for (std::size_t i = 0; i < kNK * kMR; ++i) CHECK(s[p * kNK * kMR + i] == one[i]);
            }
            CHECK(s.back() == -1.0f);  // nothing written past np panels
        }
}

TEST_CASE("pack_values and pv_block: P·V over every value column, d_v around the panel width") {
    for (std::size_t d_v : {1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 36, 64})
        for (std::size_t n_k : {1, 5, 9, 40}) {
            INFO("d_v = " << d_v << ", keys " << n_k);
            const attn::Matrix v = random_matrix(n_k, d_v, 110 + unsigned(d_v + n_k));
            std::vector<float> vp;
            attn::fast::pack_values<kNC>(v, vp);
            const std::size_t panels = (d_v + kNC - 1) / kNC, stride = n_k * kNC;
            REQUIRE(vp.size() == panels * stride);
            for (std::size_t b = 0; b < panels; ++b)
                for (std::size_t j = 0; j < n_k; ++j)
                    for (std::size_t h = 0; h < kNC; ++h)
                        CHECK(vp[b * stride + j * kNC + h] == (b * kNC + h < d_v ? v(j, b * kNC + h) : 0.0f));
            // keys j0 .. n_k − 1 of the packed panels, as the streaming kernel passes a tile
            const std::size_t j0 = n_k / 3, nj = n_k - j0;
            const std::vector<float> p = random_values(nj * kMR, 120 + unsigned(n_k), 0.0f, 1.0f);
            const std::vector<float> alpha = random_values(kMR, 130 + unsigned(d_v), 0.0f, 1.0f);
            for (bool rescale : {false, true}) {
                INFO((rescale ? "rescaling" : "from zero"));
                const std::vector<float> before = random_values(d_v * kMR, 140 + unsigned(d_v));
                std::vector<float> acc = before;
                acc.push_back(-1.0f);
                attn::fast::pv_block(p.data(), vp.data() + j0 * kNC, stride, nj, d_v, acc.data(),
                                     rescale ? alpha.data() : nullptr);
                CHECK(acc.back() == -1.0f);  // nothing written past d_v columns
                for (std::size_t c = 0; c < d_v; ++c)
                    for (std::size_t r = 0; r < kMR; ++r) {
                        double exact = rescale ? double(alpha[r]) * before[c * kMR + r] : 0.0;
                        double magnitude = std::fabs(exact);
                        for (std::size_t j = 0; j < nj; ++j) {
                            exact += double(p[j * kMR + r]) * v(j0 + j, c);
                            magnitude += std::fabs(double(p[j * kMR + r]) * v(j0 + j, c));
                        }
                        INFO("column " << c << ", row " << r);
                        CHECK(std::fabs(acc[c * kMR + r] - exact) <= sum_bound(nj + 1, magnitude));
                    }
            }
        }
}

TEST_CASE("col_max: each lane's running max over a block of scores, −∞ (masked) included") {
    const float minus_inf = -std::numeric_limits<float>::infinity();
    for (std::size_t n : kLengths) {
        INFO("n = " << n);
        std::vector<float> s = random_values(n * kMR, 70 + unsigned(n), -5.0f, 5.0f);  // (n, MR)
        for (std::size_t j = 0; j < n; ++j) s[j * kMR + 1] = minus_inf;                // lane 1: every key masked
        s[(n - 1) * kMR + 2] = 9.0f;  // lane 2: its max in the last row
        std::vector<float> m(kMR, minus_inf);
        m[3] = 7.5f;  // lane 3: a running max larger than anything in the block
        std::vector<float> want = m;
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t r = 0; r < kMR; ++r) want[r] = std::max(want[r], s[j * kMR + r]);
        std::vector<float> lo(kMR, std::numeric_limits<float>::infinity()), want_lo = lo, m2 = m;
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t r = 0; r < kMR; ++r) want_lo[r] = std::min(want_lo[r], s[j * kMR + r]);
        attn::fast::col_max(s.data(), n, m.data());
        for (std::size_t r = 0; r < kMR; ++r) CHECK(m[r] == want[r]);
        attn::fast::col_max(s.data(), n, m2.data(), lo.data());  // with each lane's min too
        for (std::size_t r = 0; r < kMR; ++r) {
            CHECK(m2[r] == want[r]);
            CHECK(lo[r] == want_lo[r]);
        }
        CHECK(m[1] == minus_inf);
        CHECK(m[2] == 9.0f);
        CHECK(m[3] == 7.5f);
    }
}

// exp_sum and exp2_sum against the scalar formula: s ← 2^y with y = (s − m)·scale in float32
// (scale = log2(e)/divisor for exp_sum, 1 for exp2_sum), l = Σ. The kernels' only difference
// from it is the polynomial (≤ 2.1e-7 relative) and the order of the sum.
void check_exp_sum(bool prescaled) {
    const float minus_inf = -std::numeric_limits<float>::infinity();
    const float inv_divisor = 1.0f / 2.8284271f;  // 1/√8
    const float scale = prescaled ? 1.0f : inv_divisor * attn::fast::exp_constants::log2e;
    for (std::size_t n : kLengths) {
        INFO("n = " << n << (prescaled ? ", exp2_sum" : ", exp_sum"));
        std::vector<float> s = random_values(n * kMR, 80 + unsigned(n), -30.0f, 3.0f);  // (n, MR)
        for (std::size_t j = 0; j < n; ++j) s[j * kMR + 1] = minus_inf;                 // lane 1: fully masked
        s[0] = minus_inf;                                                               // one masked score in lane 0
        std::vector<float> m(kMR, minus_inf);
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t r = 0; r < kMR; ++r) m[r] = std::max(m[r], s[j * kMR + r]);
        const std::vector<float> before = s;
        std::vector<float> l(kMR, -1.0f);
        if (prescaled)
            attn::fast::exp2_sum(s.data(), n, m.data(), l.data());
        else
            attn::fast::exp_sum(s.data(), n, m.data(), inv_divisor, l.data());
        for (std::size_t r = 0; r < kMR; ++r) {
            INFO("lane " << r);
            const float shift = m[r] == minus_inf ? 0.0f : m[r];  // a fully masked lane: terms exp(−∞) = 0
            double sum = 0;
            for (std::size_t j = 0; j < n; ++j) {
                const float y = (before[j * kMR + r] - shift) * scale;
                const double want = std::exp2(static_cast<double>(y));
                sum += want;
                CHECK(testing::close(s[j * kMR + r], want, 1e-37, 1e-6));
            }
            CHECK(testing::close(l[r], sum, 1e-37, 1e-6));
        }
        CHECK(s[0] == 0.0f);
        CHECK(l[1] == 0.0f);
    }
}

TEST_CASE("exp_sum: exp((s − m)/divisor) in place and its sum per lane, −∞ → 0") { check_exp_sum(false); }
TEST_CASE("exp2_sum: 2^(s − m) in place for prescaled scores and its sum per lane") { check_exp_sum(true); }

TEST_CASE("exp2_sum without its clamp gives the same bits wherever every y is ≥ −127") {
    for (std::size_t n : kLengths) {
        INFO("n = " << n);
        std::vector<float> s = random_values(n * kMR, 150 + unsigned(n), -126.9f, 0.0f);  // (n, MR)
        s[0] = -127.0f;                                                                   // the edge itself
        const std::vector<float> zero(kMR, 0.0f);
        std::vector<float> clamped = s, unclamped = s, l1(kMR), l2(kMR);
        attn::fast::exp2_sum(clamped.data(), n, zero.data(), l1.data(), true);
        attn::fast::exp2_sum(unclamped.data(), n, zero.data(), l2.data(), false);
        CHECK(clamped == unclamped);
        CHECK(l1 == l2);
    }
}

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
    for (std::size_t i : {std::size_t{0}, std::size_t{2}, std::size_t{7}})
        CHECK(attn::fast::exp2_scalar(edge[i]) == 0.0f);
    CHECK(std::isnan(attn::fast::exp2_scalar(nan)));
}

TEST_CASE("the streaming kernel's scalar exp is within 1e-6 relative of std::exp and keeps the edge cases") {
    SUBCASE("over [−87.33, 88.7], where the result is a normal float") {
        double worst = 0.0;
        float worst_x = 0.0f;
        std::vector<float> x;
        for (double t = -87.33; t <= 88.7; t += 0.00731) x.push_back(static_cast<float>(t));
        for (float t : {0.0f, -0.0f, 1e-8f, -1e-8f, 0.5f, -0.5f, 1.0f, -1.0f, 0.34657359f, -0.34657359f})
            x.push_back(t);
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
