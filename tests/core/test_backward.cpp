// The backward pass (backward.hpp, backward_simd.hpp, backward_attention.hpp): the worked example's
// gradients by hand, both paths against central finite differences of a float64 forward written
// here, the SIMD path against the reference, its kernels against their scalar loops, masks and NaN,
// and the refusals. Runs natively and in both wasm builds.
//
// The loss throughout: L = Σ_ij (A·V)_ij · G_ij for a stated G, so that dO = ∂L/∂(A·V) = G.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "backward.hpp"
#include "backward_attention.hpp"
#include "backward_kernels.hpp"
#include "backward_simd.hpp"
#include "helpers.hpp"
#include "reference.hpp"

using attn::AttentionBackward;
using attn::AttentionOptions;
using attn::Axis;
using attn::ErrorCode;
using attn::MaskKind;
using attn::Matrix;
using attn::Scale;
using testing::check_close;
using testing::random_matrix;

namespace {

// ---- A float64 forward, written apart from the core: the loss L in double precision. ----

using Vec = std::vector<double>;

double divisor64(Scale scale, std::size_t d_k, double temperature) {
    switch (scale) {
        case Scale::SqrtDk:
            return std::sqrt(double(d_k)) * temperature;
        case Scale::Dk:
            return double(d_k) * temperature;
        case Scale::None:
            break;
    }
    return temperature;
}

bool kept64(const AttentionOptions& o, std::size_t i, std::size_t j) {
    if (o.mask.kind == MaskKind::Causal) return j <= i;
    if (o.mask.kind == MaskKind::Custom) return o.mask.keep(i, j) != 0.0f;
    return true;
}

// L as a function of the scores S (n_q×n_k, before the scaling) and of V (n_k×d_v): softmax of the
// kept scaled scores along the axis (a line with nothing kept has weights 0), then Σ (A·V) ∘ G.
double loss_of_scores(const Vec& s, std::size_t nq, std::size_t nk, std::size_t dk, const Vec& v, std::size_t dv,
                      const Matrix& g, const AttentionOptions& o) {
    const double div = divisor64(o.scale, dk, o.temperature);
    Vec a(nq * nk, 0.0);
    const bool rows = o.axis == Axis::Row;
    const std::size_t lines = rows ? nq : nk, len = rows ? nk : nq;
    for (std::size_t l = 0; l < lines; ++l) {
        auto at = [&](std::size_t t) { return rows ? l * nk + t : t * nk + l; };
        auto kept = [&](std::size_t t) { return rows ? kept64(o, l, t) : kept64(o, t, l); };
        double m = -std::numeric_limits<double>::infinity(), sum = 0.0;
        for (std::size_t t = 0; t < len; ++t)
            if (kept(t)) m = std::max(m, s[at(t)] / div);
        for (std::size_t t = 0; t < len; ++t)
            if (kept(t)) sum += std::exp(s[at(t)] / div - m);
        for (std::size_t t = 0; t < len; ++t)
            if (kept(t)) a[at(t)] = std::exp(s[at(t)] / div - m) / sum;
    }
    double loss = 0.0;
    for (std::size_t i = 0; i < nq; ++i)
        for (std::size_t c = 0; c < dv; ++c) {
            double out = 0.0;
            for (std::size_t j = 0; j < nk; ++j) out += a[i * nk + j] * v[j * dv + c];
            loss += out * double(g(i, c));
        }
    return loss;
}

// S = Q·Kᵀ in double, q: (nq, dk), k: (nk, dk).
Vec scores64(const Vec& q, const Vec& k, std::size_t nq, std::size_t nk, std::size_t dk) {
    Vec s(nq * nk, 0.0);
    for (std::size_t i = 0; i < nq; ++i)
        for (std::size_t j = 0; j < nk; ++j)
            for (std::size_t c = 0; c < dk; ++c) s[i * nk + j] += q[i * dk + c] * k[j * dk + c];
    return s;
}

// ∂f/∂x_t by central differences, (f(x + h) − f(x − h)) / 2h for every t, in double precision.
Vec central_differences(Vec x, const std::function<double(const Vec&)>& f) {
    constexpr double h = 1e-6;
    Vec grad(x.size());
    for (std::size_t t = 0; t < x.size(); ++t) {
        const double x0 = x[t];
        x[t] = x0 + h;
        const double up = f(x);
        x[t] = x0 - h;
        const double down = f(x);
        x[t] = x0;
        grad[t] = (up - down) / (2 * h);
    }
    return grad;
}

Vec to64(const Matrix& m) { return Vec(m.data.begin(), m.data.end()); }

// The largest |got − want| over the cells, relative to max(1, the largest |want|).
double error_of(const Matrix& got, const Vec& want) {
    REQUIRE(got.size() == want.size());
    double scale = 1.0, err = 0.0;
    for (double w : want) scale = std::max(scale, std::fabs(w));
    for (std::size_t t = 0; t < want.size(); ++t) err = std::max(err, std::fabs(double(got.data[t]) - want[t]));
    return err / scale;
}

// One backward call, on the SIMD path or the reference path.
attn::Result<AttentionBackward> backward_on(bool simd, const Matrix& q, const Matrix& k, const Matrix& v,
                                            const Matrix& g, const AttentionOptions& o) {
    return simd ? attn::attention_backward_simd(q, k, v, g, o) : attn::attention_backward(q, k, v, g, o);
}

double g_max_fd_error = 0.0;  // the largest error seen, reported once (see the last test case)

// Both paths' gradients of one case against the finite differences of the float64 loss: dQ, dK,
// dV, dS (the scores before scaling) and dA (L is linear in A: ∂L/∂A_ij = G_i · v_j).
void check_against_differences(const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& g,
                               const AttentionOptions& o, double tol) {
    const std::size_t nq = q.rows, nk = k.rows, dk = q.cols, dv_cols = v.cols;
    const Vec q64 = to64(q), k64 = to64(k), v64 = to64(v);
    auto loss = [&](const Vec& qq, const Vec& kk, const Vec& vv) {
        return loss_of_scores(scores64(qq, kk, nq, nk, dk), nq, nk, dk, vv, dv_cols, g, o);
    };
    const Vec dq = central_differences(q64, [&](const Vec& x) { return loss(x, k64, v64); });
    const Vec dk_ = central_differences(k64, [&](const Vec& x) { return loss(q64, x, v64); });
    const Vec dv = central_differences(v64, [&](const Vec& x) { return loss(q64, k64, x); });
    const Vec ds = central_differences(scores64(q64, k64, nq, nk, dk),
                                       [&](const Vec& s) { return loss_of_scores(s, nq, nk, dk, v64, dv_cols, g, o); });
    Vec da(nq * nk, 0.0);
    for (std::size_t i = 0; i < nq; ++i)
        for (std::size_t j = 0; j < nk; ++j)
            for (std::size_t c = 0; c < v.cols; ++c) da[i * nk + j] += double(g(i, c)) * double(v(j, c));

    for (const bool simd : {false, true}) {
        INFO(std::string(simd ? "simd" : "reference") << " path");
        const auto r = backward_on(simd, q, k, v, g, o);
        REQUIRE(r.ok());
        const attn::AttentionGrads& gr = r.value.grads;
        struct Compared {
            const char* name;
            const Matrix* got;
            const Vec* want;
        };
        for (const Compared& c :
             {Compared{"dQ", &gr.d_q, &dq}, Compared{"dK", &gr.d_k, &dk_}, Compared{"dV", &gr.d_v, &dv},
              Compared{"dS", &gr.d_scores, &ds}, Compared{"dA", &gr.d_weights, &da}}) {
            const double err = error_of(*c.got, *c.want);
            g_max_fd_error = std::max(g_max_fd_error, err);
            INFO(c.name << ": error " << err);
            CHECK(err <= tol);
        }
    }
}

AttentionOptions options(Scale scale, float temperature = 1.0f, MaskKind mask = MaskKind::None, Matrix keep = {},
                         Axis axis = Axis::Row) {
    AttentionOptions o;
    o.scale = scale;
    o.temperature = temperature;
    o.mask.kind = mask;
    o.mask.keep = std::move(keep);
    o.axis = axis;
    return o;
}

// A 0/1 mask with row 1 fully masked and about a third of the rest masked.
Matrix mask_with_empty_row(std::size_t nq, std::size_t nk, unsigned seed) {
    Matrix m = random_matrix(nq, nk, seed, 0.0f, 1.0f);
    for (std::size_t i = 0; i < nq; ++i)
        for (std::size_t j = 0; j < nk; ++j) m(i, j) = (i == 1 || m(i, j) < 0.33f) && j != 0 ? 0.0f : 1.0f;
    for (std::size_t j = 0; j < nk; ++j) m(1, j) = 0.0f;
    return m;
}

// A float32 gradient of float32 forward values is good to a few float32 ulps of the largest terms
// (inputs of magnitude ≤ 1, d_k ≤ 9); a wrong formula, a missing 1/√d_k or a transposed product
// is off by orders of magnitude more. Measured: 1.4e-7 natively (the last test case prints it).
constexpr double kFdTol = 2e-6;

}  // namespace

