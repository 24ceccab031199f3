// fuzz_differential.cpp — libFuzzer target: every entry point of the core, from one table, against
// the reference and against a float64 computation of this file's own; and each call's peak heap
// against the bytes the 1 GiB rule counted for it (core/working_memory.hpp).
//
// Built twice (CMakeLists.txt, ATTN_SANITIZE): fuzz_differential with the host's widest SIMD, and
// fuzz_differential_sse on a core compiled for plain SSE2, whose 4 float lanes are the wasm
// SIMD128 layout (the same batch width, MR = 8 query rows per group, no fused multiply–add). The
// inputs are fuzz_attention.cpp's (its header comment; tests/fuzz/corpus/ replays in both):
// byte 0 < 200 an attention call, 200–229 the efficiency lab's (issue 30: fuzz_input.hpp's
// read_lab after the call, checked as the families Tiled, Grouped and Linear below), 230–239 the
// labs' sampler, 240 and up claimed shapes (that target's business: skipped here). After an
// attention call's bytes come the backward pass's dO and a multi-head call made from it
// (read_extras below), so every attention input runs the attention, backward and multi-head
// families.
//
// For every input and every entry point of its family (kEntryPoints below):
//   1. it refuses with the reference's Error (code, argument, message), or computes;
//   2. its non-finite cells are the reference's, exactly: NaN where the reference has NaN, the
//      same infinities, in the output and (the step paths) the weights — always: the fast paths
//      hand every input that could overflow or holds NaN to the reference, the SIMD steps every
//      input that could overflow and the naive softmax (issue 27, item 4);
//   3. where the float64 computation has NaN (a NaN the input holds reaches that cell) and no
//      float32 score can overflow, the entry point has NaN too (issue 19, item 1: a NaN value behind
//      a weight that underflowed); where float32 cannot overflow or lose a weight (Float64), every
//      finite cell is within `tolerance` of the float64 value, and so within twice that of the
//      reference's;
//   4. its peak heap during the call — every byte malloc'd and not yet freed, counted through the
//      sanitizer's allocator hooks, the result included — is at most the bytes its memory check
//      counted; for the step-by-step paths exactly those bytes (working_memory.cpp counts their
//      peak, not a bound); a refusal allocates nothing but its message.
//
// The backward pass (attention_backward, _simd) and multi-head (multi_head_attention_steps, _simd)
// are families of their own, each with its float64 computation: the gradients by the chain rule
// with a propagated error bound per cell (float64_backward), and multi-head stage by stage (X·W,
// every head as the attention family, concat·W_O; check_multi_head). So are the efficiency lab's
// paths with a fast and a reference path: attention_tiled (its output as the attention family's,
// its trace's tiles and running max against the reference loop's), attention_grouped (every head
// as the attention family) and attention_linear (both orders and the weights against float64;
// the linear order the reference's bit for bit).
//
// A new entry point is one more row of kEntryPoints: a name, its family (what it is compared with;
// a new family brings its reference and its float64 computation) and a function that makes the
// call inside measure() and says what its memory check counted.
#include <sanitizer/allocator_interface.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attention.hpp"
#include "backward_attention.hpp"
#include "fast_kernels.hpp"
#include "fast_path.hpp"
#include "fuzz_input.hpp"
#include "multi_head.hpp"
#include "reference.hpp"
#include "samples.hpp"
#include "simd_kernels.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

