// Issue 30's efficiency paths (core/efficiency_paths.hpp) against a float64 reference computed
// here, and against the full attention the lab shows them beside: tiles with an online softmax
// (the worked example with 1×1 tiles, tiles that do not divide n, n_q ≠ n_k, d = 1, every mask, a
// fully masked row, the trace's invariants), decoding with a KV cache (bit for bit the full causal
// attention's rows), a sliding window (bit for bit the full attention masked to the band; w ≥ n is
// causal) and every refusal.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attention.hpp"
#include "efficiency_paths.hpp"
#include "helpers.hpp"
#include "validate.hpp"

using attn::AttentionOptions;
using attn::ErrorCode;
using attn::MaskKind;
using attn::Matrix;
using attn::Scale;
using attn::TileSize;
using testing::random_matrix;

namespace {

// Whether query i sees key j under `mask`, or under a window of w (w = 0: no window).
bool visible(const attn::Mask& mask, std::size_t i, std::size_t j, std::size_t w = 0) {
    if (w > 0) return j <= i && i < j + w;
    if (mask.kind == MaskKind::Causal) return j <= i;
    if (mask.kind == MaskKind::Custom) return mask.keep(i, j) != 0.0f;
    return true;
}

// softmax(QKᵀ/divisor)·V in float64 over the visible keys: the textbook formula, two passes per
// row. A fully masked row is 0 (reference.hpp's policy).
Matrix float64_attention(const Matrix& q, const Matrix& k, const Matrix& v, double divisor, const attn::Mask& mask,
                         std::size_t window = 0) {
    Matrix out(q.rows, v.cols);
    for (std::size_t i = 0; i < q.rows; ++i) {
        std::vector<double> s(k.rows, -INFINITY);
        double m = -INFINITY;
        for (std::size_t j = 0; j < k.rows; ++j) {
            if (!visible(mask, i, j, window)) continue;
            double dot = 0;
            for (std::size_t c = 0; c < q.cols; ++c) dot += double(q(i, c)) * double(k(j, c));
            s[j] = dot / divisor;
            m = std::max(m, s[j]);
        }
        if (m == -INFINITY) continue;
        double sum = 0;
        for (double& x : s) sum += (x = std::exp(x - m));
        for (std::size_t c = 0; c < v.cols; ++c) {
            double acc = 0;
            for (std::size_t j = 0; j < k.rows; ++j)
                if (visible(mask, i, j, window)) acc += s[j] / sum * double(v(j, c));  // a masked value is never read
            out(i, c) = static_cast<float>(acc);
        }
    }
    return out;
}

double divisor_of(std::size_t d_k) { return std::sqrt(double(d_k)); }

// The same bits, NaN included.
bool same_bits(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols && std::memcmp(a.data.data(), b.data.data(), a.size() * 4) == 0;
}

// A band mask i − w < j ≤ i as a custom mask, for the full attention to compare with the window.
Matrix band(std::size_t n_q, std::size_t n_k, std::size_t w) {
    Matrix keep(n_q, n_k);
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = 0; j < n_k; ++j) keep(i, j) = (j <= i && i < j + w) ? 1.0f : 0.0f;
    return keep;
}

AttentionOptions with_mask(MaskKind kind, Matrix keep = {}) {
    AttentionOptions o;
    o.mask.kind = kind;
    o.mask.keep = std::move(keep);
    return o;
}

const Matrix kIdentity(2, 2, std::vector<float>{1, 0, 0, 1});
const Matrix kTenIdentity(2, 2, std::vector<float>{10, 0, 0, 10});

// The shapes of the random checks: n_q ≠ n_k both ways, d = 1, primes, sizes around 4 and 8 lanes.
struct Case {
    std::size_t n_q, n_k, d_k, d_v;
};
const Case kCases[] = {{1, 1, 1, 1},   {3, 5, 1, 2},   {5, 3, 2, 1},     {7, 7, 3, 4},   {9, 13, 4, 5},
                       {17, 17, 8, 3}, {13, 29, 5, 9}, {33, 20, 16, 16}, {40, 40, 64, 7}};

}  // namespace

