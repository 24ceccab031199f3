// core_bench.cpp — the core's fast paths timed inside wasm, without the JS API around them, and
// the wasm memory that attention_streaming needs at large n. Built by bench/run.sh with
// em++ -O3 (-msimd128 for the SIMD variant) into build/bench/core_bench{,_scalar}.cjs; the Node
// harness calls these functions (and uses their numbers only for NOTES-style breakdowns and the
// memory check: the table's timings go through the public JS API).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <vector>

#include "attention.hpp"

namespace {

attn::Matrix fill(std::size_t rows, std::size_t cols, unsigned seed) {
    attn::Matrix m(rows, cols);
    unsigned x = seed * 2654435761u + 1u;
    for (float& v : m.data) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        v = -1.0f + 2.0f * static_cast<float>(x >> 8) / static_cast<float>(1u << 24);
    }
    return m;
}

}  // namespace

extern "C" {

// Median milliseconds of `reps` calls of attention (which = 0) or attention_streaming (1) at
// n_q = n_k = n, d_k = d_v = d, after one warm-up call. −1 on error.
EMSCRIPTEN_KEEPALIVE double time_attention(int which, int n, int d, int reps) {
    const attn::Matrix q = fill(n, d, 1), k = fill(n, d, 2), v = fill(n, d, 3);
    std::vector<double> ms;
    for (int r = 0; r <= reps; ++r) {
        const double t0 = emscripten_get_now();
        const auto out = which == 0 ? attn::attention(q, k, v) : attn::attention_streaming(q, k, v);
        const double t = emscripten_get_now() - t0;
        if (!out.ok()) return -1.0;
        if (r > 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// Minimum milliseconds over `reps` calls (after one warm-up): the least disturbed run, for
// comparing kernel variants on a busy machine.
EMSCRIPTEN_KEEPALIVE double time_attention_min(int which, int n, int d, int reps) {
    const attn::Matrix q = fill(n, d, 1), k = fill(n, d, 2), v = fill(n, d, 3);
    double best = 1e300;
    for (int r = 0; r <= reps; ++r) {
        const double t0 = emscripten_get_now();
        const auto out = which == 0 ? attn::attention(q, k, v) : attn::attention_streaming(q, k, v);
        const double t = emscripten_get_now() - t0;
        if (!out.ok()) return -1.0;
        if (r > 0) best = std::min(best, t);
    }
    return best;
}

// Runs attention_streaming once at n × d and returns the wasm memory size in bytes afterwards
// (the module starts small and grows on demand; memory never shrinks, so this is the peak).
// The inputs and the output live in the same memory, so the number is everything the call needed.
EMSCRIPTEN_KEEPALIVE double streaming_memory_bytes(int n, int d) {
    const attn::Matrix q = fill(n, d, 1), k = fill(n, d, 2), v = fill(n, d, 3);
    const auto out = attn::attention_streaming(q, k, v);
    if (!out.ok()) return -1.0;
    return static_cast<double>(__builtin_wasm_memory_size(0)) * 65536.0;
}

}
