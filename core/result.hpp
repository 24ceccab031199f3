// result.hpp — what a public entry point returns: its value, or the Error that refused the input
// (error.hpp). Never an exception: the wasm build has none.
#pragma once

#include <utility>

#include "error.hpp"

namespace attn {

template <class T>
struct Result {
    T value{};
    Error error;  // code None when the call succeeded

    bool ok() const { return !error; }
    static Result success(T v) { return Result{std::move(v), {}}; }
    static Result failure(Error e) { return Result{T{}, std::move(e)}; }
};

}  // namespace attn
