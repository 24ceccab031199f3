// bench_native.cpp — the same C++ core built natively (-O3 -march=native, CMake Release), as the
// hardware reference in the benchmark table. Times attn::attention and attn::attention_streaming
// on the harness's sizes with the harness's fixed-seed inputs and prints one JSON object:
//   {"compiler": ..., "simd": ..., "results": [{"n", "d", "impl", "median_ms", "min_ms", "max_ms", "reps"}]}
// (bench/report.mjs adds the compile flags, read from CMake's flags.make).
// Usage: bench_native [--quick]   (bench/run.sh writes its output to build/bench/native.json)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "attention.hpp"

namespace {

// The harness's inputs, bit for bit (bench/inputs.mjs, `fill`): each value is the sum of four
// xorshift32 uniforms in [−1, 1), computed in double, times σ·√(3/4), rounded once to float.
attn::Matrix fill(std::size_t rows, std::size_t cols, unsigned seed, double sigma) {
    attn::Matrix m(rows, cols);
    const double factor = sigma * std::sqrt(0.75);
    std::uint32_t x = seed;
    auto uniform = [&x] {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        return -1.0 + 2.0 * (static_cast<double>(x >> 8) / static_cast<double>(1u << 24));
    };
    for (float& v : m.data) {
        const double u1 = uniform(), u2 = uniform(), u3 = uniform(), u4 = uniform();
        v = static_cast<float>(factor * (((u1 + u2) + u3) + u4));
    }
    return m;
}

// Q and K with σ = √2.5 (scores with a standard deviation of 2.5), V with σ = 1.
const double kQkSigma = std::sqrt(2.5), kVSigma = 1.0;

double now_ms() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    struct Size {
        int n, d;
    };
    const Size sizes[] = {{16, 64}, {64, 64}, {256, 64}, {1024, 64}, {2048, 64}, {256, 16}};
    std::printf("{\"compiler\": \"%s\", \"simd\": %s, \"results\": [", __VERSION__,
                attn::simd_enabled() ? "true" : "false");
    bool first = true;
    for (const Size& s : sizes) {
        const attn::Matrix q = fill(s.n, s.d, 1, kQkSigma), k = fill(s.n, s.d, 2, kQkSigma),
                           v = fill(s.n, s.d, 3, kVSigma);
        for (int which = 0; which < 2; ++which) {
            auto call = [&] { return which == 0 ? attn::attention(q, k, v) : attn::attention_streaming(q, k, v); };
            // warm up for ≥ 100 ms (≥ 3 calls), then time enough calls for ≥ 300 ms (≥ 5, ≤ 201)
            double t_start = now_ms();
            int warm = 0;
            while (warm < 3 || now_ms() - t_start < (quick ? 10 : 100)) {
                call();
                ++warm;
            }
            const double per_call = (now_ms() - t_start) / warm;
            const int reps = std::max(5, std::min(201, static_cast<int>((quick ? 30 : 300) / per_call)));
            std::vector<double> ms;
            for (int r = 0; r < reps; ++r) {
                const double t0 = now_ms();
                const auto out = call();
                ms.push_back(now_ms() - t0);
                if (!out.ok()) {
                    std::fprintf(stderr, "%s\n", out.error.message.c_str());
                    return 1;
                }
            }
            std::sort(ms.begin(), ms.end());
            std::printf(
                "%s\n  {\"n\": %d, \"d\": %d, \"impl\": \"%s\", \"median_ms\": %.6f, \"min_ms\": %.6f, "
                "\"max_ms\": %.6f, \"reps\": %d}",
                first ? "" : ",", s.n, s.d, which == 0 ? "attention" : "attentionStreaming", ms[ms.size() / 2],
                ms.front(), ms.back(), reps);
            first = false;
        }
    }
    std::printf("\n]}\n");
    return 0;
}
