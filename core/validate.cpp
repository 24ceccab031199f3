// validate.cpp — see validate.hpp. Messages are English sentences the page can show as they are.
#include "validate.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace attn {
namespace {

std::string format_bytes(std::uint64_t bytes) {
    char buf[64];
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024.0) std::snprintf(buf, sizeof buf, "%.1f GiB", mib / 1024.0);
    else std::snprintf(buf, sizeof buf, "%.1f MiB", mib);
    return buf;
}

std::string number(float x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(x));
    return buf;
}

std::string position(const char* name, std::size_t i, std::size_t j) {
    return std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

}  // namespace

std::string check_matrix(const char* name, const Matrix& m) {
    if (m.rows == 0 || m.cols == 0)
        return std::string(name) + " must have at least one row and one column (got " +
               shape_string(m) + ")";
    const std::uint64_t needed = std::uint64_t{m.rows} * m.cols;
    if (m.data.size() != needed)
        return std::string(name) + " has " + std::to_string(m.data.size()) + " values but " +
               shape_string(m) + " needs " + std::to_string(needed);
    // One branch-free pass that the compiler vectorises (this runs on every call, over every
    // input value); the position of the first ±Infinity is looked up only when there is one.
    bool any_inf = false;
    for (const float x : m.data) any_inf |= std::fabs(x) == std::numeric_limits<float>::infinity();
    if (!any_inf) return {};
    for (std::size_t t = 0;; ++t)
        if (std::isinf(m.data[t]))
            return position(name, t / m.cols, t % m.cols) + " is " + (m.data[t] > 0 ? "+" : "-") +
                   "Infinity; only finite numbers (or NaN) are allowed";
}

std::string check_projection(const Matrix& x, const Matrix& w) {
    if (auto e = check_matrix("x", x); !e.empty()) return e;
    if (auto e = check_matrix("w", w); !e.empty()) return e;
    if (x.cols != w.rows)
        return "x is " + shape_string(x) + " but w is " + shape_string(w) +
               "; X·W needs w to have as many rows as x has columns (" + std::to_string(x.cols) + ")";
    return check_memory("X·W (" + shape_string(x.rows, w.cols) + ")",
                        float_bytes(std::uint64_t{x.rows} * w.cols));
}

std::string check_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                            const AttentionOptions& options) {
    if (auto e = check_matrix("q", q); !e.empty()) return e;
    if (auto e = check_matrix("k", k); !e.empty()) return e;
    if (auto e = check_matrix("v", v); !e.empty()) return e;
    if (q.cols != k.cols)
        return "q has d_k = " + std::to_string(q.cols) + " columns but k has " +
               std::to_string(k.cols) + "; QKᵀ needs the same d_k in both";
    if (k.rows != v.rows)
        return "k has " + std::to_string(k.rows) + " rows (keys) but v has " +
               std::to_string(v.rows) + "; every key needs exactly one value row";
    if (!(std::isfinite(options.temperature) && options.temperature > 0.0f))
        return "temperature must be a finite number greater than 0 (got " +
               number(options.temperature) + ")";
    if (options.mask.kind == MaskKind::Custom) {
        const Matrix& mask = options.mask.keep;
        if (auto e = check_matrix("mask", mask); !e.empty()) return e;
        if (mask.rows != q.rows || mask.cols != k.rows)
            return "mask is " + shape_string(mask) + " but the scores are " +
                   shape_string(q.rows, k.rows) + " (n_q×n_k)";
        for (std::size_t i = 0; i < mask.rows; ++i)
            for (std::size_t j = 0; j < mask.cols; ++j)
                if (!(mask(i, j) == 0.0f || mask(i, j) == 1.0f))
                    return position("mask", i, j) + " is " + number(mask(i, j)) +
                           "; a mask holds only 0 (masked) and 1 (kept)";
    }
    return {};
}

std::string check_memory(const std::string& what, std::uint64_t bytes) {
    if (bytes <= kMemoryLimitBytes) return {};
    return what + " needs " + format_bytes(bytes) + " of working memory; the limit is " +
           format_bytes(kMemoryLimitBytes);
}

}  // namespace attn