TEST_CASE("backward, worked example: Q = K = I₂, V = 10·I₂, L = (A·V)₁₁ (G = [[1, 0], [0, 0]])") {
    const Matrix i2(2, 2, std::vector<float>{1, 0, 0, 1});
    const Matrix v(2, 2, std::vector<float>{10, 0, 0, 10});
    const Matrix g(2, 2, std::vector<float>{1, 0, 0, 0});
    // A = [[0.6698, 0.3302], [0.3302, 0.6698]]; only row 1 of the output counts, so only row 1 of
    // A has a gradient: dA₁ = G₁·Vᵀ = [10, 0], and the softmax's backward gives
    //   dZ₁₁ = A₁₁(10 − (A₁₁·10 + A₁₂·0)) = 10·A₁₁·A₁₂ = 2.2118,  dZ₁₂ = A₁₂(0 − 6.698) = −2.2118;
    // ÷√2 gives dS₁ = [1.5640, −1.5640]. With K = Q = I₂, dQ = dS·K = dS and dK = dSᵀ·Q = dSᵀ.
    for (const bool simd : {false, true}) {
        INFO(std::string(simd ? "simd" : "reference") << " path");
        const auto r = simd ? attn::attention_backward_simd(i2, i2, v, g) : attn::attention_backward(i2, i2, v, g);
        REQUIRE(r.ok());
        const attn::AttentionGrads& gr = r.value.grads;
        check_close(r.value.forward.output, Matrix(2, 2, std::vector<float>{6.6976f, 3.3024f, 3.3024f, 6.6976f}), 1e-4);
        check_close(gr.d_v, Matrix(2, 2, std::vector<float>{0.66976f, 0, 0.33024f, 0}), 1e-5, 0, "dV = Aᵀ·G");
        check_close(gr.d_weights, Matrix(2, 2, std::vector<float>{10, 0, 0, 0}), 0, 0, "dA = G·Vᵀ");
        check_close(gr.d_scaled, Matrix(2, 2, std::vector<float>{2.21181f, -2.21181f, 0, 0}), 1e-5, 0, "dZ");
        check_close(gr.d_scores, Matrix(2, 2, std::vector<float>{1.56399f, -1.56399f, 0, 0}), 1e-5, 0, "dS = dZ/√2");
        check_close(gr.d_q, Matrix(2, 2, std::vector<float>{1.56399f, -1.56399f, 0, 0}), 1e-5, 0, "dQ = dS·K");
        check_close(gr.d_k, Matrix(2, 2, std::vector<float>{1.56399f, 0, -1.56399f, 0}), 1e-5, 0, "dK = dSᵀ·Q");
    }
    check_against_differences(i2, i2, v, g, options(Scale::SqrtDk), kFdTol);
}

