// One training step through the whole multi-head layer (core/multi_head_backward.hpp), on both
// paths: the float64 fixture's gradients (scripts/make-multi-head-fixture.mjs, expected.backward),
// every gradient against central finite differences of a float64 forward of the layer written here,
// h = 1 equal bit for bit to the single head's backward from d(concat), and the refusals.
//
// The loss throughout: L = Σ_ic O_ic · G_ic for a stated G, so that dO = ∂L/∂O = G.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "backward_attention.hpp"
#include "fixture.hpp"
#include "helpers.hpp"
#include "multi_head_backward.hpp"

using attn::AttentionOptions;
using attn::Axis;
using attn::ErrorCode;
using attn::MaskKind;
using attn::Matrix;
using attn::MultiHeadBackward;
using attn::MultiHeadInputs;
using attn::Scale;
using testing::random_matrix;

namespace {

using Entry = attn::Result<MultiHeadBackward> (*)(const MultiHeadInputs&, std::size_t, const Matrix&,
                                                  const AttentionOptions&);
const std::pair<const char*, Entry> kPaths[] = {{"reference", attn::multi_head_attention_backward},
                                                {"simd", attn::multi_head_attention_backward_simd}};

const fixture::Json& fixture_root() {
    static const fixture::Json root = [] {
        std::ifstream in(ATTN_MULTI_HEAD_FIXTURE);
        REQUIRE_MESSAGE(in, "cannot open " ATTN_MULTI_HEAD_FIXTURE);
        std::stringstream ss;
        ss << in.rdbuf();
        return fixture::Parser(ss.str()).parse();
    }();
    return root;
}

// Every cell within tol · max(1, the largest magnitude of `want`).
void check_near(const Matrix& got, const Matrix& want, double tol, const std::string& what) {
    INFO(what);
    REQUIRE(got.rows == want.rows);
    REQUIRE(got.cols == want.cols);
    double scale = 1.0;
    for (float x : want.data) scale = std::max(scale, double(std::fabs(x)));
    std::size_t bad = 0;
    for (std::size_t t = 0; t < want.size(); ++t) bad += !testing::close(got.data[t], want.data[t], tol * scale);
    CHECK_MESSAGE(bad == 0, bad << " cells differ");
}

bool same_bits(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols &&
           std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

// ---- The layer's loss in float64, written apart from the core. ----

using Vec = std::vector<double>;

struct Layer64 {
    std::size_t n, d_model, heads, d_k, d_v, d_out;
    Vec x, wq, wk, wv, wo;  // row-major
};

Vec to64(const Matrix& m) { return Vec(m.data.begin(), m.data.end()); }

double divisor64(Scale scale, std::size_t d_k, double temperature) {
    if (scale == Scale::SqrtDk) return std::sqrt(double(d_k)) * temperature;
    if (scale == Scale::Dk) return double(d_k) * temperature;
    return temperature;
}

bool kept64(const AttentionOptions& o, std::size_t i, std::size_t j) {
    if (o.mask.kind == MaskKind::Causal) return j <= i;
    if (o.mask.kind == MaskKind::Custom) return o.mask.keep(i, j) != 0.0f;
    return true;
}

// (rows, inner) · (inner, cols), row-major.
Vec matmul64(const Vec& a, const Vec& b, std::size_t rows, std::size_t inner, std::size_t cols) {
    Vec out(rows * cols, 0.0);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t t = 0; t < inner; ++t)
            for (std::size_t c = 0; c < cols; ++c) out[i * cols + c] += a[i * inner + t] * b[t * cols + c];
    return out;
}

// One head's output A·V on column blocks of Q, K, V: the softmax of the kept scaled scores along
// the axis (a line with nothing kept has weights 0).
void head64(const Layer64& l, const Vec& q, const Vec& k, const Vec& v, std::size_t head, const AttentionOptions& o,
            Vec& concat) {
    const std::size_t n = l.n, hk = l.heads * l.d_k, hv = l.heads * l.d_v;
    const double div = divisor64(o.scale, l.d_k, o.temperature);
    Vec s(n * n, 0.0), a(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t c = 0; c < l.d_k; ++c)
                s[i * n + j] += q[i * hk + head * l.d_k + c] * k[j * hk + head * l.d_k + c] / div;
    const bool rows = o.axis == Axis::Row;
    for (std::size_t line = 0; line < n; ++line) {
        auto at = [&](std::size_t t) { return rows ? line * n + t : t * n + line; };
        auto kept = [&](std::size_t t) { return rows ? kept64(o, line, t) : kept64(o, t, line); };
        double m = -std::numeric_limits<double>::infinity(), sum = 0.0;
        for (std::size_t t = 0; t < n; ++t)
            if (kept(t)) m = std::max(m, s[at(t)]);
        for (std::size_t t = 0; t < n; ++t)
            if (kept(t)) sum += std::exp(s[at(t)] - m);
        for (std::size_t t = 0; t < n; ++t)
            if (kept(t)) a[at(t)] = std::exp(s[at(t)] - m) / sum;
    }
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t c = 0; c < l.d_v; ++c) {
            double out = 0.0;
            for (std::size_t j = 0; j < n; ++j) out += a[i * n + j] * v[j * hv + head * l.d_v + c];
            concat[i * hv + head * l.d_v + c] = out;
        }
}

