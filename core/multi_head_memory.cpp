// multi_head_memory.cpp — the two counts of multi_head.hpp: the multiply-adds of each stage, and
// the working memory the 1 GiB rule applies to (counted in checked_size.hpp's arithmetic, so that
// an absurd shape saturates above the limit instead of wrapping around).
#include "checked_size.hpp"
#include "multi_head.hpp"
#include "working_memory.hpp"

namespace attn {

MultiplyAdds multiply_adds(const MultiHeadShape& s) {
    MultiplyAdds m;
    m.projections = size_product(s.n, s.d_model, s.heads, size_sum(s.d_k, s.d_k, s.d_v));
    m.scores = size_product(s.heads, s.n, s.n, s.d_k);
    m.weighting = size_product(s.heads, s.n, s.n, s.d_v);
    m.output_projection = size_product(s.n, s.heads, s.d_v, s.d_out);
    return m;
}

std::uint64_t multi_head_working_bytes(const MultiHeadShape& s, Axis axis) {
    // Q, K, V (n, h·d_k), (n, h·d_k), (n, h·d_v); concat (n, h·d_v); the output (n, d_out).
    const std::uint64_t qkv = size_product(s.n, s.heads, size_sum(s.d_k, s.d_k, s.d_v));
    const std::uint64_t concat_output = size_sum(size_product(s.n, s.heads, s.d_v), size_product(s.n, s.d_out));
    // Each head keeps its blocks Q_i, K_i, V_i and its steps (attention_steps' own count, the
    // temporaries of its softmax included: counted for every head, though they live one at a time).
    const std::uint64_t blocks = size_product(s.n, size_sum(s.d_k, s.d_k, s.d_v));
    const std::uint64_t head_steps = working_bytes(Operation::AttentionSteps, {s.n, s.n, s.d_k, s.d_v}, axis);
    // And the HeadSteps record itself (the heads' vector: its matrices' headers, the divisor, the
    // counts), which at n = d = 1 outweighs every number of the call, and the pointer to its output
    // that the concatenation's list of blocks holds.
    const std::uint64_t per_head =
        size_sum(size_product(blocks, sizeof(float)), head_steps, sizeof(HeadSteps), sizeof(const Matrix*));
    return size_sum(size_product(size_sum(qkv, concat_output), sizeof(float)), size_product(s.heads, per_head));
}

}  // namespace attn
