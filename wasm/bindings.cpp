// bindings.cpp — the Embind layer: JS objects in, JS-owned Float32Array copies out.
//
// It only translates. The JS wrapper (api.mjs) has already checked JS types; option names become
// enums through the core's tables (options.hpp); the core checks everything else and returns
// errors as values, which come back here as { error: { code, message, … } } for api.mjs to throw
// as a JS Error. (Throwing from C++ would need -fexceptions; throwing a JS exception through wasm
// frames would leak their memory.)
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <variant>

#include "attention.hpp"
#include "samples.hpp"
#include "validate.hpp"
#include "working_memory.hpp"

using emscripten::val;

namespace {

// { rows, cols, data } → Matrix. One bulk copy of data (TypedArray.set), no per-element calls.
attn::Matrix to_matrix(const val& m) {
    attn::Matrix out;
    out.rows = m["rows"].as<unsigned>();
    out.cols = m["cols"].as<unsigned>();
    out.data = emscripten::convertJSArrayToNumberVector<float>(m["data"]);
    return out;
}

// Matrix → { rows, cols, data: Float32Array }. The Float32Array constructor copies, so the result
// stays valid when wasm memory grows (a typed_memory_view would silently detach).
val to_js(const attn::Matrix& m) {
    val out = val::object();
    out.set("rows", static_cast<unsigned>(m.rows));
    out.set("cols", static_cast<unsigned>(m.cols));
    out.set("data", val::global("Float32Array").new_(emscripten::typed_memory_view(m.data.size(), m.data.data())));
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
// only: a name the table lacks is refused with bad_option, never cast.
attn::Result<attn::AttentionOptions> to_options(const val& o) {
    using Options = attn::Result<attn::AttentionOptions>;
    attn::AttentionOptions out;
    const auto scale = attn::parse_option("scale", attn::kScaleNames, o["scale"].as<std::string>());
    if (!scale.ok()) return Options::failure(scale.error);
    const auto mask = attn::parse_option("mask", attn::kMaskNames, o["mask"].as<std::string>());
    if (!mask.ok()) return Options::failure(mask.error);
    const auto axis = attn::parse_option("axis", attn::kAxisNames, o["axis"].as<std::string>());
    if (!axis.ok()) return Options::failure(axis.error);
    out.scale = scale.value;
    out.temperature = o["temperature"].as<float>();
    out.mask.kind = mask.value;
    if (out.mask.kind == attn::MaskKind::Custom) out.mask.keep = to_matrix(o["maskMatrix"]);
    out.stable = o["stable"].as<bool>();
    out.axis = axis.value;
    return Options::success(std::move(out));
}

// AttentionSteps → { scores, kept, scaled, rowMax, shifted, exps, rowSum, weights, output }.
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
    return out;
}

// One binding per entry point that takes Q, K, V and the options: attention_steps (the
// reference), attention_steps_simd, attention and attention_streaming.
template <class T, attn::Result<T> (*entry)(const attn::Matrix&, const attn::Matrix&, const attn::Matrix&,
                                            const attn::AttentionOptions&)>
val call_with_options(const val& q, const val& k, const val& v, const val& o) {
    const auto options = to_options(o);
    if (!options.ok()) return error(options.error);
    const auto r = entry(to_matrix(q), to_matrix(k), to_matrix(v), options.value);
    return r.ok() ? to_js(r.value) : error(r.error);
}

// project (the reference) and project_simd.
template <attn::Result<attn::Matrix> (*product)(const attn::Matrix&, const attn::Matrix&)>
val project(const val& x, const val& w) {
    const auto r = product(to_matrix(x), to_matrix(w));
    return r.ok() ? to_js(r.value) : error(r.error);
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

std::string version() { return attn::version(); }
bool simd() { return attn::simd_enabled(); }

// --- The labs (issue 11): the sampler of "why divide by √d_k" and the memory figures of "the
// cost of n²". api.mjs has checked that every number is a safe integer, so the int64 casts are
// exact; the core checks the ranges.

// dot_product_samples → { rows: 1, cols: count, data } (api.mjs hands on data alone).
val dot_product_samples(double dk, double count, double seed) {
    const auto r = attn::dot_product_samples(static_cast<std::int64_t>(dk), static_cast<std::int64_t>(count),
                                             static_cast<std::int64_t>(seed));
    return r.ok() ? to_js(attn::Matrix(1, r.value.size(), r.value)) : error(r.error);
}

val normal_matrix(double rows, double cols, double seed) {
    const auto r = attn::normal_matrix(static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols),
                                       static_cast<std::int64_t>(seed));
    return r.ok() ? to_js(r.value) : error(r.error);
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
    emscripten::function("dotProductSamples", &dot_product_samples);
    emscripten::function("normalMatrix", &normal_matrix);
    emscripten::function("workingMemory", &working_memory);
}