namespace {

using namespace fuzz;
using attn::Axis;
using attn::Operation;

constexpr double kEps = 0x1p-24;  // float32's unit roundoff

// ---- Peak heap -----------------------------------------------------------------------------------
// The sanitizer calls these on every malloc and free of the process (operator new included).
// Only the fuzzing thread's calls inside measure() count: thread_local plain integers, so the hooks
// themselves never allocate.
thread_local bool heap_on = false;
thread_local long long heap_live = 0, heap_peak = 0;

void on_malloc(const volatile void*, std::size_t size) {
    if (!heap_on) return;
    heap_live += static_cast<long long>(size);
    heap_peak = std::max(heap_peak, heap_live);
}
void on_free(const volatile void* p) {
    // Called before the block is released, so its size is still known. A block allocated before
    // measure() and freed inside it (a workspace growing) lowers the live count below 0: the
    // peak is what the call added on top of what it started with.
    if (heap_on && p) heap_live -= static_cast<long long>(__sanitizer_get_allocated_size(p));
}

// Calls `call` and returns its result; `peak` gets the most bytes it held at once beyond what was
// held before, the result itself included (still alive when counting stops).
template <class Call>
auto measure(long long& peak, Call&& call) {
    heap_live = heap_peak = 0;
    heap_on = true;
    auto result = call();
    heap_on = false;
    peak = heap_peak;
    return result;
}

// ---- What one call of an entry point gives ---------------------------------------------------------
struct Outcome {
    attn::Error error;                // code None when it computed
    Matrix output;                    // the attention output, or the sampler's dot products (count×1)
    Matrix weights;                   // the step-by-step paths' A (empty for the others)
    long long peak = 0;               // measured: the call's peak heap
    long long held = 0;               // workspace bytes held before the call, for it to reuse (the fast kernels)
    std::uint64_t counted = 0;        // what its memory check counted (working_memory.hpp)
    bool exact_counts = false;        // the count is the peak itself, not a bound (the step paths)
    bool computes_first = false;      // a refusal may come after computing (multi-head's projection_overflow)
    attn::AttentionGrads grads;       // the backward pass's gradients
    attn::MultiHeadSteps multi_head;  // every intermediate of a multi-head call
    attn::TiledAttention tiled;       // attention_tiled's trace (its output in `output`)
    attn::LinearAttention linear;     // both orders of linear attention and its weights
};

enum class Family { Attention, Backward, MultiHead, Sampler, Tiled, Grouped, Linear };

// A multi-head call (multi_head.hpp): x (n, d_model), h heads, the four projections.
struct MultiHeadCall {
    Matrix x, w_q, w_k, w_v, w_o;
    std::size_t heads = 1;
    attn::AttentionOptions o;
};

// One input, decoded: an attention call with the backward pass's dO and a multi-head call made
// from it, or the sampler's arguments.
struct Case {
    Call call;
    Matrix d_output;  // (n_q, d_v): ∂L/∂(A·V)
    MultiHeadCall multi_head;
    std::int64_t dk = 0, count = 0, seed = 0;
    Lab lab;           // the efficiency lab's arguments (byte 0 in 200–229)
    Matrix grouped_k;  // the grouped call's K (fuzz_input.hpp's grouped_keys)
};

// What the backward pass and multi-head read after the attention call's bytes (past the end of an
// input they follow Reader's fixed pattern, so every input of the corpus has them):
//   n_q × d_v values        dO (a NaN or ±∞ among them is refused: gradient_not_finite)
//   4 bytes                 h − 1, a head's d_k − 1 and d_v − 1, d_out − 1 (each mod 4)
//   then the values of      W_Q (d_model, h·d_k), W_K (likewise), W_V (d_model, h·d_v),
//                           W_O (h·d_v, d_out), and with a custom mask its n × n cells
// X is the call's q: n = n_q, d_model = the call's d_k. The options are the call's. Twists 5–7
// break multi-head's shapes: 5 W_K one column wider, 6 W_O one row short, 7 h = 0.
void read_extras(Reader& in, const Header& h, Case& out) {
    out.d_output = in.matrix(h.n_q, h.d_v, h.n_q * h.d_v);
    MultiHeadCall& m = out.multi_head;
    const std::size_t heads = in.byte() % 4 + 1, d_k = in.byte() % 4 + 1, d_v = in.byte() % 4 + 1;
    const std::size_t d_out = in.byte() % 4 + 1, n = out.call.q.rows, d_model = out.call.q.cols;
    m.x = out.call.q;
    m.heads = h.twist == 7 ? 0 : heads;
    const std::size_t wk_cols = heads * d_k + (h.twist == 5 ? 1 : 0), wo_rows = heads * d_v - (h.twist == 6 ? 1 : 0);
    m.w_q = in.matrix(d_model, heads * d_k, d_model * heads * d_k);
    m.w_k = in.matrix(d_model, wk_cols, d_model * wk_cols);
    m.w_v = in.matrix(d_model, heads * d_v, d_model * heads * d_v);
    m.w_o = wo_rows == 0 ? Matrix{} : in.matrix(wo_rows, d_out, wo_rows * d_out);
    m.o = out.call.o;
    if (m.o.mask.kind == attn::MaskKind::Custom) {
        m.o.mask.keep = Matrix(n, n);
        for (std::size_t t = 0; t < m.o.mask.keep.size(); ++t) m.o.mask.keep.data[t] = in.mask_cell(t);
    }
}

struct EntryPoint {
    const char* name;
    Family family;
    Outcome (*run)(const Case&);
};

attn::AttentionShape shape_of(const Call& c) { return {c.q.rows, c.k.rows, c.q.cols, c.v.cols}; }

// Columns [block·width, (block + 1)·width) of m: a head's block (attention_grouped).
Matrix column_block(const Matrix& m, std::size_t block, std::size_t width) {
    Matrix out(m.rows, width);
    for (std::size_t r = 0; r < m.rows; ++r)
        for (std::size_t col = 0; col < width; ++col) out(r, col) = m(r, block * width + col);
    return out;
}

Outcome steps_outcome(attn::Result<attn::AttentionSteps>&& r, long long peak, const Call& c) {
    Outcome out;
    out.peak = peak;
    out.counted = attn::working_bytes(Operation::AttentionSteps, shape_of(c), c.o.axis);
    out.exact_counts = true;
    if (!r.ok()) {
        out.error = r.error;
        return out;
    }
    out.output = std::move(r.value.output);
    out.weights = std::move(r.value.weights);
    return out;
}

Outcome run_reference_steps(const Case& in) {
    const Call& c = in.call;
    long long peak = 0;
    auto r = measure(peak, [&] { return attn::attention_steps(c.q, c.k, c.v, c.o); });
    return steps_outcome(std::move(r), peak, c);
}

Outcome run_simd_steps(const Case& in) {
    const Call& c = in.call;
    long long peak = 0;
    auto r = measure(peak, [&] { return attn::attention_steps_simd(c.q, c.k, c.v, c.o); });
    return steps_outcome(std::move(r), peak, c);
}

// What attention and attention_streaming count: their own kernel's buffers, or, for the inputs
// they hand to the reference (teaching switches, NaN, magnitudes that could overflow), what
// attention_steps counts.
std::uint64_t fast_counted(Operation op, const Call& c) {
    const float divisor = attn::reference::score_divisor(c.o.scale, c.q.cols, c.o.temperature);
    if (!c.o.stable || c.o.axis != Axis::Row || attn::fast::needs_reference(c.q, c.k, c.v, divisor))
        return attn::working_bytes(Operation::AttentionSteps, shape_of(c), c.o.axis);
    return attn::working_bytes(op, shape_of(c));
}

// The fast paths keep their workspace from call to call. So that a call which grows it is measured
// from a known state, the workspace is emptied and then warmed by the same entry point on the
// first three fifths of the keys: each buffer it holds then is at most what the measured call needs
// of it, and the call grows the key-sized ones. What the call holds at its peak is those buffers
// plus what it allocates, and that must fit in its count: one buffer's old and new floats at once
// (std::vector's growth, resize from 0.6 n to max(1.2 n, n) while the 0.6 n are still held: 1.8 n
// against the n counted) do not (issue 19, item 6).
template <class Entry>
Outcome fast_outcome(Entry entry, Operation op, const Call& c) {
    attn::fast::thread_workspace() = attn::fast::Workspace{};
    if (c.k.rows > 1 && c.k.rows == c.v.rows && c.k.data.size() == c.k.rows * c.k.cols &&
        c.v.data.size() == c.v.rows * c.v.cols) {
        const std::size_t keys = (3 * c.k.rows + 4) / 5;
        Matrix k(keys, c.k.cols), v(keys, c.v.cols);
        std::copy(c.k.data.begin(), c.k.data.begin() + static_cast<std::ptrdiff_t>(k.size()), k.data.begin());
        std::copy(c.v.data.begin(), c.v.data.begin() + static_cast<std::ptrdiff_t>(v.size()), v.data.begin());
        attn::AttentionOptions o = c.o;
        o.mask = {};
        (void)entry(c.q, k, v, o);
    }
    Outcome out;
    const float divisor = attn::reference::score_divisor(c.o.scale, c.q.cols, c.o.temperature);
    const bool own_kernel = c.o.stable && c.o.axis == Axis::Row && !attn::fast::needs_reference(c.q, c.k, c.v, divisor);
    if (own_kernel) out.held = static_cast<long long>(attn::fast::thread_workspace().bytes());
    auto r = measure(out.peak, [&] { return entry(c.q, c.k, c.v, c.o); });
    out.counted = fast_counted(op, c);
    if (!r.ok())
        out.error = r.error;
    else
        out.output = std::move(r.value);
    return out;
}

Outcome run_attention(const Case& in) {
    return fast_outcome([](const Matrix& q, const Matrix& k, const Matrix& v,
                           const attn::AttentionOptions& o) { return attn::attention(q, k, v, o); },
                        Operation::Attention, in.call);
}

Outcome run_streaming(const Case& in) {
    return fast_outcome([](const Matrix& q, const Matrix& k, const Matrix& v,
                           const attn::AttentionOptions& o) { return attn::attention_streaming(q, k, v, o); },
                        Operation::AttentionStreaming, in.call);
}

Outcome run_sampler(const Case& in) {
    Outcome out;
    auto r = measure(out.peak, [&] { return attn::dot_product_samples(in.dk, in.count, in.seed); });
    // samples.cpp's check: the samples and one pair (q, k)
    out.counted = r.ok() ? attn::float_bytes(attn::size_sum(r.value.size(), attn::size_product(2, in.dk))) : 0;
    if (!r.ok()) {
        out.error = r.error;
        return out;
    }
    out.output = Matrix(r.value.size(), 1);
    std::copy(r.value.begin(), r.value.end(), out.output.data.begin());
    return out;
}

// The backward pass counts its forward steps and its gradients (backward_working_bytes): a bound,
// not the peak, since the forward steps' softmax temporaries are gone before the gradients come.
template <class Entry>
Outcome backward_outcome(Entry entry, const Case& in) {
    const Call& c = in.call;
    Outcome out;
    auto r = measure(out.peak, [&] { return entry(c.q, c.k, c.v, in.d_output, c.o); });
    out.counted = attn::backward_working_bytes(attn::shape_of(c.q), attn::shape_of(c.k), attn::shape_of(c.v), c.o.axis);
    if (!r.ok()) {
        out.error = r.error;
        return out;
    }
    out.output = std::move(r.value.forward.output);
    out.weights = std::move(r.value.forward.weights);
    out.grads = std::move(r.value.grads);
    return out;
}

Outcome run_backward(const Case& in) {
    return backward_outcome([](const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& g,
                               const attn::AttentionOptions& o) { return attn::attention_backward(q, k, v, g, o); },
                            in);
}

Outcome run_backward_simd(const Case& in) {
    return backward_outcome(
        [](const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& g, const attn::AttentionOptions& o) {
            return attn::attention_backward_simd(q, k, v, g, o);
        },
        in);
}

// Multi-head counts multi_head_working_bytes; it refuses an overflowing projection only once it
// has computed Q, K and V, so such a refusal may hold up to that count.
template <class Entry>
Outcome multi_head_outcome(Entry entry, const Case& in) {
    const MultiHeadCall& m = in.multi_head;
    const attn::MultiHeadInputs inputs{m.x, m.w_q, m.w_k, m.w_v, m.w_o};
    Outcome out;
    auto r = measure(out.peak, [&] { return entry(inputs, m.heads, m.o); });
    const attn::Shape mask = attn::shape_of(m.o.mask.keep);
    const bool shapes_ok = !attn::check_multi_head_shapes(
        attn::shape_of(m.x), attn::shape_of(m.w_q), attn::shape_of(m.w_k), attn::shape_of(m.w_v), attn::shape_of(m.w_o),
        static_cast<std::int64_t>(m.heads), m.o, m.o.mask.kind == attn::MaskKind::Custom ? &mask : nullptr);
    if (shapes_ok)
        out.counted = attn::multi_head_working_bytes(
            attn::multi_head_shape(attn::shape_of(m.x), attn::shape_of(m.w_q), attn::shape_of(m.w_v),
                                   attn::shape_of(m.w_o), m.heads),
            m.o.axis);
    out.computes_first = true;
    if (!r.ok()) {
        out.error = r.error;
        return out;
    }
    out.output = r.value.output;
    out.multi_head = std::move(r.value);
    return out;
}

Outcome run_multi_head(const Case& in) {
    return multi_head_outcome([](const attn::MultiHeadInputs& x, std::size_t h,
                                 const attn::AttentionOptions& o) { return attn::multi_head_attention_steps(x, h, o); },
                              in);
}

Outcome run_multi_head_simd(const Case& in) {
    return multi_head_outcome(
        [](const attn::MultiHeadInputs& x, std::size_t h, const attn::AttentionOptions& o) {
            return attn::multi_head_attention_steps_simd(x, h, o);
        },
        in);
}

// ---- The efficiency lab (issue 30) ----------------------------------------------------------------
// attention_tiled counts tiled_working_bytes (its trace included); the reference loop needs less.
// (Finding H7-1 in tests/fuzz/found/README.md: the microkernel loop's peak was above that count.)
Outcome tiled_outcome(bool fast, const Case& in) {
    const Call& c = in.call;
    Outcome out;
    auto r = measure(out.peak, [&] {
        return fast ? attn::attention_tiled(c.q, c.k, c.v, in.lab.tile, c.o)
                    : attn::attention_tiled_reference(c.q, c.k, c.v, in.lab.tile, c.o);
    });
    if (!r.ok()) {
        out.error = r.error;
        return out;
    }
    out.counted = attn::tiled_working_bytes(c.q.rows, c.k.rows, c.q.cols, c.v.cols, in.lab.tile, c.o.mask.kind);
    out.output = r.value.output;
    out.tiled = std::move(r.value);
    return out;
}

Outcome run_tiled_reference(const Case& in) { return tiled_outcome(false, in); }
Outcome run_tiled(const Case& in) { return tiled_outcome(true, in); }

// attention_grouped counts grouped_working_bytes: one head's attention (the SIMD path) or
// attention_steps (the reference path). On the SIMD path a head whose input attention hands to
// the reference (fast::needs_reference) works in attention_steps' buffers instead, after the
// fast heads' kept workspace is given back (simd_head in attention_grouped.cpp; finding H7-2 in
// tests/fuzz/found/README.md was the two held at once): a call whose heads all do is held to the
// reference path's count, one whose heads mix to the larger of the two counts. The fast paths'
// workspace starts empty, as fast_outcome's measured call grows it from a known state.
Outcome grouped_outcome(bool simd, const Case& in) {
    const Call& c = in.call;
    const Lab& lab = in.lab;
    if (simd) attn::fast::thread_workspace() = attn::fast::Workspace{};
    Outcome out;
    auto r = measure(out.peak, [&] {
        return simd ? attn::attention_grouped(c.q, in.grouped_k, c.v, lab.heads, lab.kv_heads, c.o)
                    : attn::attention_grouped_reference(c.q, in.grouped_k, c.v, lab.heads, lab.kv_heads, c.o);
    });
    if (!r.ok()) {
        out.error = r.error;
        return out;
    }
    const auto h = static_cast<std::size_t>(lab.heads), g = static_cast<std::size_t>(lab.kv_heads);
    const std::size_t d_k = c.q.cols / h;
    const float divisor = attn::reference::score_divisor(c.o.scale, d_k, c.o.temperature);
    std::size_t reference_heads = 0;
    for (std::size_t i = 0; i < h && simd; ++i)
        reference_heads +=
            attn::fast::needs_reference(column_block(c.q, i, d_k), column_block(in.grouped_k, i * g / h, d_k),
                                        column_block(c.v, i * g / h, c.v.cols / g), divisor);
    const auto count = [&](bool fast) {
        return attn::grouped_working_bytes(attn::shape_of(c.q), attn::shape_of(in.grouped_k), attn::shape_of(c.v), h, g,
                                           c.o, fast);
    };
    out.counted = reference_heads == 0   ? count(simd)
                  : reference_heads == h ? count(false)
                                         : std::max(count(true), count(false));
    out.output = std::move(r.value);
    return out;
}

Outcome run_grouped_reference(const Case& in) { return grouped_outcome(false, in); }
Outcome run_grouped(const Case& in) { return grouped_outcome(true, in); }

// attention_linear counts linear_working_bytes (each order's buffers, and W whole on the reference
// path, a row of it on the SIMD path).
Outcome linear_outcome(bool simd, const Case& in) {
    const Call& c = in.call;
    Outcome out;
    auto r = measure(out.peak, [&] {
        return simd ? attn::attention_linear(c.q, c.k, c.v, in.lab.linear)
                    : attn::attention_linear_reference(c.q, c.k, c.v, in.lab.linear);
    });
    if (!r.ok()) {
        out.error = r.error;
        return out;
    }
    out.counted =
        attn::linear_working_bytes(attn::shape_of(c.q), attn::shape_of(c.k), attn::shape_of(c.v), in.lab.linear, simd);
    out.linear = std::move(r.value);
    return out;
}

Outcome run_linear_reference(const Case& in) { return linear_outcome(false, in); }
Outcome run_linear(const Case& in) { return linear_outcome(true, in); }

// Every entry point, by family; the first of each family is its reference.
const EntryPoint kEntryPoints[] = {
    {"attention_steps", Family::Attention, run_reference_steps},
    {"attention_steps_simd", Family::Attention, run_simd_steps},
    {"attention", Family::Attention, run_attention},
    {"attention_streaming", Family::Attention, run_streaming},
    {"attention_backward", Family::Backward, run_backward},
    {"attention_backward_simd", Family::Backward, run_backward_simd},
    {"multi_head_attention_steps", Family::MultiHead, run_multi_head},
    {"multi_head_attention_steps_simd", Family::MultiHead, run_multi_head_simd},
    {"dot_product_samples", Family::Sampler, run_sampler},
    {"attention_tiled_reference", Family::Tiled, run_tiled_reference},
    {"attention_tiled", Family::Tiled, run_tiled},
    {"attention_grouped_reference", Family::Grouped, run_grouped_reference},
    {"attention_grouped", Family::Grouped, run_grouped},
    {"attention_linear_reference", Family::Linear, run_linear_reference},
    {"attention_linear", Family::Linear, run_linear},
};

// ---- The float64 computation ---------------------------------------------------------------------
// softmax(QKᵀ/divisor)·V in double from the float32 inputs and the float32 divisor, by the
// docs/api.md's rules (a masked key is left out, a kept key's value is always read, a fully masked line
// has weights and output 0), always in the stable form (the naive softmax is the same function;
// float32 is what overflows). NaN comes only from a NaN input, as in float32 — unless a float32
// score overflows to −∞ by itself: the reference gives it weight 0 even in a NaN line (the policy
// for a −∞ score, reference.hpp), so NaN cells are compared only where no score can overflow.
struct Float64 {
    std::vector<double> output, weights;   // (n_q, d_v), (n_q, n_k)
    std::vector<double> tolerance;         // per output cell (see below)
    std::vector<double> weight_tolerance;  // per weight
    bool exact = false;                    // float32 can neither overflow nor lose a weight here
    bool nan_exact = false;                // no float32 score can reach ±∞: NaN cells are float32's
};

bool kept(const attn::AttentionOptions& o, std::size_t i, std::size_t j) {
    if (o.mask.kind == attn::MaskKind::Causal) return j <= i;
    if (o.mask.kind == attn::MaskKind::Custom) return o.mask.keep(i, j) != 0.0f;
    return true;
}

// The tolerance, from float32's error bounds (ε = 2⁻²⁴), for an input whose scores are at most
// P = max_ij Σ_c |q_ic k_jc|:
//  - a float32 score, summed in any order, with or without fused multiply–adds, is within d·ε·P of
//    the exact one, plus d·2⁻¹⁴⁹ for products that underflow; divided by the divisor f, and with
//    the fast paths' (s − m)·(1/f) or log2(e)/f folded into the queries, a scaled score is within
//    δ = ((2d + 8)·ε·P + d·2⁻¹⁴⁸) / f;
//  - exp(s − m) then has a relative error of 2δ (s and m each off by δ), plus ε·|s − m| ≤ 88ε
//    from rounding its argument, plus the exp's own (std::exp and xsimd's: 1–2 ulp; fast_exp.hpp's
//    2^y: 2.1·10⁻⁷ ≈ 4ε); the line's sum adds n·ε relative, and A = e/sum doubles the exponent
//    errors: A_ij is within (4δ + (2n + 256)·ε)·A_ij for δ ≤ 10⁻², where e^(4δ) − 1 ≤ 5δ
//    (hence 5δ below);
//  - a weight whose exact value is below 2⁻¹²⁶ may come out 0 (an exp that flushes) or a
//    denormal: 2⁻¹²⁶ absolute;
//  - an output cell Σ_j A_ij v_jc, summed in float32, is within n_k·ε·Σ_j A_ij |v_jc| of the sum
//    of the float32 weights' products: so within (5δ + (2n + 256)·ε)·Σ_j A_ij |v_jc| of the exact
//    one, plus n_k·(2⁻¹²⁶·max|v| + 2⁻¹⁴⁹) for the weights and products below float32's normals.
// n is the length of the softmax's line (n_k along rows, n_q along columns) plus n_k.
// `exact` holds where those bounds hold: δ ≤ 10⁻², and nothing near float32's limits — scores and
// scaled scores below 10³⁰, the values' sums below 10³⁰, and for the naive softmax every kept
// scaled score within ±80 (beyond, its exp overflows or its weights are denormals of few digits).
// `extra` adds to the relative error bound (a path with roundings of its own: the tiles' α).
Float64 float64_attention(const Call& c, double extra = 0.0) {
    const Matrix &q = c.q, &k = c.k, &v = c.v;
    const attn::AttentionOptions& o = c.o;
    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const double f = attn::reference::score_divisor(o.scale, d, o.temperature);
    const double nan = std::numeric_limits<double>::quiet_NaN(), minus_inf = -std::numeric_limits<double>::infinity();
    std::vector<double> scaled(n_q * n_k);
    double p_max = 0, scaled_min = std::numeric_limits<double>::infinity(), scaled_max = minus_inf;
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = 0; j < n_k; ++j) {
            double s = 0, p = 0;
            for (std::size_t t = 0; t < d; ++t) {
                s += static_cast<double>(q(i, t)) * k(j, t);
                p += std::fabs(static_cast<double>(q(i, t)) * k(j, t));
            }
            if (!kept(o, i, j)) {
                scaled[i * n_k + j] = minus_inf;
                continue;
            }
            scaled[i * n_k + j] = s / f;
            if (!std::isnan(p)) p_max = std::max(p_max, p);
            if (!std::isnan(s)) {
                scaled_min = std::min(scaled_min, s / f);
                scaled_max = std::max(scaled_max, s / f);
            }
        }
    // softmax along each line (a row, or a column with axis Column)
    Float64 r;
    r.weights.assign(n_q * n_k, 0.0);
    const bool by_column = o.axis == Axis::Column;
    const std::size_t lines = by_column ? n_k : n_q, cells = by_column ? n_q : n_k;
    for (std::size_t line = 0; line < lines; ++line) {
        const auto at = [&](std::size_t cell) { return by_column ? cell * n_k + line : line * n_k + cell; };
        double m = minus_inf;
        for (std::size_t cell = 0; cell < cells; ++cell) {
            const double s = scaled[at(cell)];
            if (std::isnan(s)) m = nan;
            if (!std::isnan(m) && s > m) m = s;
        }
        if (m == minus_inf) continue;  // fully masked: weights 0
        double sum = 0;
        for (std::size_t cell = 0; cell < cells; ++cell)
            if (scaled[at(cell)] != minus_inf) sum += std::exp(scaled[at(cell)] - m);
        for (std::size_t cell = 0; cell < cells; ++cell)
            if (scaled[at(cell)] != minus_inf) r.weights[at(cell)] = std::exp(scaled[at(cell)] - m) / sum;
    }
    double v_max = 0, v_sum = 0;
    for (float x : v.data)
        if (!std::isnan(x)) v_max = std::max(v_max, std::fabs(static_cast<double>(x))), v_sum += std::fabs(x);
    const double delta = ((2.0 * d + 8.0) * kEps * p_max + d * 0x1p-148) / f;
    const double n = static_cast<double>(cells + n_k);
    const double relative = 5 * delta + (2 * n + 256) * kEps + extra;
    r.nan_exact = p_max <= 1e30 && p_max / f <= 1e30;
    r.exact = r.nan_exact && delta <= 1e-2 && v_sum <= 1e30 && (o.stable || (scaled_max <= 80 && scaled_min >= -80));
    r.output.assign(n_q * d_v, 0.0);
    r.tolerance.assign(n_q * d_v, 0.0);
    r.weight_tolerance.resize(n_q * n_k);
    for (std::size_t t = 0; t < n_q * n_k; ++t) r.weight_tolerance[t] = relative * std::fabs(r.weights[t]) + 0x1p-126;
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t ch = 0; ch < d_v; ++ch) {
            double sum = 0, size = 0;
            for (std::size_t j = 0; j < n_k; ++j)
                if (kept(o, i, j)) {
                    sum += r.weights[i * n_k + j] * v(j, ch);
                    size += std::fabs(r.weights[i * n_k + j] * v(j, ch));
                }
            r.output[i * d_v + ch] = sum;
            r.tolerance[i * d_v + ch] = relative * size + static_cast<double>(n_k) * (0x1p-126 * v_max + 0x1p-149);
        }
    return r;
}

