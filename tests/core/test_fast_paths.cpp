// The fast paths against the reference: attention (tiled two-pass) and attention_streaming (online
// softmax) equal attention_steps(...).output across shapes (1 to 300, odd and prime, n_q ≠ n_k,
// around every multiple of the microkernel block), every mask (including fully masked rows) and
// every scaling. Runs natively and twice in wasm (SIMD and scalar), so each shape is checked once
// per mask × scaling, with one CHECK per matrix. Their microkernels and exponentials on their own:
// test_fast_kernels.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>
#if !defined(__EMSCRIPTEN__)
#include <thread>
#endif

#include "attention.hpp"
#include "fast_path.hpp"
#include "helpers.hpp"

using attn::AttentionOptions;
using attn::MaskKind;
using attn::Matrix;
using attn::Scale;
using testing::random_matrix;

namespace {

constexpr double kAbsTol = 1e-5, kRelTol = 1e-4;  // float32, another summation order, fast exp

// "" when every cell matches within tolerance (NaN only against NaN), else the first mismatch
// and how many there are.
std::string mismatch(const Matrix& got, const Matrix& want) {
    if (got.rows != want.rows || got.cols != want.cols)
        return "shape " + attn::shape_string(got) + " instead of " + attn::shape_string(want);
    std::size_t bad = 0;
    std::ostringstream first;
    for (std::size_t i = 0; i < got.rows; ++i)
        for (std::size_t j = 0; j < got.cols; ++j)
            if (!testing::close(got(i, j), want(i, j), kAbsTol, kRelTol) && bad++ == 0)
                first << "(" << i << ", " << j << "): got " << got(i, j) << ", expected " << want(i, j);
    if (bad == 0) return {};
    return std::to_string(bad) + " cells differ, first " + first.str();
}

struct Shape {
    std::size_t n_q, n_k, d_k, d_v;
};

// Sizes around the block sizes (groups of MR = 8 query rows on SSE and SIMD128, 16 with AVX;
// panels of 4 keys; 4 value columns per A·V block; blocks of 16 groups; 256-key tiles), primes,
// n_q ≠ n_k both ways, d from 1 to 300.
const Shape kShapes[] = {
    {1, 1, 1, 1},      {1, 5, 3, 2},     {5, 1, 2, 3},       {2, 3, 4, 5},     {3, 7, 5, 9},      {7, 13, 8, 7},
    {16, 16, 16, 16},  {17, 9, 11, 19},  {13, 31, 64, 64},   {33, 65, 17, 8},  {61, 37, 64, 33},  {97, 101, 7, 13},
    {64, 257, 64, 64}, {300, 100, 1, 2}, {131, 300, 65, 31}, {4, 260, 300, 5}, {9, 11, 300, 300},
};

// A 0/1 mask with about a quarter masked, row 1 (if any) fully masked and column 0 masked.
Matrix custom_mask(std::size_t n_q, std::size_t n_k, unsigned seed) {
    Matrix keep = random_matrix(n_q, n_k, seed, 0.0f, 1.0f);
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = 0; j < n_k; ++j) keep(i, j) = (keep(i, j) < 0.25f || j == 0 || i == 1) ? 0.0f : 1.0f;
    return keep;
}

std::vector<AttentionOptions> option_grid(std::size_t n_q, std::size_t n_k, unsigned seed) {
    std::vector<AttentionOptions> grid;
    for (MaskKind mask : {MaskKind::None, MaskKind::Causal, MaskKind::Custom}) {
        for (Scale scale : {Scale::SqrtDk, Scale::Dk, Scale::None}) {
            AttentionOptions o;
            o.scale = scale;
            o.mask.kind = mask;
            if (mask == MaskKind::Custom) o.mask.keep = custom_mask(n_q, n_k, seed);
            grid.push_back(o);
        }
    }
    AttentionOptions hot;  // temperature below and above 1
    hot.temperature = 0.25f;
    grid.push_back(hot);
    AttentionOptions cold;
    cold.temperature = 4.0f;
    cold.mask.kind = MaskKind::Causal;
    grid.push_back(cold);
    return grid;
}

