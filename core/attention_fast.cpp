// attention_fast.cpp — softmax(QKᵀ/√d_k)·V, output only: the fast path behind attn::attention.
//
// What it is: two kernels sharing the microkernels of fast_kernels.hpp, chosen by the number
// of keys (measured; see bench/NOTES.md):
//  - more than 64 keys: the tiled online-softmax kernel of attention_streaming.cpp — 512-key
//    tiles of K and V shared by blocks of 128 query rows while they are in cache;
//  - up to 64 keys: the two-pass kernel below. K is packed once per call into panels of 4 keys
//    (packing.hpp); then for each group of MR = 2·W query rows (8 on SIMD128), packed so that
//    each row is one lane of two registers:
//      1. S = Q_group · Kᵀ            (n_k, MR)  register-blocked microkernel, 4 keys × MR rows
//      2. softmax numerators in place: mask, m = max_j, p = exp((s − m)/divisor) computed as
//         2^((s − m)·log2(e)/divisor), l = Σ_j p (every row's work is vertical arithmetic on its
//         lane)
//      3. out_group = (Pᵀ · V) / l     (MR, d_v)  the same microkernel shape over the keys
// Neither ever holds the n_q×n_k matrix. Under a causal mask, keys that every row of a group
// (or block) masks are skipped.
//
// What it is not: it keeps no intermediates (attention_steps does), it has no teaching switches
// (stable == false and axis == Column go to the reference), and it does not track NaN or
// overflow (inputs with NaN or with magnitudes that could overflow go to the reference: see
// fast::needs_reference). It multiplies by 1/l after A·V (one multiply per output instead of a
// divide per weight), sums in register-blocked order (with real FMAs natively) and takes 2^y
// from fast_exp.hpp's polynomial (≤ 2.1e-7 relative), so it equals attention_steps(...).output
// within float32 rounding, not bit for bit; tests/core/test_fast_paths.cpp checks that across
// shapes, masks and scalings.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "attention.hpp"
#include "fast_kernels.hpp"
#include "fast_path.hpp"
#include "packing.hpp"
#include "reference.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

namespace attn {

bool simd_enabled() { return ATTN_HAVE_SIMD != 0; }
bool relaxed_simd_enabled() { return ATTN_RELAXED_SIMD != 0; }

Result<Matrix> attention(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& options) {
    if (Error e = check_attention(q, k, v, options)) return Result<Matrix>::failure(e);
    // The teaching switches (naive softmax, column softmax) live only on the step-by-step paths.
    if (!options.stable || options.axis != Axis::Row) return fast::reference_output(q, k, v, options);
    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const float divisor = reference::score_divisor(options.scale, d, options.temperature);
    if (fast::needs_reference(q, k, v, divisor)) return fast::reference_output(q, k, v, options);

    using fast::kMR;
    using fast::kNC;
    using fast::kNK;
    const std::size_t key_panels = (n_k + kNK - 1) / kNK;
    // Every buffer of the kernel that will run (see below), and the output (working_memory.hpp).
    if (Error e =
            check_memory("attention", "scores", n_q, n_k, working_bytes(Operation::Attention, {n_q, n_k, d, d_v})))
        return Result<Matrix>::failure(e);

    // More than 64 keys: the streaming kernel (attention_streaming.cpp), which walks K and V in
    // 512-key tiles shared by blocks of 128 query rows, was measured faster than this two-pass
    // loop from there on (in-wasm, best of several runs, quiet machine: n = 128 +4%, 256 +4%,
    // 512 +10%; full bench runs n = 1024, 2048: +8–16%). From n_k ≈ 1024 at d = 64, K and V plus
    // a group's row of scores outgrow the per-core L2, and walking all of K and V once per 8
    // query rows becomes memory-bound (4.6 GFLOP/s at n = 16384). Its result equals this path's
    // within float32 rounding. Tiny problems (≤ 64 keys) keep the two-pass loop: equal or
    // slightly faster there, with no rescaling work.
    fast::Workspace& ws = fast::thread_workspace();
    if (n_k > fast::kStreamingAboveKeys) {
        Matrix out(n_q, d_v);
        fast::streaming_attention(q, k, v, options, divisor, ws, out);
        ws.give_back_if_larger_than(fast::kWorkspaceKeepBytes);
        return Result<Matrix>::success(std::move(out));
    }

    fast::pack_keys(k, kNK, ws.k_packed);
    fast::ensure(ws.q_packed, d * kMR);
    fast::ensure(ws.scores, key_panels * kNK * kMR);
    float* const qp = ws.q_packed.data();  // (d, MR) the current query group
    float* const s = ws.scores.data();     // (n_k, MR) its scores, then its weights
    const float* const kp = ws.k_packed.data();
    const float inv_divisor = 1.0f / divisor;
    Matrix out(n_q, d_v);

    for (std::size_t i0 = 0; i0 < n_q; i0 += kMR) {
        const std::size_t rows = std::min(kMR, n_q - i0);
        const std::size_t n_eff = fast::visible_keys(options.mask, i0 + rows - 1, n_k);
        fast::pack_query_group(q, i0, rows, kMR, qp);

        // 1. S (n_eff, MR) = Q_group · Kᵀ, one panel of 4 keys at a time
        fast::qk_panels(qp, kp, d, (n_eff + kNK - 1) / kNK, s);

        // 2. masked scores → −∞; per row m = max, p = exp((s − m)/divisor), l = Σ p; 1/l
        //    (0 for a fully masked row, whose p are all 0: its output row is 0)
        fast::mask_group(s, kMR, i0, rows, 0, n_eff, options.mask);
        alignas(64) float m[kMR], l[kMR], inv_l[kMR];
        std::fill(m, m + kMR, -std::numeric_limits<float>::infinity());
        fast::col_max(s, n_eff, m);
        fast::exp_sum(s, n_eff, m, inv_divisor, l);
        for (std::size_t r = 0; r < kMR; ++r) inv_l[r] = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;

        // 3. out_group = Pᵀ · V / l, four value columns at a time
        alignas(64) float acc[kNC * kMR];  // (NC, MR): output columns c0.. for the group's rows
        for (std::size_t c0 = 0; c0 < d_v; c0 += kNC) {
            const std::size_t nc = std::min(kNC, d_v - c0);
            fast::pv_cols(nc, s, v.row(0) + c0, d_v, n_eff, acc, nullptr);
            for (std::size_t r = 0; r < rows; ++r) {
                float* dst = out.row(i0 + r) + c0;
                for (std::size_t h = 0; h < nc; ++h) dst[h] = acc[h * kMR + r] * inv_l[r];
            }
        }
    }
    ws.give_back_if_larger_than(fast::kWorkspaceKeepBytes);
    return Result<Matrix>::success(std::move(out));
}

}  // namespace attn
