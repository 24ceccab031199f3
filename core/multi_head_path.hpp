// multi_head_path.hpp — what the two multi-head paths share: the steps around the heads
// (multi_head.cpp), run with either path's product and single head. Internal to the core.
#pragma once

#include <cstddef>

#include "attention.hpp"
#include "multi_head.hpp"

namespace attn::multi_head {

// One path's arithmetic: the product X·W (unchecked: its inputs are checked already) and the
// article's single head (attention_steps or attention_steps_simd).
struct Path {
    Matrix (*project)(const Matrix& x, const Matrix& w);
    Result<AttentionSteps> (*head)(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);
};

// Checks the call, then runs every step on `path` (multi_head.cpp).
Result<MultiHeadSteps> run(const MultiHeadInputs& in, std::size_t heads, const AttentionOptions& options,
                           const Path& path);

}  // namespace attn::multi_head
