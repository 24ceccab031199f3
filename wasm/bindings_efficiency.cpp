// bindings_efficiency.cpp — the Embind layer of three of issue 30's efficiency paths
// (core/efficiency_paths.hpp): attentionTiled, attentionDecode, attentionWindow. It only
// translates, in bindings.cpp's three steps: read the shapes and options, let the core check them
// (check_*_shapes), and only then copy the values into wasm memory and compute. Whatever a call
// copies in or computes lives in the one CallMemory (bindings_support.hpp).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "bindings_support.hpp"
#include "efficiency_paths.hpp"

namespace {

using namespace bindings;
using bindings::to_js;

// A whole number api.mjs has checked to be a safe integer, as int64. (A NaN or a huge number
// from a caller who skipped api.mjs is clamped first: the cast of a double outside int64's range
// is undefined, and the core refuses 0 or ±9e18 by its own range.)
std::int64_t whole(double x) { return static_cast<std::int64_t>(x == x ? std::clamp(x, -9e18, 9e18) : 0.0); }

// A tiled call's result and its trace laid end to end, kept in the call's memory until the call
// ends: one JS array per field instead of four per tile (at n = 64 with 1×1 tiles, 4,096 tiles:
// 16,384 arrays made one Embind call at a time took most of the call).
struct TiledCall {
    attn::Result<attn::TiledAttention> result;
    std::vector<std::uint32_t> ranges;  // rowStart, rowEnd, colStart, colEnd of each tile
    std::vector<float> m, l, alpha, o;  // each tile's rows, tile after tile
};

// TiledAttention → { output, divisor, ranges: Uint32Array, m, l, alpha, o: Float32Array }, which
// efficiency-api.mjs cuts into { output, tiles: [{ rowStart, rowEnd, colStart, colEnd, m, l,
// alpha, o }, …], divisor }.
val to_js(TiledCall& call) {
    const attn::TiledAttention& r = call.result.value;
    for (const attn::TileStep& t : r.tiles) {
        for (std::size_t x : {t.row_start, t.row_end, t.col_start, t.col_end})
            call.ranges.push_back(static_cast<std::uint32_t>(x));
        call.m.insert(call.m.end(), t.m.data.begin(), t.m.data.end());
        call.l.insert(call.l.end(), t.l.data.begin(), t.l.data.end());
        call.alpha.insert(call.alpha.end(), t.alpha.data.begin(), t.alpha.data.end());
        call.o.insert(call.o.end(), t.o.data.begin(), t.o.data.end());
    }
    const auto floats = [](const std::vector<float>& x) {
        return names().float32_array.new_(emscripten::typed_memory_view(x.size(), x.data()));
    };
    val out = new_object();
    out.set("output", to_js(r.output));
    out.set("divisor", r.divisor);
    out.set("ranges",
            val::global("Uint32Array").new_(emscripten::typed_memory_view(call.ranges.size(), call.ranges.data())));
    out.set("m", floats(call.m));
    out.set("l", floats(call.l));
    out.set("alpha", floats(call.alpha));
    out.set("o", floats(call.o));
    return out;
}

// DecodedAttention → { output, steps: [{ cacheLength, row }, …] }.
val to_js(const attn::DecodedAttention& r) {
    val out = new_object();
    out.set("output", to_js(r.output));
    out.set("steps", list_to_js(r.steps, [](const attn::DecodeStep& s) {
                val step = new_object();
                step.set("cacheLength", static_cast<double>(s.cache_length));
                step.set("row", to_js(s.row));
                return step;
            }));
    return out;
}

// attentionTiled(q, k, v, tileRows, tileCols, trace, options): options as call_with_options reads
// them (scale, temperature, mask, maskMatrix; stable and axis do not apply to the online softmax).
val attention_tiled(const val& q, const val& k, const val& v, double tile_rows, double tile_cols, bool keep_trace,
                    const val& o) {
    CallMemory& m = begin_call();
    const auto options = read_options(o);
    if (!options.ok()) return end_call(error(options.error));
    m.options = options.value;
    const bool custom = m.options.mask.kind == attn::MaskKind::Custom;
    const attn::Shape sq = shape_of(q), sk = shape_of(k), sv = shape_of(v);
    const attn::Shape mask = custom ? shape_of(o[names().mask_matrix]) : attn::Shape{};
    const attn::TileSize tile{whole(tile_rows), whole(tile_cols)};
    const attn::Trace trace = keep_trace ? attn::Trace::Keep : attn::Trace::Skip;
    if (attn::Error e = attn::check_tiled_shapes(sq, sk, sv, custom ? &mask : nullptr, tile, m.options, trace))
        return end_call(error(e));
    copy_matrix(q, sq, m.q);
    copy_matrix(k, sk, m.k);
    copy_matrix(v, sv, m.v);
    if (custom) copy_matrix(o[names().mask_matrix], mask, m.options.mask.keep);
    TiledCall& call =
        hold(m, TiledCall{attn::attention_tiled(m.q, m.k, m.v, tile, m.options, trace), {}, {}, {}, {}, {}});
    return end_call(call.result.ok() ? to_js(call) : error(call.result.error));
}

// attentionDecode(q, k, v, options): of the options only scale applies.
val attention_decode(const val& q, const val& k, const val& v, const val& o) {
    CallMemory& m = begin_call();
    const auto options = read_options(o);
    if (!options.ok()) return end_call(error(options.error));
    const attn::Shape sq = shape_of(q), sk = shape_of(k), sv = shape_of(v);
    if (attn::Error e = attn::check_decode_shapes(sq, sk, sv)) return end_call(error(e));
    copy_matrix(q, sq, m.q);
    copy_matrix(k, sk, m.k);
    copy_matrix(v, sv, m.v);
    const auto& r = hold(m, attn::attention_decode(m.q, m.k, m.v, options.value.scale));
    return end_call(r.ok() ? to_js(r.value) : error(r.error));
}

// attentionWindow(q, k, v, window, options) → { output }: of the options only scale applies.
val attention_window(const val& q, const val& k, const val& v, double window, const val& o) {
    CallMemory& m = begin_call();
    const auto options = read_options(o);
    if (!options.ok()) return end_call(error(options.error));
    const attn::Shape sq = shape_of(q), sk = shape_of(k), sv = shape_of(v);
    if (attn::Error e = attn::check_window_shapes(sq, sk, sv, whole(window))) return end_call(error(e));
    copy_matrix(q, sq, m.q);
    copy_matrix(k, sk, m.k);
    copy_matrix(v, sv, m.v);
    m.matrix = attn::attention_window(m.q, m.k, m.v, whole(window), options.value.scale);
    if (!m.matrix.ok()) return end_call(error(m.matrix.error));
    val out = new_object();
    out.set("output", to_js(m.matrix.value));
    return end_call(out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(efficiency_paths) {
    emscripten::function("attentionTiled", &attention_tiled);
    emscripten::function("attentionDecode", &attention_decode);
    emscripten::function("attentionWindow", &attention_window);
}
