// matrix.hpp — the one data type of the core: a small row-major float32 matrix.
//
// Element (i, j) lives at data[i * cols + j]. A row vector of n values is 1×n, a column of
// per-row values (such as the row maxima) is n×1. The type holds no invariants beyond
// data.size() == rows * cols, which every constructor keeps; the checked way to build one from
// outside values is `check_matrix` in validate.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace attn {

struct Matrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<float> data;  // row-major, rows * cols values

    Matrix() = default;
    Matrix(std::size_t r, std::size_t c, float fill = 0.0f) : rows(r), cols(c), data(r * c, fill) {}
    // Takes the values as given; callers from outside the core go through check_matrix first.
    Matrix(std::size_t r, std::size_t c, std::vector<float> values) : rows(r), cols(c), data(std::move(values)) {}

    float& operator()(std::size_t i, std::size_t j) { return data[i * cols + j]; }
    float operator()(std::size_t i, std::size_t j) const { return data[i * cols + j]; }
    float* row(std::size_t i) { return data.data() + i * cols; }
    const float* row(std::size_t i) const { return data.data() + i * cols; }
    std::size_t size() const { return data.size(); }
};

// "3×4" — the way shapes are written in messages and in the article.
inline std::string shape_string(std::size_t rows, std::size_t cols) {
    return std::to_string(rows) + "×" + std::to_string(cols);
}
inline std::string shape_string(const Matrix& m) { return shape_string(m.rows, m.cols); }

}  // namespace attn