// L = Σ O ∘ G for O = concat·W_O.
double loss64(const Layer64& l, const Matrix& g, const AttentionOptions& o) {
    const std::size_t hk = l.heads * l.d_k, hv = l.heads * l.d_v;
    const Vec q = matmul64(l.x, l.wq, l.n, l.d_model, hk), k = matmul64(l.x, l.wk, l.n, l.d_model, hk),
              v = matmul64(l.x, l.wv, l.n, l.d_model, hv);
    Vec concat(l.n * hv, 0.0);
    for (std::size_t head = 0; head < l.heads; ++head) head64(l, q, k, v, head, o, concat);
    const Vec out = matmul64(concat, l.wo, l.n, hv, l.d_out);
    double loss = 0.0;
    for (std::size_t t = 0; t < out.size(); ++t) loss += out[t] * double(g.data[t]);
    return loss;
}

// ∂L/∂(one input) by central differences, (L(x + h) − L(x − h)) / 2h for every cell of it.
Vec differences(Layer64 l, Vec Layer64::*input, const Matrix& g, const AttentionOptions& o) {
    constexpr double h = 1e-6;
    Vec& x = l.*input;
    Vec grad(x.size());
    for (std::size_t t = 0; t < x.size(); ++t) {
        const double x0 = x[t];
        x[t] = x0 + h;
        const double up = loss64(l, g, o);
        x[t] = x0 - h;
        const double down = loss64(l, g, o);
        x[t] = x0;
        grad[t] = (up - down) / (2 * h);
    }
    return grad;
}

// The largest |got − want|, relative to max(1, the largest |want|).
double error_of(const Matrix& got, const Vec& want) {
    REQUIRE(got.size() == want.size());
    double scale = 1.0, err = 0.0;
    for (double w : want) scale = std::max(scale, std::fabs(w));
    for (std::size_t t = 0; t < want.size(); ++t) err = std::max(err, std::fabs(double(got.data[t]) - want[t]));
    return err / scale;
}

AttentionOptions options(Scale scale, float temperature, MaskKind mask, Matrix keep, Axis axis) {
    AttentionOptions o;
    o.scale = scale;
    o.temperature = temperature;
    o.mask.kind = mask;
    o.mask.keep = std::move(keep);
    o.axis = axis;
    return o;
}

// A float32 gradient through two more products than the single head's (X·W before the heads,
// ·W_O after), inputs of magnitude ≤ 1: a few float32 ulps of the largest terms. A wrong block, a
// missing transpose or a head's gradient dropped from dX is off by orders of magnitude more.
// Measured: 1.3e-7 natively (the last test case prints it).
constexpr double kFdTol = 2e-6;
double g_max_fd_error = 0.0;

}  // namespace