TEST_CASE("attention_tiled, worked example with 1×1 tiles: Q = K = I₂, V = 10·I₂ → [[6.698, 3.302], [3.302, 6.698]]") {
    const auto r = attn::attention_tiled(kIdentity, kIdentity, kTenIdentity, {1, 1});
    REQUIRE(r.ok());
    const Matrix want(2, 2, std::vector<float>{6.698f, 3.302f, 3.302f, 6.698f});
    testing::check_close(r.value.output, want, 1e-3);
    // Four tiles, row block by row block: (0, 0), (0, 1), (1, 0), (1, 1).
    REQUIRE(r.value.tiles.size() == 4);
    const float s = 1.0f / std::sqrt(2.0f);  // the diagonal's scaled score
    const attn::TileStep& first = r.value.tiles[0];
    CHECK(first.row_start == 0);
    CHECK(first.col_end == 1);
    CHECK(first.m(0, 0) == doctest::Approx(s));  // m = s_00
    CHECK(first.alpha(0, 0) == 0.0f);            // exp(−∞ − m): nothing before
    CHECK(first.l(0, 0) == 1.0f);                // exp(s_00 − s_00)
    CHECK(first.o(0, 0) == 10.0f);               // 1 · v_0
    // Row 0's second tile: s_01 = 0 < m, so m and α stay; ℓ = 1 + e^(−0.7071) = 1.4931.
    const attn::TileStep& second = r.value.tiles[1];
    CHECK(second.m(0, 0) == doctest::Approx(s));
    CHECK(second.alpha(0, 0) == 1.0f);
    CHECK(second.l(0, 0) == doctest::Approx(1.0 + std::exp(-double(s))).epsilon(1e-6));
    CHECK(second.o(0, 1) == doctest::Approx(10.0 * std::exp(-double(s))).epsilon(1e-6));
    // Row 1's first tile sees s_10 = 0, then s_11 = 0.7071 raises the max: α = e^(0 − 0.7071) = 0.4931.
    CHECK(r.value.tiles[2].m(0, 0) == 0.0f);
    CHECK(r.value.tiles[3].alpha(0, 0) == doctest::Approx(std::exp(-double(s))).epsilon(1e-6));
    CHECK(r.value.divisor == doctest::Approx(std::sqrt(2.0)));
}

TEST_CASE("attention_tiled against float64 on random shapes, tiles that do not divide n, every mask") {
    const TileSize tiles[] = {{1, 1}, {2, 3}, {3, 2}, {4, 4}, {5, 7}, {64, 64}};
    for (const Case& c : kCases)
        for (const TileSize& t : tiles)
            for (int mask = 0; mask < 3; ++mask) {
                const Matrix q = random_matrix(c.n_q, c.d_k, 1), k = random_matrix(c.n_k, c.d_k, 2),
                             v = random_matrix(c.n_k, c.d_v, 3, -5.0f, 5.0f);
                const TileSize tile{std::min<std::int64_t>(t.rows, c.n_q), std::min<std::int64_t>(t.cols, c.n_k)};
                AttentionOptions o = with_mask(MaskKind(mask));
                if (o.mask.kind == MaskKind::Custom) {
                    o.mask.keep = random_matrix(c.n_q, c.n_k, 4);
                    for (float& x : o.mask.keep.data) x = x < -0.5f ? 0.0f : 1.0f;
                }
                CAPTURE(c.n_q);
                CAPTURE(c.n_k);
                CAPTURE(c.d_k);
                CAPTURE(tile.rows);
                CAPTURE(tile.cols);
                CAPTURE(mask);
                const auto r = attn::attention_tiled(q, k, v, tile, o);
                const auto by_row = attn::attention_tiled_reference(q, k, v, tile, o);
                REQUIRE(r.ok());
                REQUIRE(by_row.ok());
                const Matrix want = float64_attention(q, k, v, divisor_of(c.d_k), o.mask);
                testing::check_close(r.value.output, want, 1e-5, 1e-4, "microkernels");
                testing::check_close(by_row.value.output, want, 1e-5, 1e-4, "row by row");
                // The two loops' traces: the same tiles, the same numbers within float32 rounding.
                REQUIRE(r.value.tiles.size() == by_row.value.tiles.size());
                for (std::size_t t = 0; t < r.value.tiles.size(); ++t) {
                    const attn::TileStep &a = r.value.tiles[t], &b = by_row.value.tiles[t];
                    REQUIRE(a.row_start == b.row_start);
                    REQUIRE(a.col_start == b.col_start);
                    REQUIRE(a.col_end == b.col_end);
                    testing::check_close(a.m, b.m, 1e-6, 1e-5, "m");
                    testing::check_close(a.l, b.l, 1e-5, 1e-5, "l");
                    testing::check_close(a.alpha, b.alpha, 1e-6, 1e-5, "alpha");
                    testing::check_close(a.o, b.o, 1e-5, 1e-4, "o");
                }
            }
}