TEST_CASE("backward against central finite differences in float64: shapes, masks, τ, scalings, axes") {
    struct Case {
        std::size_t nq, nk, dk, dv;
        MaskKind mask;
        float temperature;
    };
    const Case cases[] = {
        {3, 5, 4, 2, MaskKind::None, 1.0f},    // n_q ≠ n_k
        {5, 3, 3, 4, MaskKind::Causal, 1.0f},  // n_q > n_k, causal
        {4, 4, 1, 1, MaskKind::None, 1.0f},    // d = 1
        {4, 6, 5, 3, MaskKind::Custom, 1.0f},  // row 1 fully masked
        {3, 4, 9, 2, MaskKind::None, 0.5f},    // τ < 1 sharpens
        {6, 2, 2, 5, MaskKind::Causal, 3.0f},  // τ > 1 flattens
    };
    unsigned seed = 1;
    for (const Case& c : cases)
        for (const Scale scale : {Scale::SqrtDk, Scale::Dk, Scale::None})
            for (const Axis axis : {Axis::Row, Axis::Column}) {
                ++seed;
                const Matrix q = random_matrix(c.nq, c.dk, seed), k = random_matrix(c.nk, c.dk, seed + 100);
                const Matrix v = random_matrix(c.nk, c.dv, seed + 200), g = random_matrix(c.nq, c.dv, seed + 300);
                Matrix keep = c.mask == MaskKind::Custom ? mask_with_empty_row(c.nq, c.nk, seed) : Matrix{};
                INFO("n_q " << c.nq << ", n_k " << c.nk << ", d_k " << c.dk << ", d_v " << c.dv << ", mask "
                            << attn::option_name(attn::kMaskNames, c.mask) << ", τ " << c.temperature << ", scale "
                            << attn::option_name(attn::kScaleNames, scale) << ", axis "
                            << attn::option_name(attn::kAxisNames, axis));
                check_against_differences(q, k, v, g, options(scale, c.temperature, c.mask, keep, axis), kFdTol);
            }
}

