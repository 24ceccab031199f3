// samples.cpp — see samples.hpp: SplitMix64 → Box–Muller → float32 → simd::dot.
#include "samples.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "random.hpp"
#include "simd_kernels.hpp"
#include "validate.hpp"

namespace attn {
namespace {

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