// The sampler's float64: normal_matrix(2·count, dk, seed) holds the same pairs, and each dot
// product in double is exact to 2⁻⁵³; simd::dot's float32 sum, in W interleaved partial sums, is
// within d·ε·Σ|q_c k_c| of it (2⁻¹⁴⁹ per product that underflows: never, for N(0, 1) values).
void float64_sampler(const Case& in, std::vector<double>& dots, std::vector<double>& tolerance) {
    const auto m = attn::normal_matrix(2 * in.count, in.dk, in.seed);
    FUZZ_CHECK(m.ok(), "normal_matrix refused what dot_product_samples accepted: " + describe(m.error));
    dots.assign(static_cast<std::size_t>(in.count), 0.0);
    tolerance.assign(dots.size(), 0.0);
    for (std::size_t p = 0; p < dots.size(); ++p) {
        double s = 0, size = 0;
        for (std::size_t c = 0; c < static_cast<std::size_t>(in.dk); ++c) {
            s += static_cast<double>(m.value(2 * p, c)) * m.value(2 * p + 1, c);
            size += std::fabs(static_cast<double>(m.value(2 * p, c)) * m.value(2 * p + 1, c));
        }
        dots[p] = s;
        tolerance[p] = (static_cast<double>(in.dk) + 2) * kEps * size + 0x1p-149;
    }
}