TEST_CASE("backward: masked entries give exactly 0, a fully masked row gives 0, a masked NaN value stays out") {
    const Matrix q = random_matrix(4, 3, 7), k = random_matrix(5, 3, 8), g = random_matrix(4, 2, 9);
    Matrix v = random_matrix(5, 2, 10);
    Matrix keep = mask_with_empty_row(4, 5, 11);
    for (std::size_t i = 0; i < 4; ++i) keep(i, 4) = 0.0f;  // key 4 masked for every query…
    v(4, 0) = std::numeric_limits<float>::quiet_NaN();      // …so its NaN value must reach nothing
    for (const bool simd : {false, true}) {
        INFO(std::string(simd ? "simd" : "reference") << " path");
        const auto o = options(Scale::SqrtDk, 1.0f, MaskKind::Custom, keep);
        const auto r = backward_on(simd, q, k, v, g, o);
        REQUIRE(r.ok());
        const attn::AttentionGrads& gr = r.value.grads;
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = 0; j < 5; ++j)
                if (keep(i, j) == 0.0f) {
                    CHECK(gr.d_scaled(i, j) == 0.0f);
                    CHECK(gr.d_scores(i, j) == 0.0f);
                }
        for (std::size_t c = 0; c < 3; ++c) CHECK(gr.d_q(1, c) == 0.0f);  // the fully masked query
        for (const Matrix* m : {&gr.d_q, &gr.d_k, &gr.d_v, &gr.d_scaled, &gr.d_scores})
            for (float x : m->data) CHECK(std::isfinite(x));
        CHECK(gr.d_v(4, 0) == 0.0f);            // a key nobody attends to gets no gradient
        CHECK(std::isnan(gr.d_weights(0, 4)));  // ∂L/∂A_i4 = G_i·v_4 is NaN, truly
    }
}