TEST_CASE("attention_tiled's trace: the order computed, m non-decreasing, α = exp(m_old − m_new), last O/ℓ = output") {
    const Matrix q = random_matrix(11, 6, 5, -2, 2), k = random_matrix(13, 6, 6, -2, 2), v = random_matrix(13, 3, 7);
    for (int mask = 0; mask < 2; ++mask) {
        const AttentionOptions o = with_mask(MaskKind(mask));
        const auto r = attn::attention_tiled_reference(q, k, v, {4, 5}, o);
        REQUIRE(r.ok());
        const auto steps = attn::attention_steps_simd(q, k, v, o);  // the same dot products
        REQUIRE(steps.ok());
        std::size_t expected_row = 0, expected_col = 0;
        const attn::TileStep* previous = nullptr;
        for (const attn::TileStep& t : r.value.tiles) {
            CAPTURE(t.row_start);
            CAPTURE(t.col_start);
            CHECK(t.row_start == expected_row);
            CHECK(t.col_start == expected_col);
            CHECK(t.col_end == std::min<std::size_t>(t.col_start + 5, 13));
            const bool continues = previous && previous->row_start == t.row_start;
            for (std::size_t r_ = 0; r_ < t.row_end - t.row_start; ++r_) {
                const float m_old = continues ? previous->m(r_, 0) : -INFINITY;
                CHECK(t.m(r_, 0) >= m_old);
                if (t.m(r_, 0) != -INFINITY)
                    CHECK(t.alpha(r_, 0) == doctest::Approx(std::exp(double(m_old) - t.m(r_, 0))).epsilon(1e-6));
            }
            const bool last_of_block =
                t.col_end >= (mask == 1 ? std::min<std::size_t>(t.row_end, 13) : std::size_t{13});
            if (last_of_block) {
                for (std::size_t r_ = 0; r_ < t.row_end - t.row_start; ++r_) {
                    const std::size_t i = t.row_start + r_;
                    CHECK(t.m(r_, 0) == steps.value.row_max(i, 0));  // the row max, bit for bit
                    for (std::size_t c = 0; c < 3; ++c) CHECK(t.o(r_, c) / t.l(r_, 0) == r.value.output(i, c));
                }
                expected_row = t.row_end, expected_col = 0;
            } else {
                expected_col = t.col_end;
            }
            previous = &t;
        }
        CHECK(expected_row == 11);
    }
    // Causal: a row block skips the tiles after its last row (rows 0–3 see keys 0–3: one tile of 5).
    const auto causal = attn::attention_tiled(q, k, v, {4, 5}, with_mask(MaskKind::Causal));
    REQUIRE(causal.ok());
    CHECK(causal.value.tiles[0].col_end == 5);
    CHECK(causal.value.tiles[1].row_start == 4);
}

