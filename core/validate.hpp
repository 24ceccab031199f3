// validate.hpp — every check on outside input, done before anything is allocated or computed.
//
// Each function returns an empty Error when the input is fine, or the Error that refuses it: its
// code, the argument at fault, the cell when there is one, the numbers of the message, and one
// readable sentence. Nothing is partially computed: the public entry points run these first and
// return the Error in their Result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "checked_size.hpp"
#include "error.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "result.hpp"

namespace attn {

// Working memory the core may use for one call. The wasm module can grow to 2 GiB; inputs, the
// copies handed back to JS and the allocator's slack need the other half.
constexpr std::uint64_t kMemoryLimitBytes = std::uint64_t{1} << 30;  // 1 GiB

// Shapes are checked before values: everything that needs no value (sizes, how the arguments fit
// together, the temperature) first, then the values. The bindings run the shape checks on what JS
// hands them before they copy a single value into wasm memory (wasm/bindings.cpp), so an
// oversized or mismatched argument costs nothing; the entry points run both, in the same order,
// so every caller meets the same first error.

// A matrix argument as far as it is known before its values are copied: its claimed rows and
// cols, and how many values its data holds.
struct Shape {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::size_t values = 0;
};
inline Shape shape_of(const Matrix& m) { return {m.rows, m.cols, m.data.size()}; }

// `name` ("q", "mask", …) has at least one row and column, and rows·cols values.
//                                         empty_matrix, wrong_length
Error check_shape(const char* name, const Shape& m);

// No ±Infinity in `name` (NaN is allowed and propagates); its shape already checked.   not_finite
Error check_finite(const char* name, const Matrix& m);

// check_shape, then check_finite.         empty_matrix, wrong_length, not_finite
Error check_matrix(const char* name, const Matrix& m);

// X·W, shapes: x is n×d, w is d×d_out.    empty_matrix, wrong_length, projection_mismatch, too_much_memory
Error check_projection_shapes(const Shape& x, const Shape& w);
// X·W: the shapes, then the values.       the above, not_finite
Error check_projection(const Matrix& x, const Matrix& w);

// Q, K, V and the options of softmax(QKᵀ/√d_k)·V, shapes: q is n_q×d_k, k is n_k×d_k, v is
// n_k×d_v, temperature is finite and > 0, a custom mask (`mask` non-null) is n_q×n_k.
//   empty_matrix, wrong_length, dk_mismatch, key_value_mismatch, bad_temperature, mask_shape
Error check_attention_shapes(const Shape& q, const Shape& k, const Shape& v, float temperature, const Shape* mask);
// The shapes, then the values: no ±Infinity in q, k, v; a custom mask holds only 0 and 1.
//   the above, not_finite, mask_value
Error check_attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);
// An output the caller provides for softmax(QKᵀ/√d_k)·V (the JS API's `out`): n_q×d_v values,
// q and v being already checked. Named "out" in the error.      wrong_length
Error check_output_shape(const Shape& q, const Shape& v, std::size_t out_values);

// Refuses a call whose working memory would exceed kMemoryLimitBytes (too_much_memory), before
// anything is allocated. `operation` is the entry point, `what` the rows×cols matrix whose size
// drives the need: "attention_steps on 12000×12000 scores needs 2.7 GiB of working memory; the
// limit is 1.0 GiB". `bytes` is counted with checked_size.hpp, so that no size wraps around.
Error check_memory(const char* operation, const char* what, std::size_t rows, std::size_t cols, std::uint64_t bytes);

// The memory check both step-by-step paths (attention_steps, attention_steps_simd) make, so that
// they refuse exactly the same sizes: the n_q×n_k matrices of AttentionSteps, the temporaries of
// the softmax (more along columns, which works on transposed copies) and the output.
Error check_steps_memory(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);

// The bad_option Error: `scale must be "sqrt_dk", "dk" or "none" (got "sqrt")`.
Error bad_option(const char* option, const std::vector<const char*>& names, const std::string& got);

// The enum that `name` names in `table` (options.hpp), or the bad_option Error for `option`.
template <class Enum, std::size_t N>
Result<Enum> parse_option(const char* option, const OptionName<Enum> (&table)[N], const std::string& name) {
    if (const auto value = option_value(table, name)) return Result<Enum>::success(*value);
    std::vector<const char*> names;
    for (const auto& row : table) names.push_back(row.name);
    return Result<Enum>::failure(bad_option(option, names, name));
}

// Bytes of float32 storage for `count` values (kSizeOverflow when that does not fit in 64 bits).
inline std::uint64_t float_bytes(std::uint64_t count) { return size_product(count, sizeof(float)); }

}  // namespace attn