// Issue 19, item 1, backward: q = [[1]], k = [[0], [−100], [−100], [−100]], v = [[1], [2], [3],
// [NaN]], scale none, L = (A·V)₀₀ (G = [[1]]). Keys 1–3 are kept, with weights exp(−100) ≈ 3.7·10⁻⁴⁴
// (std::exp's denormal) or exactly 0 (xsimd's exp flushes it), and the forward output is NaN on both
// paths. In float64 the weights are 3.7·10⁻⁴⁴ > 0, L = 1 + 3.7·10⁻⁴⁴·(2 + 3 + NaN) is NaN for every
// q and k, so ∂L/∂q and ∂L/∂k are NaN; ∂L/∂A_0j = v_j (NaN for key 3 only); ∂L/∂v_j = A_0j, finite.
// The rule: only the mask gives a gradient 0; a kept key is computed whatever its weight, so the
// softmax's Σ_t A_t dA_t holds 0·NaN or 3.7·10⁻⁴⁴·NaN — NaN on both paths, and so is every dZ_j.
// (The SIMD path skipped weight 0 and gave finite gradients.)
TEST_CASE("issue 19: a NaN value behind a kept key whose weight underflowed reaches the gradients on both paths") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Matrix q(1, 1, {1}), g(1, 1, {1});
    for (const float far : {-100.0f, -200.0f}) {  // −200: exp is 0 in float32 on both paths, std::exp's too
        INFO("keys 1-3 at score " << far);
        const Matrix k(4, 1, {0, far, far, far}), v(4, 1, {1, 2, 3, nan});
        for (const bool simd : {false, true}) {
            INFO(std::string(simd ? "simd" : "reference") << " path");
            const auto o = options(Scale::None);
            const auto r = backward_on(simd, q, k, v, g, o);
            REQUIRE(r.ok());
            const attn::AttentionGrads& gr = r.value.grads;
            REQUIRE(std::isnan(r.value.forward.output(0, 0)));
            check_close(gr.d_weights, Matrix(1, 4, {1, 2, 3, nan}), 0, 0, "dA = dO·Vᵀ");
            for (const Matrix* m : {&gr.d_scaled, &gr.d_scores, &gr.d_q, &gr.d_k})
                for (float x : m->data) CHECK(std::isnan(x));
            CHECK(gr.d_v(0, 0) == 1.0f);
            for (std::size_t j = 1; j < 4; ++j) CHECK(gr.d_v(j, 0) < std::numeric_limits<float>::min());  // A_0j ≥ 0
        }
    }
    // Masked, key 3 is left out on both paths: every gradient finite, dZ and dS 0 at the masked key.
    AttentionOptions o = options(Scale::None, 1.0f, MaskKind::Custom, Matrix(1, 4, {1, 1, 1, 0}));
    const Matrix k(4, 1, {0, -100, -100, -100}), v(4, 1, {1, 2, 3, nan});
    for (const bool simd : {false, true}) {
        INFO(std::string(simd ? "simd" : "reference") << " path, key 3 masked");
        const auto r = backward_on(simd, q, k, v, g, o);
        REQUIRE(r.ok());
        for (const Matrix* m : {&r.value.grads.d_q, &r.value.grads.d_k, &r.value.grads.d_v, &r.value.grads.d_scores})
            for (float x : m->data) CHECK(std::isfinite(x));
        CHECK(r.value.grads.d_scores(0, 3) == 0.0f);
    }
}

// The same rule in dV = Aᵀ·dO, step by step: the backward steps are also called unchecked (the
// model's), where dO may hold NaN. A kept key of weight exactly 0 still multiplies dO: 0·NaN = NaN.
TEST_CASE("issue 19: dV reads dO behind a kept key of weight 0, not behind a masked one, on both paths") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const Matrix a(2, 2, {1, 0, 0, 1}), kept(2, 2, {1, 1, 0, 1}), d_output(2, 1, {nan, 1});
    for (const bool simd : {false, true}) {
        INFO(std::string(simd ? "simd" : "reference") << " path");
        const Matrix dv =
            simd ? attn::simd_backward::d_values(a, kept, d_output) : attn::reference::d_values(a, kept, d_output);
        CHECK(std::isnan(dv(0, 0)));  // 1·NaN, from query 0
        CHECK(std::isnan(dv(1, 0)));  // 0·NaN from query 0 (kept), + 1·1
        const Matrix dz = simd ? attn::simd_backward::d_softmax(a, kept, Matrix(2, 2, {1, nan, nan, 2}))
                               : attn::reference::d_softmax(a, kept, Matrix(2, 2, {1, nan, nan, 2}));
        for (std::size_t j = 0; j < 2; ++j) CHECK(std::isnan(dz(0, j)));  // the kept NaN, weight 0, in the sum
        CHECK(dz(1, 0) == 0.0f);                                          // masked: exactly 0, its NaN dA left out
        CHECK(dz(1, 1) == 0.0f);                                          // 1·(2 − 1·2)
    }
}

// The mask's rule reaches Q·Kᵀ's backward too: query 1 is NaN and fully masked, key 4's k row is
// NaN and masked for every query, so the forward output and the float64 loss are finite and depend
// on neither. dQ = dS·K and dK = dSᵀ·Q take only the kept pairs (a masked dS_ij is 0, and 0·NaN
// would be NaN): every gradient finite, dQ_1 = 0 and dK_4 = 0.
TEST_CASE("backward: a NaN query or key row that only masked pairs meet stays out of dQ and dK, on both paths") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Matrix q = random_matrix(4, 3, 17), k = random_matrix(5, 3, 18);
    const Matrix v = random_matrix(5, 2, 19), g = random_matrix(4, 2, 20);
    Matrix keep = mask_with_empty_row(4, 5, 21);
    for (std::size_t i = 0; i < 4; ++i) keep(i, 4) = 0.0f;
    q(1, 2) = nan;
    k(4, 0) = nan;
    for (const bool simd : {false, true}) {
        INFO(std::string(simd ? "simd" : "reference") << " path");
        const auto o = options(Scale::SqrtDk, 1.0f, MaskKind::Custom, keep);
        const auto r = backward_on(simd, q, k, v, g, o);
        REQUIRE(r.ok());
        const attn::AttentionGrads& gr = r.value.grads;
        for (float x : r.value.forward.output.data) CHECK(std::isfinite(x));
        for (const Matrix* m : {&gr.d_q, &gr.d_k, &gr.d_v})
            for (float x : m->data) CHECK(std::isfinite(x));
        for (std::size_t c = 0; c < 3; ++c) {
            CHECK(gr.d_q(1, c) == 0.0f);
            CHECK(gr.d_k(4, c) == 0.0f);
        }
    }
}

