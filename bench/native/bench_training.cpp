// bench_training.cpp — the core's training step natively (-O3 -march=native, CMake Release), at the two
// sizes of the training benchmark (bench/training-model.mjs: reverse, one-hot positions, Adam, lr 0.01,
// batch 32; n = 8, d = 16, 1 head and n = 16, d = 32, 2 heads). For each size it prints the heap
// allocations a step makes (a counting operator new, below) and steps per second: the median of
// `samples` timings of `steps` steps each, with the lowest and highest.
// Usage: bench_training [--steps N] [--samples S] [--size 0|1]   (defaults 500 and 5, both sizes)
// Instructions per step: valgrind --tool=callgrind --toggle-collect='attn::Trainer::step()'
// bench_training --size 0 --steps 100 --samples 1 counts 102 steps (bench/training.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "train.hpp"

namespace {
std::size_t allocations = 0;  // every operator new since the start
}  // namespace

// Counting allocations: every new of the program (std::vector's among them) comes through here.
void* operator new(std::size_t bytes) {
    ++allocations;
    if (void* p = std::malloc(bytes ? bytes : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

struct Size {
    const char* label;
    std::size_t length, d_token, d_head, heads;
};
constexpr Size kSizes[] = {{"n = 8, d = 16, 1 head", 8, 16, 16, 1}, {"n = 16, d = 32, 2 heads", 16, 32, 16, 2}};

attn::Trainer trainer(const Size& s) {
    attn::TrainConfig c;
    c.task.kind = attn::TaskKind::Reverse;
    c.task.length = s.length;
    c.task.symbols = s.length;
    c.d_token = s.d_token;
    c.d_head = s.d_head;
    c.heads = s.heads;
    c.batch = 32;
    c.learning_rate = 0.01;
    c.seed = 7;
    auto t = attn::Trainer::create(c);
    if (!t.ok()) std::exit(1);
    return std::move(t.value);
}

double seconds_for(attn::Trainer& t, std::size_t steps) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < steps; ++i) t.step();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t steps = 500, samples = 5, only = 2;  // only: one size's index, or 2 for both
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--steps") == 0) steps = std::strtoul(argv[i + 1], nullptr, 10);
        if (std::strcmp(argv[i], "--samples") == 0) samples = std::strtoul(argv[i + 1], nullptr, 10);
        if (std::strcmp(argv[i], "--size") == 0) only = std::strtoul(argv[i + 1], nullptr, 10);
    }
    for (std::size_t k = 0; k < 2; ++k) {
        if (only != 2 && only != k) continue;
        const Size& size = kSizes[k];
        attn::Trainer t = trainer(size);
        t.step();  // the first step, apart: whatever a step sets up once
        const std::size_t before = allocations;
        t.step();
        const std::size_t per_step = allocations - before;
        std::vector<double> rates;
        for (std::size_t s = 0; s < samples; ++s) rates.push_back(double(steps) / seconds_for(t, steps));
        std::sort(rates.begin(), rates.end());
        std::printf("%s: %zu allocations per step; %.0f steps/s median [%.0f, %.0f] of %zu × %zu steps\n", size.label,
                    per_step, rates[rates.size() / 2], rates.front(), rates.back(), samples, steps);
    }
    return 0;
}
