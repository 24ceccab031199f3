// bindings.cpp — the Embind layer: JS objects in, JS-owned Float32Array copies out.
//
// It only translates. The JS wrapper (api.mjs) has already checked JS types and turned option
// strings into the numbers below; the core checks everything else and returns errors as values,
// which come back here as { error: { code, message, … } } for api.mjs to throw as a JS Error.
// (Throwing from C++ would need -fexceptions; throwing a JS exception through wasm frames would
// leak their memory.)
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <variant>

#include "attention.hpp"

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

// { scale: 0|1|2, temperature, mask: 0|1|2, maskMatrix?, stable, axis: 0|1 }, as api.mjs encodes them.
attn::AttentionOptions to_options(const val& o) {
    attn::AttentionOptions out;
    out.scale = static_cast<attn::Scale>(o["scale"].as<int>());
    out.temperature = o["temperature"].as<float>();
    out.mask.kind = static_cast<attn::MaskKind>(o["mask"].as<int>());
    if (out.mask.kind == attn::MaskKind::Custom) out.mask.keep = to_matrix(o["maskMatrix"]);
    out.stable = o["stable"].as<bool>();
    out.axis = static_cast<attn::Axis>(o["axis"].as<int>());
    return out;
}

val attention_steps(const val& q, const val& k, const val& v, const val& options) {
    const auto r = attn::attention_steps(to_matrix(q), to_matrix(k), to_matrix(v), to_options(options));
    if (!r.ok()) return error(r.error);
    const attn::AttentionSteps& st = r.value;
    val out = val::object();
    out.set("scores", to_js(st.scores));
    out.set("scaled", to_js(st.scaled));
    out.set("rowMax", to_js(st.row_max));
    out.set("exps", to_js(st.exps));
    out.set("rowSum", to_js(st.row_sum));
    out.set("weights", to_js(st.weights));
    out.set("output", to_js(st.output));
    return out;
}

val attention(const val& q, const val& k, const val& v, const val& options) {
    const auto r = attn::attention(to_matrix(q), to_matrix(k), to_matrix(v), to_options(options));
    return r.ok() ? to_js(r.value) : error(r.error);
}

val attention_streaming(const val& q, const val& k, const val& v, const val& options) {
    const auto r = attn::attention_streaming(to_matrix(q), to_matrix(k), to_matrix(v), to_options(options));
    return r.ok() ? to_js(r.value) : error(r.error);
}

val project(const val& x, const val& w) {
    const auto r = attn::project(to_matrix(x), to_matrix(w));
    return r.ok() ? to_js(r.value) : error(r.error);
}

std::string version() { return attn::version(); }
bool simd() { return attn::simd_enabled(); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::function("attentionSteps", &attention_steps);
    emscripten::function("attention", &attention);
    emscripten::function("attentionStreaming", &attention_streaming);
    emscripten::function("project", &project);
    emscripten::function("version", &version);
    emscripten::function("simd", &simd);
}
