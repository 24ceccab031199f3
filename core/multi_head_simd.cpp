// multi_head_simd.cpp — multi-head attention on the SIMD path, what the page shows: the steps of
// multi_head.cpp with the products X·W and concat·W_O as SIMD axpys and each head through
// attention_steps_simd.
#include "multi_head.hpp"
#include "multi_head_path.hpp"
#include "simd_kernels.hpp"

namespace attn {
namespace {

// x (n, d) · w (d, d_out) → (n, d_out), out_i = Σ_t x_it · w_t: one SIMD axpy per term, t in
// order, so that each element is summed in reference::project's order (equal bit for bit, as
// project_simd is).
Matrix project_rows(const Matrix& x, const Matrix& w) {
    Matrix out(x.rows, w.cols);
    for (std::size_t i = 0; i < x.rows; ++i)
        for (std::size_t t = 0; t < x.cols; ++t) simd::axpy(out.row(i), x(i, t), w.row(t), w.cols);
    return out;
}

}  // namespace

Result<MultiHeadSteps> multi_head_attention_steps_simd(const MultiHeadInputs& in, std::size_t heads,
                                                       const AttentionOptions& options) {
    return multi_head::run(in, heads, options, {project_rows, attention_steps_simd});
}

}  // namespace attn