TEST_CASE("multi-head backward: every gradient of the float64 fixture, every case, on both paths") {
    const double tol = fixture_root()["tolerance"].number;
    for (const auto& c : fixture_root()["cases"].array) {
        const Matrix x = fixture::matrix(c["x"]), wq = fixture::matrix(c["wq"]), wk = fixture::matrix(c["wk"]),
                     wv = fixture::matrix(c["wv"]), wo = fixture::matrix(c["wo"]), g = fixture::matrix(c["gradOutput"]);
        const auto heads = static_cast<std::size_t>(c["heads"].number);
        AttentionOptions o;
        o.scale = *attn::option_value(attn::kScaleNames, c["scale"].string);
        o.mask.kind = *attn::option_value(attn::kMaskNames, c["mask"].string);
        o.temperature = static_cast<float>(c["temperature"].number);
        const auto& want = c["expected"]["backward"];
        for (const auto& [path_name, entry] : kPaths) {
            const std::string path = path_name;  // (a structured binding cannot be captured by INFO in C++17)
            INFO(c["name"].string << ", " << path);
            const auto r = entry({x, wq, wk, wv, wo}, heads, g, o);
            REQUIRE(r.ok());
            const attn::MultiHeadGrads& gr = r.value.grads;
            check_near(gr.d_w_o, fixture::matrix(want["d_w_o"]), tol, "dW_O = concatᵀ·dO");
            check_near(gr.d_concat, fixture::matrix(want["d_concat"]), tol, "d(concat) = dO·W_Oᵀ");
            REQUIRE(gr.heads.size() == heads);
            for (std::size_t i = 0; i < heads; ++i) {
                const auto& h = want["heads"].array[i];
                const attn::AttentionGrads& hg = gr.heads[i];
                INFO("head " << i + 1);
                check_near(gr.d_heads[i], fixture::matrix(h["d_output"]), tol, "d(head_i), block i of d(concat)");
                check_near(hg.d_v, fixture::matrix(h["d_v"]), tol, "dV_i");
                check_near(hg.d_weights, fixture::matrix(h["d_weights"]), tol, "dA_i");
                check_near(hg.d_scaled, fixture::matrix(h["d_scaled"]), tol, "dZ_i");
                check_near(hg.d_scores, fixture::matrix(h["d_scores"]), tol, "dS_i");
                check_near(hg.d_q, fixture::matrix(h["d_q"]), tol, "dQ_i");
                check_near(hg.d_k, fixture::matrix(h["d_k"]), tol, "dK_i");
            }
            check_near(gr.d_q, fixture::matrix(want["d_q"]), tol, "dQ");
            check_near(gr.d_k, fixture::matrix(want["d_k"]), tol, "dK");
            check_near(gr.d_v, fixture::matrix(want["d_v"]), tol, "dV");
            check_near(gr.d_w_q, fixture::matrix(want["d_w_q"]), tol, "dW_Q");
            check_near(gr.d_w_k, fixture::matrix(want["d_w_k"]), tol, "dW_K");
            check_near(gr.d_w_v, fixture::matrix(want["d_w_v"]), tol, "dW_V");
            check_near(gr.d_x, fixture::matrix(want["d_x"]), tol, "dX");
        }
    }
}

