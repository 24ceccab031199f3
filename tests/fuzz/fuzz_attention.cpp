// fuzz_attention.cpp — libFuzzer target: every public entry point of the core on arbitrary shapes,
// options and values, with the invariants a teaching tool promises.
//
// Built with clang-14 -fsanitize=fuzzer,address,undefined (CMakeLists.txt, ATTN_SANITIZE), so a
// crash, an out-of-bounds access or an undefined operation anywhere in the core is a finding too.
// `npm test` replays tests/fuzz/corpus/ (one file per case worth keeping, written by
// make-corpus.mjs) and then fuzzes for a fixed time (scripts/run-tests.mjs, FUZZ_SECONDS).
//
// What every input must satisfy:
//   1. attention_steps, attention_steps_simd, attention and attention_streaming refuse with the
//      same Error (code, argument, message), or all four compute;
//   2. on both step-by-step paths, a masked weight is exactly 0, and every row (every column with
//      axis Column) that has a kept cell, finite weights and a normal exp-sum sums to 1 ± 1e-5;
//   3. attention, attention_streaming and the SIMD steps equal the reference's output cell for
//      cell: NaN where it has NaN, the same infinities, and finite cells within float32 tolerance
//      (derived below from how well-conditioned the input is: where the weights depend on
//      rounding, two summation orders may disagree, and that is no bug);
//   4. project and project_simd refuse alike or agree bit for bit (NaN only against NaN);
//   5. the shape checks never accept a claimed shape whose value count or memory estimate, counted
//      exactly in 128 bits, is wrong or over the limit;
//   6. the labs' sampler, dot_product_samples, refuses out-of-range arguments and otherwise gives
//      `count` finite samples, the same for the same seed.
//
// Input format, read front to back (a byte past the end reads as 0; values past the end follow a
// fixed pattern, so that short inputs still reach large shapes):
//   byte 0    < 230: an ordinary call; 230–239: the sampler (dk, count, seed: each a flag byte, then
//             8 bytes of int64 when it is odd, else one byte b giving b·37 mod 1100);
//             240 + a: argument a (q, k, v, mask, x, w) claims a shape of
//             its own (rows and cols: 8 bytes each, little-endian; then a byte: how many values
//             its data really holds), then the shape-only checks on five claimed shapes
//   bytes 1–4 n_q − 1 (mod 12), n_k − 1 (mod 72: past 64 keys attention streams), d_k − 1 (mod 20),
//             d_v − 1 (mod 8)
//   byte 5    options: scale = b % 3, mask = b / 3 % 3 (none, causal, custom), naive = b / 9 % 2,
//             column = b / 18 % 2
//   byte 6    temperature: kTemperatures[b] if b < its size, else a raw float from the next 4 bytes
//   byte 7    a twist, b % 16: 1 d_k mismatch, 2 v one row short, 3 mask one column too many,
//             4 q one value short; else none
//   then one byte per value of q, k, v, the mask (custom only) and w (d_k × d_v, for project):
//             kPalette[b] if b < its size; 255: a raw float from the next 4 bytes; else (b − 32)/8
//             (mask cells: 0 when b % 4 == 0, 0.5 when b == 254, else 1)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attention.hpp"
#include "fuzz_input.hpp"
#include "reference.hpp"
#include "samples.hpp"
#include "validate.hpp"

