// bindings_support.cpp — see bindings_support.hpp. The call memory and the names are defined here
// once, so that every binding file uses the same ones.
#include "bindings_support.hpp"

#include <utility>
#include <variant>

namespace bindings {

CallMemory& call_memory() {
    static CallMemory memory;
    return memory;
}
CallMemory& begin_call() {
    call_memory() = CallMemory{};
    return call_memory();
}
val end_call(val out) {
    call_memory() = CallMemory{};
    return out;
}

const Names& names() {
    static const Names n;
    return n;
}

val new_object() { return names().object_create(val::null()); }

attn::Shape shape_of(const val& m) {
    const Names& n = names();
    return {m[n.rows].as<unsigned>(), m[n.cols].as<unsigned>(), m[n.data][n.length].as<unsigned>()};
}

val values_view(const attn::Matrix& m) { return val(emscripten::typed_memory_view(m.data.size(), m.data.data())); }

void copy_matrix(const val& m, const attn::Shape& shape, attn::Matrix& out) {
    out.rows = shape.rows;
    out.cols = shape.cols;
    out.data.resize(shape.values);
    values_view(out).call<void>("set", m[names().data]);
}

val matrix_object(const attn::Matrix& m, const val& data) {
    const Names& n = names();
    val out = new_object();
    out.set(n.rows, static_cast<unsigned>(m.rows));
    out.set(n.cols, static_cast<unsigned>(m.cols));
    out.set(n.data, data);
    return out;
}

val to_js(const attn::Matrix& m) { return matrix_object(m, names().float32_array.new_(values_view(m))); }

val to_js_into(const attn::Matrix& m, const val& into) {
    into.call<void>("set", values_view(m));
    return matrix_object(m, into);
}

val to_js(const attn::NonFinite& n) {
    val out = new_object();
    const std::pair<const char*, std::size_t> counts[] = {
        {"scores", n.scores}, {"scaled", n.scaled},  {"rowMax", n.row_max},  {"shifted", n.shifted},
        {"exps", n.exps},     {"rowSum", n.row_sum}, {"weights", n.weights}, {"output", n.output}};
    for (const auto& [name, count] : counts) out.set(name, static_cast<double>(count));
    return out;
}

val to_js(const attn::AttentionSteps& st) {
    val out = new_object();
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
    out.set("divisor", st.divisor);
    return out;
}

val error(const attn::Error& e) {
    val fields = new_object();
    fields.set("code", std::string(attn::code_name(e.code)));
    fields.set("message", e.message);
    if (!e.argument.empty()) fields.set("argument", e.argument);
    if (e.cell) {
        val cell = new_object();
        cell.set("row", static_cast<unsigned>(e.cell->row));
        cell.set("col", static_cast<unsigned>(e.cell->col));
        fields.set("cell", cell);
    }
    val params = new_object();
    for (const attn::Param& p : e.params) std::visit([&](const auto& value) { params.set(p.name, value); }, p.value);
    fields.set("params", params);
    val out = new_object();
    out.set("error", fields);
    return out;
}

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

}  // namespace bindings
