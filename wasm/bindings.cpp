// bindings.cpp — the Embind layer: JS objects in, JS-owned Float32Array copies out.
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
// finishes empties on its way out (end_call).
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

#include "attention.hpp"
#include "samples.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

using emscripten::val;

namespace {

// Everything one call copies in and computes (see the header comment).
struct CallMemory {
    attn::Matrix q, k, v, x, w;
    attn::AttentionOptions options;  // holds a custom mask's values
    attn::Result<attn::AttentionSteps> steps;
    attn::Result<attn::Matrix> matrix;
};
CallMemory& call_memory() {
    static CallMemory memory;
    return memory;
}
// Frees what a call cut short left behind (normally nothing) and hands out the empty storage.
CallMemory& begin_call() {
    call_memory() = CallMemory{};
    return call_memory();
}
// Frees what this call copied in and computed, once its results are JS-owned copies.
val end_call(val out) {
    call_memory() = CallMemory{};
    return out;
}
// Where a call keeps its result, by type.
attn::Result<attn::AttentionSteps>& result_slot(CallMemory& m, const attn::AttentionSteps*) { return m.steps; }
attn::Result<attn::Matrix>& result_slot(CallMemory& m, const attn::Matrix*) { return m.matrix; }

// The property names and the constructor the bindings use on every call, made into JS values once:
// `m["rows"]` with a C string would turn the name into a JS string again on every access.
// (Embind's val handles; never freed, like the module.)
struct Names {
    val rows{"rows"}, cols{"cols"}, data{"data"}, length{"length"};
    val scale{"scale"}, temperature{"temperature"}, mask{"mask"}, stable{"stable"}, axis{"axis"},
        mask_matrix{"maskMatrix"};
    val float32_array = val::global("Float32Array");
};
const Names& names() {
    static const Names n;
    return n;
}

// { rows, cols, data } → its shape (rows, cols, data.length), before anything is copied.
attn::Shape shape_of(const val& m) {
    const Names& n = names();
    return {m[n.rows].as<unsigned>(), m[n.cols].as<unsigned>(), m[n.data][n.length].as<unsigned>()};
}

// { rows, cols, data } of that shape → Matrix. One bulk copy of the values (TypedArray.set on a
// view of the Matrix's storage), no per-element calls. data is read again here rather than kept
// from shape_of: a handle held across another argument's copy would be leaked, with the array it
// holds, if that copy threw (see the top of the file).
void copy_matrix(const val& m, const attn::Shape& shape, attn::Matrix& out) {
    out.rows = shape.rows;
    out.cols = shape.cols;
    out.data.resize(shape.values);
    val(emscripten::typed_memory_view(out.data.size(), out.data.data())).call<void>("set", m[names().data]);
}

// Matrix → { rows, cols, data: Float32Array }. The Float32Array constructor copies, so the result
// stays valid when wasm memory grows (a typed_memory_view would silently detach).
val to_js(const attn::Matrix& m) {
    const Names& n = names();
    val out = val::object();
    out.set(n.rows, static_cast<unsigned>(m.rows));
    out.set(n.cols, static_cast<unsigned>(m.cols));
    out.set(n.data, n.float32_array.new_(emscripten::typed_memory_view(m.data.size(), m.data.data())));
    return out;
}

// Error → { error: { code, message, argument?, cell?: { row, col }, params: { name: value } } },
// which api.mjs throws as a JS Error with the same fields.
val error(const attn::Error& e) {
    val fields = val::object();
    fields.set("code", std::string(attn::code_name(e.code)));
    fields.set("message", e.message);
    if (!e.argument.empty()) fields.set("argument", e.argument);
    if (e.cell) {
        val cell = val::object();
        cell.set("row", static_cast<unsigned>(e.cell->row));
        cell.set("col", static_cast<unsigned>(e.cell->col));
        fields.set("cell", cell);
    }
    val params = val::object();
    for (const attn::Param& p : e.params) std::visit([&](const auto& value) { params.set(p.name, value); }, p.value);
    fields.set("params", params);
    val out = val::object();
    out.set("error", fields);
    return out;
}

// { scale, temperature, mask, maskMatrix?, stable, axis } with the options' names as api.mjs sends
// them ("sqrt_dk", "causal", "custom", "row", …), turned into enums through the core's name tables
// only: a name the table lacks is refused with bad_option, never cast. A custom mask's values are
// not copied here (read_options leaves options.mask.keep empty).
attn::Result<attn::AttentionOptions> read_options(const val& o) {
    using Options = attn::Result<attn::AttentionOptions>;
    const Names& n = names();
    attn::AttentionOptions out;
    const auto scale = attn::parse_option("scale", attn::kScaleNames, o[n.scale].as<std::string>());
    if (!scale.ok()) return Options::failure(scale.error);
    const auto mask = attn::parse_option("mask", attn::kMaskNames, o[n.mask].as<std::string>());
    if (!mask.ok()) return Options::failure(mask.error);
    const auto axis = attn::parse_option("axis", attn::kAxisNames, o[n.axis].as<std::string>());
    if (!axis.ok()) return Options::failure(axis.error);
    out.scale = scale.value;
    out.temperature = o[n.temperature].as<float>();
    out.mask.kind = mask.value;
    out.stable = o[n.stable].as<bool>();
    out.axis = axis.value;
    return Options::success(std::move(out));
}

// NonFinite → { scores, scaled, rowMax, shifted, exps, rowSum, weights, output }: counts.
val to_js(const attn::NonFinite& n) {
    val out = val::object();
    const std::pair<const char*, std::size_t> counts[] = {
        {"scores", n.scores}, {"scaled", n.scaled},  {"rowMax", n.row_max},  {"shifted", n.shifted},
        {"exps", n.exps},     {"rowSum", n.row_sum}, {"weights", n.weights}, {"output", n.output}};
    for (const auto& [name, count] : counts) out.set(name, static_cast<double>(count));
    return out;
}

// AttentionSteps → { scores, kept, scaled, rowMax, shifted, exps, rowSum, weights, output, nonFinite }.
val to_js(const attn::AttentionSteps& st) {
    val out = val::object();
    out.set("scores", to_js(st.scores));
    out.set("kept", to_js(st.kept));
    out.set("scaled", to_js(st.scaled));
    out.set("rowMax", to_js(st.row_max));
    out.set("shifted", to_js(st.shifted));
    out.set("exps", to_js(st.exps));
    out.set("rowSum", to_js(st.row_sum));
    out.set("weights", to_js(st.weights));
    out.set("output", to_js(st.output));
    out.set("nonFinite", to_js(st.non_finite));
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
    copy_matrix(q, sq, m.q);
    copy_matrix(k, sk, m.k);
    copy_matrix(v, sv, m.v);
    if (custom) copy_matrix(o[names().mask_matrix], mask, m.options.mask.keep);
    auto& r = result_slot(m, static_cast<const T*>(nullptr));
    r = entry(m.q, m.k, m.v, m.options);
    return end_call(r.ok() ? to_js(r.value) : error(r.error));
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

// The core's tables of names, for tests/node/vocabulary.test.mjs to hold wasm/vocabulary.mjs to:
// { scales, axes, masks, errorCodes }, each an array of strings.
template <class Row, std::size_t N>
val names_of(const Row (&table)[N]) {
    val out = val::array();
    for (const Row& row : table) out.call<void>("push", std::string(row.name));
    return out;
}
val vocabulary() {
    val out = val::object();
    out.set("scales", names_of(attn::kScaleNames));
    out.set("axes", names_of(attn::kAxisNames));
    out.set("masks", names_of(attn::kMaskNames));
    out.set("errorCodes", names_of(attn::kErrorCodeNames));
    return out;
}

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
// k (nk, d), v (nk, dv), as its memory check counts it (core/working_memory.hpp).
val working_memory(const std::string& operation, double nq, double nk, double d, double dv, const std::string& axis) {
    const auto op = attn::parse_option("operation", attn::kOperationNames, operation);
    if (!op.ok()) return error(op.error);
    const auto ax = attn::parse_option("axis", attn::kAxisNames, axis);
    if (!ax.ok()) return error(ax.error);
    const attn::AttentionShape shape{static_cast<std::uint64_t>(nq), static_cast<std::uint64_t>(nk),
                                     static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(dv)};
    val out = val::object();
    out.set("bytes", static_cast<double>(attn::working_bytes(op.value, shape, ax.value)));
    out.set("limit", static_cast<double>(attn::kMemoryLimitBytes));
    return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::function("attentionSteps", &call_with_options<attn::AttentionSteps, attn::attention_steps>);
    emscripten::function("attentionStepsSimd", &call_with_options<attn::AttentionSteps, attn::attention_steps_simd>);
    emscripten::function("attention", &call_with_options<attn::Matrix, attn::attention>);
    emscripten::function("attentionStreaming", &call_with_options<attn::Matrix, attn::attention_streaming>);
    emscripten::function("project", &project<attn::project>);
    emscripten::function("projectSimd", &project<attn::project_simd>);
    emscripten::function("version", &version);
    emscripten::function("vocabulary", &vocabulary);
    emscripten::function("simd", &simd);
    emscripten::function("relaxedSimd", &relaxed_simd);
    emscripten::function("dotProductSamples", &dot_product_samples);
    emscripten::function("normalMatrix", &normal_matrix);
    emscripten::function("workingMemory", &working_memory);
    emscripten::function("heapInUse", &heap_in_use);
}