TEST_CASE("multi-head backward against central finite differences in float64: X, W_Q, W_K, W_V, W_O") {
    struct Case {
        std::size_t n, d_model, heads, d_k, d_v, d_out;
        MaskKind mask;
        float temperature;
        Scale scale;
        Axis axis;
    };
    const Case cases[] = {
        {3, 4, 2, 2, 2, 4, MaskKind::None, 1.0f, Scale::SqrtDk, Axis::Row},    // 它 是 猫's shape
        {4, 3, 3, 1, 2, 2, MaskKind::Causal, 1.0f, Scale::SqrtDk, Axis::Row},  // d_k = 1, d_out ≠ d_model
        {5, 4, 2, 3, 1, 3, MaskKind::Custom, 0.5f, Scale::Dk, Axis::Row},      // a fully masked row
        {3, 2, 1, 4, 3, 2, MaskKind::None, 2.0f, Scale::None, Axis::Column},   // one head, column softmax
        {4, 5, 4, 2, 2, 5, MaskKind::Causal, 1.0f, Scale::SqrtDk, Axis::Column},
    };
    unsigned seed = 500;
    for (const Case& c : cases) {
        seed += 10;
        const std::size_t hk = c.heads * c.d_k, hv = c.heads * c.d_v;
        const Matrix x = random_matrix(c.n, c.d_model, seed), wq = random_matrix(c.d_model, hk, seed + 1),
                     wk = random_matrix(c.d_model, hk, seed + 2), wv = random_matrix(c.d_model, hv, seed + 3),
                     wo = random_matrix(hv, c.d_out, seed + 4), g = random_matrix(c.n, c.d_out, seed + 5);
        Matrix keep;
        if (c.mask == MaskKind::Custom) {
            keep = Matrix(c.n, c.n);
            for (std::size_t i = 0; i < c.n; ++i)
                for (std::size_t j = 0; j < c.n; ++j) keep(i, j) = i == 1 || (i + j) % 3 == 2 ? 0.0f : 1.0f;
        }
        const AttentionOptions o = options(c.scale, c.temperature, c.mask, keep, c.axis);
        const Layer64 layer{c.n,     c.d_model, c.heads,  c.d_k,    c.d_v,   c.d_out,
                            to64(x), to64(wq),  to64(wk), to64(wv), to64(wo)};
        INFO("n " << c.n << ", d_model " << c.d_model << ", h " << c.heads << ", d_k " << c.d_k << ", d_v " << c.d_v
                  << ", d_out " << c.d_out << ", mask " << attn::option_name(attn::kMaskNames, c.mask) << ", axis "
                  << attn::option_name(attn::kAxisNames, c.axis));
        const Vec dx = differences(layer, &Layer64::x, g, o), dwq = differences(layer, &Layer64::wq, g, o),
                  dwk = differences(layer, &Layer64::wk, g, o), dwv = differences(layer, &Layer64::wv, g, o),
                  dwo = differences(layer, &Layer64::wo, g, o);
        for (const auto& [path_name, entry] : kPaths) {
            const std::string path = path_name;
            INFO(path);
            const auto r = entry({x, wq, wk, wv, wo}, c.heads, g, o);
            REQUIRE(r.ok());
            const attn::MultiHeadGrads& gr = r.value.grads;
            struct Compared {
                const char* name;
                const Matrix* got;
                const Vec* want;
            };
            for (const Compared& k :
                 {Compared{"dX", &gr.d_x, &dx}, Compared{"dW_Q", &gr.d_w_q, &dwq}, Compared{"dW_K", &gr.d_w_k, &dwk},
                  Compared{"dW_V", &gr.d_w_v, &dwv}, Compared{"dW_O", &gr.d_w_o, &dwo}}) {
                const double err = error_of(*k.got, *k.want);
                g_max_fd_error = std::max(g_max_fd_error, err);
                INFO(k.name << ": error " << err);
                CHECK(err <= kFdTol);
            }
        }
    }
}

