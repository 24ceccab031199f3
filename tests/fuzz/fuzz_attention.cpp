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
//      `count` finite samples, the same for the same seed;
//   7. the efficiency lab's five entry points (issue 30) refuse with a well-formed Error — as the
//      step-by-step path they stand for where their own arguments are in range — or compute, and
//      8–12 hold where they compute: attention_tiled's output is its trace's last O/ℓ bit for bit
//      and attention_steps' within rounding; attention_decode is attention_steps_simd's causal
//      output bit for bit; attention_window the banded attention_steps_simd's (bit for bit up to 64
//      keys); attention_grouped's heads are the single head's, bit for bit; attention_linear's two
//      orders agree within rounding (each invariant's comment below says exactly what).
//
// Input format, read front to back (a byte past the end reads as 0; values past the end follow a
// fixed pattern, so that short inputs still reach large shapes):
//   byte 0    < 200: an ordinary call; 200–229: the efficiency lab (invariants 7–12): an ordinary
//             call's bytes, then the lab's arguments (fuzz_input.hpp's read_lab); 230–239: the
//             sampler (dk, count, seed: each a flag byte, then 8 bytes of int64 when it is odd, else
//             one byte b giving b·37 mod 1100);
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
// `extra` widens the tolerance by that fraction of max|v|, for a path with roundings of its own
// (attention_tiled's online softmax, check_tiled).
void check_output(const Matrix& got, const Matrix& want, const Matrix& q, const Matrix& k, const Matrix& v,
                  const AttentionOptions& o, const char* path, double extra = 0.0) {
    FUZZ_CHECK(got.rows == want.rows && got.cols == want.cols, std::string(path) + ": output shape");
    const double divisor = attn::reference::score_divisor(o.scale, q.cols, o.temperature);
    const double score_size = max_abs(q) * max_abs(k) * static_cast<double>(q.cols);
    const double delta = (2.0 * static_cast<double>(q.cols) + 8.0) * 0x1p-24 * score_size / divisor + 1e-7;
    const bool comparable = delta <= 1e-2;
    const double tol = (4.0 * delta + 1e-5 + extra) * max_abs(v) + 1e-30;
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

// ---- The efficiency lab (issue 30): byte 0 in 200–229 -----------------------------------------

// Invariant 7, for every entry point of the lab: a refusal is a well-formed Error — a code with
// its name, and a message.
template <class T>
void check_refusal(const attn::Result<T>& r, const std::string& path) {
    if (!r.ok())
        FUZZ_CHECK(*attn::code_name(r.error.code) != '\0' && !r.error.message.empty(),
                   path + ": a refusal without a code or a message");
}

// Invariant 7 where the step-by-step path it stands for is `want`: `r` refuses with the same Error,
// or computes where `want` is no Error. Returns whether r computed.
template <class T>
bool refuses_as(const attn::Result<T>& r, const attn::Error& want, const std::string& path) {
    check_refusal(r, path);
    FUZZ_CHECK(same_error(r.error, want), path + ": " + (r.ok() ? "computed" : describe(r.error)) + " where " +
                                              (want ? describe(want) : std::string("the reference computed")));
    return r.ok();
}

// Invariant 7 where the lab's own argument is out of range: a refusal.
template <class T>
void refuses(const attn::Result<T>& r, const std::string& path) {
    FUZZ_CHECK(!r.ok(), path + " accepted an argument out of its range");
    check_refusal(r, path);
}

bool same_bits(const Matrix& a, const Matrix& b) {
    if (a.rows != b.rows || a.cols != b.cols || a.data.size() != b.data.size()) return false;
    for (std::size_t t = 0; t < a.data.size(); ++t)
        if (!close(a.data[t], b.data[t], 0.0)) return false;
    return true;
}

// Finite inputs far from float32's limits (overflow_guard.hpp's bounds, restated): no NaN, a
// divisor with a normal reciprocal, max|q|·max|k|·d_k and its ÷ divisor, and max|v|·n_k, at most
// 10³⁰. Only there do two summation orders agree within rounding in every cell; elsewhere the
// fast paths hand the input to the reference's arithmetic.
bool finite_and_moderate(const Matrix& q, const Matrix& k, const Matrix& v, float divisor) {
    for (const Matrix* m : {&q, &k, &v})
        for (float x : m->data)
            if (!std::isfinite(x)) return false;
    if (!std::isnormal(divisor) || !std::isnormal(1.0f / divisor)) return false;
    const double score = max_abs(q) * max_abs(k) * static_cast<double>(q.cols);
    return score <= 1e30 && score / divisor <= 1e30 && max_abs(v) * static_cast<double>(k.rows) <= 1e30;
}

// Invariant 8 — attention_tiled, with the call's options (its softmax is the stable one along rows
// whatever options.stable and options.axis say): with its tile in range it refuses as
// attention_steps does, else it refuses; where it computes,
//   - the trace walks each row block's key tiles left to right, up to the block's visible keys
//     (its last row's, causal), and each row's output is its last tile's O/ℓ bit for bit (0 where
//     ℓ = 0) — and the output without a trace is the same, bit for bit;
//   - where the inputs are finite and moderate it is attention_steps' output (stable, along rows)
//     within invariant 3's tolerance, widened for the online softmax: each tile's α is a fast exp
//     (within 2.1e-7 of its value) that rescales O and ℓ once more (2ε), so a term of the first
//     tile carries up to tiles·(2.1e-7 + 3ε) ≈ tiles·4e-7 more relative error than one of the
//     last, and the output, a weighted mean, moves by up to twice that of max|v|.
void check_tiled(const Call& c, const Lab& lab) {
    AttentionOptions o = c.o;
    o.stable = true;
    o.axis = attn::Axis::Row;
    const auto tiled = attn::attention_tiled(c.q, c.k, c.v, lab.tile, c.o);
    const bool in_range = lab.tile.rows >= 1 && lab.tile.cols >= 1 &&
                          static_cast<std::uint64_t>(lab.tile.rows) <= c.q.rows &&
                          static_cast<std::uint64_t>(lab.tile.cols) <= c.k.rows;
    if (!in_range) {
        refuses(tiled,
                "attention_tiled(tile " + std::to_string(lab.tile.rows) + "×" + std::to_string(lab.tile.cols) + ")");
        return;
    }
    const auto ref = attn::attention_steps(c.q, c.k, c.v, o);
    if (!refuses_as(tiled, ref.error, "attention_tiled")) return;
    const attn::TiledAttention& t = tiled.value;
    const std::size_t n_q = c.q.rows, n_k = c.k.rows, d_v = c.v.cols;
    const std::size_t br = static_cast<std::size_t>(lab.tile.rows), bc = static_cast<std::size_t>(lab.tile.cols);
    std::size_t at = 0;
    for (std::size_t r0 = 0; r0 < n_q; r0 += br) {
        const std::size_t r1 = std::min(r0 + br, n_q);
        const std::size_t visible = o.mask.kind == attn::MaskKind::Causal ? std::min(r1, n_k) : n_k;
        for (std::size_t c0 = 0; c0 < visible; c0 += bc, ++at) {
            FUZZ_CHECK(at < t.tiles.size(), "attention_tiled: the trace ends early");
            const attn::TileStep& step = t.tiles[at];
            FUZZ_CHECK(step.row_start == r0 && step.row_end == r1 && step.col_start == c0 &&
                           step.col_end == std::min(c0 + bc, n_k),
                       "attention_tiled: trace tile " + std::to_string(at) + " is not rows [" + std::to_string(r0) +
                           ", " + std::to_string(r1) + ") × keys from " + std::to_string(c0));
        }
        const attn::TileStep& last = t.tiles[at - 1];
        for (std::size_t i = r0; i < r1; ++i)
            for (std::size_t col = 0; col < d_v; ++col) {
                const float l = last.l(i - r0, 0), want = l == 0.0f ? 0.0f : last.o(i - r0, col) / l;
                FUZZ_CHECK(close(t.output(i, col), want, 0.0),
                           "attention_tiled: output(" + std::to_string(i) + ", " + std::to_string(col) +
                               ") = " + std::to_string(t.output(i, col)) + ", its trace's O/ℓ " + std::to_string(want));
            }
    }
    FUZZ_CHECK(at == t.tiles.size(), "attention_tiled: the trace has tiles past the visible keys");
    const auto untraced = attn::attention_tiled(c.q, c.k, c.v, lab.tile, c.o, attn::Trace::Skip);
    FUZZ_CHECK(untraced.ok() && untraced.value.tiles.empty() && same_bits(untraced.value.output, t.output),
               "attention_tiled: the output without a trace is another");
    if (!finite_and_moderate(c.q, c.k, c.v, t.divisor)) return;
    const double tiles = static_cast<double>((n_k + bc - 1) / bc);
    check_output(t.output, ref.value.output, c.q, c.k, c.v, o, "attention_tiled", 2 * tiles * 4e-7);
}

// Invariant 9 — attention_decode (the call's scale; temperature 1, no mask of its own): refuses as
// attention_steps_simd with the causal mask, or equals its output bit for bit (its rows sum in
// the lanes the full causal row's do; NaN against NaN), step t holding output row t and a cache of
// min(t + 1, n_k) rows.
void check_decode(const Call& c) {
    AttentionOptions o;
    o.scale = c.o.scale;
    o.mask.kind = attn::MaskKind::Causal;
    const auto decoded = attn::attention_decode(c.q, c.k, c.v, o.scale);
    const auto steps = attn::attention_steps_simd(c.q, c.k, c.v, o);
    if (!refuses_as(decoded, steps.error, "attention_decode")) return;
    const attn::DecodedAttention& d = decoded.value;
    FUZZ_CHECK(same_bits(d.output, steps.value.output),
               "attention_decode: not attention_steps_simd's causal output bit for bit");
    FUZZ_CHECK(d.steps.size() == c.q.rows, "attention_decode: not one step per query");
    for (std::size_t t = 0; t < d.steps.size(); ++t) {
        const Matrix row(1, c.v.cols, std::vector<float>(d.output.row(t), d.output.row(t) + c.v.cols));
        FUZZ_CHECK(d.steps[t].cache_length == std::min(t + 1, c.k.rows) && same_bits(d.steps[t].row, row),
                   "attention_decode: step " + std::to_string(t) + " is not output row " + std::to_string(t) +
                       " after a cache of " + std::to_string(std::min(t + 1, c.k.rows)) + " rows");
    }
}

// Invariant 10 — attention_window(w) (the call's scale, temperature 1): a window below 1 is
// refused; otherwise it refuses as attention_steps_simd with the band i − w < j ≤ i as a custom
// mask, or computes that: bit for bit up to 64 keys and for inputs that are not finite and
// moderate (the band's rows in the full rows' lanes), within invariant 3's tolerance of
// attention_steps above (the microkernels).
void check_window(const Call& c, const Lab& lab) {
    const auto window = attn::attention_window(c.q, c.k, c.v, lab.window, c.o.scale);
    if (lab.window < 1 || lab.window > (std::int64_t{1} << 53) - 1) {
        refuses(window, "attention_window(" + std::to_string(lab.window) + ")");
        return;
    }
    AttentionOptions o;
    o.scale = c.o.scale;
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(c.q.rows, c.k.rows);
    const auto w = static_cast<std::uint64_t>(lab.window);
    for (std::size_t i = 0; i < c.q.rows; ++i)
        for (std::size_t j = 0; j <= i && j < c.k.rows; ++j) o.mask.keep(i, j) = i - j < w ? 1.0f : 0.0f;
    const auto steps = attn::attention_steps_simd(c.q, c.k, c.v, o);
    if (!refuses_as(window, steps.error, "attention_window")) return;
    const float divisor = attn::reference::score_divisor(o.scale, c.q.cols, 1.0f);
    if (c.k.rows <= 64 || !finite_and_moderate(c.q, c.k, c.v, divisor)) {
        FUZZ_CHECK(same_bits(window.value, steps.value.output),
                   "attention_window(" + std::to_string(w) + "): not the banded attention_steps_simd bit for bit");
        return;
    }
    const auto ref = attn::attention_steps(c.q, c.k, c.v, o);
    FUZZ_CHECK(ref.ok(), "attention_steps refused the band: " + describe(ref.error));
    check_output(window.value, ref.value.output, c.q, c.k, c.v, o, "attention_window");
}

Matrix column_block(const Matrix& m, std::size_t block, std::size_t width) {
    Matrix out(m.rows, width);
    for (std::size_t r = 0; r < m.rows; ++r)
        for (std::size_t col = 0; col < width; ++col) out(r, col) = m(r, block * width + col);
    return out;
}

// Invariant 11 — attention_grouped(heads, kv_heads) on q, the call's k cut to kv_heads heads
// (grouped_keys) and v, with the call's options: its two paths refuse alike; where they compute,
// query head i's columns are, bit for bit, the single head on its blocks — attention_steps(Q_i,
// K_g, V_g).output on the reference path, attention(Q_i, K_g, V_g) on the SIMD path, with
// g = ⌊i·kv_heads/heads⌋; at kv_heads = heads, every head on its own K_i and V_i.
void check_grouped(const Call& c, const Lab& lab) {
    const Matrix k = grouped_keys(c.q, c.k, lab);
    const auto ref = attn::attention_grouped_reference(c.q, k, c.v, lab.heads, lab.kv_heads, c.o);
    const auto simd = attn::attention_grouped(c.q, k, c.v, lab.heads, lab.kv_heads, c.o);
    check_refusal(ref, "attention_grouped_reference");
    if (!refuses_as(simd, ref.error, "attention_grouped")) return;
    const auto h = static_cast<std::size_t>(lab.heads), g = static_cast<std::size_t>(lab.kv_heads);
    const std::size_t d_k = c.q.cols / h, d_v = c.v.cols / g;
    for (std::size_t i = 0; i < h; ++i) {
        const Matrix q_i = column_block(c.q, i, d_k), k_g = column_block(k, i * g / h, d_k),
                     v_g = column_block(c.v, i * g / h, d_v);
        const auto steps = attn::attention_steps(q_i, k_g, v_g, c.o);
        const auto fast = attn::attention(q_i, k_g, v_g, c.o);
        const std::string head = " head " + std::to_string(i) + " of " + std::to_string(h) + " (key–value head " +
                                 std::to_string(i * g / h) + " of " + std::to_string(g) + ")";
        FUZZ_CHECK(steps.ok() && fast.ok(), "the single" + head + " refused");
        FUZZ_CHECK(same_bits(column_block(ref.value, i, d_v), steps.value.output),
                   "attention_grouped_reference:" + head + " is not attention_steps' bit for bit");
        FUZZ_CHECK(same_bits(column_block(simd.value, i, d_v), fast.value),
                   "attention_grouped:" + head + " is not attention's bit for bit");
    }
}

// The float64 bound of invariant 12 for row i, column col, or −1 where the orders need not agree.
// In float32 (ε = 2⁻²⁴, γ = (n_k + d_k + 4)·ε), with W_j = φ(q_i)·φ(k_j) ≥ 0 over the row's visible
// keys, D = Σ_j W_j and R = Σ_j W_j·|v_j,col| (in double): either order's numerator is within γ·R
// of Σ_j W_j v_j,col — every product in it, (φ(q)·φ(k))·v or φ(q)·(φ(k)·v), has one signed factor,
// so its sums' errors add up to that — and its denominator within γ·D of D; so either output is
// within (2γ + 2ε)·R/D of the exact ratio, and the two within twice that. Each product below
// float32's normals adds up to 2⁻¹⁴⁹·(1 + max|v|). A row is compared only where D ≥ 2⁻¹⁰⁰ (below,
// its sums are denormals of few digits: one order may round D to 0, 0/0) and nothing on the way —
// φ, D, R, φ(K)ᵀ|V|, φ(K)ᵀ1 — exceeds 10³⁰.
struct LinearBound {
    std::vector<double> tol;  // (n_q, d_v)
};
LinearBound linear_bound(const Matrix& q, const Matrix& k, const Matrix& v, bool causal) {
    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const auto phi = [](float x) { return x > 0 ? static_cast<double>(x) + 1 : std::exp(static_cast<double>(x)); };
    double big = max_abs(v);
    for (const Matrix* m : {&q, &k})
        for (float x : m->data) big = std::max(big, phi(x));
    for (std::size_t t = 0; t < d; ++t)
        for (std::size_t col = 0; col < d_v; ++col) {
            double s = 0, z = 0;
            for (std::size_t j = 0; j < n_k; ++j) s += phi(k(j, t)) * std::fabs(v(j, col)), z += phi(k(j, t));
            big = std::max({big, s, z});
        }
    LinearBound b;
    b.tol.assign(n_q * d_v, -1.0);
    if (big > 1e30) return b;
    const double eps = 0x1p-24, gamma = (static_cast<double>(n_k + d) + 4) * eps;
    const double products = static_cast<double>(n_k * (d + 1) * (d_v + 2) + d * (d_v + 1));
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t seen = causal ? std::min(i + 1, n_k) : n_k;
        std::vector<double> w(seen);
        double den = 0;
        for (std::size_t j = 0; j < seen; ++j) {
            for (std::size_t t = 0; t < d; ++t) w[j] += phi(q(i, t)) * phi(k(j, t));
            den += w[j];
        }
        if (!(den >= 0x1p-100) || den > 1e30) continue;
        for (std::size_t col = 0; col < d_v; ++col) {
            double r = 0;
            for (std::size_t j = 0; j < seen; ++j) r += w[j] * std::fabs(v(j, col));
            if (r > 1e30) continue;
            b.tol[i * d_v + col] =
                (4 * gamma + 4 * eps) * 1.01 * r / den + 4 * products * 0x1p-149 * (1 + max_abs(v)) / den;
        }
    }
    return b;
}

