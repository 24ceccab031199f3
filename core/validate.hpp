// validate.hpp — every check on outside input, done before anything is allocated or computed.
//
// Each function returns "" when the input is fine, or one readable sentence that names the
// argument and what is wrong. Nothing is partially computed: the public entry points run these
// first and return the message as Result::error.
#pragma once

#include <cstdint>
#include <string>

#include "matrix.hpp"
#include "options.hpp"

namespace attn {

// Working memory the core may use for one call. The wasm module can grow to 2 GiB; inputs, the
// copies handed back to JS and the allocator's slack need the other half.
constexpr std::uint64_t kMemoryLimitBytes = std::uint64_t{1} << 30;  // 1 GiB

// "q" is 3×4 with 12 finite-or-NaN values. ±Infinity is refused (NaN is allowed and propagates).
std::string check_matrix(const char* name, const Matrix& m);

// X·W: x is n×d, w is d×d_out.
std::string check_projection(const Matrix& x, const Matrix& w);

// Q, K, V and the options of softmax(QKᵀ/√d_k)·V: q is n_q×d_k, k is n_k×d_k, v is n_k×d_v,
// a custom mask is n_q×n_k of 0/1, temperature is finite and > 0.
std::string check_attention(const Matrix& q, const Matrix& k, const Matrix& v,
                            const AttentionOptions& options);

// "" when `bytes` of working memory fit in kMemoryLimitBytes, else a message saying how much
// `what` would need. Counts in 64 bits so that huge sizes cannot wrap around on wasm32.
std::string check_memory(const std::string& what, std::uint64_t bytes);

// Bytes of float32 storage for `count` values.
inline std::uint64_t float_bytes(std::uint64_t count) { return count * sizeof(float); }

}  // namespace attn
