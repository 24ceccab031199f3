// fast_exp.hpp — the exponentials of the fast paths' softmax (fast_kernels.hpp, and
// attention_streaming.cpp's rescaling). Not a general libm replacement: results below FLT_MIN are
// flushed to 0.
//
// 2^y for y ≤ 0 — the softmax's p = exp((s − m)/divisor), computed as 2^y with
// y = (s − m)·log2(e)/divisor ≤ 0. In base 2 the range reduction is exact and needs no ln 2
// constants:
//   2^y = 2^n · 2^f,   n = round(y),   f = y − n ∈ [−0.5, 0.5]   (exact)
//   - n is rounded by adding a "magic" 1.5·2^23 (+127, the exponent bias): the sum's low mantissa
//     bits are n + 127, so shifting them left by 23 gives the float 2^n with no conversion;
//   - 2^f by a degree-5 minimax polynomial: XNNPACK's rr2_p5 coefficients (below) times ln2^k,
//     since 2^f = e^(f·ln 2) and f·ln 2 stays inside rr2_p5's range; ≤ 2.1e-7 relative in
//     float32 arithmetic.
//   About 18 operations per batch (exp2_nonpositive_batch), the same steps on one float in
//   exp2_scalar. y < −126 (below FLT_MIN, −∞ included) → 0; NaN → NaN.
//
// exp(x) on one float (exp_scalar) — the streaming kernel's rescaling factor
// α = exp((m_old − m_new)/divisor) when log2(e)/divisor cannot be folded into the queries; once
// per row and key tile, so it has no batch version. XNNPACK's rr2_p5 ("range reduction in two
// steps, degree-5 polynomial"):
//   exp(x) = 2^n · exp(t),   n = round(x · log2 e),   t = x − n·ln 2 ∈ [−ln2/2, ln2/2]
//   - t is computed as x − n·ln2_hi − n·ln2_lo: ln2_hi has 15 significant bits, so n·ln2_hi is
//     exact for |n| ≤ 255 and t keeps full precision (Cody–Waite reduction);
//   - exp(t) ≈ 1 + t·p(t), p a degree-4 minimax polynomial in Estrin's form: ≈ 2 ulp.
//   x < −87.336 (−∞ included) → 0; x > 88.72 (+∞ included) → +∞; NaN → NaN.
//
// tests/core/test_fast_kernels.cpp checks both against std::exp2 / std::exp with their edge cases.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "madd.hpp"
#include "simd_kernels.hpp"  // ATTN_HAVE_SIMD and xsimd

