// bindings_efficiency_shared.cpp — the Embind layer of shared heads (MQA/GQA) and linear attention
// (core/efficiency_shared.hpp). It only translates, in the three steps of bindings.cpp: read the
// shapes and options, let the core check them, then copy the values in, compute and hand back
// JS-owned copies. Everything a call holds lives in the one CallMemory of bindings_support.hpp.
// Each entry point has a reference binding (attentionGrouped, attentionLinear) and a SIMD one
// (…Simd), which api.mjs picks by `path` as it does for attentionSteps.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "bindings_support.hpp"
#include "efficiency_shared.hpp"

using emscripten::val;

namespace {

using namespace bindings;
using bindings::to_js;

// A whole number api.mjs has checked to be a safe integer. A NaN or a huge number from a caller
// who skipped api.mjs is clamped first: the cast of a double outside int64's range is undefined,
// and the core refuses 0 or ±9e18 by its own range.
std::int64_t whole(double x) { return static_cast<std::int64_t>(x == x ? std::clamp(x, -9e18, 9e18) : 0.0); }

// attention_grouped (the SIMD path) and attention_grouped_reference: q, k, v as { rows, cols, data },
// heads and kvHeads whole numbers, the options as bindings.cpp's (scale, temperature, mask, …).
template <attn::Result<attn::Matrix> (*entry)(const attn::Matrix&, const attn::Matrix&, const attn::Matrix&,
                                              std::int64_t, std::int64_t, const attn::AttentionOptions&),
          bool simd>
val grouped(const val& q, const val& k, const val& v, double heads, double kv_heads, const val& o) {
    CallMemory& m = begin_call();
    const auto options = read_options(o);
    if (!options.ok()) return end_call(error(options.error));
    m.options = options.value;
    const bool custom = m.options.mask.kind == attn::MaskKind::Custom;
    const attn::Shape sq = shape_of(q), sk = shape_of(k), sv = shape_of(v);
    const attn::Shape mask = custom ? shape_of(o[names().mask_matrix]) : attn::Shape{};
    const std::int64_t h = whole(heads), g = whole(kv_heads);
    if (attn::Error e = attn::check_grouped_shapes(sq, sk, sv, h, g, m.options, custom ? &mask : nullptr, simd))
        return end_call(error(e));
    copy_matrix(q, sq, m.q);
    copy_matrix(k, sk, m.k);
    copy_matrix(v, sv, m.v);
    if (custom) copy_matrix(o[names().mask_matrix], mask, m.options.mask.keep);
    m.matrix = entry(m.q, m.k, m.v, h, g, m.options);
    return end_call(m.matrix.ok() ? to_js(m.matrix.value) : error(m.matrix.error));
}

// LinearMultiplyAdds → { quadratic, linear }.
val to_js(const attn::LinearMultiplyAdds& m) {
    val out = new_object();
    out.set("quadratic", static_cast<double>(m.quadratic));
    out.set("linear", static_cast<double>(m.linear));
    return out;
}

// LinearAttention → { output (the linear order's, or the quadratic's when it ran alone), quadratic?,
// linear?, weights?, multiplyAdds: { quadratic, linear }, nonFinite: { quadratic, linear, weights } }.
// `output` is a copy of its own, so that writing into one array leaves the other as computed.
val to_js(const attn::LinearAttention& r) {
    val out = new_object();
    const bool linear = r.linear.size() > 0, quadratic = r.quadratic.size() > 0;
    out.set("output", to_js(linear ? r.linear : r.quadratic));
    if (quadratic) out.set("quadratic", to_js(r.quadratic));
    if (linear) out.set("linear", to_js(r.linear));
    if (r.weights.size() > 0) out.set("weights", to_js(r.weights));
    out.set("multiplyAdds", to_js(r.multiply_adds));
    val cells = new_object();
    cells.set("quadratic", static_cast<double>(r.non_finite.quadratic));
    cells.set("linear", static_cast<double>(r.non_finite.linear));
    cells.set("weights", static_cast<double>(r.non_finite.weights));
    out.set("nonFinite", cells);
    return out;
}

// attention_linear (the SIMD path) and attention_linear_reference: q, k, v as { rows, cols, data };
// causal and weights booleans and order a name ("both", "quadratic", "linear"), as api.mjs sends
// them (the name goes through the core's table only: bad_option otherwise).
template <attn::Result<attn::LinearAttention> (*entry)(const attn::Matrix&, const attn::Matrix&, const attn::Matrix&,
                                                       const attn::LinearOptions&),
          bool simd>
val linear(const val& q, const val& k, const val& v, bool causal, const std::string& order, bool weights) {
    CallMemory& m = begin_call();
    const auto parsed = attn::parse_option("order", attn::kLinearOrderNames, order);
    if (!parsed.ok()) return end_call(error(parsed.error));
    const attn::LinearOptions options{causal, parsed.value, weights};
    const attn::Shape sq = shape_of(q), sk = shape_of(k), sv = shape_of(v);
    if (attn::Error e = attn::check_linear_shapes(sq, sk, sv, options, simd)) return end_call(error(e));
    copy_matrix(q, sq, m.q);
    copy_matrix(k, sk, m.k);
    copy_matrix(v, sv, m.v);
    auto& r = hold(m, entry(m.q, m.k, m.v, options));
    return end_call(r.ok() ? to_js(r.value) : error(r.error));
}

// { quadratic, linear }: the multiply-adds of attention_linear's two orders for that shape, with no
// matrix (api.mjs has checked that every size is a whole number from 1 to MAX_DIM).
val linear_multiply_adds(double n_q, double n_k, double d_k, double d_v, bool causal) {
    const auto size = [](double x) { return static_cast<std::uint64_t>(x); };
    return to_js(attn::linear_multiply_adds(size(n_q), size(n_k), size(d_k), size(d_v), causal));
}

// { linearOrders }: the core's names, for tests/node/efficiency-shared.test.mjs to hold
// wasm/vocabulary.mjs's LINEAR_ORDERS to.
val efficiency_shared_vocabulary() {
    val out = new_object();
    out.set("linearOrders", names_of(attn::kLinearOrderNames));
    return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(efficiency_shared) {
    emscripten::function("attentionGrouped", &grouped<attn::attention_grouped_reference, false>);
    emscripten::function("attentionGroupedSimd", &grouped<attn::attention_grouped, true>);
    emscripten::function("attentionLinear", &linear<attn::attention_linear_reference, false>);
    emscripten::function("attentionLinearSimd", &linear<attn::attention_linear, true>);
    emscripten::function("linearMultiplyAdds", &linear_multiply_adds);
    emscripten::function("efficiencySharedVocabulary", &efficiency_shared_vocabulary);
}
