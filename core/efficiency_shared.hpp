// efficiency_shared.hpp — two of article 10's efficient variants of softmax(QKᵀ/√d_k)·V:
//
//   attention_grouped  heads that share keys and values (MQA, GQA): h query heads, g ≤ h key–value
//                      heads, so that a KV cache holds g heads' K and V instead of h (÷ h/g)
//   attention_linear   linear attention with the feature map φ(x) = elu(x) + 1 in place of exp,
//                      computed in both orders: (φ(Q)φ(K)ᵀ)V, n²·d multiply-adds, and φ(Q)(φ(K)ᵀV),
//                      n·d² — the same numbers up to rounding, at another cost
//
// Each has a readable reference path and a SIMD path (simd_kernels.hpp, fast_kernels.hpp), checks
// its input first (validate.hpp: the same error codes, the 1 GiB rule of kMemoryLimitBytes) and
// returns Result: the value, or the Error that refused the input. NaN in an input is allowed and
// propagates; ±Infinity is refused (not_finite).
#pragma once

#include <cstddef>
#include <cstdint>

#include "attention.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "result.hpp"
#include "validate.hpp"

namespace attn {

// ---- Shared heads: MQA (g = 1) and GQA (1 < g < h) — attention_grouped.cpp ---------------------
//
//   q (n_q, h·d_k), k (n_k, g·d_k), v (n_k, g·d_v), h a multiple of g
//   query head i (columns i·d_k … of q) attends with key–value head ⌊i·g/h⌋ (columns of k and v):
//     head_i = softmax(Q_i K_⌊i·g/h⌋ᵀ / √d_k)·V_⌊i·g/h⌋                       (n_q, d_v)
//   output = [head_1 | … | head_h]                                             (n_q, h·d_v)
// So h/g consecutive query heads form a group that reads one K and one V. At g = h this is
// multi-head attention's heads side by side on Q, K and V as given; a grouped call equals, bit for
// bit on the same build and path, the call with g = h on K and V whose blocks are repeated h/g
// times (each group's K_g, V_g once per query head of the group): sharing changes what is stored,
// not what is computed.
//
// The options are the single head's (scale, temperature, mask; the mask is n_q×n_k and applies to
// every head), each head dividing by its own √d_k.
//   reference path  each head through attention_steps (reference.hpp), its output kept
//   SIMD path       each head through attention (the fast path of attention_fast.cpp)

// Every check before anything is computed; `heads` and `kv_heads` are signed 64-bit so that a
// caller's 0, −1 or 2⁴⁰ is refused with its own number. In order:
//   empty_matrix, wrong_length      q, k, v themselves
//   out_of_range                    heads outside 1 … kMaxHeads ("heads"); kvHeads outside 1 … heads
//                                   ("kvHeads")
//   kv_heads_indivisible            heads not a multiple of kvHeads ("kvHeads")
//   heads_indivisible               q's columns not a multiple of heads, k's or v's not of kvHeads
//   dk_mismatch                     a query head's d_k (q.cols / heads) other than a key head's
//                                   (k.cols / kvHeads)
//   key_value_mismatch, bad_temperature, mask_shape   as the single head
//   too_much_memory                 grouped_working_bytes above kMemoryLimitBytes
// The bindings run this on the shapes before they copy a value.
Error check_grouped_shapes(const Shape& q, const Shape& k, const Shape& v, std::int64_t heads, std::int64_t kv_heads,
                           const AttentionOptions& options, const Shape* mask, bool simd);
// The shapes, then the values: not_finite in q, k or v, mask_value in a custom mask.
Error check_grouped(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t heads, std::int64_t kv_heads,
                    const AttentionOptions& options, bool simd);

// The working memory of one call in bytes (checked_size.hpp's arithmetic): the output (n_q, h·d_v),
// one group's K_g and V_g, one head's Q_i and what its single head works in (working_memory.hpp's
// attention_steps on the reference path, attention on the SIMD path). The heads run one at a time.
std::uint64_t grouped_working_bytes(const Shape& q, const Shape& k, const Shape& v, std::size_t heads,
                                    std::size_t kv_heads, const AttentionOptions& options, bool simd);

Result<Matrix> attention_grouped_reference(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t heads,
                                           std::int64_t kv_heads, const AttentionOptions& options = {});
Result<Matrix> attention_grouped(const Matrix& q, const Matrix& k, const Matrix& v, std::int64_t heads,
                                 std::int64_t kv_heads, const AttentionOptions& options = {});

// ---- Linear attention, φ(x) = elu(x) + 1 — attention_linear.cpp ---------------------------------
//
//   φ(x) = x + 1 for x > 0, eˣ for x ≤ 0: positive, so every weight below is ≥ 0 (in float32, eˣ
//   underflows to 0 below x ≈ −103.9)
//   q (n_q, d_k), k (n_k, d_k), v (n_k, d_v); no scaling (φ replaces the exp and the √d_k)
//   out_i = Σ_j φ(q_i)·φ(k_j) v_j / Σ_j φ(q_i)·φ(k_j)      over j ≤ i when causal (top-left, as
//                                                          the causal mask of reference::kept_cells)
// in two orders, equal in exact arithmetic (matrix products are associative):
//   quadratic  W = φ(Q)φ(K)ᵀ (n_q, n_k), masked to 0 above the diagonal when causal;
//              out = (W·V) ⊘ (W·1)                      — the weights A_ij = W_ij / Σ_j W_ij exist
//   linear     S = φ(K)ᵀV (d_k, d_v) and z = φ(K)ᵀ·1 (d_k), then out_i = φ(q_i)S / φ(q_i)·z;
//              causal: S and z are prefix sums, key i added just before query i reads them
//                                                       — never an n_q×n_k matrix
// A row whose denominator is 0 in float32 (every φ(q_i)·φ(k_j) underflowed, say q_i ≈ −200) is 0/0
// = NaN, and float32 can overflow to ±∞ for inputs near 10¹⁹; neither is hidden: non_finite counts
// those cells of each result.

enum class LinearOrder { Both, Quadratic, Linear };
// The orders as JS spells them (wasm/vocabulary.mjs's LINEAR_ORDERS).
inline constexpr OptionName<LinearOrder> kLinearOrderNames[] = {
    {"both", LinearOrder::Both}, {"quadratic", LinearOrder::Quadratic}, {"linear", LinearOrder::Linear}};

struct LinearOptions {
    bool causal = false;
    LinearOrder order = LinearOrder::Both;  // which order(s) to compute: one alone is what a timing needs
    bool weights = false;                   // keep the quadratic order's A (n_q, n_k); only when that order runs
};

// The multiply-adds of each order (one multiplication and one addition: every term of every sum,
// W·1 counted as a product with 1), for n_q, n_k, d_k, d_v and, when causal, the kept cells only:
// C = n_q·n_k, or Σ_i min(i + 1, n_k) causal (n(n+1)/2 at n_q = n_k = n); and the keys the prefix
// sums take in, K = n_k, or min(n_q, n_k) causal (a key after the last query is never read).
//   quadratic  W: C·d_k   W·V: C·d_v   W·1: C                       = C·(d_k + d_v + 1)
//   linear     S: K·d_k·d_v   z: K·d_k   φ(Q)S: n_q·d_k·d_v   φ(Q)·z: n_q·d_k
//                                                                   = (K + n_q)·d_k·(d_v + 1)
// At n_q = n_k = n and d_k = d_v = d: (2d + 1)·n² against 2d(d + 1)·n, so the linear order does
// fewer from n > 2d(d + 1)/(2d + 1) ≈ d (causal: n > 4d(d+1)/(2d+1) − 1 ≈ 2d). (φ's n·d
// evaluations and the n·d_v divisions, the same in both, are not counted.)
struct LinearMultiplyAdds {
    std::uint64_t quadratic = 0, linear = 0;
};
LinearMultiplyAdds linear_multiply_adds(std::uint64_t n_q, std::uint64_t n_k, std::uint64_t d_k, std::uint64_t d_v,
                                        bool causal);

// How many cells of each result are NaN or ±∞ (all 0 for ordinary inputs; see above).
struct LinearNonFinite {
    std::size_t quadratic = 0, linear = 0, weights = 0;
};

struct LinearAttention {
    Matrix quadratic;                  // (n_q, d_v) (W·V) ⊘ (W·1); empty when order is Linear
    Matrix linear;                     // (n_q, d_v) φ(Q)S ⊘ φ(Q)z; empty when order is Quadratic
    Matrix weights;                    // (n_q, n_k) A_ij = W_ij / Σ_j W_ij, 0 where masked; empty unless asked
    LinearMultiplyAdds multiply_adds;  // of the call's shape, both orders whichever ran
    LinearNonFinite non_finite;
};

// The working memory of one call in bytes: φ(Q), φ(K) and, for each order that runs, its output
// and its buffers — the quadratic order W (n_q, n_k) on the reference path, one row of it on the
// SIMD path, and A when asked; the linear order S, z and one row of numerators.
std::uint64_t linear_working_bytes(const Shape& q, const Shape& k, const Shape& v, const LinearOptions& options,
                                   bool simd);

// Every check before anything is computed: empty_matrix, wrong_length (q, k, v), dk_mismatch,
// key_value_mismatch, too_much_memory (the bindings run this before they copy a value).
Error check_linear_shapes(const Shape& q, const Shape& k, const Shape& v, const LinearOptions& options, bool simd);
// The shapes, then the values: not_finite in q, k or v.
Error check_linear(const Matrix& q, const Matrix& k, const Matrix& v, const LinearOptions& options, bool simd);

//   reference path  plain loops that sum in the formulas' order (reference.hpp's rule)
//   SIMD path       the quadratic order's φ(q_i)·φ(k_j) by simd::dot (partial sums in another order:
//                   equal within float32 rounding), everything else by simd::axpy and simd::divide,
//                   which round as the reference does: its linear order is the reference's bit for bit
Result<LinearAttention> attention_linear_reference(const Matrix& q, const Matrix& k, const Matrix& v,
                                                   const LinearOptions& options = {});
Result<LinearAttention> attention_linear(const Matrix& q, const Matrix& k, const Matrix& v,
                                         const LinearOptions& options = {});

}  // namespace attn
