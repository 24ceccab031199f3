// core_bench.cpp — the core's fast paths timed inside wasm, without the JS API around them, and
// the wasm memory attention_streaming needs: a tool for kernel work (bench/NOTES.md lists what it
// measured). Neither bench/run.sh nor bench/harness.mjs builds or calls it — the published table
// times the public JS API; bench/wasm/build-core-bench.sh builds its relaxed-SIMD form for the
// page of bench/kernel-ab.mjs. Its inputs come from its own xorshift seeds, not the harness's. Built
// by hand, from the repository's root, as one command (drop -msimd128 for the scalar build):
//   NODE_PATH=/usr/share/nodejs em++ -O3 -msimd128 -ffp-contract=off -std=c++17
//     -DATTN_VERSION='"0.1.0"' -Icore -isystem build/deps/xsimd/include
//     bench/wasm/core_bench.cpp core/*.cpp -o build/bench/core_bench.cjs -sMODULARIZE=1
//     -sEXPORT_NAME=createCoreBench -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1
//     -sMAXIMUM_MEMORY=2147483648
//     -sEXPORTED_FUNCTIONS=_time_attention,_time_attention_min,_time_attention_batches,_streaming_memory_bytes
// then in Node:
//   const m = await require('./build/bench/core_bench.cjs')(); m._time_attention(0, 1024, 64, 20)
#include <emscripten/emscripten.h>

#include <algorithm>
#include <vector>

#include "attention.hpp"

namespace {

attn::Matrix fill(std::size_t rows, std::size_t cols, unsigned seed) {
    attn::Matrix m(rows, cols);
    unsigned x = seed * 2654435761u + 1u;
    for (float& v : m.data) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
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

// Minimum over `samples` samples of the milliseconds per call, each sample timing `calls` calls
// back to back (after one warm-up call): for timers as coarse as Chromium's (0.1 ms steps) at
// small n, where one call takes less than a step. −1 on error.
EMSCRIPTEN_KEEPALIVE double time_attention_batches(int which, int n, int d, int calls, int samples) {
    const attn::Matrix q = fill(n, d, 1), k = fill(n, d, 2), v = fill(n, d, 3);
    auto call = [&] { return which == 0 ? attn::attention(q, k, v) : attn::attention_streaming(q, k, v); };
    if (!call().ok()) return -1.0;
    double best = 1e300;
    for (int r = 0; r < samples; ++r) {
        const double t0 = emscripten_get_now();
        for (int c = 0; c < calls; ++c)
            if (!call().ok()) return -1.0;
        best = std::min(best, (emscripten_get_now() - t0) / calls);
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
