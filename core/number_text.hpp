// number_text.hpp — a number in a message, written as the reader gave it.
//
// A refusal quotes the value it refused: "learningRate must be … at most 1 (got 1.0000001)". The
// quote is the shortest decimal that reads back as the same number (so 0.1f is "0.1", not
// 0.100000001), laid out as JavaScript's String(x) lays out a number — "1e-50", "1e+21", "0.000001",
// "NaN", "Infinity" — so that the core's messages and the JS API's own say a number the same way.
// A float is quoted by the shortest decimal that is that float again: a JS caller's 1.0000001,
// rounded to float32 on its way in, is quoted as 1.0000001.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace attn {
namespace detail {

// The number in `text`, printf's "%.*e" form of |x| ("1.5e+01"), laid out as JavaScript lays it
// out ("15"), with a minus sign when `negative`.
inline std::string js_layout(const char* text, bool negative) {
    std::string digits;
    const char* p = text;
    for (; *p != 'e'; ++p)
        if (*p >= '0' && *p <= '9') digits += *p;
    const int exponent = std::atoi(p + 1);
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    // ECMAScript's Number::toString: k digits, the point after n of them.
    const int k = static_cast<int>(digits.size()), n = exponent + 1;
    std::string out = negative ? "-" : "";
    if (k <= n && n <= 21) return out + digits + std::string(static_cast<std::size_t>(n - k), '0');
    if (0 < n && n <= 21) return out + digits.substr(0, n) + "." + digits.substr(n);
    if (-6 < n && n <= 0) return out + "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
    const std::string mantissa = k == 1 ? digits : digits.substr(0, 1) + "." + digits.substr(1);
    return out + mantissa + "e" + (n - 1 < 0 ? "-" : "+") + std::to_string(std::abs(n - 1));
}

// The shortest "%.*e" text of the finite, non-zero |x| that `reads_back` turns into x again.
template <class T, class ReadBack>
std::string shortest(T x, int most_digits, ReadBack reads_back) {
    char text[48];
    for (int digits = 1;; ++digits) {
        std::snprintf(text, sizeof text, "%.*e", digits - 1, static_cast<double>(std::fabs(x)));
        if (digits >= most_digits || reads_back(text) == std::fabs(x)) return js_layout(text, x < 0);
    }
}

}  // namespace detail

// x as JavaScript's String(x) writes it: "1.0000001", "1e-50", "NaN", "-Infinity", "0" for ±0.
inline std::string number_text(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    if (x == 0.0) return "0";
    return detail::shortest(x, 17, [](const char* s) { return std::strtod(s, nullptr); });
}

// The float x by the shortest decimal that is x again in float32 (1.0000001f → "1.0000001"), laid
// out as number_text lays out a double.
inline std::string number_text(float x) {
    if (!std::isfinite(x) || x == 0.0f) return number_text(static_cast<double>(x));
    return detail::shortest(x, 9, [](const char* s) { return std::strtof(s, nullptr); });
}

}  // namespace attn
