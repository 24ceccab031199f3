// bindings.cpp — the Embind layer: JS objects in, JS-owned Float32Array copies out (or, for the
// output-only entries, a copy into the Float32Array the caller passed as `out`).
//
// It only translates. The JS wrapper (api.mjs) has already read every value the caller passed
// into a plain snapshot and checked its JS types; option names become enums through the core's
// tables (options.hpp); the core checks everything else and returns errors as values, which come
// back here as { error: { code, message, … } } for api.mjs to throw as a JS Error. (Throwing from
// C++ would need -fexceptions.)
//
// Every entry point runs in three steps: read the shapes and options (plain numbers and names), let
// the core check them (check_*_shapes), and only then copy the values into wasm memory and compute.
// So an oversized or mismatched argument is refused before a single value is copied.
//
// Memory on every path: a JS exception thrown into the middle of a call (a caller calling the
// bindings directly with a detached buffer, say) unwinds the wasm frames without running C++
// destructors, so locals would leak for the module's lifetime. Whatever a call copies in or computes
// therefore lives in one CallMemory, which the next call empties first (begin_call) and a call that
// finishes empties on its way out (end_call). It and the helpers every binding file shares are in
// bindings_support.hpp.
//
// Nothing the caller installed runs during a call: every object a call hands back — results,
// errors, their fields — is made without a prototype (new_object: Object.create(null), captured
// when the module starts), so that writing its properties defines them and can reach no setter on
// Object.prototype (a setter there used to run mid-call, call the module again and have
// begin_call free the outer call's memory under it). What they read comes without a prototype too:
// api.mjs hands over prototype-less records, so an option left out, such as `out`, is absent here
// rather than whatever a getter on Object.prototype answers. api.mjs copies the results into
// ordinary objects once the call has returned, and refuses a call made while another runs
// (wasm/boundary.mjs).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "attention.hpp"
#include "bindings_support.hpp"
#include "multi_head.hpp"
#include "samples.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

using emscripten::val;