TEST_CASE("multi-head backward, h = 1: the one head is attention_backward from d(concat) = dO·W_Oᵀ, bit for bit") {
    const Matrix x = random_matrix(4, 3, 700), wq = random_matrix(3, 2, 701), wk = random_matrix(3, 2, 702),
                 wv = random_matrix(3, 3, 703), wo = random_matrix(3, 3, 704), g = random_matrix(4, 3, 705);
    for (const auto& [path_name, entry] : kPaths) {
        const std::string path = path_name;
        INFO(path);
        const auto r = entry({x, wq, wk, wv, wo}, 1, g, {});
        REQUIRE(r.ok());
        const attn::MultiHeadGrads& gr = r.value.grads;
        const auto& head = r.value.forward.heads[0];
        const auto single = path == "simd" ? attn::attention_backward_simd(head.q, head.k, head.v, gr.d_concat)
                                           : attn::attention_backward(head.q, head.k, head.v, gr.d_concat);
        REQUIRE(single.ok());
        CHECK(same_bits(gr.d_heads[0], gr.d_concat));
        CHECK(same_bits(gr.heads[0].d_scores, single.value.grads.d_scores));
        CHECK(same_bits(gr.d_q, single.value.grads.d_q));
        CHECK(same_bits(gr.d_k, single.value.grads.d_k));
        CHECK(same_bits(gr.d_v, single.value.grads.d_v));
    }
}

TEST_CASE("multi-head backward refuses a gradOutput not of O's shape or not finite, after the layer's own checks") {
    const Matrix x = random_matrix(3, 4, 40), w4 = random_matrix(4, 4, 41), wo = random_matrix(4, 2, 42);
    for (const auto& [path_name, entry] : kPaths) {
        const std::string path = path_name;
        INFO(path);
        SUBCASE("gradOutput of AV's shape (n × d_v of a head), not O's (n × d_out)") {
            const attn::Error e = entry({x, w4, w4, w4, wo}, 2, Matrix(3, 4), {}).error;  // concat·W_O is 3×2
            CHECK(e.code == ErrorCode::GradientShape);
            CHECK(e.argument == "gradOutput");
            CHECK(e.message == "gradOutput is 3×4 but the output concat·W_O is 3×2 (n×d_out)");
            CHECK(testing::params_of(e) == "rows=3 cols=4 needRows=3 needCols=2");
        }
        SUBCASE("a NaN in gradOutput, named by its cell") {
            Matrix g(3, 2);
            g(2, 1) = std::numeric_limits<float>::quiet_NaN();
            const attn::Error e = entry({x, w4, w4, w4, wo}, 2, g, {}).error;
            CHECK(e.code == ErrorCode::GradientNotFinite);
            CHECK(e.argument == "gradOutput");
            REQUIRE(e.cell.has_value());
            CHECK(e.cell->row == 2);
            CHECK(e.cell->col == 1);
        }
        SUBCASE("the layer's refusals come first: 3 heads cannot split 4 columns, whatever gradOutput is") {
            const attn::Error e = entry({x, w4, w4, w4, wo}, 3, Matrix(1, 1), {}).error;
            CHECK(e.code == ErrorCode::HeadsIndivisible);
        }
        SUBCASE("too much memory: a shape whose forward fits in 1 GiB but whose backward does not") {
            // n = 6000, one head: the forward's scores about 0.86 GB, the backward's three more
            // n×n gradients past the limit; refused before anything is computed.
            const attn::MultiHeadShape s{6000, 1, 1, 1, 1, 1};
            REQUIRE(attn::multi_head_working_bytes(s, Axis::Row) <= attn::kMemoryLimitBytes);
            REQUIRE(attn::multi_head_backward_working_bytes(s, Axis::Row) > attn::kMemoryLimitBytes);
            const Matrix big(6000, 1), w(1, 1), g(6000, 1);
            const attn::Error e = entry({big, w, w, w, w}, 1, g, {}).error;
            CHECK(e.code == ErrorCode::TooMuchMemory);
            CHECK(e.message.rfind("multi_head_attention_backward on 6000×6000 scores needs", 0) == 0);
        }
    }
}

TEST_CASE("multi-head backward: the largest finite-difference error seen") {
    MESSAGE("largest relative error against float64 central differences: " << g_max_fd_error);
    CHECK(g_max_fd_error < kFdTol);
}