const char* mask_name(MaskKind k) { return attn::option_name(attn::kMaskNames, k); }
const char* scale_name(Scale s) { return attn::option_name(attn::kScaleNames, s); }

// Both fast paths against the reference for one input and one option set.
void check_both(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& o) {
    INFO("q " << attn::shape_string(q) << ", k " << attn::shape_string(k) << ", v " << attn::shape_string(v)
              << ", mask " << mask_name(o.mask.kind) << ", scale " << scale_name(o.scale) << ", temperature "
              << o.temperature);
    const auto ref = attn::attention_steps(q, k, v, o);
    REQUIRE(ref.ok());
    const auto fast = attn::attention(q, k, v, o);
    const auto streaming = attn::attention_streaming(q, k, v, o);
    REQUIRE(fast.ok());
    REQUIRE(streaming.ok());
    CHECK_MESSAGE(mismatch(fast.value, ref.value.output).empty(),
                  "attention: " << mismatch(fast.value, ref.value.output));
    CHECK_MESSAGE(mismatch(streaming.value, ref.value.output).empty(),
                  "attention_streaming: " << mismatch(streaming.value, ref.value.output));
}

}  // namespace

TEST_CASE("attention and attention_streaming equal the reference across shapes, masks and scalings") {
    unsigned seed = 1;
    for (const Shape& sh : kShapes) {
        // Scores spread over several units, so that the weights are far from uniform.
        const Matrix q = random_matrix(sh.n_q, sh.d_k, seed++, -2.0f, 2.0f);
        const Matrix k = random_matrix(sh.n_k, sh.d_k, seed++, -2.0f, 2.0f);
        const Matrix v = random_matrix(sh.n_k, sh.d_v, seed++, -3.0f, 3.0f);
        for (const AttentionOptions& o : option_grid(sh.n_q, sh.n_k, seed)) check_both(q, k, v, o);
    }
}

TEST_CASE("the streaming path carries its running max across many key tiles") {
    // 700 keys = 3 tiles of 256; keys late in the sequence get the largest scores, so the running
    // max rises from tile to tile and the earlier terms must be rescaled.
    const std::size_t n_q = 21, n_k = 700, d = 16;
    const Matrix q = random_matrix(n_q, d, 501, 0.5f, 1.0f);
    Matrix k = random_matrix(n_k, d, 502, -1.0f, 1.0f);
    for (std::size_t j = 0; j < n_k; ++j)
        for (std::size_t c = 0; c < d; ++c) k(j, c) += 2.0f * static_cast<float>(j) / n_k;
    const Matrix v = random_matrix(n_k, 24, 503);
    for (MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
        AttentionOptions o;
        o.mask.kind = mask;
        check_both(q, k, v, o);
    }
}

TEST_CASE("attention hands long key sequences to the streaming kernel with the same result") {
    // 513 and 4101 keys (2 and 17 tiles): attn::attention runs the streaming kernel above 64 keys;
    // few queries keep the reference cheap. (The shape grid above covers both sides of 64.)
    for (std::size_t n_k : {std::size_t{513}, std::size_t{4101}}) {
        const Matrix q = random_matrix(9, 8, 551, -2.0f, 2.0f), k = random_matrix(n_k, 8, 552, -2.0f, 2.0f);
        const Matrix v = random_matrix(n_k, 5, 553);
        for (MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
            AttentionOptions o;
            o.mask.kind = mask;
            check_both(q, k, v, o);
        }
    }
}

TEST_CASE("scores far beyond exp's range are handled by the max subtraction") {
    // q, k in [−10, 10] at d_k = 4: scaled scores up to ±200, where exp alone would overflow.
    const Matrix q = random_matrix(19, 4, 601, -10.0f, 10.0f), k = random_matrix(23, 4, 602, -10.0f, 10.0f);
    const Matrix v = random_matrix(23, 5, 603);
    check_both(q, k, v, {});
}