TEST_CASE("backward, SIMD path equal to the reference at shapes around the vector width") {
    unsigned seed = 500;
    for (std::size_t n : {1u, 3u, 4u, 5u, 7u, 8u, 9u, 16u, 17u})
        for (std::size_t d : {1u, 2u, 4u, 5u, 8u, 9u, 17u}) {
            ++seed;
            const Matrix q = random_matrix(n + 1, d, seed), k = random_matrix(n, d, seed + 1);
            const Matrix v = random_matrix(n, d + 2, seed + 2), g = random_matrix(n + 1, d + 2, seed + 3);
            for (const MaskKind mask : {MaskKind::None, MaskKind::Causal})
                for (const Axis axis : {Axis::Row, Axis::Column}) {
                    INFO("n " << n << ", d " << d << ", mask " << attn::option_name(attn::kMaskNames, mask) << ", axis "
                              << attn::option_name(attn::kAxisNames, axis));
                    const auto o = options(Scale::SqrtDk, 1.0f, mask, {}, axis);
                    const auto ref = attn::attention_backward(q, k, v, g, o);
                    const auto fast = attn::attention_backward_simd(q, k, v, g, o);
                    REQUIRE(ref.ok());
                    REQUIRE(fast.ok());
                    // The forward paths differ in the last bits of the scores and the exps (see
                    // test_steps_simd.cpp); every gradient is within 2e-5 of its largest value.
                    auto scale = [](const Matrix& m) {
                        double s = 1.0;
                        for (float x : m.data) s = std::max(s, double(std::fabs(x)));
                        return s;
                    };
                    const attn::AttentionGrads &a = fast.value.grads, &b = ref.value.grads;
                    check_close(a.d_v, b.d_v, 2e-5 * scale(b.d_v), 0, "dV");
                    check_close(a.d_weights, b.d_weights, 2e-5 * scale(b.d_weights), 0, "dA");
                    check_close(a.d_scaled, b.d_scaled, 2e-5 * scale(b.d_scaled), 0, "dZ");
                    check_close(a.d_scores, b.d_scores, 2e-5 * scale(b.d_scores), 0, "dS");
                    check_close(a.d_q, b.d_q, 2e-5 * scale(b.d_q), 0, "dQ");
                    check_close(a.d_k, b.d_k, 2e-5 * scale(b.d_k), 0, "dK");
                }
        }
}

TEST_CASE(
    "backward, projections: dW = Xᵀ·dOut and dX = dOut·Wᵀ, SIMD equal to the reference bit for bit / to rounding") {
    for (std::size_t n : {1u, 3u, 8u, 9u})
        for (std::size_t d : {1u, 4u, 5u, 17u}) {
            const Matrix x = random_matrix(n, d, unsigned(n * 31 + d)), w = random_matrix(d, d + 3, unsigned(n + d));
            const Matrix d_out = random_matrix(n, d + 3, unsigned(n * 7 + d * 3));
            // dW_tc = Σ_i x_it dOut_ic, summed over i in order on both paths: equal bit for bit,
            // but in the relaxed-SIMD build, whose multiply–adds may fuse (backward_kernels.hpp).
            const Matrix dw = attn::reference::d_project_weights(x, d_out);
#if ATTN_RELAXED_SIMD
            check_close(attn::simd_backward::d_project_weights(x, d_out), dw, 1e-5, 0, "dW");
#else
            CHECK(attn::simd_backward::d_project_weights(x, d_out).data == dw.data);
#endif
            check_close(attn::simd_backward::d_project_input(d_out, w), attn::reference::d_project_input(d_out, w),
                        1e-5, 0, "dX");
            // Against finite differences of L = Σ (X·W) ∘ dOut, which is linear: the exact products.
            for (std::size_t t = 0; t < d; ++t)
                for (std::size_t c = 0; c < d + 3; ++c) {
                    double want = 0.0;
                    for (std::size_t i = 0; i < n; ++i) want += double(x(i, t)) * double(d_out(i, c));
                    CHECK(testing::close(dw(t, c), want, 1e-5));
                }
        }
}

