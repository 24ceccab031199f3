// random.hpp — the core's seeded random numbers: SplitMix64 for uniform 64-bit draws, Box–Muller
// for N(0, 1) values, and the out_of_range check of a whole-number argument. Used by the §4 sampler
// (samples.cpp: why the stream is the same on every platform) and by the model's initialisation
// and the tasks' batches (model.cpp, tasks.cpp), so that one seed gives one run everywhere.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "error.hpp"

namespace attn {

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

// A uniform whole number in [0, n), n ≥ 1, from the top 32 bits of one draw (n·u / 2³²: the bias is
// below n / 2³², nothing for the tasks' vocabularies of at most a few hundred tokens).
inline std::size_t uniform_below(SplitMix64& g, std::size_t n) {
    return static_cast<std::size_t>(((g.next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
}

// out_of_range for `name` unless min ≤ value ≤ max: "dk must be a whole number from 1 to 1024 (got 0)".
inline Error check_range(const char* name, std::int64_t value, std::int64_t min, std::int64_t max) {
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

}  // namespace attn