TEST_CASE("attention_tiled without its trace: the same output, bit for bit, and no tiles") {
    const Matrix q = random_matrix(37, 9, 29), k = random_matrix(41, 9, 30), v = random_matrix(41, 6, 31);
    for (int mask = 0; mask < 2; ++mask)
        for (bool by_row : {false, true}) {
            const auto run = by_row ? attn::attention_tiled_reference : attn::attention_tiled;
            const auto kept = run(q, k, v, {5, 6}, with_mask(MaskKind(mask)), attn::Trace::Keep);
            const auto skipped = run(q, k, v, {5, 6}, with_mask(MaskKind(mask)), attn::Trace::Skip);
            REQUIRE(kept.ok());
            REQUIRE(skipped.ok());
            CHECK(same_bits(kept.value.output, skipped.value.output));
            CHECK(skipped.value.tiles.empty());
            CHECK(!kept.value.tiles.empty());
        }
}

TEST_CASE("attention_tiled: a fully masked row has ℓ = 0 and output 0; a masked NaN value stays out") {
    Matrix v = random_matrix(4, 2, 8);
    v(3, 0) = std::numeric_limits<float>::quiet_NaN();
    Matrix keep(3, 4, 1.0f);
    for (std::size_t j = 0; j < 4; ++j) keep(1, j) = 0.0f;  // row 1 sees nothing
    keep(0, 3) = keep(2, 3) = 0.0f;                         // nobody sees key 3 (the NaN value)
    const Matrix q = random_matrix(3, 2, 9), k = random_matrix(4, 2, 10);
    const AttentionOptions o = with_mask(MaskKind::Custom, keep);
    const auto r = attn::attention_tiled(q, k, v, {2, 3}, o);
    REQUIRE(r.ok());
    CHECK(r.value.output(1, 0) == 0.0f);
    CHECK(r.value.output(1, 1) == 0.0f);
    for (const attn::TileStep& t : r.value.tiles)
        if (t.row_start == 0) CHECK(t.l(1, 0) == 0.0f);  // row 1 of block 0
    testing::check_close(r.value.output, float64_attention(q, k, v, divisor_of(2), o.mask), 1e-5, 1e-4);
    // A NaN value behind a kept key makes its row NaN, as on every path.
    v(0, 1) = std::numeric_limits<float>::quiet_NaN();
    const auto nan = attn::attention_tiled(q, k, v, {2, 3});
    REQUIRE(nan.ok());
    CHECK(std::isnan(nan.value.output(0, 1)));
}

TEST_CASE("attention_decode: bit for bit the full causal attention's rows, the cache growing a row per token") {
    for (const Case& c : kCases)
        for (Scale scale : {Scale::SqrtDk, Scale::None}) {
            const Matrix q = random_matrix(c.n_q, c.d_k, 11), k = random_matrix(c.n_k, c.d_k, 12),
                         v = random_matrix(c.n_k, c.d_v, 13);
            CAPTURE(c.n_q);
            CAPTURE(c.n_k);
            CAPTURE(c.d_k);
            const auto r = attn::attention_decode(q, k, v, scale);
            REQUIRE(r.ok());
            AttentionOptions o = with_mask(MaskKind::Causal);
            o.scale = scale;
            const auto full = attn::attention_steps_simd(q, k, v, o);
            REQUIRE(full.ok());
            CHECK(same_bits(r.value.output, full.value.output));
            REQUIRE(r.value.steps.size() == c.n_q);
            for (std::size_t t = 0; t < c.n_q; ++t) {
                CHECK(r.value.steps[t].cache_length == std::min(t + 1, c.n_k));
                CHECK(std::memcmp(r.value.steps[t].row.data.data(), r.value.output.row(t), c.d_v * 4) == 0);
            }
            testing::check_close(r.value.output,
                                 float64_attention(q, k, v, scale == Scale::None ? 1.0 : divisor_of(c.d_k), o.mask),
                                 1e-5, 1e-4);
        }
}

