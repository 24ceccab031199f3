// fast_path.hpp — what attention_fast.cpp and attention_streaming.cpp share: when a call must go
// to the reference instead, how a row of scores is masked, and the reusable working buffers.
// Internal to the core; the public entry points are in attention.hpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "attention.hpp"
#include "matrix.hpp"
#include "options.hpp"
#include "overflow_guard.hpp"
#include "packing.hpp"  // ensure: how the buffers below grow

namespace attn::fast {

// True when the fast paths cannot promise the reference's exact NaN/overflow behaviour, so the
// call is handed to the reference (attention_steps) instead:
//  - any NaN in q, k or v: the numerics policy wants exactly the reference's NaN cells, and the
//    fast paths (max without NaN tracking, sums in another order) do not track them. (Their A·V
//    multiplies every visible key's weight by its value row, a masked key's 0 included: with
//    finite values that is the reference's rule — masked keys add nothing, a kept key whose
//    weight underflowed adds its 0 · v_j — and a NaN value would break only the first half.)
//  - values so large that a score, a scaled score or a sum of weighted values could overflow
//    float32 (could_overflow, overflow_guard.hpp: the step-by-step SIMD path's rule too);
//  - a divisor (√d_k·τ) or its reciprocal that float32 cannot hold as a normal number: the fast
//    paths compute (s − m)·(1/divisor) where the reference computes s/divisor − m/divisor, and at
//    τ = 3·10³⁸ (divisor +∞, 1/divisor = 0) or τ = 10⁻⁴⁰ (1/divisor = +∞) that gives −∞·0 or 0·∞ =
//    NaN where the reference's numbers are finite.
inline bool needs_reference(const Matrix& q, const Matrix& k, const Matrix& v, float divisor) {
    if (!std::isnormal(divisor) || !std::isnormal(1.0f / divisor)) return true;
    const Magnitudes m = magnitudes(q, k, v);
    return m.nan || could_overflow(m, q.cols, k.rows, divisor);
}

// Sets the masked scores of a group to −∞. s holds the scores of keys j0 .. j0+n−1 for query rows
// i0 .. i0+rows−1 in the fast paths' layout: s[jj·stride + r] is row i0 + r against key j0 + jj.
// Causal: key j is masked when j > i (aligned top-left, as in reference::kept_cells).
inline void mask_group(float* s, std::size_t stride, std::size_t i0, std::size_t rows, std::size_t j0, std::size_t n,
                       const Mask& mask) {
    const float minus_inf = -std::numeric_limits<float>::infinity();
    for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t i = i0 + r;
        if (mask.kind == MaskKind::Causal) {
            for (std::size_t jj = (i + 1 > j0 ? i + 1 - j0 : 0); jj < n; ++jj) s[jj * stride + r] = minus_inf;
        } else if (mask.kind == MaskKind::Custom) {
            const float* keep = mask.keep.row(i) + j0;
            for (std::size_t jj = 0; jj < n; ++jj)
                if (keep[jj] == 0.0f) s[jj * stride + r] = minus_inf;
        }
    }
}

// How many keys any of query rows i0 .. i_last may see: a causal mask hides every key after
// i_last, so the fast paths skip those key panels altogether.
inline std::size_t visible_keys(const Mask& mask, std::size_t i_last, std::size_t n_k) {
    if (mask.kind == MaskKind::Causal) return i_last + 1 < n_k ? i_last + 1 : n_k;
    return n_k;
}

// Above this many keys attn::attention runs the streaming kernel (attention_fast.cpp says why);
// its memory check counts that kernel's buffers then (working_memory.cpp).
constexpr std::size_t kStreamingAboveKeys = 64;

// What the fast paths' Workspace keeps between calls: buffers larger than this in all are given
// back after the call that needed them, so that one huge call cannot keep hundreds of MiB that
// the next call (or the step-by-step path) needs. The bench's largest call (n = 16384, d = 64)
// keeps 4 MiB of packed keys; n ≤ 64 on the page, a few KiB.
constexpr std::size_t kWorkspaceKeepBytes = std::size_t{16} << 20;  // 16 MiB

// The fast paths' working buffers, kept from call to call so that a call allocates only when a
// larger shape than any before arrives — no allocation on the hot path otherwise. The kernels
// are handed one explicitly and share nothing else, so the core is reentrant: the public entry
// points take the calling thread's own (thread_workspace), and a call never re-enters the core
// on its thread (nothing in it calls back out). The memory checks count every buffer here
// (working_memory.cpp).
struct Workspace {
    std::vector<float> k_packed;  // K in panels of NK keys (packing.hpp)
    std::vector<float> v_packed;  // V in column panels of NC values (packing.hpp; the streaming kernel)
    std::vector<float> q_packed;  // the current query group(s), (d, MR) each
    std::vector<float> scores;    // a block of scores (key, row), then its weights
    std::vector<float> acc;       // the streaming kernel's running state, (d_v + 2)·MR per group

    std::size_t bytes() const {
        return (k_packed.capacity() + v_packed.capacity() + q_packed.capacity() + scores.capacity() + acc.capacity()) *
               sizeof(float);
    }
    // Frees every buffer when together they hold more than `keep` bytes (called at the end of a call).
    void give_back_if_larger_than(std::size_t keep) {
        if (bytes() > keep) *this = Workspace{};
    }
};

// The calling thread's Workspace: one per thread, created on its first call. (The wasm module
// has one thread; natively, two threads calling attention at once get separate buffers.)
inline Workspace& thread_workspace() {
    thread_local Workspace ws;
    return ws;
}

// The fallback of both fast paths: the reference's output (attention_steps runs its own checks,
// including the memory limit for its n_q×n_k matrices).
inline Result<Matrix> reference_output(const Matrix& q, const Matrix& k, const Matrix& v,
                                       const AttentionOptions& options) {
    auto steps = attention_steps(q, k, v, options);
    if (!steps.ok()) return Result<Matrix>::failure(steps.error);
    return Result<Matrix>::success(std::move(steps.value.output));
}

// The online-softmax kernel of attention_streaming.cpp, also used by attn::attention for long
// key sequences (see attention_fast.cpp). Inputs already checked, no NaN, out is (n_q, d_v).
void streaming_attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options,
                         float divisor, Workspace& ws, Matrix& out);
// Floats of working memory it needs besides the output: its Workspace buffers for these sizes.
std::uint64_t streaming_working_floats(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t d_v);

}  // namespace attn::fast
