// backward_path.hpp — what the two backward paths share: the order of the backward steps and the
// checked entry point around them (backward_attention.cpp), run with either path's arithmetic.
// Internal to the core; the paths are backward_attention.cpp's (the reference) and
// backward_simd.cpp's.
#pragma once

#include "attention.hpp"
#include "backward_attention.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "result.hpp"

namespace attn::backward {

// One path's arithmetic: its forward steps and its backward steps (backward.hpp's formulas). The
// mask's step and the transposes are the reference's on both paths.
struct Path {
    Result<AttentionSteps> (*forward)(const Matrix& q, const Matrix& k, const Matrix& v,
                                      const AttentionOptions& options);
    Matrix (*d_values)(const Matrix& a, const Matrix& kept, const Matrix& d_output);
    Matrix (*d_weights)(const Matrix& d_output, const Matrix& v);
    Matrix (*d_softmax)(const Matrix& a, const Matrix& kept, const Matrix& d_weights);
    Matrix (*d_scale_scores)(const Matrix& d_scaled, float divisor);
    Matrix (*d_queries)(const Matrix& d_scores, const Matrix& kept, const Matrix& k);
    Matrix (*d_keys)(const Matrix& d_scores, const Matrix& kept, const Matrix& q);
};

// The backward steps from finished forward steps, unchecked (backward_steps, backward_steps_simd).
AttentionGrads steps(const AttentionSteps& forward, const Matrix& q, const Matrix& k, const Matrix& v,
                     const Matrix& d_output, const AttentionOptions& options, const Path& path);

// Checks the call, then runs the forward steps and the backward steps on `path`.
Result<AttentionBackward> run(const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& d_output,
                              const AttentionOptions& options, const Path& path);

}  // namespace attn::backward