TEST_CASE("attention_decode and attention_window on values that could overflow: the reference's bits") {
    // |q|·|k|·d_k past 1e30: attention_steps_simd hands the call to the reference, and so do these.
    const Matrix q = random_matrix(9, 3, 14, -1e16f, 1e16f), k = random_matrix(9, 3, 15, -1e16f, 1e16f),
                 v = random_matrix(9, 2, 16);
    const auto decoded = attn::attention_decode(q, k, v);
    const auto full = attn::attention_steps(q, k, v, with_mask(MaskKind::Causal));
    REQUIRE(decoded.ok());
    REQUIRE(full.ok());
    CHECK(same_bits(decoded.value.output, full.value.output));
    const auto window = attn::attention_window(q, k, v, 3);
    const auto banded = attn::attention_steps(q, k, v, with_mask(MaskKind::Custom, band(9, 9, 3)));
    REQUIRE(window.ok());
    REQUIRE(banded.ok());
    CHECK(same_bits(window.value, banded.value.output));
}

TEST_CASE("attention_window: bit for bit the full attention masked to the band i − w < j ≤ i; w ≥ n is causal") {
    for (const Case& c : kCases)
        for (std::size_t w : {1, 2, 3, 4, 5, 8, 9, 100}) {
            const Matrix q = random_matrix(c.n_q, c.d_k, 17), k = random_matrix(c.n_k, c.d_k, 18),
                         v = random_matrix(c.n_k, c.d_v, 19);
            CAPTURE(c.n_q);
            CAPTURE(c.n_k);
            CAPTURE(w);
            const auto r = attn::attention_window(q, k, v, static_cast<std::int64_t>(w));
            REQUIRE(r.ok());
            const AttentionOptions o = with_mask(MaskKind::Custom, band(c.n_q, c.n_k, w));
            const auto full = attn::attention_steps_simd(q, k, v, o);
            REQUIRE(full.ok());
            CHECK(same_bits(r.value, full.value.output));
            testing::check_close(r.value, float64_attention(q, k, v, divisor_of(c.d_k), o.mask, w), 1e-5, 1e-4);
            if (w >= c.n_k && w >= c.n_q) {
                const auto causal = attn::attention_steps_simd(q, k, v, with_mask(MaskKind::Causal));
                REQUIRE(causal.ok());
                CHECK(same_bits(r.value, causal.value.output));
            }
        }
    // A query past the last key's window sees nothing: 0, as a fully masked row.
    const auto past =
        attn::attention_window(random_matrix(6, 2, 20), random_matrix(2, 2, 21), random_matrix(2, 3, 22), 2);
    REQUIRE(past.ok());
    for (std::size_t c = 0; c < 3; ++c) CHECK(past.value(5, c) == 0.0f);
}

TEST_CASE("attention_window above 64 keys (the microkernels): the banded attention within float32 rounding") {
    const Case cases[] = {{65, 65, 64, 64}, {100, 70, 7, 5}, {70, 129, 1, 3}, {300, 300, 33, 17}};
    for (const Case& c : cases)
        for (std::size_t w : {1, 2, 7, 8, 9, 64, 100, 1000}) {
            const Matrix q = random_matrix(c.n_q, c.d_k, 26), k = random_matrix(c.n_k, c.d_k, 27),
                         v = random_matrix(c.n_k, c.d_v, 28);
            CAPTURE(c.n_q);
            CAPTURE(c.n_k);
            CAPTURE(w);
            const auto r = attn::attention_window(q, k, v, static_cast<std::int64_t>(w));
            REQUIRE(r.ok());
            const auto full = attn::attention_steps_simd(q, k, v, with_mask(MaskKind::Custom, band(c.n_q, c.n_k, w)));
            REQUIRE(full.ok());
            testing::check_close(r.value, full.value.output, 1e-5, 1e-4, "against the banded steps");
            testing::check_close(r.value, float64_attention(q, k, v, divisor_of(c.d_k), {}, w), 1e-5, 1e-4, "float64");
        }
}

