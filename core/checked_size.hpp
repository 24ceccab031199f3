// checked_size.hpp — products and sums of sizes that cannot wrap around.
//
// Sizes come from outside: a Matrix's rows and cols are plain fields, and the JS API accepts up
// to 2^31 − 1 of each. Multiplied out — rows × cols values, or 6 · n_q · n_k floats of 4 bytes —
// they can exceed even 64 bits, and an unsigned product that wraps around becomes a small number
// that passes every check: a claimed 2^62×4 matrix "holds" 0 values, exactly as many as its empty
// data. So every size product and memory estimate of the core goes through these two functions: a
// result that does not fit in 64 bits saturates at kSizeOverflow, which is larger than any limit
// and any real length, so the check that follows refuses it.
#pragma once

#include <cstdint>
#include <limits>

namespace attn {

// "At least 2^64 − 1": what a product or sum that does not fit in 64 bits becomes.
inline constexpr std::uint64_t kSizeOverflow = std::numeric_limits<std::uint64_t>::max();

// a · b · …, or kSizeOverflow when the product does not fit in 64 bits.
inline std::uint64_t size_product(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    return __builtin_mul_overflow(a, b, &product) ? kSizeOverflow : product;
}
template <class... More>
std::uint64_t size_product(std::uint64_t a, std::uint64_t b, std::uint64_t c, More... more) {
    return size_product(size_product(a, b), c, more...);
}

// a + b + …, or kSizeOverflow when the sum does not fit in 64 bits.
inline std::uint64_t size_sum(std::uint64_t a, std::uint64_t b) {
    std::uint64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? kSizeOverflow : sum;
}
template <class... More>
std::uint64_t size_sum(std::uint64_t a, std::uint64_t b, std::uint64_t c, More... more) {
    return size_sum(size_sum(a, b), c, more...);
}

}  // namespace attn