TEST_CASE("a fully masked row gives a zero output row on both fast paths") {
    const Matrix q = random_matrix(5, 8, 701), k = random_matrix(6, 8, 702), v = random_matrix(6, 3, 703);
    AttentionOptions o;
    o.mask.kind = MaskKind::Custom;
    o.mask.keep = Matrix(5, 6, 1.0f);
    for (std::size_t j = 0; j < 6; ++j) o.mask.keep(2, j) = 0.0f;
    for (const auto& out : {attn::attention(q, k, v, o), attn::attention_streaming(q, k, v, o)}) {
        REQUIRE(out.ok());
        for (std::size_t c = 0; c < 3; ++c) CHECK(out.value(2, c) == 0.0f);
        CHECK(out.value(1, 0) != 0.0f);
    }
}

TEST_CASE("inputs the fast paths cannot honour give exactly the reference's output") {
    const Matrix q0 = random_matrix(6, 5, 801), k0 = random_matrix(7, 5, 802), v0 = random_matrix(7, 4, 803);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    SUBCASE("NaN in q spoils its row only") {
        Matrix q = q0;
        q(2, 3) = nan;
        check_both(q, k0, v0, {});
    }
    SUBCASE("NaN in v spoils its column only") {
        Matrix v = v0;
        v(4, 1) = nan;
        check_both(q0, k0, v, {});
    }
    SUBCASE("NaN in k under a mask that hides it") {
        Matrix k = k0;
        k(6, 0) = nan;
        AttentionOptions o;
        o.mask.kind = MaskKind::Causal;
        check_both(q0, k, v0, o);
    }
    SUBCASE("magnitudes whose scores overflow float32") {
        Matrix q = q0, k = k0;
        q(0, 0) = 3e20f;
        k(0, 0) = 3e20f;
        check_both(q, k, v0, {});
    }
    SUBCASE("the teaching switches: naive softmax, column softmax") {
        AttentionOptions naive;
        naive.stable = false;
        check_both(q0, k0, v0, naive);
        AttentionOptions column;
        column.axis = attn::Axis::Column;
        check_both(q0, k0, v0, column);
    }
}

TEST_CASE("the fast paths refuse bad input with the reference's Error") {
    const Matrix q = random_matrix(3, 4, 901), k = random_matrix(5, 4, 902), v = random_matrix(6, 2, 903);
    const auto ref = attn::attention_steps(q, k, v);
    REQUIRE_FALSE(ref.ok());
    CHECK(testing::same_error(attn::attention(q, k, v).error, ref.error));
    CHECK(testing::same_error(attn::attention_streaming(q, k, v).error, ref.error));
}

TEST_CASE("with a teaching switch the fast paths hand the call to the reference: the same output exactly") {
    const Matrix q = random_matrix(4, 3, 41, -2, 2), k = random_matrix(5, 3, 42, -2, 2), v = random_matrix(5, 2, 43);
    AttentionOptions column;
    column.axis = attn::Axis::Column;
    AttentionOptions naive;
    naive.stable = false;
    for (const AttentionOptions& o : {column, naive}) {
        const Matrix want = attn::attention_steps(q, k, v, o).value.output;
        testing::check_close(attn::attention(q, k, v, o).value, want, 0);
        testing::check_close(attn::attention_streaming(q, k, v, o).value, want, 0);
    }
}

