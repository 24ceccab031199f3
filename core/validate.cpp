// validate.cpp — see validate.hpp. Messages are English sentences the page can show as they are;
// params carry their numbers so that the page can word them in another language.
#include "validate.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "number_text.hpp"
#include "working_memory.hpp"

namespace attn {
namespace {

// "3.2 GiB", "512.0 MiB": one decimal of the larger unit that is at least 1.
std::string format_bytes(std::uint64_t bytes) {
    if (bytes == kSizeOverflow) return "more than 16 EiB";  // 2^64 bytes: the count saturated
    char buf[64];
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024.0)
        std::snprintf(buf, sizeof buf, "%.1f GiB", mib / 1024.0);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", mib);
    return buf;
}

// "1,073,741,824 bytes": every digit, grouped by thousands.
std::string exact_bytes(std::uint64_t bytes) {
    const std::string digits = std::to_string(bytes);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out + " bytes";
}

// The need and the limit of a too_much_memory message, so that they read differently whenever
// they differ: one decimal of GiB (or MiB) each, and where that rounds both to the same text
// (1,073,905,572 bytes against the limit's 1,073,741,824: "1.0 GiB" twice), each with its bytes.
std::pair<std::string, std::string> need_and_limit(std::uint64_t bytes, std::uint64_t limit) {
    std::string need = format_bytes(bytes), most = format_bytes(limit);
    if (need == most && bytes != limit) {
        need += " (" + exact_bytes(bytes) + ")";
        most += " (" + exact_bytes(limit) + ")";
    }
    return {need, most};
}

std::string position(const char* name, std::size_t i, std::size_t j) {
    return std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

Error refuse(ErrorCode code, std::string argument, std::string message, std::vector<Param> params,
             std::optional<Cell> cell = std::nullopt) {
    return Error{code, std::move(argument), cell, std::move(params), std::move(message)};
}

double count(std::size_t n) { return static_cast<double>(n); }

}  // namespace

Error check_shape(const char* name, const Shape& m) {
    if (m.rows == 0 || m.cols == 0)
        return refuse(
            ErrorCode::EmptyMatrix, name,
            std::string(name) + " must have at least one row and one column (got " + shape_string(m.rows, m.cols) + ")",
            {{"rows", count(m.rows)}, {"cols", count(m.cols)}});
    // Checked: rows × cols wrapped around to the data's length would pass and send every loop past
    // the end of the data.
    const std::uint64_t needed = size_product(m.rows, m.cols);
    if (needed == kSizeOverflow || m.values != needed)
        return refuse(ErrorCode::WrongLength, name,
                      std::string(name) + " has " + std::to_string(m.values) + " values but " +
                          shape_string(m.rows, m.cols) + " needs " + (needed == kSizeOverflow ? "at least " : "") +
                          std::to_string(needed),
                      {{"got", count(m.values)},
                       {"need", count(m.rows) * count(m.cols)},
                       {"rows", count(m.rows)},
                       {"cols", count(m.cols)}});
    return {};
}

Error check_finite(const char* name, const Matrix& m) {
    // One branch-free pass that the compiler vectorises (this runs on every call, over every
    // input value); the position of the first ±Infinity is looked up only when there is one.
    bool any_inf = false;
    for (const float x : m.data) any_inf |= std::fabs(x) == std::numeric_limits<float>::infinity();
    if (!any_inf) return {};
    for (std::size_t t = 0;; ++t)
        if (std::isinf(m.data[t])) {
            const std::size_t i = t / m.cols, j = t % m.cols;
            return refuse(ErrorCode::NotFinite, name,
                          position(name, i, j) + " is " + (m.data[t] > 0 ? "+" : "-") +
                              "Infinity; only finite numbers (or NaN) are allowed",
                          {{"value", static_cast<double>(m.data[t])}}, Cell{i, j});
        }
}

Error check_matrix(const char* name, const Matrix& m) {
    if (Error e = check_shape(name, shape_of(m))) return e;
    return check_finite(name, m);
}

Error check_projection_shapes(const Shape& x, const Shape& w) {
    if (Error e = check_shape("x", x)) return e;
    if (Error e = check_shape("w", w)) return e;
    if (x.cols != w.rows)
        return refuse(ErrorCode::ProjectionMismatch, "w",
                      "x is " + shape_string(x.rows, x.cols) + " but w is " + shape_string(w.rows, w.cols) +
                          "; X·W needs w to have as many rows as x has columns (" + std::to_string(x.cols) + ")",
                      {{"got", count(w.rows)},
                       {"need", count(x.cols)},
                       {"xRows", count(x.rows)},
                       {"xCols", count(x.cols)},
                       {"wRows", count(w.rows)},
                       {"wCols", count(w.cols)}});
    return check_memory("project", "output", x.rows, w.cols, float_bytes(size_product(x.rows, w.cols)));
}

Error check_projection(const Matrix& x, const Matrix& w) {
    if (Error e = check_projection_shapes(shape_of(x), shape_of(w))) return e;
    if (Error e = check_finite("x", x)) return e;
    return check_finite("w", w);
}

Error check_attention_shapes(const Shape& q, const Shape& k, const Shape& v, float temperature, const Shape* mask) {
    if (Error e = check_shape("q", q)) return e;
    if (Error e = check_shape("k", k)) return e;
    if (Error e = check_shape("v", v)) return e;
    // A mismatch is charged to the later argument, the one checked against the earlier.
    if (q.cols != k.cols)
        return refuse(ErrorCode::DkMismatch, "k",
                      "q has d_k = " + std::to_string(q.cols) + " columns but k has " + std::to_string(k.cols) +
                          "; QKᵀ needs the same d_k in both",
                      {{"got", count(k.cols)}, {"need", count(q.cols)}});
    if (k.rows != v.rows)
        return refuse(ErrorCode::KeyValueMismatch, "v",
                      "k has " + std::to_string(k.rows) + " rows (keys) but v has " + std::to_string(v.rows) +
                          "; every key needs exactly one value row",
                      {{"got", count(v.rows)}, {"need", count(k.rows)}});
    if (!(std::isfinite(temperature) && temperature > 0.0f))
        return refuse(ErrorCode::BadTemperature, "temperature",
                      "temperature must be a finite number greater than 0 (got " + number_text(temperature) + ")",
                      {{"value", static_cast<double>(temperature)}});
    if (mask) {
        if (Error e = check_shape("mask", *mask)) return e;
        if (mask->rows != q.rows || mask->cols != k.rows)
            return refuse(ErrorCode::MaskShape, "mask",
                          "mask is " + shape_string(mask->rows, mask->cols) + " but the scores are " +
                              shape_string(q.rows, k.rows) + " (n_q×n_k)",
                          {{"rows", count(mask->rows)},
                           {"cols", count(mask->cols)},
                           {"needRows", count(q.rows)},
                           {"needCols", count(k.rows)}});
    }
    return {};
}

Error check_attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
    const bool custom = options.mask.kind == MaskKind::Custom;
    const Shape mask = shape_of(options.mask.keep);
    if (Error e = check_attention_shapes(shape_of(q), shape_of(k), shape_of(v), options.temperature,
                                         custom ? &mask : nullptr))
        return e;
    if (Error e = check_finite("q", q)) return e;
    if (Error e = check_finite("k", k)) return e;
    if (Error e = check_finite("v", v)) return e;
    if (custom) {
        const Matrix& keep = options.mask.keep;
        if (Error e = check_finite("mask", keep)) return e;
        for (std::size_t i = 0; i < keep.rows; ++i)
            for (std::size_t j = 0; j < keep.cols; ++j)
                if (!(keep(i, j) == 0.0f || keep(i, j) == 1.0f))
                    return refuse(ErrorCode::MaskValue, "mask",
                                  position("mask", i, j) + " is " + number_text(keep(i, j)) +
                                      "; a mask holds only 0 (masked) and 1 (kept)",
                                  {{"value", static_cast<double>(keep(i, j))}}, Cell{i, j});
    }
    return {};
}

