// bindings_support.hpp — what every binding file (wasm/*.cpp) shares: the one store of a call's
// memory, the property names made into JS values once, and the translations between JS's
// { rows, cols, data } objects and the core's Matrix, Error and options.
//
// Why one store and one set of names for all files (their definitions are in bindings_support.cpp):
//  - a JS exception thrown into the middle of a call unwinds the wasm frames without running C++
//    destructors, so whatever a call copies in or computes lives in the one CallMemory, which the
//    next call — of any file — empties first (begin_call), and a call that finishes empties on its
//    way out (end_call);
//  - Names holds Object.create and Float32Array as they were when the module started, before any
//    caller code could replace them (EMSCRIPTEN_BINDINGS(attention_core) makes it then).
//
// Nothing the caller installed runs during a call: every object handed back is made without a
// prototype (new_object), so that writing its properties defines them and can reach no setter on
// Object.prototype. wasm/bindings.cpp's header comment tells the whole story.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attention.hpp"
#include "multi_head.hpp"
#include "validate.hpp"

namespace bindings {

using emscripten::val;

// Everything one call copies in and computes (see the top of the file).
struct CallMemory {
    attn::Matrix q, k, v, x, w, w_k, w_v, w_o;  // project uses x and w; multi-head x, w (as W_Q) … w_o
    std::vector<double> tokens;                 // a trainer's probe
    attn::AttentionOptions options;             // holds a custom mask's values
    attn::Result<attn::AttentionSteps> steps;
    attn::Result<attn::Matrix> matrix;
    attn::Result<attn::MultiHeadSteps> multi_head;
    std::shared_ptr<void> other;  // a result of another type, from hold() (freed with its own destructor)
};
CallMemory& call_memory();
// Frees what a call cut short left behind (normally nothing) and hands out the empty storage.
CallMemory& begin_call();
// Frees what this call copied in and computed, once its results are JS-owned copies.
val end_call(val out);

// Keeps `value` (a result of a type CallMemory has no field for) in the call's memory until the
// call ends, and returns it there.
template <class T>
T& hold(CallMemory& m, T value) {
    auto held = std::make_shared<T>(std::move(value));
    T& ref = *held;
    m.other = std::move(held);
    return ref;
}

// The property names and the constructors the bindings use on every call, made into JS values once:
// `m["rows"]` with a C string would turn the name into a JS string again on every access.
// (Embind's val handles; never freed, like the module.)
struct Names {
    val rows{"rows"}, cols{"cols"}, data{"data"}, length{"length"};
    val scale{"scale"}, temperature{"temperature"}, mask{"mask"}, stable{"stable"}, axis{"axis"},
        mask_matrix{"maskMatrix"}, out{"out"};
    val float32_array = val::global("Float32Array");
    val object_create = val::global("Object")["create"];
};
const Names& names();

// {} without a prototype: out.set(name, value) defines an own property, whatever setters the
// caller put on Object.prototype.
val new_object();

// A list of `n` values as a prototype-less { length, 0, 1, … } (an array's indices and push are
// Array.prototype's, which a caller can reach too); api.mjs turns it into an array.
template <class T, class ToJs>
val list_to_js(const std::vector<T>& items, ToJs to_js_item) {
    val out = new_object();
    out.set(names().length, static_cast<unsigned>(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i) out.set(static_cast<unsigned>(i), to_js_item(items[i]));
    return out;
}

// A table of the core's names (options.hpp, error.hpp) as an array of strings.
template <class Row, std::size_t N>
val names_of(const Row (&table)[N]) {
    val out = val::array();
    for (const Row& row : table) out.call<void>("push", std::string(row.name));
    return out;
}

// { rows, cols, data } → its shape (rows, cols, data.length), before anything is copied.
attn::Shape shape_of(const val& m);

// A view of m's values in wasm memory, valid only until the memory grows: to copy into or out of
// at once.
val values_view(const attn::Matrix& m);

// { rows, cols, data } of that shape → Matrix. One bulk copy of the values (TypedArray.set on a
// view of the Matrix's storage), no per-element calls. data is read again here rather than kept
// from shape_of: a handle held across another argument's copy would be leaked, with the array it
// holds, if that copy threw (see the top of the file).
void copy_matrix(const val& m, const attn::Shape& shape, attn::Matrix& out);

// { rows, cols, data } with m's shape and `data` a Float32Array holding m's values.
val matrix_object(const attn::Matrix& m, const val& data);

// Matrix → { rows, cols, data: Float32Array }. The Float32Array constructor copies, so the result
// stays valid when wasm memory grows (a typed_memory_view would silently detach).
val to_js(const attn::Matrix& m);

// Matrix → { rows, cols, data: into }, its values copied into `into`, a Float32Array the caller
// provided (api.mjs's view of the JS API's `out`) of exactly rows·cols values: no new array, whose
// fresh memory is slow to write the first time in Chromium here (bench/NOTES.md, issue 20).
val to_js_into(const attn::Matrix& m, const val& into);

// NonFinite → { scores, scaled, rowMax, shifted, exps, rowSum, weights, output }: counts.
val to_js(const attn::NonFinite& n);

// AttentionSteps → { scores, kept, scaled, rowMax, shifted, exps, rowSum, weights, output, nonFinite,
// divisor }.
val to_js(const attn::AttentionSteps& st);

// Error → { error: { code, message, argument?, cell?: { row, col }, params: { name: value } } },
// which api.mjs throws as a JS Error with the same fields.
val error(const attn::Error& e);

// { scale, temperature, mask, maskMatrix?, stable, axis } with the options' names as api.mjs sends
// them ("sqrt_dk", "causal", "custom", "row", …), turned into enums through the core's name tables
// only: a name the table lacks is refused with bad_option, never cast. A custom mask's values are
// not copied here (read_options leaves options.mask.keep empty).
attn::Result<attn::AttentionOptions> read_options(const val& o);

}  // namespace bindings
