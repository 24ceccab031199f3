// madd.hpp — a·b + c on SIMD batches: the one multiply–add of the fast paths' microkernels
// (fast_kernels.hpp), of their exponential's polynomial (fast_exp.hpp) and of the backward pass
// (backward_kernels.hpp, backward_madd). One place, because it is where the relaxed-SIMD build
// differs from the SIMD128 one.
#pragma once

#include "simd_kernels.hpp"  // ATTN_HAVE_SIMD and xsimd

// ATTN_RELAXED_SIMD = 1: the relaxed-SIMD wasm build (CMakeLists.txt), whose madd below is one
// f32x4.relaxed_madd. 0 in every other build.
#ifndef ATTN_RELAXED_SIMD
#define ATTN_RELAXED_SIMD 0
#endif
#if ATTN_RELAXED_SIMD && !defined(__wasm_relaxed_simd__)
#error "ATTN_RELAXED_SIMD needs -msimd128 -mrelaxed-simd"
#endif

namespace attn::fast {

#if ATTN_HAVE_SIMD
// a·b + c, lane by lane: the one multiply–add of both microkernels and of 2^y's polynomial (and,
// in the relaxed-SIMD build, of the backward pass: backward_kernels.hpp, backward_madd).
//
// In the relaxed-SIMD wasm build it is one f32x4.relaxed_madd, which an engine may fuse (one
// rounding, on CPUs with FMA) or not (a mul and an add): the numbers may differ from the SIMD128
// build's in the last bits, and the tests hold that build to the reference within a tolerance.
// clang 14 knows the instruction only as the relaxed-SIMD prototype's f32x4.qfma, which computes
// a + b·c and which engines refuse; the call below passes its operands in relaxed_madd's order and
// the build renames every qfma to relaxed_madd once the module is linked
// (scripts/lib/relaxed-simd.mjs; docs/toolchain.md, "Relaxed SIMD"). Neither clang 14 nor
// binaryen 108 rewrites the prototype instruction when its operands are not all constants, and
// tests/node/relaxed-simd.test.mjs checks the built module against the reference.
// Everywhere else xsimd::fma: a mul and an add on SIMD128, a real FMA natively with FMA3.
template <class B>
inline B madd(const B& a, const B& b, const B& c) {
#if ATTN_RELAXED_SIMD
    using f32x4 = float __attribute__((vector_size(16)));
    const v128_t x = a, y = b, z = c;  // the batches' registers
    return B(v128_t(__builtin_wasm_fma_f32x4(f32x4(x), f32x4(y), f32x4(z))));
#else
    return xsimd::fma(a, b, c);
#endif
}

#endif

}  // namespace attn::fast