TEST_CASE("extreme temperatures: the fast paths give the reference's numbers, not NaN") {
    // The worked example with τ = 3·10³⁸: √2·τ overflows to +∞, every scaled score is 0 and the
    // weights are uniform (the reference's 5 everywhere). The fast paths used to multiply by
    // 1/∞ = 0 and compute (−∞ − m)·0 = NaN.
    const Matrix I2(2, 2, {1, 0, 0, 1}), V10(2, 2, {10, 0, 0, 10});
    AttentionOptions hot;
    hot.temperature = 3e38f;
    AttentionOptions hot_causal = hot;
    hot_causal.mask.kind = MaskKind::Causal;
    // A denormal temperature: 1/τ overflows to +∞, and 0·∞ = NaN, where the reference divides
    // 10⁻⁴⁰ by 10⁻⁴⁰ = 1: softmax([1, 0])·[1, 3] = 1.538.
    const Matrix q1(1, 1, std::vector<float>{1e-20f}), k1(2, 1, {1e-20f, 0}), v1(2, 1, {1, 3});
    AttentionOptions cold;
    cold.temperature = 1e-40f;
    cold.scale = Scale::None;
    struct Case {
        const Matrix &q, &k, &v;
        AttentionOptions o;
        Matrix want;
    };
    for (const Case& c : {Case{I2, I2, V10, hot, Matrix(2, 2, {5, 5, 5, 5})},
                          Case{I2, I2, V10, hot_causal, Matrix(2, 2, {10, 0, 5, 5})},
                          Case{q1, k1, v1, cold, Matrix(1, 1, std::vector<float>{1.5379f})}}) {
        INFO("temperature " << c.o.temperature << ", mask " << mask_name(c.o.mask.kind));
        testing::check_close(attn::attention_steps(c.q, c.k, c.v, c.o).value.output, c.want, 1e-4);
        check_both(c.q, c.k, c.v, c.o);
    }
    // Every extreme a float32 temperature can take, on ordinary inputs.
    const Matrix q = random_matrix(9, 5, 81, -2, 2), k = random_matrix(70, 5, 82, -2, 2), v = random_matrix(70, 3, 83);
    for (float t : {std::numeric_limits<float>::max(), 1e38f, 3e37f, std::numeric_limits<float>::min(),
                    std::numeric_limits<float>::denorm_min(), 1e-39f}) {
        for (MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
            AttentionOptions o;
            o.temperature = t;
            o.mask.kind = mask;
            const auto ref = attn::attention_steps(q, k, v, o);
            REQUIRE(ref.ok());
            bool finite = true;
            for (float x : ref.value.output.data) finite &= std::isfinite(x);
            if (finite) check_both(q, k, v, o);
        }
    }
}

TEST_CASE("a call whose workspace outgrows 16 MiB gives it back; a small one keeps its buffers for the next") {
    // 100 keys of d = 50,000: 20 MB of packed keys. (Before, the workspace kept every buffer of the
    // largest call ever made, and the next large call of another path found no room.)
    const Matrix q = random_matrix(1, 50000, 71, -0.01f, 0.01f), k = random_matrix(100, 50000, 72, -0.01f, 0.01f);
    const Matrix v = random_matrix(100, 3, 73);
    for (auto run : {attn::attention, attn::attention_streaming}) {
        REQUIRE(run(q, k, v, {}).ok());
        CHECK(attn::fast::thread_workspace().bytes() == 0);
        REQUIRE(run(random_matrix(9, 16, 74), random_matrix(70, 16, 75), random_matrix(70, 4, 76), {}).ok());
        CHECK(attn::fast::thread_workspace().bytes() > 0);
        CHECK(attn::fast::thread_workspace().bytes() <= attn::fast::kWorkspaceKeepBytes);
    }
}

#if !defined(__EMSCRIPTEN__)  // the wasm module has one thread
TEST_CASE("two threads calling the fast paths at once each compute with their own buffers") {
    // Different shapes on each thread, so that one shared set of buffers would be repacked and
    // resized under the other's feet.
    const Matrix qa = random_matrix(40, 24, 951, -2, 2), ka = random_matrix(300, 24, 952, -2, 2);
    const Matrix va = random_matrix(300, 16, 953);
    const Matrix qb = random_matrix(33, 64, 961, -2, 2), kb = random_matrix(50, 64, 962, -2, 2);
    const Matrix vb = random_matrix(50, 9, 963);
    std::vector<Matrix> from_a, from_b;
    std::thread a([&] {
        for (int r = 0; r < 200; ++r) from_a.push_back(attn::attention(qa, ka, va).value);
    });
    std::thread b([&] {
        for (int r = 0; r < 200; ++r) from_b.push_back(attn::attention_streaming(qb, kb, vb).value);
    });
    a.join();
    b.join();
    const Matrix want_a = attn::attention_steps(qa, ka, va).value.output;
    const Matrix want_b = attn::attention_steps(qb, kb, vb).value.output;
    for (const Matrix& m : from_a) CHECK(mismatch(m, want_a).empty());
    for (const Matrix& m : from_b) CHECK(mismatch(m, want_b).empty());
}
#endif