Error check_output_shape(const Shape& q, const Shape& v, std::size_t out_values) {
    return check_shape("out", {q.rows, v.cols, out_values});
}

Error check_memory(const char* operation, const char* what, std::size_t rows, std::size_t cols, std::uint64_t bytes) {
    if (bytes <= kMemoryLimitBytes) return {};
    const auto [need, limit] = need_and_limit(bytes, kMemoryLimitBytes);
    return refuse(ErrorCode::TooMuchMemory, "",
                  std::string(operation) + " on " + shape_string(rows, cols) + " " + what + " needs " + need +
                      " of working memory; the limit is " + limit,
                  {{"operation", std::string(operation)},
                   {"what", std::string(what)},
                   {"rows", count(rows)},
                   {"cols", count(cols)},
                   {"bytes", static_cast<double>(bytes)},
                   {"limit", static_cast<double>(kMemoryLimitBytes)}});
}

Error bad_option(const char* option, const std::vector<const char*>& names, const std::string& got) {
    std::string allowed;  // "sqrt_dk", "dk" or "none"
    for (std::size_t i = 0; i < names.size(); ++i)
        allowed += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ('"' + std::string(names[i]) + '"');
    return refuse(ErrorCode::BadOption, option, std::string(option) + " must be " + allowed + " (got \"" + got + "\")",
                  {{"got", '"' + got + '"'}});
}

Error check_steps_memory(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
    // The n_q×n_k intermediates and the output (working_memory.hpp: the formula the cost lab shows).
    return check_memory("attention_steps", "scores", q.rows, k.rows,
                        working_bytes(Operation::AttentionSteps, {q.rows, k.rows, q.cols, v.cols}, options.axis));
}

}  // namespace attn
