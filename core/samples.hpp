// samples.hpp — random vectors for the lab "why divide by √d_k" (article §4).
//
// §4's estimate: let q, k ∈ ℝ^{d_k} have independent components with mean 0 and variance 1.
// Each term q_i·k_i then has mean 0 and variance 1, and d_k independent terms add their variances:
//
//     q·k = Σ_{i=1}^{d_k} q_i k_i,   E[q·k] = 0,   Var(q·k) = d_k,   Var(q·k / √d_k) = 1.
//
// dot_product_samples draws such pairs and returns their dot products, so that the page can
// measure these numbers instead of quoting them; normal_matrix gives the same kind of vectors as a
// matrix (the lab pushes one query against a few keys through attention_steps).
//
// The numbers are the same on every platform and in every build, for the same seed:
//  - the generator is SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
//    generators", OOPSLA 2014): 64-bit integer additions, multiplications and shifts only, so its
//    stream is bit for bit the same natively and in wasm; any seed (0 included) is a good one; it
//    passes BigCrush; and it is short enough to re-implement in a test (tests/core/test_samples.cpp
//    checks values computed independently in Python);
//  - two draws become two N(0, 1) values by Box–Muller in float64, then rounded to float32 —
//    the core's number type. log, sqrt, cos and sin of glibc (native) and musl (wasm) are within
//    an ulp of each other in float64, far below what the rounding to float32 keeps;
//  - the dot products go through simd::dot (simd_kernels.hpp), the kernel of the page's scores.
//    It adds W interleaved partial sums (W = 4 on SIMD128, 8 on AVX, 1 in the scalar build), so
//    for d_k > 1 the builds agree to float32 rounding, not bit for bit.
//
// Both functions check their arguments (out_of_range, with the limits below: one place for them;
// wasm/vocabulary.mjs repeats them for the page and a Node test holds the two equal) and their
// memory (check_memory) before allocating anything. The arguments are signed 64-bit so that a
// caller's negative or huge value is refused with its own number rather than wrapped around.
#pragma once

#include <cstdint>
#include <vector>

#include "matrix.hpp"
#include "result.hpp"

namespace attn {

// What the sampler accepts. d_k: the lab's control runs 1, 2, 4, … 1024. count: enough pairs for
// a histogram and a variance within a few percent (relative standard error √(2/count) for a
// normal-like q·k), few enough that the largest call (2·count·d_k = 2²⁶ normal values) stays
// around a second in wasm. seed: 32 bits, so that any seed of the page's state (0 … 2³¹ − 1) fits.
struct SampleLimits {
    std::int64_t min_dk = 1, max_dk = 1024;
    std::int64_t min_count = 1, max_count = 32768;
    std::int64_t min_seed = 0, max_seed = 4294967295;  // 2³² − 1
};
inline constexpr SampleLimits kSampleLimits{};

// `count` dot products q_p · k_p, p = 0 … count − 1, of pairs with independent N(0, 1)
// components: pair p is rows 2p (q_p) and 2p + 1 (k_p) of normal_matrix(2·count, dk, seed).
//   dk: d_k, the length of q and k (1 … 1024); count: 1 … 32768; seed: 0 … 2³² − 1  → count values
Result<std::vector<float>> dot_product_samples(std::int64_t dk, std::int64_t count, std::int64_t seed);

// A rows×cols matrix of independent N(0, 1) values, row-major, the seed's stream in order.
//   rows: 1 … 32768 (a count), cols: 1 … 1024 (a d_k), seed: 0 … 2³² − 1  → (rows, cols)
Result<Matrix> normal_matrix(std::int64_t rows, std::int64_t cols, std::int64_t seed);

}  // namespace attn