TEST_CASE("backward kernels: weighted_sum and softmax_grad against their scalar loops at every length around W") {
    const std::size_t w = attn::simd::batch_size();
    for (std::size_t n = 0; n <= 4 * w + 3; ++n) {
        INFO("n = " << n);
        Matrix a = random_matrix(1, n + 1, unsigned(n + 1), 0.0f, 1.0f), g = random_matrix(1, n + 1, unsigned(n + 50));
        Matrix kept(1, n + 1, 1.0f);
        for (std::size_t i = 0; i < n; i += 3) {
            a.data[i] = kept.data[i] = 0.0f;                      // a masked key…
            g.data[i] = std::numeric_limits<float>::quiet_NaN();  // …whose dA is NaN: selected away
        }
        for (std::size_t i = 1; i < n; i += 3) a.data[i] = 0.0f;  // a kept key whose weight underflowed
        const float sum = attn::simd::weighted_sum(a.data.data(), kept.data.data(), g.data.data(), n);
        const float want = attn::simd::weighted_sum_tail(a.data.data(), kept.data.data(), g.data.data(), 0, n);
        CHECK(testing::close(sum, want, 1e-6 * (1.0 + n)));
        std::vector<float> out(n + 1, -7.0f), expect(n + 1, -7.0f);
        attn::simd::softmax_grad(out.data(), a.data.data(), kept.data.data(), g.data.data(), 0.25f, n);
        attn::simd::softmax_grad_tail(expect.data(), a.data.data(), kept.data.data(), g.data.data(), 0.25f, 0, n);
        CHECK(out == expect);    // one subtraction and one multiplication each: equal bit for bit
        CHECK(out[n] == -7.0f);  // nothing written past the end
    }
}

// Issue 20, item 1, and issue 17's training benchmark: one row of a matrix product, summed in
// registers (combine_rows), with the build's multiply–add — in the relaxed-SIMD build
// madd.hpp's madd, which an engine may fuse, so only within float32 rounding of the sums;
// in every other build a multiplication then an addition per term, in order from 0: equal bit for
// bit to the scalar loop here. At every width around the 4 batches it holds at once, with strided
// coefficients, a mask that leaves terms out, and nothing written past the row's end.
TEST_CASE("backward kernels: combine_rows sums each column in order, through the build's multiply-add") {
    const std::size_t w = attn::simd::batch_size();
    for (std::size_t m = 0; m <= 8 * w + 3; ++m)
        for (const std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
            INFO("m = " << m << ", k = " << k);
            const Matrix coeff = random_matrix(k + 1, 2, unsigned(m + 7)),
                         b = random_matrix(k + 1, m + 1, unsigned(m + 90));
            Matrix kept(k + 1, 2, 1.0f);
            for (std::size_t t = 1; t < k; t += 2) kept(t, 1) = 0.0f;
            std::vector<float> out(m + 1, -7.0f);
            // column 1 of coeff and of kept, stride 2
            attn::simd::combine_rows(out.data(), coeff.data.data() + 1, 2, kept.data.data() + 1, 2, b.data.data(),
                                     b.cols, k, m);
            CHECK(out[m] == -7.0f);
            for (std::size_t c = 0; c < m; ++c) {
                float want = 0.0f;
                double exact = 0.0;
                for (std::size_t t = 0; t < k; ++t)
                    if (kept(t, 1) != 0.0f) {
                        want += coeff(t, 1) * b(t, c);
                        exact += double(coeff(t, 1)) * double(b(t, c));
                    }
#if ATTN_RELAXED_SIMD
                CHECK(testing::close(out[c], exact, 1e-6 * (1.0 + k)));
#else
                CHECK(out[c] == want);
#endif
            }
        }
}