// ---- The checks ------------------------------------------------------------------------------------
bool same_class(float got, float want) {
    if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
    if (std::isinf(want) || std::isinf(got)) return got == want;
    return true;
}

std::string cell(const char* entry, const char* what, std::size_t t, double got, double want) {
    return std::string(entry) + ": " + what + "[" + std::to_string(t) + "] = " + std::to_string(got) + ", expected " +
           std::to_string(want);
}

// Invariant 4.
void check_heap(const EntryPoint& e, const Outcome& out) {
    const std::string name = e.name;
    if (out.error) {
        if (out.computes_first && out.error.code == attn::ErrorCode::ProjectionOverflow)
            FUZZ_CHECK(static_cast<std::uint64_t>(out.peak) <= out.counted,
                       name + ": a refusal after the projections held " + std::to_string(out.peak) +
                           " bytes, its memory check counted " + std::to_string(out.counted));
        else
            FUZZ_CHECK(out.peak <= 4096, name + ": a refusal allocated " + std::to_string(out.peak) + " bytes");
        return;
    }
    FUZZ_CHECK(out.peak >= 0 && static_cast<std::uint64_t>(out.peak + out.held) <= out.counted,
               name + ": peak heap " + std::to_string(out.peak) + " bytes beyond the " + std::to_string(out.held) +
                   " of workspace it started with, its memory check counted " + std::to_string(out.counted));
    if (out.exact_counts)
        FUZZ_CHECK(static_cast<std::uint64_t>(out.peak) == out.counted,
                   name + ": peak heap " + std::to_string(out.peak) + " bytes, counted " + std::to_string(out.counted) +
                       " (the step paths' count is their peak)");
}

