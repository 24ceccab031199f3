// multi_head_validate.cpp — the checks of multi_head.hpp, before anything is computed: shapes and
// h first (the bindings run those before they copy a value), then the values. Messages are
// English sentences; params carry their numbers so that the page can word them in zh-CN.
#include <string>
#include <utility>
#include <vector>

#include "multi_head.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

namespace attn {
namespace {

double count(std::uint64_t n) { return static_cast<double>(n); }

Error refuse(ErrorCode code, std::string argument, std::string message, std::vector<Param> params) {
    return Error{code, std::move(argument), std::nullopt, std::move(params), std::move(message)};
}

// x·w needs w (named `name`) to have as many rows as x has columns: projection_mismatch, with the
// params of the single projection's refusal.
Error check_rows(const char* name, const char* product, const Shape& x, const Shape& w) {
    if (w.rows == x.cols) return {};
    return refuse(ErrorCode::ProjectionMismatch, name,
                  "x is " + shape_string(x.rows, x.cols) + " but " + name + " is " + shape_string(w.rows, w.cols) +
                      "; " + product + " needs " + name + " to have as many rows as x has columns (" +
                      std::to_string(x.cols) + ")",
                  {{"got", count(w.rows)},
                   {"need", count(x.cols)},
                   {"xRows", count(x.rows)},
                   {"xCols", count(x.cols)},
                   {"wRows", count(w.rows)},
                   {"wCols", count(w.cols)}});
}

// h column blocks of equal width: h must divide the columns of w (named `name`).
Error check_divides(const char* name, const Shape& w, std::size_t heads) {
    if (w.cols % heads == 0) return {};
    return refuse(ErrorCode::HeadsIndivisible, name,
                  std::string(name) + " has " + std::to_string(w.cols) + " columns, which " + std::to_string(heads) +
                      " heads cannot split into blocks of equal width; give it a multiple of " + std::to_string(heads) +
                      " columns",
                  {{"cols", count(w.cols)}, {"heads", count(heads)}});
}

}  // namespace

// out_of_range, as the sampler's sizes.
Error check_heads(std::int64_t heads) {
    if (heads >= 1 && heads <= static_cast<std::int64_t>(kMaxHeads)) return {};
    return refuse(
        ErrorCode::OutOfRange, "heads",
        "heads must be a whole number from 1 to " + std::to_string(kMaxHeads) + " (got " + std::to_string(heads) + ")",
        {{"got", static_cast<double>(heads)}, {"min", 1.0}, {"max", count(kMaxHeads)}});
}

MultiHeadShape multi_head_shape(const Shape& x, const Shape& w_q, const Shape& w_v, const Shape& w_o,
                                std::size_t heads) {
    return {x.rows, x.cols, heads, w_q.cols / heads, w_v.cols / heads, w_o.cols};
}

Error check_multi_head_shapes(const Shape& x, const Shape& w_q, const Shape& w_k, const Shape& w_v, const Shape& w_o,
                              std::int64_t heads, const AttentionOptions& options, const Shape* mask) {
    const std::pair<const char*, const Shape&> inputs[] = {
        {"x", x}, {"wq", w_q}, {"wk", w_k}, {"wv", w_v}, {"wo", w_o}};
    for (const auto& [name, shape] : inputs)
        if (Error e = check_shape(name, shape)) return e;
    if (Error e = check_heads(heads)) return e;
    const std::size_t h = static_cast<std::size_t>(heads);
    if (Error e = check_rows("wq", "X·W_Q", x, w_q)) return e;
    if (Error e = check_rows("wk", "X·W_K", x, w_k)) return e;
    if (Error e = check_rows("wv", "X·W_V", x, w_v)) return e;
    if (w_k.cols != w_q.cols)
        return refuse(ErrorCode::HeadWidthMismatch, "wk",
                      "wq has " + std::to_string(w_q.cols) + " columns (h·d_k) but wk has " + std::to_string(w_k.cols) +
                          "; each head's Q_i·K_iᵀ needs the same d_k in Q and K",
                      {{"got", count(w_k.cols)}, {"need", count(w_q.cols)}});
    if (Error e = check_divides("wq", w_q, h)) return e;
    if (Error e = check_divides("wv", w_v, h)) return e;
    if (w_o.rows != w_v.cols)
        return refuse(ErrorCode::WoMismatch, "wo",
                      "concat is " + shape_string(x.rows, w_v.cols) + " (n × h·d_v) but wo is " +
                          shape_string(w_o.rows, w_o.cols) + "; concat·W_O needs wo to have " +
                          std::to_string(w_v.cols) + " rows",
                      {{"got", count(w_o.rows)}, {"need", count(w_v.cols)}, {"rows", count(x.rows)}});
    const MultiHeadShape s = multi_head_shape(x, w_q, w_v, w_o, h);
    if (Error e = check_memory("multi_head_attention_steps", "scores", x.rows, x.rows,
                               multi_head_working_bytes(s, options.axis)))
        return e;
    // The temperature and a custom mask's shape, by the single head's rule, on a head's shapes (the
    // scores of every head are n×n). Within the memory limit, n·d_k and n·d_v fit in a size_t.
    const std::size_t n = x.rows, d_k = static_cast<std::size_t>(s.d_k), d_v = static_cast<std::size_t>(s.d_v);
    const Shape q_i{n, d_k, n * d_k}, v_i{n, d_v, n * d_v};
    return check_attention_shapes(q_i, q_i, v_i, options.temperature, mask);
}

Error check_multi_head(const MultiHeadInputs& in, std::int64_t heads, const AttentionOptions& options) {
    const bool custom = options.mask.kind == MaskKind::Custom;
    const Shape mask = shape_of(options.mask.keep);
    if (Error e = check_multi_head_shapes(shape_of(in.x), shape_of(in.w_q), shape_of(in.w_k), shape_of(in.w_v),
                                          shape_of(in.w_o), heads, options, custom ? &mask : nullptr))
        return e;
    const std::pair<const char*, const Matrix&> inputs[] = {
        {"x", in.x}, {"wq", in.w_q}, {"wk", in.w_k}, {"wv", in.w_v}, {"wo", in.w_o}};
    for (const auto& [name, m] : inputs)
        if (Error e = check_finite(name, m)) return e;
    if (!custom) return {};
    // A custom mask's values by the single head's own rule (check_attention), on stand-ins of a
    // head's shape: Q_i, K_i, V_i as n×1 zeros.
    const Matrix stand_in(in.x.rows, 1);
    return check_attention(stand_in, stand_in, stand_in, options);
}

}  // namespace attn