namespace {

using namespace bindings;
// (declared here too, so that this file's to_js overloads and the shared ones are found together)
using bindings::to_js;

// Where a call keeps its result, by type.
attn::Result<attn::AttentionSteps>& result_slot(CallMemory& m, const attn::AttentionSteps*) { return m.steps; }
attn::Result<attn::Matrix>& result_slot(CallMemory& m, const attn::Matrix*) { return m.matrix; }

// MultiplyAdds → { projections, scores, weighting, outputProjection, total }.
val to_js(const attn::MultiplyAdds& m) {
    val out = new_object();
    const std::pair<const char*, std::uint64_t> counts[] = {{"projections", m.projections},
                                                            {"scores", m.scores},
                                                            {"weighting", m.weighting},
                                                            {"outputProjection", m.output_projection},
                                                            {"total", m.total()}};
    for (const auto& [name, count] : counts) out.set(name, static_cast<double>(count));
    return out;
}

// HeadSteps → the head's AttentionSteps with its blocks { q, k, v } beside them.
val to_js(const attn::HeadSteps& head) {
    val out = to_js(head.steps);
    out.set("q", to_js(head.q));
    out.set("k", to_js(head.k));
    out.set("v", to_js(head.v));
    return out;
}

// MultiHeadSteps → { q, k, v, heads: { length, 0: head 1, … }, concat, output, multiplyAdds, nonFinite }.
val to_js(const attn::MultiHeadSteps& st) {
    val out = new_object();
    out.set("q", to_js(st.q));
    out.set("k", to_js(st.k));
    out.set("v", to_js(st.v));
    out.set("heads", list_to_js(st.heads, [](const attn::HeadSteps& h) { return to_js(h); }));
    out.set("concat", to_js(st.concat));
    out.set("output", to_js(st.output));
    out.set("multiplyAdds", to_js(st.multiply_adds));
    val counts = new_object();
    const std::pair<const char*, std::size_t> cells[] = {{"q", st.non_finite.q},
                                                         {"k", st.non_finite.k},
                                                         {"v", st.non_finite.v},
                                                         {"concat", st.non_finite.concat},
                                                         {"output", st.non_finite.output}};
    for (const auto& [name, count] : cells) counts.set(name, static_cast<double>(count));
    out.set("nonFinite", counts);
    return out;
}

// One binding per entry point that takes Q, K, V and the options: attention_steps (the
// reference), attention_steps_simd, attention and attention_streaming.
template <class T, attn::Result<T> (*entry)(const attn::Matrix&, const attn::Matrix&, const attn::Matrix&,
                                            const attn::AttentionOptions&)>
val call_with_options(const val& q, const val& k, const val& v, const val& o) {
    CallMemory& m = begin_call();
    // 1. shapes and options, 2. checked by the core, 3. values copied, computed, handed back
    const auto options = read_options(o);
    if (!options.ok()) return end_call(error(options.error));
    m.options = options.value;
    const bool custom = m.options.mask.kind == attn::MaskKind::Custom;
    const attn::Shape sq = shape_of(q), sk = shape_of(k), sv = shape_of(v);
    const attn::Shape mask = custom ? shape_of(o[names().mask_matrix]) : attn::Shape{};
    if (attn::Error e = attn::check_attention_shapes(sq, sk, sv, m.options.temperature, custom ? &mask : nullptr))
        return end_call(error(e));
    // The output-only entries take an optional `out`, a Float32Array (api.mjs has checked its type),
    // read again where it is used rather than held across the copies, as copy_matrix reads data.
    bool into = false;
    if constexpr (std::is_same_v<T, attn::Matrix>) into = !o[names().out].isUndefined();
    if (into)
        if (attn::Error e = attn::check_output_shape(sq, sv, o[names().out][names().length].as<unsigned>()))
            return end_call(error(e));
    copy_matrix(q, sq, m.q);
    copy_matrix(k, sk, m.k);
    copy_matrix(v, sv, m.v);
    if (custom) copy_matrix(o[names().mask_matrix], mask, m.options.mask.keep);
    auto& r = result_slot(m, static_cast<const T*>(nullptr));
    r = entry(m.q, m.k, m.v, m.options);
    if (!r.ok()) return end_call(error(r.error));
    if constexpr (std::is_same_v<T, attn::Matrix>)
        if (into) return end_call(to_js_into(r.value, o[names().out]));
    return end_call(to_js(r.value));
}

// project (the reference) and project_simd, in the same three steps.
template <attn::Result<attn::Matrix> (*product)(const attn::Matrix&, const attn::Matrix&)>
val project(const val& x, const val& w) {
    CallMemory& m = begin_call();
    const attn::Shape sx = shape_of(x), sw = shape_of(w);
    if (attn::Error e = attn::check_projection_shapes(sx, sw)) return end_call(error(e));
    copy_matrix(x, sx, m.x);
    copy_matrix(w, sw, m.w);
    m.matrix = product(m.x, m.w);
    return end_call(m.matrix.ok() ? to_js(m.matrix.value) : error(m.matrix.error));
}

// multi_head_attention_steps (the reference) and multi_head_attention_steps_simd, in the same three
// steps: x, wq, wk, wv, wo as { rows, cols, data }, heads a whole number (api.mjs has checked that it
// is a safe integer, so the int64 cast is exact; the core checks its range), the options as above.
template <attn::Result<attn::MultiHeadSteps> (*entry)(const attn::MultiHeadInputs&, std::size_t,
                                                      const attn::AttentionOptions&)>
val multi_head(const val& x, const val& wq, const val& wk, const val& wv, const val& wo, double heads, const val& o) {
    CallMemory& m = begin_call();
    const auto options = read_options(o);
    if (!options.ok()) return end_call(error(options.error));
    m.options = options.value;
    const bool custom = m.options.mask.kind == attn::MaskKind::Custom;
    const attn::Shape sx = shape_of(x), sq = shape_of(wq), sk = shape_of(wk), sv = shape_of(wv), so = shape_of(wo);
    const attn::Shape mask = custom ? shape_of(o[names().mask_matrix]) : attn::Shape{};
    // (a NaN or a huge number from a caller who skipped api.mjs is clamped first: the cast of a
    // double outside int64's range is undefined, and the core refuses 0 or ±9e18 by its own range)
    const auto h = static_cast<std::int64_t>(heads == heads ? std::clamp(heads, -9e18, 9e18) : 0.0);
    if (attn::Error e = attn::check_multi_head_shapes(sx, sq, sk, sv, so, h, m.options, custom ? &mask : nullptr))
        return end_call(error(e));
    copy_matrix(x, sx, m.x);
    copy_matrix(wq, sq, m.w);
    copy_matrix(wk, sk, m.w_k);
    copy_matrix(wv, sv, m.w_v);
    copy_matrix(wo, so, m.w_o);
    if (custom) copy_matrix(o[names().mask_matrix], mask, m.options.mask.keep);
    m.multi_head = entry({m.x, m.w, m.w_k, m.w_v, m.w_o}, static_cast<std::size_t>(h), m.options);
    return end_call(m.multi_head.ok() ? to_js(m.multi_head.value) : error(m.multi_head.error));
}

// { projections, scores, weighting, outputProjection, total }: the multiply-adds of a multi-head
// call of that shape (core/multi_head.hpp), with no matrix: for the page's "h heads cost what one
// head costs" beside a call of another h. api.mjs has checked that every size is a whole number
// from 1 to MAX_DIM; heads is held to multiHeadAttentionSteps' range here, by the core's check.
val multiply_adds(double n, double d_model, double heads, double d_k, double d_v, double d_out) {
    const auto size = [](double x) { return static_cast<std::uint64_t>(x); };
    if (attn::Error e = attn::check_heads(static_cast<std::int64_t>(heads))) return error(e);
    return to_js(attn::multiply_adds({size(n), size(d_model), size(heads), size(d_k), size(d_v), size(d_out)}));
}

// The core's tables of names, for tests/node/vocabulary.test.mjs to hold wasm/vocabulary.mjs to:
// { scales, axes, masks, errorCodes }, each an array of strings.
val vocabulary() {
    val out = new_object();
    out.set("scales", names_of(attn::kScaleNames));
    out.set("axes", names_of(attn::kAxisNames));
    out.set("masks", names_of(attn::kMaskNames));
    out.set("errorCodes", names_of(attn::kErrorCodeNames));
    out.set("maxHeads", static_cast<unsigned>(attn::kMaxHeads));
    return out;
}

// An empty Uint8Array over the module's memory, for api.mjs to know that memory's buffer by (an
// `out` or an input over it would be overwritten, or detached when the memory grows, mid-call).
val memory_view() { return val(emscripten::typed_memory_view(0, static_cast<const unsigned char*>(nullptr))); }

// Bytes the allocator has handed out and not taken back: what a leak makes grow, long before the
// memory itself grows. For the tests (tests/node/soak.test.mjs, hostile-calls.test.mjs); api.mjs
// does not expose it.
double heap_in_use() { return static_cast<double>(mallinfo().uordblks); }

std::string version() { return attn::version(); }
bool simd() { return attn::simd_enabled(); }
bool relaxed_simd() { return attn::relaxed_simd_enabled(); }

// --- The labs (issue 11): the sampler of "why divide by √d_k" and the memory figures of "the
// cost of n²". api.mjs has checked that every number is a safe integer, so the int64 casts are
// exact; the core checks the ranges.

// dot_product_samples → { rows: 1, cols: count, data } (api.mjs hands on data alone). Like every
// call that allocates, its result lives in CallMemory until it is a JS-owned copy.
val dot_product_samples(double dk, double count, double seed) {
    CallMemory& m = begin_call();
    auto r = attn::dot_product_samples(static_cast<std::int64_t>(dk), static_cast<std::int64_t>(count),
                                       static_cast<std::int64_t>(seed));
    if (!r.ok()) return end_call(error(r.error));
    const std::size_t n = r.value.size();
    m.matrix = attn::Result<attn::Matrix>::success(attn::Matrix(1, n, std::move(r.value)));
    return end_call(to_js(m.matrix.value));
}

val normal_matrix(double rows, double cols, double seed) {
    CallMemory& m = begin_call();
    m.matrix = attn::normal_matrix(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols),
                                   static_cast<std::int64_t>(seed));
    return end_call(m.matrix.ok() ? to_js(m.matrix.value) : error(m.matrix.error));
}

