// fuzz_input.hpp — what the libFuzzer targets of tests/fuzz/ share: how an input's bytes become
// a call of the core (the format is in fuzz_attention.cpp's header comment; tests/fuzz/corpus/ is
// written in it by make-corpus.mjs, and every target replays it), and how a target reports a
// finding.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "attention.hpp"
#include "efficiency_paths.hpp"
#include "efficiency_shared.hpp"
#include "error.hpp"

namespace fuzz {

using attn::AttentionOptions;
using attn::Matrix;

inline constexpr float kInf = std::numeric_limits<float>::infinity();
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Values that find the edges: NaN, ±∞ (refused), denormals, float32's extremes, ±3e38 (finite,
// but two of them make +∞), and ordinary small numbers.
inline const float kPalette[] = {kNaN,
                                 kInf,
                                 -kInf,
                                 std::numeric_limits<float>::denorm_min(),
                                 -1e-40f,
                                 1e-40f,
                                 std::numeric_limits<float>::min(),
                                 std::numeric_limits<float>::max(),
                                 -std::numeric_limits<float>::max(),
                                 3e38f,
                                 -3e38f,
                                 1e-20f,
                                 1e20f,
                                 0.0f,
                                 -0.0f,
                                 1.0f,
                                 -1.0f,
                                 10.0f,
                                 0.5f,
                                 1000.0f,
                                 -1000.0f,
                                 88.7f};
inline constexpr std::size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];

// Temperatures from the ordinary to the absurd; 0, −1, NaN and +∞ are refused.
inline const float kTemperatures[] = {1.0f,
                                      0.25f,
                                      4.0f,
                                      3e38f,
                                      1e-40f,
                                      std::numeric_limits<float>::min(),
                                      std::numeric_limits<float>::max(),
                                      std::numeric_limits<float>::denorm_min(),
                                      1e-30f,
                                      1e30f,
                                      1e-38f,
                                      0.0f,
                                      -1.0f,
                                      kNaN,
                                      kInf,
                                      1e38f};
inline constexpr std::size_t kTemperatureCount = sizeof kTemperatures / sizeof kTemperatures[0];

// The bytes, front to back; past the end every byte reads as 0.
struct Reader {
    const std::uint8_t* data;
    std::size_t size;
    std::size_t at = 0;

    bool done() const { return at >= size; }
    std::uint8_t byte() { return at < size ? data[at++] : 0; }
    std::uint64_t u64() {
        std::uint64_t x = 0;
        for (int i = 0; i < 8; ++i) x |= std::uint64_t{byte()} << (8 * i);
        return x;
    }
    float raw_float() {
        std::uint32_t bits = 0;
        for (int i = 0; i < 4; ++i) bits |= std::uint32_t{byte()} << (8 * i);
        float x;
        std::memcpy(&x, &bits, sizeof x);
        return x;
    }
    // One value: from the palette, raw, or small; past the end, a fixed pattern in [−2, 2].
    float value(std::size_t index) {
        if (done()) return static_cast<float>(static_cast<int>(index * 37 % 17) - 8) / 4.0f;
        const std::uint8_t b = byte();
        if (b < kPaletteSize) return kPalette[b];
        if (b == 255) return raw_float();
        return (static_cast<float>(b) - 32.0f) / 8.0f;
    }
    float mask_cell(std::size_t index) {
        if (done()) return index % 3 == 0 ? 0.0f : 1.0f;
        const std::uint8_t b = byte();
        return b == 254 ? 0.5f : b % 4 == 0 ? 0.0f : 1.0f;
    }
    Matrix matrix(std::size_t rows, std::size_t cols, std::size_t values) {
        Matrix m;
        m.rows = rows;
        m.cols = cols;
        m.data.resize(values);
        for (std::size_t t = 0; t < values; ++t) m.data[t] = value(t);
        return m;
    }
};

// Stops the fuzzer with a finding: what broke, and where.
[[noreturn]] inline void finding(const std::string& what) {
    std::fprintf(stderr, "\nINVARIANT BROKEN: %s\n", what.c_str());
    std::abort();
}
#define FUZZ_CHECK(condition, what)      \
    do {                                 \
        if (!(condition)) finding(what); \
    } while (0)

inline std::string describe(const attn::Error& e) {
    return std::string(attn::code_name(e.code)) + " (" + e.argument + "): " + e.message;
}

inline bool same_error(const attn::Error& a, const attn::Error& b) {
    return a.code == b.code && a.argument == b.argument && a.message == b.message;
}

// NaN only against NaN, ±∞ only against itself, else within tol.
inline bool close(float got, float want, double tol) {
    if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
    if (std::isinf(want) || std::isinf(got)) return got == want;
    return std::fabs(static_cast<double>(got) - want) <= tol;
}

inline double max_abs(const Matrix& m) {
    double best = 0;
    for (float x : m.data)
        if (std::isfinite(x)) best = std::max(best, static_cast<double>(std::fabs(x)));
    return best;
}