namespace {

using namespace fuzz;

// Invariant 2 on one step-by-step result: masked weights exactly 0; each row (column) with a
// kept cell, finite weights and a normal exp-sum of at least 2^-100 (below that the naive
// softmax's exps are denormals with too few digits for a sum of 1) sums to 1 ± 1e-5.
void check_weights(const attn::AttentionSteps& st, const AttentionOptions& o, const char* path) {
    const std::size_t n_q = st.weights.rows, n_k = st.weights.cols;
    for (std::size_t t = 0; t < st.weights.size(); ++t)
        FUZZ_CHECK(st.kept.data[t] != 0.0f || st.weights.data[t] == 0.0f,
                   std::string(path) + ": a masked weight is not 0 but " + std::to_string(st.weights.data[t]));
    const bool by_column = o.axis == attn::Axis::Column;
    const std::size_t lines = by_column ? n_k : n_q, cells = by_column ? n_q : n_k;
    for (std::size_t line = 0; line < lines; ++line) {
        double sum = 0;
        bool kept = false, finite = true;
        for (std::size_t c = 0; c < cells; ++c) {
            const std::size_t i = by_column ? c : line, j = by_column ? line : c;
            kept |= st.kept(i, j) != 0.0f;
            finite &= std::isfinite(st.weights(i, j));
            sum += st.weights(i, j);
        }
        const float exp_sum = by_column ? st.row_sum(0, line) : st.row_sum(line, 0);
        if (kept && finite && std::isfinite(exp_sum) && exp_sum >= 0x1p-100f)
            FUZZ_CHECK(std::fabs(sum - 1.0) <= 1e-5,
                       std::string(path) + ": line " + std::to_string(line) + " sums to " + std::to_string(sum));
    }
}

// Invariant 3: `got` equals the reference's output, within a tolerance derived from the input. A score summed in
// another order (SIMD lanes, register blocks, fused multiply–adds natively) differs from the reference's by at most
// about 2·d_k·2⁻²⁴·Σ|q_c·k_c|, and the fast paths' (s − m)·(1/divisor) adds a few roundings of |s| + |m|: δ bounds that
// difference in the scaled scores. exp turns it into a relative error of about δ in every
// numerator and in the sum, so each weight moves by up to ~2δ of itself, and the output, a
// weighted mean of the values, by up to ~2δ·max|v| — plus float32's own rounding of the sums
// (1e-5 of max|v|; the fast paths' 2^y polynomial is within 2.1e-7). Where δ exceeds 1e-2 the
// weights depend on rounding itself (scores of 10³⁰ that nearly tie, say): no finite cell to
// compare. Non-finite cells are compared exactly (NaN against NaN, ±∞ against itself), always:
// every path hands each input that could overflow float32 to the reference (the fast paths those
// with a NaN and the SIMD steps the naive softmax too), so a NaN or ±∞ of its own can only come
// from a NaN the input holds, and it must land in the reference's cells.
void check_output(const Matrix& got, const Matrix& want, const Matrix& q, const Matrix& k, const Matrix& v,
                  const AttentionOptions& o, const char* path) {
    FUZZ_CHECK(got.rows == want.rows && got.cols == want.cols, std::string(path) + ": output shape");
    const double divisor = attn::reference::score_divisor(o.scale, q.cols, o.temperature);
    const double score_size = max_abs(q) * max_abs(k) * static_cast<double>(q.cols);
    const double delta = (2.0 * static_cast<double>(q.cols) + 8.0) * 0x1p-24 * score_size / divisor + 1e-7;
    const bool comparable = delta <= 1e-2;
    const double tol = (4.0 * delta + 1e-5) * max_abs(v) + 1e-30;
    for (std::size_t t = 0; t < want.size(); ++t) {
        const auto where = [&] {
            return std::string(path) + ": output[" + std::to_string(t) + "] = " + std::to_string(got.data[t]) +
                   ", the reference's " + std::to_string(want.data[t]);
        };
        if (!std::isfinite(want.data[t]) || !std::isfinite(got.data[t])) {
            FUZZ_CHECK(close(got.data[t], want.data[t], 0.0), where() + " (non-finite cells must match)");
            continue;
        }
        if (!comparable) continue;
        FUZZ_CHECK(close(got.data[t], want.data[t], tol), where() + " (tolerance " + std::to_string(tol) + ")");
    }
}

// Invariants 1–3 for one Q, K, V and options.
void check_all_paths(const Matrix& q, const Matrix& k, const Matrix& v, const AttentionOptions& o) {
    const auto ref = attn::attention_steps(q, k, v, o);
    const auto simd = attn::attention_steps_simd(q, k, v, o);
    const auto fast = attn::attention(q, k, v, o);
    const auto streaming = attn::attention_streaming(q, k, v, o);
    if (!ref.ok()) {
        for (const attn::Error* e : {&simd.error, &fast.error, &streaming.error})
            FUZZ_CHECK(same_error(*e, ref.error),
                       "another refusal: " + describe(*e) + " vs the reference's " + describe(ref.error));
        return;
    }
    FUZZ_CHECK(simd.ok(), "attention_steps_simd refused: " + describe(simd.error));
    FUZZ_CHECK(fast.ok(), "attention refused: " + describe(fast.error));
    FUZZ_CHECK(streaming.ok(), "attention_streaming refused: " + describe(streaming.error));
    check_weights(ref.value, o, "attention_steps");
    check_weights(simd.value, o, "attention_steps_simd");
    check_output(fast.value, ref.value.output, q, k, v, o, "attention");
    check_output(streaming.value, ref.value.output, q, k, v, o, "attention_streaming");
    check_output(simd.value.output, ref.value.output, q, k, v, o, "attention_steps_simd");
}

// Invariant 4.
void check_project(const Matrix& x, const Matrix& w) {
    const auto ref = attn::project(x, w);
    const auto simd = attn::project_simd(x, w);
    if (!ref.ok()) {
        FUZZ_CHECK(same_error(simd.error, ref.error), "project_simd refused otherwise: " + describe(simd.error));
        return;
    }
    FUZZ_CHECK(simd.ok(), "project_simd refused: " + describe(simd.error));
    for (std::size_t t = 0; t < ref.value.size(); ++t)
        FUZZ_CHECK(close(simd.value.data[t], ref.value.data[t], 0.0),
                   "project_simd[" + std::to_string(t) + "] = " + std::to_string(simd.value.data[t]) + ", project's " +
                       std::to_string(ref.value.data[t]));
}

// Invariant 5: the shape-only checks on claimed shapes, against exact arithmetic: products of
// two 64-bit sizes in 128 bits, memory estimates (three factors) in long double, whose 64-bit
// mantissa is exact far beyond the 1 GiB limit.
__extension__ typedef unsigned __int128 Exact;
void check_shape_arithmetic(Reader& in) {
    attn::Shape s[5];  // q, k, v, mask, and w (against q as x)
    for (attn::Shape& shape : s) {
        shape.rows = in.u64();
        shape.cols = in.u64();
        shape.values = in.byte() % 2 ? static_cast<std::size_t>(in.u64()) : shape.rows * shape.cols;  // may wrap
    }
    const auto exact = [](const attn::Shape& m) { return Exact{m.rows} * m.cols; };
    const long double limit_floats = static_cast<long double>(attn::kMemoryLimitBytes) / 4;
    for (const attn::Shape& m : s)
        if (!attn::check_shape("m", m))
            FUZZ_CHECK(m.rows > 0 && m.cols > 0 && exact(m) == m.values, "check_shape accepted a wrong count");
    if (!attn::check_attention_shapes(s[0], s[1], s[2], 1.0f, &s[3]))
        for (int a = 0; a < 4; ++a)
            FUZZ_CHECK(exact(s[a]) == s[a].values, "check_attention_shapes accepted a wrong count");
    if (!attn::check_projection_shapes(s[0], s[4]))
        FUZZ_CHECK(static_cast<long double>(s[0].rows) * s[4].cols <= limit_floats,
                   "check_projection_shapes accepted too much memory");
    // The step paths' memory check reads shapes only: matrices without data, never computed.
    Matrix q, k, v;
    q.rows = s[0].rows, q.cols = s[0].cols, k.rows = s[1].rows, k.cols = s[1].cols, v.rows = s[2].rows,
    v.cols = s[2].cols;
    for (attn::Axis axis : {attn::Axis::Row, attn::Axis::Column}) {
        AttentionOptions o;
        o.axis = axis;
        if (!attn::check_steps_memory(q, k, v, o)) {
            // The step paths' peak (working_memory.cpp; fuzz_differential.cpp measures it).
            const long double scores = static_cast<long double>(q.rows) * k.rows,
                              output = static_cast<long double>(q.rows) * v.cols;
            const long double floats = axis == attn::Axis::Row
                                           ? 6 * scores + 2.0L * q.rows + output
                                           : std::max(9 * scores + 4.0L * k.rows, 6 * scores + 2.0L * k.rows + output);
            FUZZ_CHECK(floats <= limit_floats, "check_steps_memory accepted too much memory");
        }
    }
}

// Invariant 6 — the labs' sampler (issue 11), dot_product_samples(dk, count, seed): any 64-bit
// arguments, negative and huge ones included, give an Error (out_of_range) or `count` finite
// samples, the same ones for the same seed. Calls of more than 2^16 normal values are skipped: they
// cost time, not coverage (tests/core/test_samples.cpp checks the largest).
void check_sampler(Reader& in) {
    const auto arg = [&in] { return static_cast<std::int64_t>(in.byte() % 2 ? in.u64() : in.byte() * 37u % 1100u); };
    const std::int64_t dk = arg(), count = arg(), seed = arg();
    const auto& lim = attn::kSampleLimits;
    const bool in_range = dk >= lim.min_dk && dk <= lim.max_dk && count >= lim.min_count && count <= lim.max_count &&
                          seed >= lim.min_seed && seed <= lim.max_seed;
    if (in_range && 2 * dk * count > (std::int64_t{1} << 16)) return;
    const auto r = attn::dot_product_samples(dk, count, seed);
    FUZZ_CHECK(r.ok() == in_range, "dot_product_samples(" + std::to_string(dk) + ", " + std::to_string(count) + ", " +
                                       std::to_string(seed) + "): " + (r.ok() ? "accepted" : describe(r.error)));
    if (!r.ok()) {
        FUZZ_CHECK(r.error.code == attn::ErrorCode::OutOfRange,
                   "dot_product_samples refused with " + describe(r.error));
        return;
    }
    FUZZ_CHECK(r.value.size() == static_cast<std::size_t>(count), "dot_product_samples: not count samples");
    for (float x : r.value) FUZZ_CHECK(std::isfinite(x), "dot_product_samples: a sample is not finite");
    const auto again = attn::dot_product_samples(dk, count, seed);
    FUZZ_CHECK(std::memcmp(again.value.data(), r.value.data(), r.value.size() * sizeof(float)) == 0,
               "dot_product_samples: the same seed gave other samples");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Reader in{data, size};
    const std::uint8_t mode = in.byte();
    if (mode >= 230 && mode < 240) {
        check_sampler(in);
        return 0;
    }
    const Header h = read_header(in);
    const std::size_t n_q = h.n_q, n_k = h.n_k, d_k = h.d_k, d_v = h.d_v;
    AttentionOptions o = h.o;
    if (mode >= 240) {
        // One argument claims a shape of its own; the others are consistent with n_q, n_k, d_k, d_v.
        const unsigned claimant = (mode - 240) % 6;
        const std::uint64_t rows = in.u64(), cols = in.u64();
        const std::size_t values = in.byte() % 32;
        Matrix claimed = in.matrix(static_cast<std::size_t>(rows), static_cast<std::size_t>(cols), values);
        Matrix q = in.matrix(n_q, d_k, n_q * d_k), k = in.matrix(n_k, d_k, n_k * d_k),
               v = in.matrix(n_k, d_v, n_k * d_v);
        Matrix w = in.matrix(d_k, d_v, d_k * d_v);
        Matrix* slot[] = {&q, &k, &v, &o.mask.keep, &q, &w};
        if (claimant == 3) o.mask.kind = attn::MaskKind::Custom;
        *slot[claimant] = claimed;
        check_all_paths(q, k, v, o);
        check_project(q, w);
        check_shape_arithmetic(in);
        return 0;
    }

    const Call c = read_call(in, h);
    check_all_paths(c.q, c.k, c.v, c.o);
    check_project(c.q, c.w);
    return 0;
}