namespace attn::fast {

namespace exp_constants {
constexpr float log2e = 0x1.715476p+0f;
constexpr float magic_bias = 0x1.8000FEp23f;  // 1.5·2^23 + 127
constexpr float minus_ln2_hi = -0x1.62E400p-1f;
constexpr float minus_ln2_lo = -0x1.7F7D1Cp-20f;
// rr2_p5's minimax coefficients for exp(t) ≈ 1 + t·(c1 + c2·t + c3·t² + c4·t³ + c5·t⁴)
constexpr float c5 = 0x1.0F9F9Cp-7f;
constexpr float c4 = 0x1.573A1Ap-5f;
constexpr float c3 = 0x1.555A80p-3f;
constexpr float c2 = 0x1.FFFDC6p-2f;
constexpr float c1 = 0x1.FFFFF6p-1f;
constexpr float denorm_cutoff = -0x1.5D589Ep6f;   // ≈ −87.3365: below, exp(x) < FLT_MIN
constexpr float overflow_cutoff = 0x1.62E42Ep6f;  // ≈ 88.7228: above, exp(x) > FLT_MAX
// 2^f on [−0.5, 0.5]: the c_k above times ln2^k (rounded to float)
constexpr float e2c1 = 0x1.62E42Ap-1f, e2c2 = 0x1.EBF9BCp-3f, e2c3 = 0x1.C6B770p-5f, e2c4 = 0x1.3CEA52p-7f,
                e2c5 = 0x1.5BAF14p-10f;
constexpr float exp2_cutoff = -126.0f;  // below, 2^y < FLT_MIN
constexpr float exp2_floor = -127.0f;   // the batch version clamps y here: round(y) + 127 = 0 → 2^n = +0
}  // namespace exp_constants

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

// exp(x), rr2_p5 (see the top of the file).
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

// 2^y for y ≤ 0 (or NaN): the same steps as exp2_nonpositive_batch, on one float (the scalar
// build's softmax).
inline float exp2_scalar(float y) {
    using namespace exp_constants;
    float n;
    const float s = pow2_of_rounded(y + magic_bias, n);
    const float f = y - n, f2 = f * f;
    const float p = (e2c1 * f + 1.0f) + f2 * ((e2c3 * f + e2c2) + f2 * (e2c5 * f + e2c4));
    return y < exp2_cutoff ? 0.0f : p * s;
}

#if ATTN_HAVE_SIMD
// The constants as a mutable table, on purpose. Written as literals inside a loop, clang emits a
// `v128.const` for each at every use, and V8 (x86-64) builds each one with four instructions
// (two 64-bit immediates) on every iteration: that made the softmax 2× slower. Loaded once from
// a table the compiler cannot prove constant, they stay in registers (or spill slots) instead.
struct Exp2Coefficients {
    float magic_bias, c1, c2, c3, c4, c5, floor, one;
};
inline Exp2Coefficients exp2_coefficients = {
    exp_constants::magic_bias, exp_constants::e2c1, exp_constants::e2c2,       exp_constants::e2c3,
    exp_constants::e2c4,       exp_constants::e2c5, exp_constants::exp2_floor, 1.0f};

// The coefficients broadcast into registers, once per loop.
template <class Arch>
struct Exp2Batches {
    using batch = xsimd::batch<float, Arch>;
    batch magic_bias, c1, c2, c3, c4, c5, floor, one;
    explicit Exp2Batches(const Exp2Coefficients& k = exp2_coefficients)
        : magic_bias(k.magic_bias), c1(k.c1), c2(k.c2), c3(k.c3), c4(k.c4), c5(k.c5), floor(k.floor), one(k.one) {}
};

// 2^y of every lane for y ≤ 0 or NaN, the same steps as exp2_scalar. The polynomial is in
// Estrin's form rather than Horner's: the same terms with a dependency chain of 3 multiply-adds
// instead of 5, which matters because the softmax loop is latency-bound.
// Clamp = false leaves out the first step, for callers that know every y is ≥ −127 (then
// max(y, −127) = y and the result is the same).
template <class Arch, bool Clamp = true>
inline xsimd::batch<float, Arch> exp2_nonpositive_batch(const xsimd::batch<float, Arch>& y,
                                                        const Exp2Batches<Arch>& k) {
    using batch = xsimd::batch<float, Arch>;
    // y ≤ −127 → −127, whose exponent field round(y) + 127 is 0, so 2^n = +0 and the result is
    // exactly 0 (−∞ included) — one max instead of a compare and a select, which V8 builds with
    // four instructions. (−127, −126.5] also rounds to −127 → 0; (−126.5, −126) gives the
    // subnormal 2^y. A NaN y stays NaN: wasm's pmax(a, b) keeps a unless a < b; x86's maxps
    // returns its second operand when either is NaN.
#if defined(__wasm__)
    const batch yc = Clamp ? xsimd::max(y, k.floor) : y;
#else
    const batch yc = Clamp ? xsimd::max(k.floor, y) : y;
#endif
    batch n = yc + k.magic_bias;  // round(y) + 127 in the low mantissa bits
    const batch s = xsimd::bitwise_cast<float>(xsimd::bitwise_cast<std::int32_t>(n) << 23);  // 2^n
    n -= k.magic_bias;
    const batch f = yc - n, f2 = f * f;  // f in [−0.5, 0.5], exact
    // (c1·f + 1) + f2·((c3·f + c2) + f2·(c5·f + c4)) as five multiply–adds: in the SIMD128 build
    // the same multiplies and adds as written out (a mul and an add each, the same bits), in the
    // relaxed-SIMD build five relaxed_madd instead of ten instructions
    const batch p = madd(f2, madd(f2, madd(k.c5, f, k.c4), madd(k.c3, f, k.c2)), madd(k.c1, f, k.one));
    return p * s;
}
#endif

}  // namespace attn::fast
