// attention_grouped.cpp — heads that share keys and values (MQA, GQA): efficiency_shared.hpp has
// the formula. The checks come first, then one loop over the groups: each group's K_g and V_g are
// cut out once and read by its h/g query heads, each head the article's single head on its block.
#include <string>
#include <utility>
#include <vector>

#include "checked_size.hpp"
#include "efficiency_shared.hpp"
#include "fast_path.hpp"
#include "multi_head.hpp"
#include "multi_head_path.hpp"
#include "reference.hpp"
#include "working_memory.hpp"

namespace attn {
namespace {

double count(std::uint64_t n) { return static_cast<double>(n); }

Error refuse(ErrorCode code, std::string argument, std::string message, std::vector<Param> params) {
    return Error{code, std::move(argument), std::nullopt, std::move(params), std::move(message)};
}

// kvHeads within 1 … heads (out_of_range, with the single head's params).
Error check_kv_heads_range(std::int64_t kv_heads, std::size_t heads) {
    if (kv_heads >= 1 && kv_heads <= static_cast<std::int64_t>(heads)) return {};
    return refuse(ErrorCode::OutOfRange, "kvHeads",
                  "kvHeads must be a whole number from 1 to heads = " + std::to_string(heads) + " (got " +
                      std::to_string(kv_heads) + ")",
                  {{"got", static_cast<double>(kv_heads)}, {"min", 1.0}, {"max", count(heads)}});
}

// Equal groups: h query heads share g key–value heads h/g at a time, so g must divide h.
Error check_groups(std::size_t heads, std::size_t kv_heads) {
    if (heads % kv_heads == 0) return {};
    return refuse(ErrorCode::KvHeadsIndivisible, "kvHeads",
                  std::to_string(heads) + " query heads cannot share " + std::to_string(kv_heads) +
                      " key–value heads in groups of equal size; kvHeads must divide heads",
                  {{"heads", count(heads)}, {"kvHeads", count(kv_heads)}});
}

// `parts` column blocks of equal width (heads_indivisible, as multi-head's W).
Error check_divides(const char* name, const Shape& m, std::size_t parts) {
    if (m.cols % parts == 0) return {};
    return refuse(ErrorCode::HeadsIndivisible, name,
                  std::string(name) + " has " + std::to_string(m.cols) + " columns, which " + std::to_string(parts) +
                      " heads cannot split into blocks of equal width; give it a multiple of " + std::to_string(parts) +
                      " columns",
                  {{"cols", count(m.cols)}, {"heads", count(parts)}});
}

// Query head i reads key–value head ⌊i·g/h⌋: heads 0 … h/g − 1 share head 0, and so on.
std::size_t kv_head_of(std::size_t i, std::size_t heads, std::size_t kv_heads) { return i * kv_heads / heads; }

// One head's single-head attention: reference_head or simd_head (below).
using Head = Result<Matrix> (*)(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);

Result<Matrix> reference_head(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
    auto steps = attention_steps(q, k, v, options);
    if (!steps.ok()) return Result<Matrix>::failure(steps.error);
    return Result<Matrix>::success(std::move(steps.value.output));
}

// The SIMD path's head: attention, whose kernel keeps its workspace (fast_path.hpp) from head to
// head. A head that attention would hand to the reference (a teaching switch, a NaN, scores that
// could overflow) runs attention_steps here after that workspace is given back, so the two are
// never held at once: the call holds one head's buffers at a time, either path's.
Result<Matrix> simd_head(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
    const float divisor = reference::score_divisor(options.scale, q.cols, options.temperature);
    const bool steps = !options.stable || options.axis != Axis::Row || fast::needs_reference(q, k, v, divisor);
    if (!steps) return attention(q, k, v, options);
    fast::thread_workspace() = fast::Workspace{};
    return reference_head(q, k, v, options);
}

// Writes head i's output (n_q, d_v) into its columns i·d_v … of out (n_q, h·d_v).
void put_block(Matrix& out, std::size_t i, const Matrix& head) {
    for (std::size_t r = 0; r < head.rows; ++r)
        for (std::size_t c = 0; c < head.cols; ++c) out(r, i * head.cols + c) = head(r, c);
}

//   for each key–value head g: K_g, V_g (n_k, d_k), (n_k, d_v) once;
//     for each of its query heads i: out[:, block i] = head(Q_i, K_g, V_g)
Result<Matrix> run(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t heads_in, std::int64_t kv_heads_in,
                   const AttentionOptions& options, bool simd, Head head) {
    if (Error e = check_grouped(q, k, v, heads_in, kv_heads_in, options, simd)) return Result<Matrix>::failure(e);
    const std::size_t heads = static_cast<std::size_t>(heads_in), kv_heads = static_cast<std::size_t>(kv_heads_in);
    const std::size_t d_k = q.cols / heads, d_v = v.cols / kv_heads;
    Matrix out(q.rows, heads * d_v);
    for (std::size_t g = 0; g < kv_heads; ++g) {
        const Matrix k_g = multi_head::column_block(k, g, d_k), v_g = multi_head::column_block(v, g, d_v);
        for (std::size_t i = 0; i < heads; ++i) {
            if (kv_head_of(i, heads, kv_heads) != g) continue;
            auto head_i = head(multi_head::column_block(q, i, d_k), k_g, v_g, options);
            if (!head_i.ok()) return head_i;  // checked above; a NaN input's reference fallback can still refuse
            put_block(out, i, head_i.value);
        }
    }
    return Result<Matrix>::success(std::move(out));
}

}  // namespace

std::uint64_t grouped_working_bytes(const Shape& q, const Shape& k, const Shape& v, std::size_t heads,
                                    std::size_t kv_heads, const AttentionOptions& options, bool simd) {
    const std::uint64_t d_k = q.cols / heads, d_v = v.cols / kv_heads;
    const AttentionShape head{q.rows, k.rows, d_k, d_v};
    // attention hands the teaching switches to the reference, which works in attention_steps' buffers.
    const bool steps = !simd || !options.stable || options.axis != Axis::Row;
    const std::uint64_t head_bytes =
        working_bytes(steps ? Operation::AttentionSteps : Operation::Attention, head, options.axis);
    const std::uint64_t blocks = size_sum(size_product(q.rows, d_k), size_product(k.rows, size_sum(d_k, d_v)));
    return size_sum(float_bytes(size_sum(size_product(q.rows, heads, d_v), blocks)), head_bytes);
}

Error check_grouped_shapes(const Shape& q, const Shape& k, const Shape& v, std::int64_t heads_in, std::int64_t kv_heads,
                           const AttentionOptions& options, const Shape* mask, bool simd) {
    const std::pair<const char*, const Shape&> inputs[] = {{"q", q}, {"k", k}, {"v", v}};
    for (const auto& [name, shape] : inputs)
        if (Error e = check_shape(name, shape)) return e;
    if (Error e = check_heads(heads_in)) return e;
    const std::size_t heads = static_cast<std::size_t>(heads_in);
    if (Error e = check_kv_heads_range(kv_heads, heads)) return e;
    const std::size_t g = static_cast<std::size_t>(kv_heads);
    if (Error e = check_groups(heads, g)) return e;
    if (Error e = check_divides("q", q, heads)) return e;
    if (Error e = check_divides("k", k, g)) return e;
    if (Error e = check_divides("v", v, g)) return e;
    const std::size_t d_k = q.cols / heads, d_k_kv = k.cols / g, d_v = v.cols / g;
    if (d_k != d_k_kv)
        return refuse(ErrorCode::DkMismatch, "k",
                      "q's " + std::to_string(heads) + " heads have d_k = " + std::to_string(d_k) +
                          " columns each but k's " + std::to_string(g) + " have " + std::to_string(d_k_kv) +
                          "; each head's Q_i·K_gᵀ needs the same d_k in both",
                      {{"got", count(d_k_kv)}, {"need", count(d_k)}});
    // key_value_mismatch, the temperature and a custom mask's shape by the single head's rule, on
    // one head's shapes.
    const Shape q_i{q.rows, d_k, q.rows * d_k}, k_g{k.rows, d_k, k.rows * d_k}, v_g{v.rows, d_v, v.rows * d_v};
    if (Error e = check_attention_shapes(q_i, k_g, v_g, options.temperature, mask)) return e;
    return check_memory("attention_grouped", "scores", q.rows, k.rows,
                        grouped_working_bytes(q, k, v, heads, g, options, simd));
}

Error check_grouped(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t heads, std::int64_t kv_heads,
                    const AttentionOptions& options, bool simd) {
    const bool custom = options.mask.kind == MaskKind::Custom;
    const Shape mask = shape_of(options.mask.keep);
    if (Error e = check_grouped_shapes(shape_of(q), shape_of(k), shape_of(v), heads, kv_heads, options,
                                       custom ? &mask : nullptr, simd))
        return e;
    const std::pair<const char*, const Matrix&> inputs[] = {{"q", q}, {"k", k}, {"v", v}};
    for (const auto& [name, m] : inputs)
        if (Error e = check_finite(name, m)) return e;
    if (!custom) return {};
    // A custom mask's values by the single head's own rule, on stand-ins of a head's shape.
    const Matrix q_i(q.rows, 1), k_g(k.rows, 1);
    return check_attention(q_i, k_g, k_g, options);
}

Result<Matrix> attention_grouped_reference(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t heads,
                                           std::int64_t kv_heads, const AttentionOptions& options) {
    return run(q, k, v, heads, kv_heads, options, false, reference_head);
}

Result<Matrix> attention_grouped(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t heads,
                                 std::int64_t kv_heads, const AttentionOptions& options) {
    return run(q, k, v, heads, kv_heads, options, true, simd_head);
}

}  // namespace attn