// Where no sum of the forward pass comes near float32's limit, in any order: no score near it
// (fuzz_attention.cpp's δ ≤ 10⁻²), the naive softmax's exp below its own (80), and no output sum
// near it (a row's weights sum to 1, or at most to n_k along columns, so the sums stay 1% clear of
// the limit when max|v| does). The backward pass's checks of non-finite cells hold only there
// (float64_backward): float64 overflows nowhere, and the SIMD backward's kernels sum in their own
// order. The forward's step paths need no such exemption (compare_attention): the SIMD steps hand
// every call that could overflow to the reference.
bool sums_clear_of_the_limit(const Call& c) {
    const double divisor = attn::reference::score_divisor(c.o.scale, c.q.cols, c.o.temperature);
    const double delta = (2.0 * c.q.cols + 8.0) * kEps * max_abs(c.q) * max_abs(c.k) * c.q.cols / divisor + 1e-7;
    double scaled_max = 0;
    for (std::size_t i = 0; i < c.q.rows; ++i)
        for (std::size_t j = 0; j < c.k.rows; ++j)
            if (kept(c.o, i, j)) {
                double s = 0;
                for (std::size_t t = 0; t < c.q.cols; ++t) s += static_cast<double>(c.q(i, t)) * c.k(j, t);
                if (!std::isnan(s)) scaled_max = std::max(scaled_max, std::fabs(s / divisor));
            }
    const double row_weights = c.o.axis == Axis::Row ? 1.0 : static_cast<double>(c.k.rows);
    const bool outputs_clear = max_abs(c.v) * row_weights * 1.01 < std::numeric_limits<float>::max();
    return delta <= 1e-2 && (c.o.stable || scaled_max < 80.0) && outputs_clear;
}

// Invariants 2–3 for one attention output and its weights (`out`, of entry point `name`) against
// the reference's (`ref`) and the float64 computation of the same call.
void compare_attention(const std::string& name, const Outcome& out, const Outcome& ref, const Float64& f64) {
    const char* entry = name.c_str();
    FUZZ_CHECK(out.output.rows == ref.output.rows && out.output.cols == ref.output.cols, name + ": output shape");
    if (!out.weights.data.empty()) {
        FUZZ_CHECK(out.weights.rows == ref.weights.rows && out.weights.cols == ref.weights.cols,
                   name + ": weights shape");
        for (std::size_t t = 0; t < ref.weights.size(); ++t)
            FUZZ_CHECK(same_class(out.weights.data[t], ref.weights.data[t]),
                       cell(entry, "weights", t, out.weights.data[t], ref.weights.data[t]) + " (the reference's)");
    }
    for (std::size_t t = 0; t < ref.output.size(); ++t) {
        const float got = out.output.data[t], want = ref.output.data[t];
        FUZZ_CHECK(same_class(got, want), cell(entry, "output", t, got, want) + " (the reference's)");
        // 3: NaN where the float64 computation has NaN; within tolerance where float32 is exact
        const double exact = f64.output[t];
        if (std::isnan(exact)) {
            if (f64.nan_exact)
                FUZZ_CHECK(std::isnan(got),
                           cell(entry, "output", t, got, exact) + " (float64: a NaN input reaches it)");
            continue;
        }
        if (!f64.exact) continue;
        FUZZ_CHECK(
            std::isfinite(got) && std::fabs(got - exact) <= f64.tolerance[t],
            cell(entry, "output", t, got, exact) + " (float64, tolerance " + std::to_string(f64.tolerance[t]) + ")");
        FUZZ_CHECK(std::fabs(static_cast<double>(got) - want) <= 2 * f64.tolerance[t],
                   cell(entry, "output", t, got, want) + " (the reference's)");
    }
    if (out.weights.size() == f64.weights.size() && f64.exact)
        for (std::size_t t = 0; t < f64.weights.size(); ++t) {
            const double exact = f64.weights[t], got = out.weights.data[t];
            if (std::isnan(exact)) continue;
            FUZZ_CHECK(std::fabs(got - exact) <= f64.weight_tolerance[t],
                       cell(entry, "weights", t, got, exact) + " (float64)");
        }
}

// Invariant 1 and the heap (4) for one family's outcomes: each refuses as its reference, or
// computes. Returns whether they computed.
bool same_refusals(Family family, const std::vector<Outcome>& outcomes) {
    const Outcome& ref = outcomes[0];
    std::size_t index = 0;
    for (const EntryPoint& e : kEntryPoints) {
        if (e.family != family) continue;
        const Outcome& out = outcomes[index++];
        check_heap(e, out);
        if (ref.error)
            FUZZ_CHECK(same_error(out.error, ref.error), std::string(e.name) + " refused otherwise: " +
                                                             describe(out.error) + " vs " + describe(ref.error));
        else
            FUZZ_CHECK(!out.error, std::string(e.name) + " refused: " + describe(out.error));
    }
    return !ref.error;
}

std::vector<Outcome> run_family(Family family, const Case& in) {
    std::vector<Outcome> outcomes;
    for (const EntryPoint& e : kEntryPoints)
        if (e.family == family) outcomes.push_back(e.run(in));
    return outcomes;
}

// Invariants 1–4 for the attention family. Returns the float64 computation (empty if refused),
// which the backward pass's checks start from.
Float64 check_attention(const Case& in) {
    const std::vector<Outcome> outcomes = run_family(Family::Attention, in);
    if (!same_refusals(Family::Attention, outcomes)) return {};
    Float64 f64 = float64_attention(in.call);
    std::size_t index = 0;
    for (const EntryPoint& e : kEntryPoints)
        if (e.family == Family::Attention) compare_attention(e.name, outcomes[index++], outcomes[0], f64);
    return f64;
}

// ---- The backward pass in float64 -----------------------------------------------------------------
// From the float32 inputs, dO and the float64 forward's weights A (float64_attention), by the
// docs/api.md's rule (a masked pair takes part in no sum and has gradient 0; every kept one is
// computed, whatever its weight):
//   dA = dO·Vᵀ, c = Σ_t A_t·dA_t along each softmax line, dZ = A∘(dA − c), dS = dZ / f,
//   dQ = dS·K, dK = dSᵀ·Q, dV = Aᵀ·dO (the sums over the kept pairs).
// Each cell carries a bound on float32's error, propagated step by step from the weights'
// tolerance eA and ε = 2⁻²⁴ per rounding (a sum of n terms in any order: (n + 2)·ε·Σ|terms|, plus
// n·2⁻¹⁴⁹ for products below float32's normals); the final bounds are doubled for the products of
// two rounding errors the propagation leaves out.
struct Float64Grads {
    std::vector<double> d_q, d_k, d_v, d_weights, d_scores;  // row-major, in the gradients' shapes
    std::vector<double> tol_q, tol_k, tol_v, tol_weights, tol_scores;
    bool exact = false;      // the bounds hold: the forward's are exact and nothing nears float32's limit
    bool nan_exact = false;  // NaN exactly where float64 has NaN, no ±∞: nothing on the way can overflow
};