// The training step's products over a whole batch (model.cpp, backward_simd.cpp): four rows at a
// time through simd::four_rows, the rest through combine_rows. Each row must be what combine_rows
// gives it alone, bit for bit in every build (the same multiply–adds in the same order, fused or
// not alike), with coefficients along a's rows (a·b) or down its columns (aᵀ·b), at every number
// of rows around 4 and every width around the two batches four_rows holds at once.
TEST_CASE("backward kernels: product_rows gives each row what combine_rows gives it, four rows at a time") {
    const std::size_t w = attn::simd::batch_size();
    for (std::size_t rows = 0; rows <= 9; ++rows)
        for (std::size_t m = 0; m <= 4 * w + 3; ++m)
            for (const std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{6}}) {
                INFO("rows = " << rows << ", m = " << m << ", k = " << k);
                const Matrix a = random_matrix(rows, k, unsigned(rows * 13 + m + k)),
                             at = attn::reference::transpose(a), b = random_matrix(k, m + 1, unsigned(m + 40));
                for (const bool transposed : {false, true}) {
                    // a·b reads a's rows (terms 1 apart, rows k apart); atᵀ·b the same numbers down at's columns
                    const Matrix& coeff = transposed ? at : a;
                    const std::size_t term_stride = transposed ? rows : 1, row_stride = transposed ? 1 : k;
                    std::vector<float> out(rows * (m + 1), -7.0f), want(rows * (m + 1), -7.0f);
                    attn::simd::product_rows(out.data(), m + 1, rows, coeff.data.data(), term_stride, row_stride,
                                             b.data.data(), b.cols, k, m);
                    for (std::size_t i = 0; i < rows; ++i)
                        attn::simd::combine_rows(want.data() + i * (m + 1), coeff.data.data() + i * row_stride,
                                                 term_stride, nullptr, 0, b.data.data(), b.cols, k, m);
                    CHECK(out == want);  // the column past each row's m untouched in both
                }
            }
}

TEST_CASE("backward refuses a gradOutput of the wrong shape or not finite, on both paths alike") {
    const Matrix q = random_matrix(3, 2, 1), k = random_matrix(4, 2, 2), v = random_matrix(4, 5, 3);
    auto both = [&](const Matrix& g, const AttentionOptions& o = {}) {
        const auto a = attn::attention_backward(q, k, v, g, o), b = attn::attention_backward_simd(q, k, v, g, o);
        CHECK(testing::same_error(a.error, b.error));
        return a.error;
    };
    attn::Error e = both(random_matrix(3, 4, 4));
    CHECK(e.code == ErrorCode::GradientShape);
    CHECK(e.argument == "gradOutput");
    CHECK(e.message == "gradOutput is 3×4 but the output A·V is 3×5 (n_q×d_v)");
    CHECK(testing::params_of(e) == "rows=3 cols=4 needRows=3 needCols=5");
    CHECK(both(random_matrix(4, 5, 4)).code == ErrorCode::GradientShape);

    Matrix g = random_matrix(3, 5, 5);
    g(2, 1) = std::numeric_limits<float>::quiet_NaN();
    e = both(g);
    CHECK(e.code == ErrorCode::GradientNotFinite);
    CHECK(e.message == "gradOutput[2][1] is NaN; a gradient must be a finite number");
    REQUIRE(e.cell);
    CHECK((*e.cell == attn::Cell{2, 1}));
    g(2, 1) = 0.0f;
    g(0, 3) = -std::numeric_limits<float>::infinity();
    e = both(g);
    CHECK(e.code == ErrorCode::GradientNotFinite);
    CHECK(e.message == "gradOutput[0][3] is -Infinity; a gradient must be a finite number");

    Matrix short_g(3, 5, std::vector<float>(14, 0.0f));
    CHECK(both(short_g).code == ErrorCode::WrongLength);
    CHECK(both(short_g).argument == "gradOutput");
    CHECK(both(Matrix{}).code == ErrorCode::EmptyMatrix);
    // The forward's own refusals come first, as in attention_steps.
    CHECK(both(random_matrix(3, 4, 4), options(Scale::SqrtDk, 0.0f)).code == ErrorCode::BadTemperature);
}

TEST_CASE("backward: the largest finite-difference error seen") {
    // Runs after the cases above (doctest runs a file's cases in order): one line for the record.
    MESSAGE("largest |analytic − central difference| / max(1, |gradient|): " << g_max_fd_error);
    CHECK(g_max_fd_error <= kFdTol);
}
