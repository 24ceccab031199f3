// result.hpp — how the core reports bad input: a value or a readable message, never an exception.
//
// The wasm build has no C++ exceptions (they cost ~20% size and abort on out-of-memory anyway), so
// every public entry point validates first and returns Result<T>. The message names the argument
// and what is wrong, e.g. "q has 10 values but 3×4 needs 12"; the bindings turn it into a JS Error.
#pragma once

#include <string>
#include <utility>

namespace attn {

template <class T>
struct Result {
    T value{};
    std::string error;  // empty when the call succeeded

    bool ok() const { return error.empty(); }
    static Result success(T v) { return Result{std::move(v), {}}; }
    static Result failure(std::string message) { return Result{T{}, std::move(message)}; }
};

}  // namespace attn