std::size_t non_finite_cells(const Matrix& m) {
    std::size_t n = 0;
    for (float x : m.data) n += !std::isfinite(x);
    return n;
}

// Invariant 12 — attention_linear with the lab's options: its two paths refuse alike; where they
// compute, each holds the orders asked for, non_finite counts each result's NaN and ±∞ cells, a
// causal call's weights are exactly 0 above the diagonal, and where the inputs hold no NaN the two
// orders agree within linear_bound's tolerance, on each path.
void check_linear(const Call& c, const Lab& lab) {
    const attn::LinearOptions& o = lab.linear;
    const auto ref = attn::attention_linear_reference(c.q, c.k, c.v, o);
    const auto simd = attn::attention_linear(c.q, c.k, c.v, o);
    check_refusal(ref, "attention_linear_reference");
    if (!refuses_as(simd, ref.error, "attention_linear")) return;
    bool finite = true;
    for (const Matrix* m : {&c.q, &c.k, &c.v})
        for (float x : m->data) finite &= !std::isnan(x);
    const LinearBound bound = finite ? linear_bound(c.q, c.k, c.v, o.causal) : LinearBound{};
    for (const auto* r : {&ref, &simd}) {
        const attn::LinearAttention& a = r->value;
        const std::string path = r == &ref ? "attention_linear_reference" : "attention_linear";
        FUZZ_CHECK(a.quadratic.data.empty() == (o.order == attn::LinearOrder::Linear) &&
                       a.linear.data.empty() == (o.order == attn::LinearOrder::Quadratic) &&
                       a.weights.data.empty() == (!o.weights || o.order == attn::LinearOrder::Linear),
                   path + ": not the orders and weights asked for");
        FUZZ_CHECK(a.non_finite.quadratic == non_finite_cells(a.quadratic) &&
                       a.non_finite.linear == non_finite_cells(a.linear) &&
                       a.non_finite.weights == non_finite_cells(a.weights),
                   path + ": non_finite miscounts");
        if (o.causal && !a.weights.data.empty())
            for (std::size_t i = 0; i < a.weights.rows; ++i)
                for (std::size_t j = i + 1; j < a.weights.cols; ++j)
                    FUZZ_CHECK(a.weights(i, j) == 0.0f, path + ": a weight above the diagonal is not 0");
        if (o.order != attn::LinearOrder::Both) continue;
        for (std::size_t t = 0; t < bound.tol.size(); ++t) {
            if (bound.tol[t] < 0) continue;
            const float x = a.quadratic.data[t], y = a.linear.data[t];
            FUZZ_CHECK(std::isfinite(x) && std::isfinite(y) && std::fabs(static_cast<double>(x) - y) <= bound.tol[t],
                       path + ": cell " + std::to_string(t) + " is " + std::to_string(x) + " in the quadratic order, " +
                           std::to_string(y) + " in the linear (tolerance " + std::to_string(bound.tol[t]) + ")");
        }
    }
}

// Invariants 7–12 for one lab call.
void check_lab(const Call& c, const Lab& lab) {
    check_tiled(c, lab);
    check_decode(c);
    check_window(c, lab);
    check_grouped(c, lab);
    check_linear(c, lab);
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
    if (mode >= kLabFirst && mode < kLabEnd) {
        check_lab(c, read_lab(in, h));
        return 0;
    }
    check_all_paths(c.q, c.k, c.v, c.o);
    check_project(c.q, c.w);
    return 0;
}