// { bytes, limit }: the working memory of the operation named `operation` on q (nq, d),
// k (nk, d), v (nk, dv), as its memory check counts it (core/working_memory.hpp); for
// attention_tiled with tiles of tile_rows × tile_cols (checked as attention_tiled checks them),
// its trace kept or not, under `mask`.
val working_memory(const std::string& operation, double nq, double nk, double d, double dv, const std::string& axis,
                   double tile_rows, double tile_cols, bool trace, const std::string& mask) {
    const auto op = attn::parse_option("operation", attn::kOperationNames, operation);
    if (!op.ok()) return error(op.error);
    const auto ax = attn::parse_option("axis", attn::kAxisNames, axis);
    if (!ax.ok()) return error(ax.error);
    const auto mk = attn::parse_option("mask", attn::kMaskNames, mask);
    if (!mk.ok()) return error(mk.error);
    const attn::AttentionShape shape{static_cast<std::uint64_t>(nq), static_cast<std::uint64_t>(nk),
                                     static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(dv)};
    const attn::TiledPlan tiled{
        {static_cast<std::int64_t>(tile_rows), static_cast<std::int64_t>(tile_cols)},
        trace ? attn::Trace::Keep : attn::Trace::Skip,
        mk.value,
    };
    if (op.value == attn::Operation::AttentionTiled)
        if (attn::Error e = attn::check_tile_size(tiled.tile, shape.n_q, shape.n_k)) return error(e);
    val out = new_object();
    out.set("bytes", static_cast<double>(attn::working_bytes(op.value, shape, ax.value, tiled)));
    out.set("limit", static_cast<double>(attn::kMemoryLimitBytes));
    return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
    names();  // the constructors captured now, while nothing a caller wrote has run
    emscripten::function("attentionSteps", &call_with_options<attn::AttentionSteps, attn::attention_steps>);
    emscripten::function("attentionStepsSimd", &call_with_options<attn::AttentionSteps, attn::attention_steps_simd>);
    emscripten::function("attention", &call_with_options<attn::Matrix, attn::attention>);
    emscripten::function("attentionStreaming", &call_with_options<attn::Matrix, attn::attention_streaming>);
    emscripten::function("project", &project<attn::project>);
    emscripten::function("projectSimd", &project<attn::project_simd>);
    emscripten::function("multiHeadAttentionSteps", &multi_head<attn::multi_head_attention_steps>);
    emscripten::function("multiHeadAttentionStepsSimd", &multi_head<attn::multi_head_attention_steps_simd>);
    emscripten::function("multiHeadMultiplyAdds", &multiply_adds);
    emscripten::function("version", &version);
    emscripten::function("vocabulary", &vocabulary);
    emscripten::function("simd", &simd);
    emscripten::function("relaxedSimd", &relaxed_simd);
    emscripten::function("dotProductSamples", &dot_product_samples);
    emscripten::function("normalMatrix", &normal_matrix);
    emscripten::function("workingMemory", &working_memory);
    emscripten::function("heapInUse", &heap_in_use);
    emscripten::function("memoryView", &memory_view);
}

