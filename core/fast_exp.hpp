// fast_exp.hpp — exp(x) for float32 in about 20 vector instructions, for the softmax of the fast
// paths. Not a general libm replacement: results below FLT_MIN (x < −87.34) are flushed to 0.
//
// The method (XNNPACK's `rr2_p5`, "range reduction in two steps, degree-5 polynomial"):
//   exp(x) = 2^n · exp(t),   n = round(x · log2 e),   t = x − n·ln 2  ∈ [−ln2/2, ln2/2]
//   - n is rounded by adding a "magic" 1.5·2^23 (+127, the exponent bias): the sum's low mantissa
//     bits are n + 127, so shifting them left by 23 gives the float 2^n with no conversion;
//   - t is computed as x − n·ln2_hi − n·ln2_lo: ln2_hi has 15 significant bits, so n·ln2_hi is
//     exact for |n| ≤ 255 and t keeps full precision (Cody–Waite reduction);
//   - exp(t) ≈ 1 + t·p(t), p a degree-4 minimax polynomial: max relative error ≈ 2 ulp.
//     It is evaluated in Estrin's form (shorter dependency chain than Horner's).
// Edge cases: x < −87.336 (result below FLT_MIN, including −∞) → 0; x > 88.72 (overflow,
// including +∞) → +∞; NaN → NaN (NaN fails both comparisons and flows through the arithmetic).
//
// tests/core/test_fast_paths.cpp checks it against std::exp over [−88, 88] and at ±∞ and NaN.
//
// exp2_nonpositive: 2^y for y ≤ 0, the softmax's exponential (y = (s − m)·log2(e)/divisor ≤ 0).
// In base 2 the range reduction is exact and needs no ln 2 constants: n = round(y), f = y − n in
// [−0.5, 0.5], 2^f by a degree-5 minimax polynomial (rr2_p5's, rescaled: ≤ 2.1e-7 relative in
// float32 arithmetic, was a degree-6 Taylor polynomial), times 2^n by the same exponent trick.
// About 18 operations instead of 24 for exp. y < −126 (result below FLT_MIN, including −∞) → 0; NaN → NaN.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "simd_kernels.hpp"  // ATTN_HAVE_SIMD and xsimd

