// error.hpp — how the core refuses an input: a code a program can act on, and a sentence a reader
// can read.
//
// The wasm build has no C++ exceptions (they cost ~20% of the module's size, and out-of-memory
// aborts anyway), so every public entry point checks its input first and returns the Error as a
// value (result.hpp). The bindings hand code, argument, cell and params to JS, so that the page
// can word the error in Chinese or English; the English message stays for everyone else.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace attn {

// Every way the core refuses an input. code_name() gives the name the JS API puts in Error.code;
// docs/api.md ("Errors") lists the argument and params of each for the page's translations.
enum class ErrorCode {
    None,                // no error
    EmptyMatrix,         // a matrix with no rows or no columns
    WrongLength,         // data holds a number of values other than rows·cols
    NotFinite,           // ±Infinity in an input (NaN is allowed and propagates)
    DkMismatch,          // k has another number of columns (d_k) than q
    KeyValueMismatch,    // v has another number of rows than k has keys
    ProjectionMismatch,  // w has another number of rows than x has columns
    MaskShape,           // a custom mask that is not n_q×n_k
    MaskValue,           // a mask cell other than 0 and 1
    BadTemperature,      // a temperature that is not a finite number > 0
    BadOption,           // an option name the core has no enum for (scale, axis, mask)
    OutOfRange,          // a whole number outside its range (the lab sampler's d_k, count, seed;
                         // multi-head's heads)
    HeadsIndivisible,    // multi-head: h does not divide the columns of w_q (so w_k) or w_v
    HeadWidthMismatch,   // multi-head: w_k has another number of columns (h·d_k) than w_q
    WoMismatch,          // multi-head: w_o has another number of rows than concat has columns (h·d_v)
    ProjectionOverflow,  // multi-head: X·W_Q, X·W_K or X·W_V overflowed float32 to ±Infinity
    GradientShape,       // a gradient (gradOutput of the backward pass) of another shape than its output
    GradientNotFinite,   // NaN or ±Infinity in a gradient (unlike inputs, a gradient may hold no NaN)
    KvHeadsIndivisible,  // grouped attention: heads is not a multiple of kvHeads (no equal groups)
    TooMuchMemory,       // the call's working memory would exceed kMemoryLimitBytes (keep it last:
                         // error_code_table_complete() below counts the codes up to it)
};

// The one table of codes and the names JS sees in Error.code, in declaration order (checked
// below, so that a new code cannot go without a name).
struct ErrorCodeName {
    ErrorCode code;
    const char* name;
};
inline constexpr ErrorCodeName kErrorCodeNames[] = {
    {ErrorCode::EmptyMatrix, "empty_matrix"},
    {ErrorCode::WrongLength, "wrong_length"},
    {ErrorCode::NotFinite, "not_finite"},
    {ErrorCode::DkMismatch, "dk_mismatch"},
    {ErrorCode::KeyValueMismatch, "key_value_mismatch"},
    {ErrorCode::ProjectionMismatch, "projection_mismatch"},
    {ErrorCode::MaskShape, "mask_shape"},
    {ErrorCode::MaskValue, "mask_value"},
    {ErrorCode::BadTemperature, "bad_temperature"},
    {ErrorCode::BadOption, "bad_option"},
    {ErrorCode::OutOfRange, "out_of_range"},
    {ErrorCode::HeadsIndivisible, "heads_indivisible"},
    {ErrorCode::HeadWidthMismatch, "head_width_mismatch"},
    {ErrorCode::WoMismatch, "wo_mismatch"},
    {ErrorCode::ProjectionOverflow, "projection_overflow"},
    {ErrorCode::GradientShape, "gradient_shape"},
    {ErrorCode::GradientNotFinite, "gradient_not_finite"},
    {ErrorCode::KvHeadsIndivisible, "kv_heads_indivisible"},
    {ErrorCode::TooMuchMemory, "too_much_memory"},
};
constexpr bool error_code_table_complete() {
    constexpr std::size_t n = sizeof kErrorCodeNames / sizeof kErrorCodeNames[0];
    if (n != static_cast<std::size_t>(ErrorCode::TooMuchMemory)) return false;  // the last code
    for (std::size_t i = 0; i < n; ++i)
        if (static_cast<std::size_t>(kErrorCodeNames[i].code) != i + 1) return false;
    return true;
}
static_assert(error_code_table_complete(), "kErrorCodeNames: one row per ErrorCode after None, in order");

// "wrong_length" for ErrorCode::WrongLength, and so on; "" for None.
inline const char* code_name(ErrorCode code) {
    return code == ErrorCode::None ? "" : kErrorCodeNames[static_cast<std::size_t>(code) - 1].name;
}

// A cell of a matrix argument, 0-based.
struct Cell {
    std::size_t row = 0;
    std::size_t col = 0;
};

// One number (or name) of the message, e.g. {"got", 10} and {"need", 12} for "q has 10 values
// but 3×4 needs 12".
struct Param {
    std::string name;
    std::variant<double, std::string> value;
    Param(std::string n, double v) : name(std::move(n)), value(v) {}
    Param(std::string n, std::string v) : name(std::move(n)), value(std::move(v)) {}
};

struct Error {
    ErrorCode code = ErrorCode::None;
    std::string argument;       // the argument at fault: "q", "k", "v", "mask", "x", "w",
                                // "temperature", "scale", …; empty when no single one is
    std::optional<Cell> cell;   // the cell at fault, when there is one
    std::vector<Param> params;  // the numbers of the message, by name
    std::string message;        // one English sentence naming the argument and what is wrong

    // True when this is an error, as std::error_code: `if (Error e = check(...)) return e;`
    explicit operator bool() const { return code != ErrorCode::None; }
};

inline bool operator==(const Cell& a, const Cell& b) { return a.row == b.row && a.col == b.col; }

}  // namespace attn
