// helpers.hpp — small checks the core tests share: matrices equal within a tolerance.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <variant>

#include "error.hpp"
#include "matrix.hpp"

namespace testing {

// Equal within |a − b| ≤ abs_tol + rel_tol·|b|; NaN equals NaN and ±∞ equals itself, so that the
// numerics policy (NaN propagates, masked scores are −∞) is checked too.
inline bool close(double a, double b, double abs_tol, double rel_tol = 0.0) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b)) return a == b;
    return std::fabs(a - b) <= abs_tol + rel_tol * std::fabs(b);
}

inline void check_close(const attn::Matrix& actual, const attn::Matrix& expected, double abs_tol, double rel_tol = 0.0,
                        const std::string& what = "") {
    INFO(what);
    REQUIRE(actual.rows == expected.rows);
    REQUIRE(actual.cols == expected.cols);
    for (std::size_t i = 0; i < actual.rows; ++i)
        for (std::size_t j = 0; j < actual.cols; ++j) {
            INFO("(" << i << ", " << j << "): got " << actual(i, j) << ", expected " << expected(i, j));
            CHECK(close(actual(i, j), expected(i, j), abs_tol, rel_tol));
        }
}

// A deterministic pseudo-random matrix in [lo, hi) (xorshift; the same numbers on every platform).
inline attn::Matrix random_matrix(std::size_t rows, std::size_t cols, unsigned seed, float lo = -1.0f,
                                  float hi = 1.0f) {
    attn::Matrix m(rows, cols);
    unsigned x = seed * 2654435761u + 1u;
    for (float& v : m.data) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v = lo + (hi - lo) * static_cast<float>(x >> 8) / static_cast<float>(1u << 24);
    }
    return m;
}

// An Error's params as one line, in order: `got=10 need=12 rows=3 cols=4`, strings quoted.
inline std::string params_of(const attn::Error& e) {
    std::string out;
    for (const attn::Param& p : e.params) {
        if (!out.empty()) out += ' ';
        out += p.name + '=';
        if (const double* x = std::get_if<double>(&p.value)) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", *x);
            out += buf;
        } else {
            out += '"' + std::get<std::string>(p.value) + '"';
        }
    }
    return out;
}

// The same refusal: code, argument, cell, params (NaN as NaN) and message.
inline bool same_error(const attn::Error& a, const attn::Error& b) {
    return a.code == b.code && a.argument == b.argument && a.cell == b.cell && params_of(a) == params_of(b) &&
           a.message == b.message;
}

}  // namespace testing
