// samples.cpp — see samples.hpp: SplitMix64 → Box–Muller → float32 → simd::dot.
#include "samples.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "simd_kernels.hpp"
#include "validate.hpp"

namespace attn {
namespace {

// SplitMix64: a Weyl sequence (state += γ, γ = 2⁶⁴/φ) scrambled by two multiply-xorshift rounds.
// Unsigned 64-bit arithmetic wraps modulo 2⁶⁴ by definition, so every platform gives the same bits.
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        return z ^ (z >> 31);
    }

  private:
    std::uint64_t state_;
};

// N(0, 1) values by Box–Muller, in float64, each rounded once to float32. Two uniforms make two
// normals: r = √(−2 ln u₁), z₀ = r cos 2πu₂, z₁ = r sin 2πu₂, with u₁ ∈ (0, 1] (so ln u₁ is
// finite) and u₂ ∈ [0, 1), each from the top 53 bits of one draw.
class NormalStream {
  public:
    explicit NormalStream(std::uint64_t seed) : uniform_(seed) {}
    float next() {
        if (has_spare_) {
            has_spare_ = false;
            return spare_;
        }
        constexpr double two_pi = 6.283185307179586476925;
        constexpr double ulp53 = 1.0 / 9007199254740992.0;  // 2⁻⁵³
        const double u1 = static_cast<double>((uniform_.next() >> 11) + 1) * ulp53;
        const double u2 = static_cast<double>(uniform_.next() >> 11) * ulp53;
        const double r = std::sqrt(-2.0 * std::log(u1));
        spare_ = static_cast<float>(r * std::sin(two_pi * u2));
        has_spare_ = true;
        return static_cast<float>(r * std::cos(two_pi * u2));
    }
    void fill(float* out, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) out[i] = next();
    }

  private:
    SplitMix64 uniform_;
    float spare_ = 0.0f;
    bool has_spare_ = false;
};

// out_of_range for `name` unless min ≤ value ≤ max: "dk must be a whole number from 1 to 1024 (got 0)".
Error check_range(const char* name, std::int64_t value, std::int64_t min, std::int64_t max) {
    if (value >= min && value <= max) return {};
    Error e;
    e.code = ErrorCode::OutOfRange;
    e.argument = name;
    e.params = {
        {"got", static_cast<double>(value)}, {"min", static_cast<double>(min)}, {"max", static_cast<double>(max)}};
    e.message = std::string(name) + " must be a whole number from " + std::to_string(min) + " to " +
                std::to_string(max) + " (got " + std::to_string(value) + ")";
    return e;
}

Error check_seed(std::int64_t seed) {
    return check_range("seed", seed, kSampleLimits.min_seed, kSampleLimits.max_seed);
}

}  // namespace

Result<std::vector<float>> dot_product_samples(std::int64_t dk, std::int64_t count, std::int64_t seed) {
    using Samples = Result<std::vector<float>>;
    const SampleLimits& lim = kSampleLimits;
    if (Error e = check_range("dk", dk, lim.min_dk, lim.max_dk)) return Samples::failure(e);
    if (Error e = check_range("count", count, lim.min_count, lim.max_count)) return Samples::failure(e);
    if (Error e = check_seed(seed)) return Samples::failure(e);
    // The samples and one pair (q, k). Within the limits at most 128 KiB: the check keeps the
    // core's rule that nothing is allocated unchecked, should the limits ever grow.
    const std::uint64_t n = static_cast<std::uint64_t>(count), d = static_cast<std::uint64_t>(dk);
    if (Error e = check_memory("dot_product_samples", "samples", n, 1, float_bytes(size_sum(n, size_product(2, d)))))
        return Samples::failure(e);

    NormalStream normal(static_cast<std::uint64_t>(seed));
    std::vector<float> q(d), k(d), out(n);
    for (std::size_t p = 0; p < n; ++p) {
        normal.fill(q.data(), d);  // row 2p of normal_matrix(2·count, dk, seed)
        normal.fill(k.data(), d);  // row 2p + 1
        out[p] = simd::dot(q.data(), k.data(), d);
    }
    return Samples::success(std::move(out));
}

Result<Matrix> normal_matrix(std::int64_t rows, std::int64_t cols, std::int64_t seed) {
    const SampleLimits& lim = kSampleLimits;
    if (Error e = check_range("rows", rows, lim.min_count, lim.max_count)) return Result<Matrix>::failure(e);
    if (Error e = check_range("cols", cols, lim.min_dk, lim.max_dk)) return Result<Matrix>::failure(e);
    if (Error e = check_seed(seed)) return Result<Matrix>::failure(e);
    const std::uint64_t r = static_cast<std::uint64_t>(rows), c = static_cast<std::uint64_t>(cols);
    if (Error e = check_memory("normal_matrix", "values", r, c, float_bytes(size_product(r, c))))
        return Result<Matrix>::failure(e);

    Matrix m(r, c);
    NormalStream(static_cast<std::uint64_t>(seed)).fill(m.data.data(), m.size());
    return Result<Matrix>::success(std::move(m));
}

}  // namespace attn