Float64Grads float64_backward(const Call& c, const Matrix& d_o, const Float64& fwd) {
    const std::size_t n_q = c.q.rows, n_k = c.k.rows, d = c.q.cols, d_v = c.v.cols;
    const double f = attn::reference::score_divisor(c.o.scale, d, c.o.temperature);
    const std::vector<double>&a = fwd.weights, &e_a = fwd.weight_tolerance;
    double big = 0;  // the largest magnitude on the way: float32 overflows nowhere while it is ≤ 10³⁰
    const auto track = [&big](double x) {
        if (!std::isnan(x)) big = std::max(big, std::fabs(x));
    };
    Float64Grads g;
    g.d_weights.assign(n_q * n_k, 0.0);
    g.tol_weights.assign(n_q * n_k, 0.0);
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = 0; j < n_k; ++j) {
            double sum = 0, size = 0;
            for (std::size_t t = 0; t < d_v; ++t) {
                sum += static_cast<double>(d_o(i, t)) * c.v(j, t);
                size += std::fabs(static_cast<double>(d_o(i, t)) * c.v(j, t));
            }
            track(size);
            g.d_weights[i * n_k + j] = sum;
            g.tol_weights[i * n_k + j] = (d_v + 2.0) * kEps * size + d_v * 0x1p-149;
        }
    // the softmax's backward along each line, then the scaling
    std::vector<double> d_s(n_q * n_k, 0.0), e_s(n_q * n_k, 0.0);
    const bool by_column = c.o.axis == Axis::Column;
    const std::size_t lines = by_column ? n_k : n_q, cells = by_column ? n_q : n_k;
    for (std::size_t line = 0; line < lines; ++line) {
        const auto at = [&](std::size_t cell) { return by_column ? cell * n_k + line : line * n_k + cell; };
        const auto is_kept = [&](std::size_t cell) {
            return by_column ? kept(c.o, cell, line) : kept(c.o, line, cell);
        };
        double sum = 0, size = 0, error = 0;
        for (std::size_t cell = 0; cell < cells; ++cell) {
            if (!is_kept(cell)) continue;
            const std::size_t t = at(cell);
            const double da = g.d_weights[t], e_da = g.tol_weights[t];
            sum += a[t] * da;
            size += std::fabs(a[t] * da);
            error += e_a[t] * std::fabs(da) + std::fabs(a[t]) * e_da + e_a[t] * e_da;
        }
        track(size);
        const double e_c = error + (cells + 2.0) * kEps * size + cells * 0x1p-149;
        for (std::size_t cell = 0; cell < cells; ++cell) {
            if (!is_kept(cell)) continue;
            const std::size_t t = at(cell);
            const double diff = g.d_weights[t] - sum, e_diff = g.tol_weights[t] + e_c + kEps * std::fabs(diff);
            const double dz = a[t] * diff;
            const double e_z =
                e_a[t] * std::fabs(diff) + std::fabs(a[t]) * e_diff + e_a[t] * e_diff + kEps * std::fabs(dz) + 0x1p-149;
            track(std::fabs(diff) + e_diff);
            d_s[t] = dz / f;
            e_s[t] = e_z / f + kEps * std::fabs(d_s[t]) + 0x1p-149;
            track(std::fabs(d_s[t]) + e_s[t]);
        }
    }
    g.d_scores = d_s;
    g.tol_scores = e_s;
    // dQ = dS·K, dK = dSᵀ·Q, dV = Aᵀ·dO, over the kept pairs
    const auto product = [&](std::size_t rows, std::size_t cols, std::size_t terms, auto&& term,
                             std::vector<double>& out, std::vector<double>& tol) {
        out.assign(rows * cols, 0.0);
        tol.assign(rows * cols, 0.0);
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t col = 0; col < cols; ++col) {
                double sum = 0, size = 0, error = 0;
                for (std::size_t t = 0; t < terms; ++t) {
                    double x = 0, e_x = 0, y = 0;
                    if (!term(r, col, t, x, e_x, y)) continue;
                    sum += x * y;
                    size += std::fabs(x * y);
                    error += e_x * std::fabs(y);
                }
                track(size);
                out[r * cols + col] = sum;
                tol[r * cols + col] = 2 * (error + (terms + 2.0) * kEps * size + terms * 0x1p-149);
            }
    };
    product(
        n_q, d, n_k,
        [&](std::size_t i, std::size_t col, std::size_t j, double& x, double& e_x, double& y) {
            x = d_s[i * n_k + j], e_x = e_s[i * n_k + j], y = c.k(j, col);
            return kept(c.o, i, j);
        },
        g.d_q, g.tol_q);
    product(
        n_k, d, n_q,
        [&](std::size_t j, std::size_t col, std::size_t i, double& x, double& e_x, double& y) {
            x = d_s[i * n_k + j], e_x = e_s[i * n_k + j], y = c.q(i, col);
            return kept(c.o, i, j);
        },
        g.d_k, g.tol_k);
    product(
        n_k, d_v, n_q,
        [&](std::size_t j, std::size_t col, std::size_t i, double& x, double& e_x, double& y) {
            x = a[i * n_k + j], e_x = e_a[i * n_k + j], y = d_o(i, col);
            return kept(c.o, i, j);
        },
        g.d_v, g.tol_v);
    for (double& t : g.tol_scores) t *= 2;
    for (double& t : g.tol_weights) t *= 2;
    g.nan_exact = fwd.nan_exact && sums_clear_of_the_limit(c) && big <= 1e30;
    g.exact = g.nan_exact && fwd.exact;
    return g;
}

// Calls of more than kBackwardKeys keys are skipped: the backward pass has no kernel that changes
// with n_k past a few SIMD widths (unlike attention at 64 keys), so they cost time, not coverage,
// and the 20 s of scripts/run-tests.mjs go further on the rest.
constexpr std::size_t kBackwardKeys = 40;

// Invariants 1–4 for the backward pass: both paths refuse alike; NaN exactly where float64 has
// NaN and no ±∞ (so the paths' non-finite cells are the same) wherever nothing can overflow; every
// finite gradient within its bound of float64's, and of the reference's (twice the bound).
void check_backward(const Case& in, const Float64& forward) {
    if (in.call.k.rows > kBackwardKeys) return;
    const std::vector<Outcome> outcomes = run_family(Family::Backward, in);
    if (!same_refusals(Family::Backward, outcomes)) return;
    FUZZ_CHECK(forward.weights.size() == in.call.q.rows * in.call.k.rows,
               "attention_backward computed where attention_steps refused");
    const Float64Grads f64 = float64_backward(in.call, in.d_output, forward);
    const attn::AttentionGrads& ref = outcomes[0].grads;
    struct Field {
        const char* name;
        const Matrix attn::AttentionGrads::*got;
        const std::vector<double> Float64Grads::*exact;
        const std::vector<double> Float64Grads::*tol;
    };
    static const Field kFields[] = {
        {"gradQ", &attn::AttentionGrads::d_q, &Float64Grads::d_q, &Float64Grads::tol_q},
        {"gradK", &attn::AttentionGrads::d_k, &Float64Grads::d_k, &Float64Grads::tol_k},
        {"gradV", &attn::AttentionGrads::d_v, &Float64Grads::d_v, &Float64Grads::tol_v},
        {"gradWeights", &attn::AttentionGrads::d_weights, &Float64Grads::d_weights, &Float64Grads::tol_weights},
        {"gradScores", &attn::AttentionGrads::d_scores, &Float64Grads::d_scores, &Float64Grads::tol_scores},
    };
    std::size_t index = 0;
    for (const EntryPoint& e : kEntryPoints) {
        if (e.family != Family::Backward) continue;
        const attn::AttentionGrads& grads = outcomes[index++].grads;
        for (const Field& field : kFields) {
            const Matrix &got = grads.*field.got, &want = ref.*field.got;
            const std::vector<double>&exact = f64.*field.exact, &tol = f64.*field.tol;
            FUZZ_CHECK(got.size() == exact.size(), std::string(e.name) + ": " + field.name + " shape");
            for (std::size_t t = 0; t < exact.size(); ++t) {
                const float x = got.data[t];
                if (f64.nan_exact) {
                    FUZZ_CHECK(std::isnan(x) == std::isnan(exact[t]) && !std::isinf(x),
                               cell(e.name, field.name, t, x, exact[t]) + " (float64's NaN cells)");
                    FUZZ_CHECK(same_class(x, want.data[t]),
                               cell(e.name, field.name, t, x, want.data[t]) + " (the reference's)");
                }
                if (std::isnan(exact[t])) {
                    if (f64.nan_exact) FUZZ_CHECK(std::isnan(x), cell(e.name, field.name, t, x, exact[t]));
                    continue;
                }
                if (!f64.exact) continue;
                FUZZ_CHECK(
                    std::fabs(x - exact[t]) <= tol[t],
                    cell(e.name, field.name, t, x, exact[t]) + " (float64, tolerance " + std::to_string(tol[t]) + ")");
                FUZZ_CHECK(std::fabs(static_cast<double>(x) - want.data[t]) <= 2 * tol[t],
                           cell(e.name, field.name, t, x, want.data[t]) + " (the reference's)");
            }
        }
    }
}

// ---- Multi-head, stage by stage in float64 -------------------------------------------------------
// got = a·b against the float64 product of the same float32 operands: NaN where a NaN operand
// reaches a cell (always: float64 cannot overflow here, and NaN survives float32's overflow), and
// where no sum nears float32's limit, NaN only there and every other cell within (n + 2)·ε·Σ|terms|.
void check_product(const std::string& name, const char* what, const Matrix& got, const Matrix& a, const Matrix& b) {
    FUZZ_CHECK(got.rows == a.rows && got.cols == b.cols, name + ": " + what + " shape");
    for (std::size_t i = 0; i < a.rows; ++i)
        for (std::size_t col = 0; col < b.cols; ++col) {
            double sum = 0, size = 0;
            for (std::size_t t = 0; t < a.cols; ++t) {
                const double term = static_cast<double>(a(i, t)) * b(t, col);
                sum += term;
                if (!std::isnan(term)) size += std::fabs(term);
            }
            const float x = got(i, col);
            const std::size_t at = i * b.cols + col;
            if (std::isnan(sum)) {
                FUZZ_CHECK(std::isnan(x),
                           cell(name.c_str(), what, at, x, sum) + " (float64: a NaN operand reaches it)");
                continue;
            }
            if (size > 1e30) continue;
            const double tol = (a.cols + 2.0) * kEps * size + a.cols * 0x1p-149;
            FUZZ_CHECK(std::isfinite(x) && std::fabs(x - sum) <= tol,
                       cell(name.c_str(), what, at, x, sum) + " (float64, tolerance " + std::to_string(tol) + ")");
        }
}

