// attention_fast.cpp — softmax(QKᵀ/√d_k)·V, output only, through the SIMD kernels.
//
// One query row at a time: its n_k scores (dot kernel), scaled and masked, softmax in place
// (max kernel, exp+sum kernel, divide kernel), then Σ_j A_ij v_j (axpy kernel). Working memory is
// one row of scores, so this path needs O(n_k) beyond the inputs and the output.
// It must equal attention_steps(...).output; tests/core/test_attention_fast.cpp checks that.
#include <cmath>
#include <limits>
#include <vector>

#include "attention.hpp"
#include "reference.hpp"
#include "simd_kernels.hpp"
#include "validate.hpp"

namespace attn {

bool simd_enabled() { return ATTN_HAVE_SIMD != 0; }

Result<Matrix> attention(const Matrix& q, const Matrix& k, const Matrix& v,
                         const AttentionOptions& options) {
    if (auto e = check_attention(q, k, v, options); !e.empty()) return Result<Matrix>::failure(e);
    // The teaching switches (naive softmax, column softmax) live only on the reference path.
    if (!options.stable || options.axis != Axis::Row) {
        auto steps = attention_steps(q, k, v, options);
        if (!steps.ok()) return Result<Matrix>::failure(steps.error);
        return Result<Matrix>::success(std::move(steps.value.output));
    }
    if (auto e = check_memory("attention on " + shape_string(q.rows, v.cols) + " output",
                              float_bytes(std::uint64_t{q.rows} * v.cols + k.rows));
        !e.empty())
        return Result<Matrix>::failure(e);

    const std::size_t n_q = q.rows, n_k = k.rows, d_k = q.cols, d_v = v.cols;
    const float divisor = reference::score_divisor(options.scale, d_k, options.temperature);
    const float minus_inf = -std::numeric_limits<float>::infinity();
    Matrix out(n_q, d_v);
    std::vector<float> p(n_k);  // one row of scores, then of weights

    for (std::size_t i = 0; i < n_q; ++i) {
        // scores of query i, scaled and masked
        for (std::size_t j = 0; j < n_k; ++j) {
            const bool masked = (options.mask.kind == MaskKind::Causal && j > i) ||
                                (options.mask.kind == MaskKind::Custom && options.mask.keep(i, j) == 0.0f);
            p[j] = masked ? minus_inf : simd::dot(q.row(i), k.row(j), d_k) / divisor;
        }
        // softmax of the row: m = max, e = exp(x − m), A = e / Σe; fully masked row → zeros
        const float m = simd::max(p.data(), n_k);
        if (m == minus_inf) continue;  // out row stays 0
        const float sum = simd::exp_sum(p.data(), p.data(), m, n_k);
        simd::divide(p.data(), sum, n_k);
        // output_i = Σ_j A_ij v_j
        float* o = out.row(i);
        for (std::size_t j = 0; j < n_k; ++j) simd::axpy(o, p[j], v.row(j), d_v);
    }
    return Result<Matrix>::success(std::move(out));
}

}  // namespace attn
