// options.hpp — the article's switches: how scores are scaled, what is masked, how softmax runs.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "matrix.hpp"

namespace attn {

// Section 4 of the article: divide QKᵀ by √d_k (the default). ÷d_k and no scaling are the
// FAQ's alternatives, kept so a reader can see why √d_k is the right one.
enum class Scale { SqrtDk, Dk, None };

// Section 5: softmax runs along each row (one query's attention budget). Column is the FAQ's
// misconception, computed for real so the page can show what goes wrong.
enum class Axis { Row, Column };

enum class MaskKind { None, Causal, Custom };

struct Mask {
    MaskKind kind = MaskKind::None;
    // For MaskKind::Custom: n_q×n_k of 0/1, 1 = query i may attend to key j, 0 = masked.
    Matrix keep;
};

struct AttentionOptions {
    Scale scale = Scale::SqrtDk;
    float temperature = 1.0f;  // scores are divided by it after scaling; must be finite and > 0
    Mask mask;
    bool stable = true;  // false: exp(x) without subtracting the row max (overflows ~ x > 88)
    Axis axis = Axis::Row;
};

// The options' names as JS spells them. The bindings turn names into enums through these tables
// only (parse_option in validate.hpp); wasm/vocabulary.mjs lists the same names for the JS side,
// and tests/node/vocabulary.test.mjs checks that the two agree.
template <class Enum>
struct OptionName {
    const char* name;
    Enum value;
};
inline constexpr OptionName<Scale> kScaleNames[] = {
    {"sqrt_dk", Scale::SqrtDk}, {"dk", Scale::Dk}, {"none", Scale::None}};
inline constexpr OptionName<Axis> kAxisNames[] = {{"row", Axis::Row}, {"column", Axis::Column}};
// "custom" is what api.mjs sends for a { rows, cols, data } mask.
inline constexpr OptionName<MaskKind> kMaskNames[] = {
    {"none", MaskKind::None}, {"causal", MaskKind::Causal}, {"custom", MaskKind::Custom}};

// The value named `name` in `table`, or nothing.
template <class Enum, std::size_t N>
std::optional<Enum> option_value(const OptionName<Enum> (&table)[N], std::string_view name) {
    for (const auto& row : table)
        if (name == row.name) return row.value;
    return std::nullopt;
}

// The name of `value` in `table` ("" if it has none).
template <class Enum, std::size_t N>
const char* option_name(const OptionName<Enum> (&table)[N], Enum value) {
    for (const auto& row : table)
        if (row.value == value) return row.name;
    return "";
}

}  // namespace attn