bool same_bits(const Matrix& a, const Matrix& b) {
    if (a.rows != b.rows || a.cols != b.cols) return false;
    for (std::size_t t = 0; t < a.size(); ++t)
        if (!(a.data[t] == b.data[t] || (std::isnan(a.data[t]) && std::isnan(b.data[t])))) return false;
    return true;
}

// Invariants 1–4 for multi-head: both paths refuse alike; Q, K and V are X·W within float32
// rounding of float64 and equal bit for bit on both paths (one axpy per term, in order); every
// head is the single head on its column blocks, checked as the attention family is (the SIMD
// path's head against the reference path's, both against float64); concat holds the heads'
// outputs; the output is concat·W_O within rounding of float64 from the path's own concat (so
// its NaN cells are the reference's wherever the heads' are).
void check_multi_head(const Case& in) {
    const std::vector<Outcome> outcomes = run_family(Family::MultiHead, in);
    if (!same_refusals(Family::MultiHead, outcomes)) return;
    const MultiHeadCall& m = in.multi_head;
    const attn::MultiHeadSteps& ref = outcomes[0].multi_head;
    std::size_t index = 0;
    for (const EntryPoint& e : kEntryPoints) {
        if (e.family != Family::MultiHead) continue;
        const attn::MultiHeadSteps& st = outcomes[index++].multi_head;
        const std::string name = e.name;
        check_product(name, "q", st.q, m.x, m.w_q);
        check_product(name, "k", st.k, m.x, m.w_k);
        check_product(name, "v", st.v, m.x, m.w_v);
        FUZZ_CHECK(same_bits(st.q, ref.q) && same_bits(st.k, ref.k) && same_bits(st.v, ref.v),
                   name + ": Q, K, V differ from the reference path's");
        FUZZ_CHECK(st.heads.size() == m.heads, name + ": " + std::to_string(st.heads.size()) + " heads");
        for (std::size_t i = 0; i < m.heads; ++i) {
            const attn::HeadSteps& head = st.heads[i];
            const Call call{head.q, head.k, head.v, Matrix{}, m.o};
            Outcome got, want;
            got.output = head.steps.output;
            got.weights = head.steps.weights;
            want.output = ref.heads[i].steps.output;
            want.weights = ref.heads[i].steps.weights;
            compare_attention(name + " head " + std::to_string(i), got, want, float64_attention(call));
            const std::size_t d_v = head.v.cols;
            for (std::size_t r = 0; r < st.concat.rows; ++r)
                for (std::size_t col = 0; col < d_v; ++col) {
                    const float x = st.concat(r, i * d_v + col), y = head.steps.output(r, col);
                    FUZZ_CHECK(x == y || (std::isnan(x) && std::isnan(y)), name + ": concat is not the heads' outputs");
                }
        }
        check_product(name, "output", st.output, st.concat, m.w_o);
    }
}

// ---- The efficiency lab (issue 30), byte 0 in 200–229 ---------------------------------------------

// Invariants 1–4 for the tiles: attention_tiled refuses as attention_tiled_reference, or both
// compute — the same tiles in the trace, each tile's running max m the same (NaN for NaN, ±∞ for
// ±∞) and, where finite, within the scaled scores' rounding δ (check_output's, fuzz_attention.cpp)
// plus the division by the divisor that records the microkernels' m; and their outputs as the
// attention family's against float64 (stable, along rows: what tiles compute), the bound widened
// for the online softmax: each tile's α (a fast exp, within 2.1e-7, on the microkernels; std::exp
// on the reference loop) rescales O and ℓ once more (2ε), so a term of the first tile carries up to
// tiles·(2.1e-7 + 3ε) ≈ tiles·4e-7 more relative error than one of the last, and the output, a
// weighted mean, moves by up to twice that of Σ_j A_j·|v_j|.
void check_tiled_family(const Case& in) {
    const std::vector<Outcome> outcomes = run_family(Family::Tiled, in);
    if (!same_refusals(Family::Tiled, outcomes)) return;
    const Call& c = in.call;
    Call stable = c;
    stable.o.stable = true;
    stable.o.axis = Axis::Row;
    const double tiles = static_cast<double>((c.k.rows + in.lab.tile.cols - 1) / in.lab.tile.cols);
    const Float64 f64 = float64_attention(stable, 2 * tiles * 4e-7);
    const double divisor = outcomes[0].tiled.divisor;
    const double delta =
        ((2.0 * c.q.cols + 8.0) * kEps * max_abs(c.q) * max_abs(c.k) * c.q.cols + c.q.cols * 0x1p-148) / divisor;
    const std::vector<attn::TileStep>& want = outcomes[0].tiled.tiles;
    std::size_t index = 0;
    for (const EntryPoint& e : kEntryPoints) {
        if (e.family != Family::Tiled) continue;
        const Outcome& out = outcomes[index++];
        compare_attention(e.name, out, outcomes[0], f64);
        const std::vector<attn::TileStep>& got = out.tiled.tiles;
        FUZZ_CHECK(got.size() == want.size(), std::string(e.name) + ": " + std::to_string(got.size()) +
                                                  " tiles in the trace, the reference's " +
                                                  std::to_string(want.size()));
        for (std::size_t t = 0; t < got.size(); ++t) {
            const attn::TileStep &a = got[t], &b = want[t];
            FUZZ_CHECK(a.row_start == b.row_start && a.row_end == b.row_end && a.col_start == b.col_start &&
                           a.col_end == b.col_end,
                       std::string(e.name) + ": trace tile " + std::to_string(t) + " covers other cells");
            for (std::size_t r = 0; r < a.m.size(); ++r) {
                const float x = a.m.data[r], y = b.m.data[r];
                FUZZ_CHECK(same_class(x, y) && (!std::isfinite(y) || std::fabs(x - y) <= delta + kEps * std::fabs(y)),
                           std::string(e.name) + ": tile " + std::to_string(t) + "'s m[" + std::to_string(r) +
                               "] = " + std::to_string(x) + ", the reference's " + std::to_string(y));
            }
        }
    }
}

// Invariants 1–4 for shared heads: attention_grouped refuses as attention_grouped_reference, or
// both compute, and each query head's columns are checked as the attention family is: the SIMD
// path's head against the reference path's, both against float64 on the head's own blocks
// (Q_i, K_g, V_g with g = ⌊i·kv_heads/heads⌋).
void check_grouped_family(const Case& in) {
    const std::vector<Outcome> outcomes = run_family(Family::Grouped, in);
    if (!same_refusals(Family::Grouped, outcomes)) return;
    const Call& c = in.call;
    const auto h = static_cast<std::size_t>(in.lab.heads), g = static_cast<std::size_t>(in.lab.kv_heads);
    const std::size_t d_k = c.q.cols / h, d_v = c.v.cols / g;
    for (std::size_t i = 0; i < h; ++i) {
        const Call head{column_block(c.q, i, d_k), column_block(in.grouped_k, i * g / h, d_k),
                        column_block(c.v, i * g / h, d_v), Matrix{}, c.o};
        const Float64 f64 = float64_attention(head);
        Outcome want;
        want.output = column_block(outcomes[0].output, i, d_v);
        std::size_t index = 0;
        for (const EntryPoint& e : kEntryPoints) {
            if (e.family != Family::Grouped) continue;
            Outcome got;
            got.output = column_block(outcomes[index++].output, i, d_v);
            compare_attention(std::string(e.name) + " head " + std::to_string(i), got, want, f64);
        }
    }
}

// Linear attention in float64, from the float32 inputs with φ in double: both orders' output
// (the same number in exact arithmetic) and the weights, each cell with the bound of either
// float32 order (ε = 2⁻²⁴, γ = (n_k + d_k + 4)·ε): with W_j = φ(q_i)·φ(k_j) ≥ 0 over row i's
// visible keys, D = Σ_j W_j and R = Σ_j W_j·|v_j,col|, a numerator is within γ·R of the exact one
// (each of its products, (φ(q)·φ(k))·v or φ(q)·(φ(k)·v), has one signed factor, so its sums' errors
// add up to that), a denominator within γ·D, the output within (2γ + 2ε)·R/D, a weight within
// (2γ + 2ε)·A; each product below float32's normals adds 2⁻¹⁴⁹·(1 + max|v|)/D. A row counts
// (`comparable`) only where D ≥ 2⁻¹⁰⁰ (below, its sums are denormals of few digits: 0/0 in one
// path, a number in the other) and nothing on the way — φ, D, R, φ(K)ᵀ|V|, φ(K)ᵀ1 — exceeds 10³⁰;
// a NaN input's cells are NaN (φ(NaN) is NaN, and every sum it enters is).
struct Float64Linear {
    std::vector<double> output, tolerance, weights, weight_tolerance;  // (n_q, d_v), (n_q, n_k)
    std::vector<bool> comparable;                                      // per row
};

