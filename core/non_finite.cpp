// non_finite.cpp — see non_finite.hpp.
#include "non_finite.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace attn {
namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// The counts are read from the numbers' bits, without branches, so that the compiler turns each
// loop into SIMD compares (std::isfinite and && stay one scalar test per number): the training
// loop counts every intermediate of every head of every sequence it steps through. A 32-bit count
// holds any matrix's: the memory check (validate.hpp) keeps each under 1 GiB, 2²⁸ numbers.
constexpr std::uint32_t kExponent = 0x7f800000u;      // all ones: NaN or ±∞
constexpr std::uint32_t kMinusInfBits = 0xff800000u;  // −∞
std::uint32_t bits(float x) {
    std::uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

std::size_t count_all(const Matrix& m) {
    std::uint32_t n = 0;
    for (const float x : m.data) n += (bits(x) & kExponent) == kExponent;
    return n;
}

// Cells of scaled or shifted: a masked cell's −∞ is on purpose.
std::size_t count_unmasked(const Matrix& m, const Matrix& kept) {
    std::uint32_t n = 0;
    for (std::size_t t = 0; t < m.size(); ++t) {
        const std::uint32_t x = bits(m.data[t]);
        n += ((x & kExponent) == kExponent) & !((kept.data[t] == 0.0f) & (x == kMinusInfBits));
    }
    return n;
}

// The row maxima (n_q×1), or the column maxima (1×n_k) of a column softmax: −∞ is on purpose when
// every cell of that row or column is masked.
std::size_t count_maxima(const Matrix& row_max, const Matrix& kept, Axis axis) {
    const bool by_column = axis == Axis::Column;
    std::size_t n = 0;
    for (std::size_t t = 0; t < row_max.size(); ++t) {
        const float m = row_max.data[t];
        if (std::isfinite(m)) continue;
        bool fully_masked = true;
        const std::size_t cells = by_column ? kept.rows : kept.cols;
        for (std::size_t u = 0; u < cells && fully_masked; ++u)
            fully_masked = (by_column ? kept(u, t) : kept(t, u)) == 0.0f;
        n += !(fully_masked && m == kMinusInf);
    }
    return n;
}

}  // namespace

NonFinite count_non_finite(const AttentionSteps& st, Axis axis) {
    NonFinite n;
    n.scores = count_all(st.scores);
    n.scaled = count_unmasked(st.scaled, st.kept);
    n.row_max = count_maxima(st.row_max, st.kept, axis);
    n.shifted = count_unmasked(st.shifted, st.kept);
    n.exps = count_all(st.exps);
    n.row_sum = count_all(st.row_sum);
    n.weights = count_all(st.weights);
    n.output = count_all(st.output);
    return n;
}

}  // namespace attn