TEST_CASE("the efficiency paths' refusals: tile sizes, the window, shapes, values and the 1 GiB rule") {
    const Matrix q = random_matrix(3, 2, 23), k = random_matrix(4, 2, 24), v = random_matrix(4, 2, 25);
    struct Refusal {
        attn::Error error;
        ErrorCode code;
        const char* argument;
    };
    Matrix bad_k = k;
    bad_k.data[1] = std::numeric_limits<float>::infinity();
    const Refusal refusals[] = {
        {attn::attention_tiled(q, k, v, {0, 1}).error, ErrorCode::OutOfRange, "tileRows"},
        {attn::attention_tiled(q, k, v, {4, 1}).error, ErrorCode::OutOfRange, "tileRows"},
        {attn::attention_tiled(q, k, v, {1, 5}).error, ErrorCode::OutOfRange, "tileCols"},
        {attn::attention_tiled(q, k, v, {1, -3}).error, ErrorCode::OutOfRange, "tileCols"},
        {attn::attention_tiled(q, random_matrix(4, 3, 1), v, {1, 1}).error, ErrorCode::DkMismatch, "k"},
        {attn::attention_tiled(q, bad_k, v, {1, 1}).error, ErrorCode::NotFinite, "k"},
        {attn::attention_tiled(q, k, v, {1, 1}, with_mask(MaskKind::Custom, Matrix(3, 3, 1.0f))).error,
         ErrorCode::MaskShape, "mask"},
        {attn::attention_window(q, k, v, 0).error, ErrorCode::OutOfRange, "window"},
        {attn::attention_window(q, k, v, -2).error, ErrorCode::OutOfRange, "window"},
        {attn::attention_window(q, k, random_matrix(3, 2, 1), 2).error, ErrorCode::KeyValueMismatch, "v"},
        {attn::attention_decode(q, k, random_matrix(3, 2, 1)).error, ErrorCode::KeyValueMismatch, "v"},
        {attn::attention_decode(q, bad_k, v).error, ErrorCode::NotFinite, "k"},
    };
    for (const Refusal& r : refusals) {
        CAPTURE(r.error.message);
        CHECK(r.error.code == r.code);
        CHECK(r.error.argument == r.argument);
    }
    CHECK(attn::attention_tiled(q, k, v, {4, 1}).error.message ==
          "tileRows must be a whole number from 1 to n_q = 3 (got 4)");
    CHECK(attn::attention_window(q, k, v, 0).error.message == "window must be a whole number of at least 1 (got 0)");
    // The trace of 1×1 tiles at n = 16,384, d_v = 64: 2²⁸ tiles, far over 1 GiB — refused from the shapes.
    const attn::Shape big{16384, 64, 16384 * 64};
    const attn::Error memory = attn::check_tiled_shapes(big, big, big, nullptr, {1, 1}, {});
    CHECK(memory.code == ErrorCode::TooMuchMemory);
    CHECK(testing::params_of(memory).find("operation=\"attention_tiled\" what=\"trace\"") != std::string::npos);
    // Without the trace, 1×1 tiles at n = 16,384 fit: the output, K and V packed, a block's state.
    CHECK(!attn::check_tiled_shapes(big, big, big, nullptr, {1, 1}, {}, attn::Trace::Skip));
    // 64×64 tiles at n = 1024 fit (16 MiB of trace).
    const attn::Shape n1024{1024, 64, 1024 * 64};
    CHECK(!attn::check_tiled_shapes(n1024, n1024, n1024, nullptr, {64, 64}, {}));
    CHECK(attn::tiled_working_bytes(1024, 1024, 64, 64, {64, 64}, MaskKind::None, attn::Trace::Keep) <
          (std::uint64_t{32} << 20));
}