Float64Linear float64_linear(const Call& c, bool causal) {
    const Matrix &q = c.q, &k = c.k, &v = c.v;
    const std::size_t n_q = q.rows, n_k = k.rows, d = q.cols, d_v = v.cols;
    const auto phi = [](float x) { return x > 0 ? static_cast<double>(x) + 1 : std::exp(static_cast<double>(x)); };
    const auto grow = [](double& big, double x) {
        if (!std::isnan(x)) big = std::max(big, x);
    };
    double big = max_abs(v);
    for (const Matrix* m : {&q, &k})
        for (float x : m->data) grow(big, phi(x));
    for (std::size_t t = 0; t < d; ++t)
        for (std::size_t col = 0; col < d_v; ++col) {
            double s = 0, z = 0;
            for (std::size_t j = 0; j < n_k; ++j) s += phi(k(j, t)) * std::fabs(v(j, col)), z += phi(k(j, t));
            grow(big, s), grow(big, z);
        }
    const double gamma = (static_cast<double>(n_k + d) + 4) * kEps, relative = 2 * gamma + 2 * kEps;
    const double products = static_cast<double>(n_k * (d + 1) * (d_v + 2) + d * (d_v + 1));
    Float64Linear r;
    r.output.assign(n_q * d_v, 0.0);
    r.tolerance.assign(n_q * d_v, 0.0);
    r.weights.assign(n_q * n_k, 0.0);
    r.weight_tolerance.assign(n_q * n_k, 0.0);
    r.comparable.assign(n_q, false);
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t seen = causal ? std::min(i + 1, n_k) : n_k;
        std::vector<double> w(seen, 0.0);
        double den = 0, den_clean = 0;
        for (std::size_t j = 0; j < seen; ++j) {
            for (std::size_t t = 0; t < d; ++t) w[j] += phi(q(i, t)) * phi(k(j, t));
            den += w[j];
            if (!std::isnan(w[j])) den_clean += w[j];
        }
        const double underflow = products * 0x1p-149 * (1 + max_abs(v)) / den_clean;
        for (std::size_t j = 0; j < seen; ++j) {
            r.weights[i * n_k + j] = w[j] / den;
            r.weight_tolerance[i * n_k + j] = relative * std::fabs(w[j] / den) + underflow;
        }
        double size_max = 0;
        for (std::size_t col = 0; col < d_v; ++col) {
            double num = 0, size = 0;
            for (std::size_t j = 0; j < seen; ++j) {
                num += w[j] * v(j, col);
                if (!std::isnan(w[j] * v(j, col))) size += std::fabs(w[j] * v(j, col));
            }
            r.output[i * d_v + col] = num / den;
            r.tolerance[i * d_v + col] = relative * size / den_clean + underflow;
            size_max = std::max(size_max, size);
        }
        r.comparable[i] = big <= 1e30 && den_clean >= 0x1p-100 && den_clean <= 1e30 && size_max <= 1e30;
    }
    return r;
}

// One result of one order against float64: on comparable rows, NaN exactly where float64 has NaN
// and every other cell within its bound.
void compare_linear(const std::string& name, const char* what, const Matrix& got, const std::vector<double>& exact,
                    const std::vector<double>& tol, const std::vector<bool>& comparable) {
    if (got.data.empty()) return;
    for (std::size_t t = 0; t < got.size(); ++t) {
        if (!comparable[t / got.cols]) continue;
        const float x = got.data[t];
        if (std::isnan(exact[t])) {
            FUZZ_CHECK(std::isnan(x), cell(name.c_str(), what, t, x, exact[t]) + " (float64: a NaN input reaches it)");
            continue;
        }
        FUZZ_CHECK(std::isfinite(x) && std::fabs(x - exact[t]) <= tol[t],
                   cell(name.c_str(), what, t, x, exact[t]) + " (float64, tolerance " + std::to_string(tol[t]) + ")");
    }
}

// Invariants 1–4 for linear attention: attention_linear refuses as attention_linear_reference,
// or both compute; the linear order is the reference's bit for bit (every sum in order, axpy and
// divide rounding as the plain loops); and each order and the weights of either path are within
// float64_linear's bound of float64 on its comparable rows.
void check_linear_family(const Case& in) {
    const std::vector<Outcome> outcomes = run_family(Family::Linear, in);
    if (!same_refusals(Family::Linear, outcomes)) return;
    const Float64Linear f64 = float64_linear(in.call, in.lab.linear.causal);
    const attn::LinearAttention& ref = outcomes[0].linear;
    std::size_t index = 0;
    for (const EntryPoint& e : kEntryPoints) {
        if (e.family != Family::Linear) continue;
        const attn::LinearAttention& got = outcomes[index++].linear;
        FUZZ_CHECK(same_bits(got.linear, ref.linear),
                   std::string(e.name) + ": the linear order is not the reference's");
        compare_linear(e.name, "quadratic", got.quadratic, f64.output, f64.tolerance, f64.comparable);
        compare_linear(e.name, "linear", got.linear, f64.output, f64.tolerance, f64.comparable);
        compare_linear(e.name, "weights", got.weights, f64.weights, f64.weight_tolerance, f64.comparable);
    }
}

// Invariants 1–4 for the sampler: the same refusals as its ranges, and samples within float32
// rounding of the float64 dot products of normal_matrix's pairs. Calls of more than 2¹⁶ normal
// values are skipped (fuzz_attention.cpp's rule: they cost time, not coverage).
void check_sampler_family(Reader& r) {
    Case in;
    const auto arg = [&r] { return static_cast<std::int64_t>(r.byte() % 2 ? r.u64() : r.byte() * 37u % 1100u); };
    in.dk = arg(), in.count = arg(), in.seed = arg();
    const auto& lim = attn::kSampleLimits;
    const bool in_range = in.dk >= lim.min_dk && in.dk <= lim.max_dk && in.count >= lim.min_count &&
                          in.count <= lim.max_count && in.seed >= lim.min_seed && in.seed <= lim.max_seed;
    if (in_range && 2 * in.dk * in.count > (std::int64_t{1} << 16)) return;
    std::vector<double> dots, tolerance;
    if (in_range) float64_sampler(in, dots, tolerance);
    for (const EntryPoint& e : kEntryPoints) {
        if (e.family != Family::Sampler) continue;
        const Outcome out = e.run(in);
        check_heap(e, out);
        FUZZ_CHECK(!out.error == in_range, std::string(e.name) + ": " + (out.error ? describe(out.error) : "accepted"));
        if (out.error) continue;
        FUZZ_CHECK(out.output.size() == dots.size(), std::string(e.name) + ": not count samples");
        for (std::size_t p = 0; p < dots.size(); ++p)
            FUZZ_CHECK(std::fabs(out.output.data[p] - dots[p]) <= tolerance[p],
                       cell(e.name, "samples", p, out.output.data[p], dots[p]) + " (float64)");
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
#ifdef ATTN_FUZZ_LANES
    // The SSE build must really run the wasm layout: 4 lanes, groups of 8 query rows.
    if (attn::simd::batch_size() != ATTN_FUZZ_LANES || attn::fast::kMR != 2 * ATTN_FUZZ_LANES)
        finding("built for " + std::to_string(ATTN_FUZZ_LANES) + " lanes, runs " +
                std::to_string(attn::simd::batch_size()));
#endif
    if (!__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free)) finding("no room for the allocator hooks");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Reader in{data, size};
    const std::uint8_t mode = in.byte();
    if (mode >= 240) return 0;  // claimed shapes: fuzz_attention.cpp
    if (mode >= 230) {
        check_sampler_family(in);
        return 0;
    }
    const Header h = read_header(in);
    Case c;
    c.call = read_call(in, h);
    if (mode >= kLabFirst && mode < kLabEnd) {
        c.lab = read_lab(in, h);
        c.grouped_k = grouped_keys(c.call.q, c.call.k, c.lab);
        check_tiled_family(c);
        check_grouped_family(c);
        check_linear_family(c);
        return 0;
    }
    read_extras(in, h, c);
    check_backward(c, check_attention(c));
    check_multi_head(c);
    return 0;
}
