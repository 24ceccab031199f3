// multi_head.hpp — multi-head attention, the series' next article, step by step:
//
//   X → Q = X·W_Q, K = X·W_K, V = X·W_V → split into h column blocks → head_i = Attention(Q_i, K_i, V_i)
//     → concat = [head_1 | … | head_h] → output = concat·W_O
//
// Shapes: x (n, d_model); w_q and w_k (d_model, h·d_k); w_v (d_model, h·d_v); w_o (h·d_v, d_out).
// Head i is the article's single head (attention_steps, or attention_steps_simd on the SIMD path)
// on columns i·d_k … (i+1)·d_k − 1 of Q and K and i·d_v … (i+1)·d_v − 1 of V, so it divides its
// scores by its own √d_k; every intermediate of every head is kept. At h = 1 the one head is
// exactly attention_steps(Q, K, V) — the same function on the same numbers, bit for bit.
//
// Both entry points check everything before computing (multi_head_validate.cpp) and return the
// Error that refused the input: the shapes and h first, then the values, then Q, K and V once
// projected (float32 can overflow there), as the single head does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attention.hpp"
#include "checked_size.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "result.hpp"
#include "validate.hpp"

namespace attn {

// How many heads a call may have: 1 … kMaxHeads (out_of_range otherwise). The page offers 1 … 8;
// the API allows more (BERT-base has 12 heads, GPT-2 XL 25) while keeping a bound on how many sets
// of intermediates one call hands back. The one place for this limit: wasm/vocabulary.mjs's
// MAX_HEADS repeats it for the page, and tests/node/multi-head.test.mjs holds the two equal
// through the bindings' vocabulary().
inline constexpr std::size_t kMaxHeads = 64;

// The shape of one multi-head call: x (n, d_model), h heads of d_k (Q, K) and d_v (V), d_out.
struct MultiHeadShape {
    std::uint64_t n = 0, d_model = 0, heads = 0, d_k = 0, d_v = 0, d_out = 0;
};

// The multiply-adds (one multiplication and one addition each) of every stage, counted as the
// products are written: every term of every sum, a masked key's included.
//   projections        Q, K, V = X·W:     n · d_model · h·(d_k + d_k + d_v)
//   scores             h × Q_i·K_iᵀ:      h · n · n · d_k
//   weighting          h × A_i·V_i:       h · n · n · d_v
//   output_projection  concat·W_O:        n · h·d_v · d_out
// With d_k = d_v = d_model / h every stage costs what one head of d_k = d_model costs: h heads
// split the same multiply-adds, they do not multiply them. Every count, the total included, is in
// checked_size.hpp's arithmetic: one that does not fit in 64 bits is kSizeOverflow, never wrapped.
struct MultiplyAdds {
    std::uint64_t projections = 0, scores = 0, weighting = 0, output_projection = 0;
    std::uint64_t total() const { return size_sum(projections, scores, weighting, output_projection); }
};
MultiplyAdds multiply_adds(const MultiHeadShape& shape);

// How many cells of the multi-head stages hold a NaN or ±∞ (each head's own steps count theirs in
// AttentionSteps::non_finite). With X and the W free of NaN, only NaN can appear here: an
// infinite Q, K or V is refused (projection_overflow).
struct MultiHeadNonFinite {
    std::size_t q = 0, k = 0, v = 0, concat = 0, output = 0;
};

// One head: its column blocks of Q, K and V and the article's steps on them.
struct HeadSteps {
    Matrix q;              // (n, d_k)  Q_i = columns i·d_k … (i+1)·d_k − 1 of Q
    Matrix k;              // (n, d_k)  K_i
    Matrix v;              // (n, d_v)  V_i
    AttentionSteps steps;  // attention_steps(Q_i, K_i, V_i): scores … output (n, d_v); divisor √d_k·τ
};

// Every intermediate of one multi-head call, in the article's order.
struct MultiHeadSteps {
    Matrix q;                       // (n, h·d_k)   Q = X·W_Q
    Matrix k;                       // (n, h·d_k)   K = X·W_K
    Matrix v;                       // (n, h·d_v)   V = X·W_V
    std::vector<HeadSteps> heads;   // h heads, head i on column block i
    Matrix concat;                  // (n, h·d_v)   [head_1 | … | head_h], head i's output in block i
    Matrix output;                  // (n, d_out)   concat·W_O
    MultiplyAdds multiply_adds;     // what each stage cost (see MultiplyAdds)
    MultiHeadNonFinite non_finite;  // NaN and ±∞ of q, k, v, concat, output
};

// The inputs of one call, by the names the errors use: "x", "wq", "wk", "wv", "wo".
struct MultiHeadInputs {
    const Matrix& x;
    const Matrix& w_q;
    const Matrix& w_k;
    const Matrix& w_v;
    const Matrix& w_o;
};

// On the reference path: projections by reference::project, heads by attention_steps.
Result<MultiHeadSteps> multi_head_attention_steps(const MultiHeadInputs& in, std::size_t heads,
                                                  const AttentionOptions& options = {});

// On the SIMD path: projections by project_simd (equal to the reference bit for bit), heads by
// attention_steps_simd (equal to attention_steps within float32 rounding). What the page shows.
Result<MultiHeadSteps> multi_head_attention_steps_simd(const MultiHeadInputs& in, std::size_t heads,
                                                       const AttentionOptions& options = {});

// --- The checks, before anything is computed (multi_head_validate.cpp) ----------------------------

// heads within 1 … kMaxHeads, or out_of_range (argument "heads"): for every entry point that takes
// h, multiply_adds' callers included.
Error check_heads(std::int64_t heads);

// The shapes and h, before any value is read (the bindings run this before they copy a value):
//   empty_matrix, wrong_length      x, wq, wk, wv, wo themselves
//   out_of_range                    heads outside 1 … kMaxHeads (argument "heads")
//   projection_mismatch             wq, wk or wv with another number of rows than x has columns
//   head_width_mismatch             wk with another number of columns (h·d_k) than wq
//   heads_indivisible               wq (so wk) or wv with a number of columns h does not divide
//   wo_mismatch                     wo with another number of rows than concat's h·d_v columns
//   too_much_memory                 multi_head_working_bytes above kMemoryLimitBytes
//   bad_temperature, mask_shape     as the single head (a custom mask is n×n)
// `heads` is signed 64-bit so that a caller's 0, −1 or 2⁴⁰ is refused with its own number.
Error check_multi_head_shapes(const Shape& x, const Shape& w_q, const Shape& w_k, const Shape& w_v, const Shape& w_o,
                              std::int64_t heads, const AttentionOptions& options, const Shape* mask);

// The shapes, then the values: no ±Infinity in x or the W (not_finite); a custom mask of 0 and 1
// only (mask_value).
Error check_multi_head(const MultiHeadInputs& in, std::int64_t heads, const AttentionOptions& options);

// The shape of a call whose shapes check_multi_head_shapes has accepted.
MultiHeadShape multi_head_shape(const Shape& x, const Shape& w_q, const Shape& w_v, const Shape& w_o,
                                std::size_t heads);

// The working memory of one call, in bytes (checked_size.hpp's arithmetic): Q, K and V; for each
// head its blocks Q_i, K_i, V_i, what attention_steps works in (working_bytes, Operation::
// AttentionSteps — all h heads' steps are kept) and its HeadSteps record; concat and the output.
std::uint64_t multi_head_working_bytes(const MultiHeadShape& shape, Axis axis);

}  // namespace attn