// --- The backward pass (issue 17): attentionBackward on either path, and through the whole
// multi-head layer (issue 26) multiHeadAttentionBackward. Their own CallMemory-like store, emptied
// by the next call and on the way out, as the calls above do with theirs.
#include "backward_attention.hpp"
#include "multi_head_backward.hpp"

namespace {

struct BackwardMemory {
    attn::Matrix q, k, v, d_output;
    attn::Matrix x, w_q, w_k, w_v, w_o;  // multiHeadAttentionBackward's inputs
    attn::AttentionOptions options;
    attn::Result<attn::AttentionBackward> result;
    attn::Result<attn::MultiHeadBackward> multi_head;
};
BackwardMemory& backward_memory() {
    static BackwardMemory memory;
    return memory;
}
val end_backward_call(val out) {
    backward_memory() = BackwardMemory{};
    return out;
}

// AttentionBackward → { forward: { scores, …, output, nonFinite }, gradV, gradWeights, gradScaled,
// gradScores, gradQ, gradK }.
val to_js(const attn::AttentionBackward& b) {
    val out = new_object();
    out.set("forward", to_js(b.forward));
    out.set("gradV", to_js(b.grads.d_v));
    out.set("gradWeights", to_js(b.grads.d_weights));
    out.set("gradScaled", to_js(b.grads.d_scaled));
    out.set("gradScores", to_js(b.grads.d_scores));
    out.set("gradQ", to_js(b.grads.d_q));
    out.set("gradK", to_js(b.grads.d_k));
    return out;
}

// attention_backward (the reference) and attention_backward_simd, in the same three steps as
// call_with_options: shapes and options, checked by the core, then the values copied.
template <attn::Result<attn::AttentionBackward> (*entry)(const attn::Matrix&, const attn::Matrix&, const attn::Matrix&,
                                                         const attn::Matrix&, const attn::AttentionOptions&)>
val attention_backward(const val& q, const val& k, const val& v, const val& grad_output, const val& o) {
    backward_memory() = BackwardMemory{};
    BackwardMemory& m = backward_memory();
    const auto options = read_options(o);
    if (!options.ok()) return end_backward_call(error(options.error));
    m.options = options.value;
    const bool custom = m.options.mask.kind == attn::MaskKind::Custom;
    const attn::Shape sq = shape_of(q), sk = shape_of(k), sv = shape_of(v), sg = shape_of(grad_output);
    const attn::Shape mask = custom ? shape_of(o[names().mask_matrix]) : attn::Shape{};
    if (attn::Error e = attn::check_backward_shapes(sq, sk, sv, m.options.temperature, custom ? &mask : nullptr, sg))
        return end_backward_call(error(e));
    copy_matrix(q, sq, m.q);
    copy_matrix(k, sk, m.k);
    copy_matrix(v, sv, m.v);
    copy_matrix(grad_output, sg, m.d_output);
    if (custom) copy_matrix(o[names().mask_matrix], mask, m.options.mask.keep);
    m.result = entry(m.q, m.k, m.v, m.d_output, m.options);
    return end_backward_call(m.result.ok() ? to_js(m.result.value) : error(m.result.error));
}

// One head's gradients, AttentionGrads and the d(head_i) they start from → { gradOutput, gradV,
// gradWeights, gradScaled, gradScores, gradQ, gradK }.
val head_grads_to_js(const attn::Matrix& d_head, const attn::AttentionGrads& g) {
    val out = new_object();
    out.set("gradOutput", to_js(d_head));
    out.set("gradV", to_js(g.d_v));
    out.set("gradWeights", to_js(g.d_weights));
    out.set("gradScaled", to_js(g.d_scaled));
    out.set("gradScores", to_js(g.d_scores));
    out.set("gradQ", to_js(g.d_q));
    out.set("gradK", to_js(g.d_k));
    return out;
}

// MultiHeadBackward → { forward: (as multiHeadAttentionSteps), gradWo, gradConcat, heads: [{
// gradOutput, gradV, gradWeights, gradScaled, gradScores, gradQ, gradK }, …], gradQ, gradK, gradV,
// gradWq, gradWk, gradWv, gradX }.
val to_js(const attn::MultiHeadBackward& b) {
    const attn::MultiHeadGrads& g = b.grads;
    val out = new_object();
    out.set("forward", to_js(b.forward));
    out.set("gradWo", to_js(g.d_w_o));
    out.set("gradConcat", to_js(g.d_concat));
    std::vector<std::size_t> heads(g.heads.size());
    for (std::size_t i = 0; i < heads.size(); ++i) heads[i] = i;
    out.set("heads", list_to_js(heads, [&g](std::size_t i) { return head_grads_to_js(g.d_heads[i], g.heads[i]); }));
    const std::pair<const char*, const attn::Matrix*> fields[] = {
        {"gradQ", &g.d_q},    {"gradK", &g.d_k},    {"gradV", &g.d_v}, {"gradWq", &g.d_w_q},
        {"gradWk", &g.d_w_k}, {"gradWv", &g.d_w_v}, {"gradX", &g.d_x}};
    for (const auto& [name, m] : fields) out.set(name, to_js(*m));
    return out;
}

// multi_head_attention_backward (the reference) and multi_head_attention_backward_simd, in the same
// three steps as multi_head: shapes, h and options checked by the core (gradOutput n × d_out, O's
// shape, included), then the values copied.
template <attn::Result<attn::MultiHeadBackward> (*entry)(const attn::MultiHeadInputs&, std::size_t, const attn::Matrix&,
                                                         const attn::AttentionOptions&)>
val multi_head_backward(const val& x, const val& wq, const val& wk, const val& wv, const val& wo, double heads,
                        const val& grad_output, const val& o) {
    backward_memory() = BackwardMemory{};
    BackwardMemory& m = backward_memory();
    const auto options = read_options(o);
    if (!options.ok()) return end_backward_call(error(options.error));
    m.options = options.value;
    const bool custom = m.options.mask.kind == attn::MaskKind::Custom;
    const attn::Shape sx = shape_of(x), sq = shape_of(wq), sk = shape_of(wk), sv = shape_of(wv), so = shape_of(wo),
                      sg = shape_of(grad_output);
    const attn::Shape mask = custom ? shape_of(o[names().mask_matrix]) : attn::Shape{};
    // (clamped as multi_head's h: a cast of a double outside int64's range is undefined)
    const auto h = static_cast<std::int64_t>(heads == heads ? std::clamp(heads, -9e18, 9e18) : 0.0);
    if (attn::Error e =
            attn::check_multi_head_backward_shapes(sx, sq, sk, sv, so, h, m.options, custom ? &mask : nullptr, sg))
        return end_backward_call(error(e));
    copy_matrix(x, sx, m.x);
    copy_matrix(wq, sq, m.w_q);
    copy_matrix(wk, sk, m.w_k);
    copy_matrix(wv, sv, m.w_v);
    copy_matrix(wo, so, m.w_o);
    copy_matrix(grad_output, sg, m.d_output);
    if (custom) copy_matrix(o[names().mask_matrix], mask, m.options.mask.keep);
    m.multi_head = entry({m.x, m.w_q, m.w_k, m.w_v, m.w_o}, static_cast<std::size_t>(h), m.d_output, m.options);
    return end_backward_call(m.multi_head.ok() ? to_js(m.multi_head.value) : error(m.multi_head.error));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_backward) {
    emscripten::function("attentionBackward", &attention_backward<attn::attention_backward>);
    emscripten::function("attentionBackwardSimd", &attention_backward<attn::attention_backward_simd>);
    emscripten::function("multiHeadAttentionBackward", &multi_head_backward<attn::multi_head_attention_backward>);
    emscripten::function("multiHeadAttentionBackwardSimd",
                         &multi_head_backward<attn::multi_head_attention_backward_simd>);
}

// --- Training (issue 17): trainers live in the module, by id, until trainerDelete; api.mjs wraps
// them in an object. A trainer's memory is its own (parameters, moments), not a call's.
#include <map>

#include "train.hpp"

namespace {

std::map<unsigned, attn::Trainer>& trainers() {
    static std::map<unsigned, attn::Trainer> table;
    return table;
}
unsigned& next_trainer_id() {
    static unsigned id = 1;
    return id;
}

// createTrainer's fields in JS's names: the one table the defaults (trainer_defaults) and the
// reading of a config (create_trainer) both walk. Whole-number fields only; the named ones and
// learningRate are read beside it.
struct WholeField {
    const char* name;
    std::size_t attn::TrainConfig::*top;  // a field of TrainConfig, or
    std::size_t attn::TaskConfig::*task;  // a field of its task
};
constexpr WholeField kWholeFields[] = {
    {"length", nullptr, &attn::TaskConfig::length},   {"symbols", nullptr, &attn::TaskConfig::symbols},
    {"values", nullptr, &attn::TaskConfig::values},   {"shift", nullptr, &attn::TaskConfig::shift},
    {"dToken", &attn::TrainConfig::d_token, nullptr}, {"heads", &attn::TrainConfig::heads, nullptr},
    {"dHead", &attn::TrainConfig::d_head, nullptr},   {"batch", &attn::TrainConfig::batch, nullptr},
};
std::size_t& whole_field(attn::TrainConfig& c, const WholeField& f) { return f.top ? c.*f.top : c.task.*f.task; }

// TrainConfig{}'s values under createTrainer's names: the defaults live in the core alone
// (train.hpp, tasks.hpp, beside the ranges it checks) and api.mjs fills a config from these.
val trainer_defaults() {
    attn::TrainConfig c;
    val out = new_object();
    out.set("task", std::string(attn::option_name(attn::kTaskNames, c.task.kind)));
    for (const WholeField& f : kWholeFields) out.set(f.name, static_cast<double>(whole_field(c, f)));
    out.set("position", std::string(attn::option_name(attn::kPositionNames, c.position)));
    out.set("scale", std::string(attn::option_name(attn::kScaleNames, c.scale)));
    out.set("optimizer", std::string(attn::option_name(attn::kOptimizerNames, c.optimizer)));
    out.set("learningRate", static_cast<double>(c.learning_rate));
    out.set("seed", static_cast<double>(c.seed));
    // The pairs task's table: none unless task is "pairs" (a list, which api.mjs's plain() makes an array).
    out.set("pairs", list_to_js(c.task.pairs, [](const attn::TaskPair&) { return val::null(); }));
    return out;
}

// The pairs task's table: training-api.mjs hands over [{ input, output }] of Float64Arrays it made;
// the core checks their lengths and tokens (tasks.hpp, check_task).
std::vector<attn::TaskPair> read_pairs(const val& pairs) {
    auto copy = [](const val& tokens) {
        std::vector<double> out(tokens[names().length].as<unsigned>());
        val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", tokens);
        return out;
    };
    std::vector<attn::TaskPair> table(pairs[names().length].as<unsigned>());
    for (std::size_t p = 0; p < table.size(); ++p) table[p] = {copy(pairs[p]["input"]), copy(pairs[p]["output"])};
    return table;
}

// Every field of trainer_defaults present (api.mjs fills the defaults), names through the core's
// tables → { id } or { error }.
val create_trainer(const val& o) {
    attn::TrainConfig c;
    const auto task = attn::parse_option("task", attn::kTaskNames, o["task"].as<std::string>());
    if (!task.ok()) return error(task.error);
    const auto position = attn::parse_option("position", attn::kPositionNames, o["position"].as<std::string>());
    if (!position.ok()) return error(position.error);
    const auto scale = attn::parse_option("scale", attn::kScaleNames, o["scale"].as<std::string>());
    if (!scale.ok()) return error(scale.error);
    const auto optimizer = attn::parse_option("optimizer", attn::kOptimizerNames, o["optimizer"].as<std::string>());
    if (!optimizer.ok()) return error(optimizer.error);
    // api.mjs has checked that these are whole numbers ≥ 0 that fit; the core checks the ranges.
    for (const WholeField& f : kWholeFields) whole_field(c, f) = static_cast<std::size_t>(o[f.name].as<double>());
    c.task.kind = task.value;
    c.task.pairs = read_pairs(o["pairs"]);
    c.position = position.value;
    c.scale = scale.value;
    c.optimizer = optimizer.value;
    c.learning_rate = o["learningRate"].as<double>();  // as given: the core checks it before float32 rounds it
    c.seed = static_cast<std::int64_t>(o["seed"].as<double>());
    auto t = attn::Trainer::create(c);
    if (!t.ok()) return error(t.error);
    const unsigned id = next_trainer_id()++;
    trainers().emplace(id, std::move(t.value));
    val out = new_object();
    out.set("id", id);
    return out;
}

attn::Trainer* find_trainer(unsigned id) {
    auto it = trainers().find(id);
    return it == trainers().end() ? nullptr : &it->second;
}

// { loss, accuracy, steps }, and for a step softmaxGradient (train.hpp's TrainReport).
val report(const attn::TrainReport& r, std::size_t steps, bool learned) {
    val out = new_object();
    out.set("loss", r.loss);
    out.set("accuracy", r.accuracy);
    out.set("steps", static_cast<double>(steps));
    if (learned) out.set("softmaxGradient", r.softmax_gradient);
    return out;
}

// `count` steps → the last step's { loss, accuracy, steps, softmaxGradient } (the batch's, before
// its update).
val trainer_step(unsigned id, unsigned count) {
    attn::Trainer* t = find_trainer(id);
    if (!t) return val::null();
    attn::TrainReport last;
    for (unsigned s = 0; s < count; ++s) last = t->step();
    return report(last, t->steps(), true);
}

val trainer_evaluate(unsigned id, unsigned count, double seed) {
    attn::Trainer* t = find_trainer(id);
    if (!t) return val::null();
    return report(t->evaluate(count, static_cast<std::uint64_t>(seed)), t->steps(), false);
}

// A fork (trainer.configure): the learning rate and/or the scaling for the steps to come, each
// given or undefined; training-api.mjs has checked their JS types. Nothing changes unless all that
// is given is accepted → { learningRate, scale } now in force, or { error }.
val trainer_configure(unsigned id, const val& o) {
    attn::Trainer* t = find_trainer(id);
    if (!t) return val::null();
    attn::Scale scale = t->scale();
    if (!o["scale"].isUndefined()) {
        const auto named = attn::parse_option("scale", attn::kScaleNames, o["scale"].as<std::string>());
        if (!named.ok()) return error(named.error);
        scale = named.value;
    }
    if (!o["learningRate"].isUndefined())
        if (attn::Error e = t->set_learning_rate(o["learningRate"].as<double>())) return error(e);
    t->set_scale(scale);
    val out = new_object();
    out.set("learningRate", t->learning_rate());
    out.set("scale", std::string(attn::option_name(attn::kScaleNames, t->scale())));
    return out;
}

// A probe's tokens, a Float64Array training-api.mjs made (one bulk copy, like copy_matrix), as the
// model's sequence in `seq`, or the core's refusal (wrong_length, out_of_range).
attn::Error read_tokens(const val& tokens, const attn::ModelConfig& model, std::vector<int>* seq) {
    std::vector<double>& given = call_memory().tokens;
    given.resize(tokens[names().length].as<unsigned>());
    val(emscripten::typed_memory_view(given.size(), given.data())).call<void>("set", tokens);
    return attn::read_tokens(model, given, seq);
}

// The model on one sequence of tokens: { weights: [A of each head], logits }.
val trainer_probe(unsigned id, const val& tokens) {
    attn::Trainer* t = find_trainer(id);
    if (!t) return val::null();
    begin_call();
    const attn::ModelConfig& m = t->model();
    std::vector<int> seq;
    if (attn::Error e = read_tokens(tokens, m, &seq)) return end_call(error(e));
    const attn::SequencePass pass = attn::forward_sequence(m, t->params(), seq.data());
    val out = new_object();
    out.set("weights", list_to_js(pass.steps, [](const attn::AttentionSteps& st) { return to_js(st.weights); }));
    out.set("logits", to_js(pass.logits));
    return end_call(out);
}

// The probe's gradient at the heads (Trainer::probe_gradient): { x, gradOutput (∂ℓ/∂O, n ×
// heads·d_head), loss, scored, causal (whether the heads' attention is, the task's) }, or the refusal
// of tokens of another length or outside the vocabulary.
val trainer_probe_gradient(unsigned id, const val& tokens) {
    attn::Trainer* t = find_trainer(id);
    if (!t) return val::null();
    begin_call();
    const attn::ModelConfig& m = t->model();
    std::vector<int> seq;
    if (attn::Error e = read_tokens(tokens, m, &seq)) return end_call(error(e));
    const attn::HeadsGradient g = t->probe_gradient(seq.data());
    val out = new_object();
    out.set("x", to_js(g.x));
    out.set("gradOutput", to_js(g.d_heads));
    out.set("loss", g.loss);
    out.set("scored", static_cast<double>(g.scored));
    out.set("causal", m.causal);
    return end_call(out);
}

// A copy of the learned numbers: { tokenEmbedding (vocab, d_token), positionEmbedding ((n, d_model),
// learned positions; 0×0 for one-hot), wQ, wK, wV: [one (d_model, d_k) matrix per head], wOut, bOut }.
val trainer_parameters(unsigned id) {
    attn::Trainer* t = find_trainer(id);
    if (!t) return val::null();
    const attn::Params& p = t->params();
    auto per_head = [](const std::vector<attn::Matrix>& w) {
        return list_to_js(w, [](const attn::Matrix& m) { return to_js(m); });
    };
    val out = new_object();
    out.set("tokenEmbedding", to_js(p.token_embedding));
    out.set("positionEmbedding", to_js(p.position_embedding));
    out.set("wQ", per_head(p.w_q));
    out.set("wK", per_head(p.w_k));
    out.set("wV", per_head(p.w_v));
    out.set("wOut", to_js(p.w_out));
    out.set("bOut", to_js(p.b_out));
    return out;
}

// Frees the trainer `id` → {} (so that api.mjs can tell it from boundary.mjs's reentrant_call refusal,
// after which the trainer is still there).
val trainer_delete(unsigned id) {
    trainers().erase(id);
    return new_object();
}

val training_vocabulary() {
    val out = new_object();
    out.set("tasks", names_of(attn::kTaskNames));
    out.set("positions", names_of(attn::kPositionNames));
    out.set("optimizers", names_of(attn::kOptimizerNames));
    return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(training) {
    emscripten::function("createTrainer", &create_trainer);
    emscripten::function("trainerStep", &trainer_step);
    emscripten::function("trainerEvaluate", &trainer_evaluate);
    emscripten::function("trainerConfigure", &trainer_configure);
    emscripten::function("trainerProbe", &trainer_probe);
    emscripten::function("trainerParameters", &trainer_parameters);
    emscripten::function("trainerProbeGradient", &trainer_probe_gradient);
    emscripten::function("trainerDefaults", &trainer_defaults);
    emscripten::function("trainerDelete", &trainer_delete);
    emscripten::function("trainingVocabulary", &training_vocabulary);
}
