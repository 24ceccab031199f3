// multi_head_path.hpp — what the two multi-head paths share: the steps around the heads
// (multi_head.cpp), run with either path's product and single head. Internal to the core.
#pragma once

#include <cstddef>
#include <vector>

#include "attention.hpp"
#include "multi_head.hpp"

namespace attn::multi_head {

// One path's arithmetic: the product X·W (unchecked: its inputs are checked already) and the
// article's single head (attention_steps or attention_steps_simd).
struct Path {
    Matrix (*project)(const Matrix& x, const Matrix& w);
    Result<AttentionSteps> (*head)(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options);
};

// Head i's columns i·width … (i+1)·width − 1 of m (splitting into heads; backward of the concatenation).
Matrix column_block(const Matrix& m, std::size_t i, std::size_t width);

// The blocks side by side, [b_1 | … | b_h] (the concatenation; backward of splitting into heads).
Matrix join_blocks(const std::vector<const Matrix*>& blocks);

// Checks the call, then runs every step on `path` (multi_head.cpp).
Result<MultiHeadSteps> run(const MultiHeadInputs& in, std::size_t heads, const AttentionOptions& options,
                           const Path& path);

}  // namespace attn::multi_head