namespace attn::fast {

namespace exp_constants {
constexpr float log2e = 0x1.715476p+0f;
constexpr float magic_bias = 0x1.8000FEp23f;  // 1.5·2^23 + 127
constexpr float minus_ln2_hi = -0x1.62E400p-1f;
constexpr float minus_ln2_lo = -0x1.7F7D1Cp-20f;
constexpr float c5 = 0x1.0F9F9Cp-7f;
constexpr float c4 = 0x1.573A1Ap-5f;
constexpr float c3 = 0x1.555A80p-3f;
constexpr float c2 = 0x1.FFFDC6p-2f;
constexpr float c1 = 0x1.FFFFF6p-1f;
constexpr float denorm_cutoff = -0x1.5D589Ep6f;  // ≈ −87.3365: below, exp(x) < FLT_MIN
constexpr float overflow_cutoff = 0x1.62E42Ep6f;  // ≈ 88.7228: above, exp(x) > FLT_MAX
// 2^f = Σ_k (f·ln 2)^k / k!, k ≤ 6
// 2^f on [−0.5, 0.5]: rr2_p5's minimax coefficients c_k above times ln2^k (rounded to float),
// since 2^f = e^(f·ln2) and f·ln2 stays inside rr2_p5's range [−ln2/2, ln2/2]
constexpr float e2c1 = 0x1.62E42Ap-1f, e2c2 = 0x1.EBF9BCp-3f, e2c3 = 0x1.C6B770p-5f, e2c4 = 0x1.3CEA52p-7f,
                e2c5 = 0x1.5BAF14p-10f;
constexpr float exp2_cutoff = -126.0f;  // below, 2^y < FLT_MIN
constexpr float exp2_floor = -127.0f;   // the batch version clamps y here: round(y) + 127 = 0 → 2^n = +0
}  // namespace exp_constants

// The same steps on one float: the scalar tail of the batch kernel (and its test oracle for
// bit-equality between lanes and tails).
// z = r + magic_bias holds round(r) in its low mantissa bits: shifted into the exponent field
// they make s = 2^round(r); returns s and leaves round(r) in n.
inline float pow2_of_rounded(float z, float& n) {
    std::uint32_t bits;
    std::memcpy(&bits, &z, sizeof bits);
    bits <<= 23;
    float s;
    std::memcpy(&s, &bits, sizeof s);
    n = z - exp_constants::magic_bias;
    return s;
}

inline float exp_scalar(float x) {
    using namespace exp_constants;
    float n;
    const float s = pow2_of_rounded(x * log2e + magic_bias, n);
    float t = n * minus_ln2_hi + x;
    t = n * minus_ln2_lo + t;
    const float t2 = t * t;
    const float p = (c2 * t + c1) + t2 * ((c4 * t + c3) + c5 * t2);
    t *= s;
    float f = t * p + s;
    if (x < denorm_cutoff) f = 0.0f;
    if (x > overflow_cutoff) f = std::numeric_limits<float>::infinity();
    return f;
}

// The constants as a mutable table, on purpose. Written as literals inside a loop, clang emits a
// `v128.const` for each at every use, and V8 (x86-64) builds each one with four instructions
// (two 64-bit immediates) on every iteration: that made the softmax 2× slower. Loaded once from
// a table the compiler cannot prove constant, they stay in registers (or spill slots) instead.
struct ExpCoefficients {
    float log2e, magic_bias, minus_ln2_hi, minus_ln2_lo, c5, c4, c3, c2, c1, denorm_cutoff, overflow_cutoff, inf;
    float e2c1, e2c2, e2c3, e2c4, e2c5, exp2_floor, one;
};
inline ExpCoefficients exp_coefficients = {
    exp_constants::log2e, exp_constants::magic_bias, exp_constants::minus_ln2_hi, exp_constants::minus_ln2_lo,
    exp_constants::c5, exp_constants::c4, exp_constants::c3, exp_constants::c2, exp_constants::c1,
    exp_constants::denorm_cutoff, exp_constants::overflow_cutoff, std::numeric_limits<float>::infinity(),
    exp_constants::e2c1, exp_constants::e2c2, exp_constants::e2c3, exp_constants::e2c4, exp_constants::e2c5,
    exp_constants::exp2_floor, 1.0f};

// 2^y for y ≤ 0 (or NaN): the same steps as exp2_nonpositive_batch.
inline float exp2_scalar(float y) {
    using namespace exp_constants;
    float n;
    const float s = pow2_of_rounded(y + magic_bias, n);
    const float f = y - n, f2 = f * f;
    const float p = (e2c1 * f + 1.0f) + f2 * ((e2c3 * f + e2c2) + f2 * (e2c5 * f + e2c4));
    return y < exp2_cutoff ? 0.0f : p * s;
}

#if ATTN_HAVE_SIMD
// The coefficients broadcast into registers, once per loop.
template <class Arch>
struct ExpBatches {
    using batch = xsimd::batch<float, Arch>;
    batch log2e, magic_bias, minus_ln2_hi, minus_ln2_lo, c5, c4, c3, c2, c1, denorm_cutoff, overflow_cutoff, inf;
    explicit ExpBatches(const ExpCoefficients& k = exp_coefficients)
        : log2e(k.log2e), magic_bias(k.magic_bias), minus_ln2_hi(k.minus_ln2_hi), minus_ln2_lo(k.minus_ln2_lo),
          c5(k.c5), c4(k.c4), c3(k.c3), c2(k.c2), c1(k.c1), denorm_cutoff(k.denorm_cutoff),
          overflow_cutoff(k.overflow_cutoff), inf(k.inf) {}
};
template <class Arch>
struct Exp2Batches {
    using batch = xsimd::batch<float, Arch>;
    batch magic_bias, c1, c2, c3, c4, c5, floor, one;
    explicit Exp2Batches(const ExpCoefficients& k = exp_coefficients)
        : magic_bias(k.magic_bias), c1(k.e2c1), c2(k.e2c2), c3(k.e2c3), c4(k.e2c4), c5(k.e2c5),
          floor(k.exp2_floor), one(k.one) {}
};

// 2^y of every lane for y ≤ 0 or NaN, the same steps as exp2_scalar.
template <class Arch>
inline xsimd::batch<float, Arch> exp2_nonpositive_batch(const xsimd::batch<float, Arch>& y, const Exp2Batches<Arch>& k) {
    using batch = xsimd::batch<float, Arch>;
    // y ≤ −127 → −127, whose exponent field round(y) + 127 is 0, so 2^n = +0 and the result is
    // exactly 0 (−∞ included) — one max instead of a compare and a select, which V8 builds with
    // four instructions. (−127, −126.5] also rounds to −127 → 0; (−126.5, −126) gives the
    // subnormal 2^y. A NaN y stays NaN: wasm's pmax(a, b) keeps a unless a < b; x86's maxps
    // returns its second operand when either is NaN.
#if defined(__wasm__)
    const batch yc = xsimd::max(y, k.floor);
#else
    const batch yc = xsimd::max(k.floor, y);
#endif
    batch n = yc + k.magic_bias;  // round(y) + 127 in the low mantissa bits
    const batch s = xsimd::bitwise_cast<float>(xsimd::bitwise_cast<std::int32_t>(n) << 23);  // 2^n
    n -= k.magic_bias;
    const batch f = yc - n, f2 = f * f;  // f in [−0.5, 0.5], exact
    const batch p = (k.c1 * f + k.one) + f2 * ((k.c3 * f + k.c2) + f2 * (k.c5 * f + k.c4));
    return p * s;
}

// exp of every lane, the same steps as exp_scalar. With `nonpositive` the caller promises x ≤ 0
// or NaN (softmax after subtracting the row max), and the overflow check is left out.
//
// The polynomial is evaluated in Estrin's form rather than Horner's: same terms, but a dependency
// chain of 4 operations instead of 8, which matters because the softmax loop is latency-bound.
template <class Arch, bool nonpositive = false>
inline xsimd::batch<float, Arch> exp_batch(const xsimd::batch<float, Arch>& x, const ExpBatches<Arch>& k) {
    using batch = xsimd::batch<float, Arch>;
    batch n = x * k.log2e + k.magic_bias;
    const batch s = xsimd::bitwise_cast<float>(xsimd::bitwise_cast<std::int32_t>(n) << 23);
    n -= k.magic_bias;
    batch t = n * k.minus_ln2_hi + x;
    t = n * k.minus_ln2_lo + t;
    // p(t) = c1 + c2·t + c3·t² + c4·t³ + c5·t⁴ = (c1 + c2·t) + t²·((c3 + c4·t) + c5·t²)
    const batch t2 = t * t;
    const batch p = (k.c2 * t + k.c1) + t2 * ((k.c4 * t + k.c3) + k.c5 * t2);
    t *= s;
    batch f = t * p + s;  // 2^n · (1 + t·p(t))
    // below the cutoff (and at −∞) → 0: clear the bits where x < cutoff (NaN compares false)
    f = xsimd::bitwise_andnot(f, batch((x < k.denorm_cutoff).data));
    if (!nonpositive) f = xsimd::select(x > k.overflow_cutoff, k.inf, f);
    return f;
}

// out_i = exp(x_i) over a whole array: batches, then the scalar tail.
struct exp_kernel {
    template <class Arch>
    void operator()(Arch, float* out, const float* x, std::size_t n) const {
        using batch = xsimd::batch<float, Arch>;
        constexpr std::size_t W = batch::size;
        const std::size_t vec_end = n - n % W;
        const ExpBatches<Arch> k;
        for (std::size_t i = 0; i < vec_end; i += W)
            exp_batch<Arch>(batch::load_unaligned(x + i), k).store_unaligned(out + i);
        for (std::size_t i = vec_end; i < n; ++i) out[i] = exp_scalar(x[i]);  // the tail, scalar
    }
};
inline void exp_array(float* out, const float* x, std::size_t n) {
    exp_kernel{}(xsimd::default_arch{}, out, x, n);
}
// out_i = 2^(y_i) for y_i ≤ 0 over a whole array: batches, then the scalar tail.
inline void exp2_nonpositive_array(float* out, const float* y, std::size_t n) {
    using batch = xsimd::batch<float, xsimd::default_arch>;
    constexpr std::size_t W = batch::size;
    const std::size_t vec_end = n - n % W;
    const Exp2Batches<xsimd::default_arch> k;
    for (std::size_t i = 0; i < vec_end; i += W)
        exp2_nonpositive_batch(batch::load_unaligned(y + i), k).store_unaligned(out + i);
    for (std::size_t i = vec_end; i < n; ++i) out[i] = exp2_scalar(y[i]);  // the tail, scalar
}
#else
inline void exp_array(float* out, const float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = exp_scalar(x[i]);
}
inline void exp2_nonpositive_array(float* out, const float* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = exp2_scalar(y[i]);
}
#endif

}  // namespace attn::fast
