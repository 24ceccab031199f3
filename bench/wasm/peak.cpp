// peak.cpp — the wasm SIMD128 mul+add peak on this machine: the "physical limit" the benchmark
// compares attention with. Each of N independent chains does acc = acc·a + b on f32x4 (one
// f32x4.mul and one f32x4.add, 8 flops); with enough chains the multiplier and adder pipelines are
// never waiting for a previous result. SIMD128 has no fused multiply-add, so this is the best
// any SIMD128 kernel can do per instruction pair. Built by bench/run.sh with em++ -O3 -msimd128.
//
// Built again with -mrelaxed-simd (bench/run.sh, then scripts/relax-module.mjs), the same chains
// are one f32x4.relaxed_madd each: the relaxed-SIMD peak, the limit of the relaxed build's
// kernels. The operands are in relaxed_madd's order (acc·a + b), as in core/madd.hpp's
// madd, for the same reason (docs/toolchain.md, "Relaxed SIMD").
#include <emscripten/emscripten.h>
#include <wasm_simd128.h>

namespace {

template <int N>
double chains(int iterations, float* sink) {
    v128_t acc[N];
    for (int i = 0; i < N; ++i) acc[i] = wasm_f32x4_splat(1.0f + 0.001f * i);
    const v128_t a = wasm_f32x4_splat(0.999999f), b = wasm_f32x4_splat(1e-6f);
    const double t0 = emscripten_get_now();
    for (int it = 0; it < iterations; ++it)
        for (int i = 0; i < N; ++i) {
#ifdef __wasm_relaxed_simd__
            using f32x4 = float __attribute__((vector_size(16)));
            acc[i] = v128_t(__builtin_wasm_fma_f32x4(f32x4(acc[i]), f32x4(a), f32x4(b)));  // acc·a + b, renamed
#else
            acc[i] = wasm_f32x4_add(wasm_f32x4_mul(acc[i], a), b);
#endif
        }
    const double ms = emscripten_get_now() - t0;
    v128_t total = acc[0];
    for (int i = 1; i < N; ++i) total = wasm_f32x4_add(total, acc[i]);
    *sink += wasm_f32x4_extract_lane(total, 0);  // keeps the loop alive
    return 8.0 * N * iterations / (ms * 1e6);    // GFLOP/s
}

}  // namespace

extern "C" {

// GFLOP/s of one timed run with `n_chains` independent accumulator chains (4..16).
EMSCRIPTEN_KEEPALIVE double peak_gflops(int n_chains, int iterations) {
    static float sink = 0.0f;
    switch (n_chains) {
        case 4:
            return chains<4>(iterations, &sink);
        case 6:
            return chains<6>(iterations, &sink);
        case 8:
            return chains<8>(iterations, &sink);
        case 10:
            return chains<10>(iterations, &sink);
        case 12:
            return chains<12>(iterations, &sink);
        default:
            return chains<16>(iterations, &sink);
    }
}
}