// Bytes 1–7 of a call: the sizes, the options, the temperature and the twist.
struct Header {
    std::size_t n_q, n_k, d_k, d_v;
    AttentionOptions o;
    std::uint8_t twist;
};
inline Header read_header(Reader& in) {
    Header h{};
    h.n_q = in.byte() % 12 + 1;
    h.n_k = in.byte() % 72 + 1;
    h.d_k = in.byte() % 20 + 1;
    h.d_v = in.byte() % 8 + 1;
    const std::uint8_t flags = in.byte();
    h.o.scale = static_cast<attn::Scale>(flags % 3);
    h.o.mask.kind = static_cast<attn::MaskKind>(flags / 3 % 3);
    h.o.stable = flags / 9 % 2 == 0;
    h.o.axis = flags / 18 % 2 ? attn::Axis::Column : attn::Axis::Row;
    const std::uint8_t t = in.byte();
    h.o.temperature = t < kTemperatureCount ? kTemperatures[t] : in.raw_float();
    h.twist = in.byte() % 16;
    return h;
}

// An ordinary call (byte 0 < 230; 200–229 an efficiency lab call, read_lab below): q, k, v, the mask, and w for X·W,
// read after the header, the twist applied.
struct Call {
    Matrix q, k, v, w;
    AttentionOptions o;
};
inline Call read_call(Reader& in, const Header& h) {
    const std::size_t n_q = h.n_q, n_k = h.n_k, d_k = h.d_k, d_v = h.d_v;
    Call c;
    c.o = h.o;
    AttentionOptions& o = c.o;
    c.q = in.matrix(n_q, d_k, n_q * d_k);
    c.k = in.matrix(n_k, d_k, n_k * d_k);
    c.v = in.matrix(n_k, d_v, n_k * d_v);
    if (o.mask.kind == attn::MaskKind::Custom) {
        o.mask.keep = Matrix(n_q, n_k);
        for (std::size_t m = 0; m < o.mask.keep.size(); ++m) o.mask.keep.data[m] = in.mask_cell(m);
    }
    c.w = in.matrix(d_k, d_v, d_k * d_v);
    switch (h.twist) {
        case 1:
            c.k = in.matrix(n_k, d_k + 1, n_k * (d_k + 1));
            break;
        case 2:
            c.v = in.matrix(n_k + 1, d_v, (n_k + 1) * d_v);
            break;
        case 3:
            o.mask.keep = Matrix(n_q, n_k + 1, 1.0f);
            o.mask.kind = attn::MaskKind::Custom;
            break;
        case 4:
            c.q.data.pop_back();
            break;
        default:
            break;
    }
    return c;
}

// The efficiency lab's calls (byte 0 in 200–229, issue 30): the ordinary call's header and
// matrices, then what the five entry points take besides them, one byte each (past the end 0):
//   tile rows, tile cols  1 … n_q + 2 and 1 … n_k + 2 (b % (n + 2) + 1: the last two refused)
//   window                1 … n_k + 2 (b % (n_k + 2) + 1: from n_k on, causal attention)
//   heads, kv_heads       1 … 8 each (b % 8 + 1)
//   linear                causal = b % 2, weights = b / 2 % 2, order = b / 4 % 3 (both, quadratic,
//                         linear)
// Each whole number reads 255 as "a raw int64 from the next 8 bytes", to reach 0, negatives and
// 2⁶³ − 1 (refused with their own number).
inline constexpr std::uint8_t kLabFirst = 200, kLabEnd = 230;

struct Lab {
    attn::TileSize tile;
    std::int64_t window = 1, heads = 1, kv_heads = 1;
    attn::LinearOptions linear;
};

inline std::int64_t whole_number(Reader& in, std::size_t modulus) {
    const std::uint8_t b = in.byte();
    return b == 255 ? static_cast<std::int64_t>(in.u64()) : static_cast<std::int64_t>(b % modulus + 1);
}

inline Lab read_lab(Reader& in, const Header& h) {
    Lab lab;
    lab.tile.rows = whole_number(in, h.n_q + 2);
    lab.tile.cols = whole_number(in, h.n_k + 2);
    lab.window = whole_number(in, h.n_k + 2);
    lab.heads = whole_number(in, 8);
    lab.kv_heads = whole_number(in, 8);
    const std::uint8_t b = in.byte();
    lab.linear.causal = b % 2 == 1;
    lab.linear.weights = b / 2 % 2 == 1;
    lab.linear.order = static_cast<attn::LinearOrder>(b / 4 % 3);
    return lab;
}

// The grouped call's K: with h heads of q.cols / h columns each, kv_heads key–value heads hold
// kv_heads · (q.cols / h) columns — the call's k cut to its first that many columns. Where h does
// not divide q's columns, or that is not fewer columns than k has, k as it is (the refusals).
inline Matrix grouped_keys(const Matrix& q, const Matrix& k, const Lab& lab) {
    if (lab.heads < 1 || lab.kv_heads < 1 || q.cols % static_cast<std::size_t>(lab.heads) != 0 ||
        k.data.size() != k.rows * k.cols)
        return k;
    const std::size_t cols = static_cast<std::size_t>(lab.kv_heads) * (q.cols / static_cast<std::size_t>(lab.heads));
    if (cols == 0 || cols >= k.cols) return k;
    Matrix cut(k.rows, cols);
    for (std::size_t r = 0; r < k.rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) cut(r, c) = k(r, c);
    return cut;
}

}  // namespace fuzz
