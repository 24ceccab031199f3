// Every way the input can be wrong gives an Error with its code, the argument at fault, the cell
// when there is one, the numbers of the message, and a clear sentence; nothing is computed.
#include <doctest/doctest.h>

#include <limits>
#include <variant>
#include <string>

#include "attention.hpp"
#include "helpers.hpp"
#include "number_text.hpp"
#include "validate.hpp"

using attn::ErrorCode;
using attn::Matrix;
using testing::params_of;

namespace {

const Matrix I2(2, 2, {1, 0, 0, 1});
const Matrix V2(2, 2, {10, 0, 0, 10});

// The Error of attention_steps(q, k, v, o); the SIMD steps and the fast paths must refuse with
// the same one.
attn::Error error_of(const Matrix& q, const Matrix& k, const Matrix& v, const attn::AttentionOptions& o = {}) {
    const auto steps = attn::attention_steps(q, k, v, o);
    CHECK_FALSE(steps.ok());
    CHECK(testing::same_error(attn::attention_steps_simd(q, k, v, o).error, steps.error));
    CHECK(testing::same_error(attn::attention(q, k, v, o).error, steps.error));
    CHECK(testing::same_error(attn::attention_streaming(q, k, v, o).error, steps.error));
    return steps.error;
}

}  // namespace

TEST_CASE("every code has its own name, the one JS sees in Error.code") {
    CHECK(std::string(attn::code_name(ErrorCode::WrongLength)) == "wrong_length");
    CHECK(std::string(attn::code_name(ErrorCode::TooMuchMemory)) == "too_much_memory");
    CHECK(std::string(attn::code_name(ErrorCode::None)).empty());
    for (const auto& a : attn::kErrorCodeNames)
        for (const auto& b : attn::kErrorCodeNames)
            if (a.code != b.code) CHECK(std::string(a.name) != b.name);
}

TEST_CASE("wrong_length: a data length that does not match the shape names the argument and both sizes") {
    const auto e = error_of(Matrix(3, 4, std::vector<float>(10, 1.0f)), I2, V2);
    CHECK(e.code == ErrorCode::WrongLength);
    CHECK(e.argument == "q");
    CHECK_FALSE(e.cell.has_value());
    CHECK(params_of(e) == "got=10 need=12 rows=3 cols=4");
    CHECK(e.message == "q has 10 values but 3×4 needs 12");
}

TEST_CASE("empty_matrix: a matrix without rows or columns is refused") {
    const auto e = error_of(I2, Matrix(0, 2), V2);
    CHECK(e.code == ErrorCode::EmptyMatrix);
    CHECK(e.argument == "k");
    CHECK(params_of(e) == "rows=0 cols=2");
    CHECK(e.message == "k must have at least one row and one column (got 0×2)");
}

TEST_CASE("not_finite: ±Infinity in Q, K or V is refused with its cell") {
    Matrix v = V2;
    v(1, 0) = std::numeric_limits<float>::infinity();
    const auto e = error_of(I2, I2, v);
    CHECK(e.code == ErrorCode::NotFinite);
    CHECK(e.argument == "v");
    REQUIRE(e.cell.has_value());
    CHECK(e.cell->row == 1);
    CHECK(e.cell->col == 0);
    CHECK(params_of(e) == "value=inf");
    CHECK(e.message == "v[1][0] is +Infinity; only finite numbers (or NaN) are allowed");
    Matrix q = I2;
    q(0, 1) = -std::numeric_limits<float>::infinity();
    const auto minus = error_of(q, I2, V2);
    CHECK(minus.argument == "q");
    CHECK(minus.cell == attn::Cell{0, 1});
    CHECK(params_of(minus) == "value=-inf");
    CHECK(minus.message == "q[0][1] is -Infinity; only finite numbers (or NaN) are allowed");
}

TEST_CASE("dk_mismatch and key_value_mismatch: the later argument is charged, with got and need") {
    const auto dk = error_of(Matrix(2, 3), I2, V2);
    CHECK(dk.code == ErrorCode::DkMismatch);
    CHECK(dk.argument == "k");
    CHECK(params_of(dk) == "got=2 need=3");
    CHECK(dk.message == "q has d_k = 3 columns but k has 2; QKᵀ needs the same d_k in both");
    const auto kv = error_of(I2, I2, Matrix(3, 2));
    CHECK(kv.code == ErrorCode::KeyValueMismatch);
    CHECK(kv.argument == "v");
    CHECK(params_of(kv) == "got=3 need=2");
    CHECK(kv.message == "k has 2 rows (keys) but v has 3; every key needs exactly one value row");
}

TEST_CASE("bad_temperature: temperature must be finite and > 0") {
    attn::AttentionOptions o;
    o.temperature = 0.0f;
    const auto zero = error_of(I2, I2, V2, o);
    CHECK(zero.code == ErrorCode::BadTemperature);
    CHECK(zero.argument == "temperature");
    CHECK(params_of(zero) == "value=0");
    CHECK(zero.message == "temperature must be a finite number greater than 0 (got 0)");
    o.temperature = -1.5f;
    CHECK(error_of(I2, I2, V2, o).message == "temperature must be a finite number greater than 0 (got -1.5)");
    o.temperature = std::numeric_limits<float>::quiet_NaN();
    const auto nan = error_of(I2, I2, V2, o);
    CHECK(nan.code == ErrorCode::BadTemperature);
    CHECK(params_of(nan) == "value=nan");
}

TEST_CASE("mask_shape and mask_value: a custom mask must be n_q×n_k of 0/1") {
    attn::AttentionOptions o;
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(2, 3, 1.0f);
    const auto shape = error_of(I2, I2, V2, o);
    CHECK(shape.code == ErrorCode::MaskShape);
    CHECK(shape.argument == "mask");
    CHECK(params_of(shape) == "rows=2 cols=3 needRows=2 needCols=2");
    CHECK(shape.message == "mask is 2×3 but the scores are 2×2 (n_q×n_k)");
    o.mask.keep = Matrix(2, 2, {1, 0, 0.5f, 1});
    const auto value = error_of(I2, I2, V2, o);
    CHECK(value.code == ErrorCode::MaskValue);
    CHECK(value.argument == "mask");
    CHECK(value.cell == attn::Cell{1, 0});
    CHECK(params_of(value) == "value=0.5");
    CHECK(value.message == "mask[1][0] is 0.5; a mask holds only 0 (masked) and 1 (kept)");
}

TEST_CASE("a refused number is quoted as given, as JavaScript writes it (issue 27)") {
    // The shortest decimal that reads back as the same number, in String(x)'s layout.
    CHECK(attn::number_text(1.0000001) == "1.0000001");
    CHECK(attn::number_text(1e-50) == "1e-50");
    CHECK(attn::number_text(1e21) == "1e+21");
    CHECK(attn::number_text(1e20) == "100000000000000000000");
    CHECK(attn::number_text(1e-7) == "1e-7");
    CHECK(attn::number_text(0.000001) == "0.000001");
    CHECK(attn::number_text(-2.5) == "-2.5");
    CHECK(attn::number_text(-0.0) == "0");
    CHECK(attn::number_text(std::numeric_limits<double>::quiet_NaN()) == "NaN");
    CHECK(attn::number_text(-std::numeric_limits<double>::infinity()) == "-Infinity");
    // A float by the shortest decimal that is that float again: a JS 1.0000001 rounded to float32.
    CHECK(attn::number_text(1.0000001f) == "1.0000001");
    CHECK(attn::number_text(0.01f) == "0.01");
    CHECK(attn::number_text(std::numeric_limits<float>::max()) == "3.4028235e+38");

    attn::AttentionOptions o;
    o.temperature = std::numeric_limits<float>::quiet_NaN();
    CHECK(error_of(I2, I2, V2, o).message == "temperature must be a finite number greater than 0 (got NaN)");
    o.temperature = 1.0f;
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(2, 2, {1, 1.0000001f, 1, 1});
    CHECK(error_of(I2, I2, V2, o).message == "mask[0][1] is 1.0000001; a mask holds only 0 (masked) and 1 (kept)");
    o.mask.keep = Matrix(2, 2, {1, 1, std::numeric_limits<float>::quiet_NaN(), 1});
    CHECK(error_of(I2, I2, V2, o).message == "mask[1][0] is NaN; a mask holds only 0 (masked) and 1 (kept)");
}

TEST_CASE("too_much_memory: sizes over the limit are refused before anything is allocated") {
    // 12000 queries × 12000 keys: the data below is only 12000×1 per matrix, but the score
    // matrices would need (6 × 12000² + 3 × 12000) × 4 bytes ≈ 3.2 GiB (working_memory.cpp).
    const Matrix q(12000, 1, 0.5f), k(12000, 1, 0.5f), v(12000, 1, 0.5f);
    const auto steps = attn::attention_steps(q, k, v);
    REQUIRE_FALSE(steps.ok());
    CHECK(testing::same_error(attn::attention_steps_simd(q, k, v).error, steps.error));
    attn::AttentionOptions by_column;
    by_column.axis = attn::Axis::Column;
    CHECK(testing::same_error(attn::attention_steps_simd(q, k, v, by_column).error,
                              attn::attention_steps(q, k, v, by_column).error));
    CHECK(steps.error.code == ErrorCode::TooMuchMemory);
    CHECK(steps.error.argument.empty());
    CHECK(params_of(steps.error) ==
          "operation=\"attention_steps\" what=\"scores\" rows=12000 cols=12000 bytes=3.45614e+09 limit=1.07374e+09");
    CHECK(steps.error.message ==
          "attention_steps on 12000×12000 scores needs 3.2 GiB of working memory; the limit is 1.0 GiB");
    // The fast path keeps one row of scores, so the same call fits.
    CHECK(attn::attention(q, k, v).ok());
}

// Issue 19, item 8: just over the limit, one decimal of GiB reads the same for the need and the
// limit ("needs 1.0 GiB … the limit is 1.0 GiB"); the message then gives both in bytes too.
TEST_CASE("too_much_memory just over the limit: the message's two numbers differ, as the bytes do") {
    // 6689² scores from 6689×1 inputs: the first square size the step path refuses.
    const Matrix q(6689, 1, 0.5f);
    const auto steps = attn::attention_steps(q, q, q);
    REQUIRE(steps.error.code == ErrorCode::TooMuchMemory);
    CHECK(steps.error.message ==
          "attention_steps on 6689×6689 scores needs 1.0 GiB (1,073,905,572 bytes) of working memory; the limit is "
          "1.0 GiB (1,073,741,824 bytes)");
    const auto& p = steps.error.params;  // exact: bytes and limit as counted
    CHECK(std::get<double>(p[4].value) == 1073905572.0);
    CHECK(std::get<double>(p[5].value) == 1073741824.0);
    // One byte over.
    CHECK(attn::check_memory("attention", "scores", 1, 1, attn::kMemoryLimitBytes + 1).message ==
          "attention on 1×1 scores needs 1.0 GiB (1,073,741,825 bytes) of working memory; the limit is 1.0 GiB "
          "(1,073,741,824 bytes)");
    // 6688² fits.
    CHECK_FALSE(attn::check_steps_memory(Matrix(6688, 1, 0.5f), Matrix(6688, 1, 0.5f), Matrix(6688, 1, 0.5f), {}));
}

TEST_CASE("bad_option: an option name the core's tables lack is refused, never cast") {
    const auto ok = attn::parse_option("axis", attn::kAxisNames, "column");
    REQUIRE(ok.ok());
    CHECK(ok.value == attn::Axis::Column);
    const auto r = attn::parse_option("scale", attn::kScaleNames, "sqrt");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.code == ErrorCode::BadOption);
    CHECK(r.error.argument == "scale");
    CHECK(params_of(r.error) == R"(got=""sqrt"")");  // the value as the message quotes it
    CHECK(r.error.message == "scale must be \"sqrt_dk\", \"dk\" or \"none\" (got \"sqrt\")");
    CHECK(attn::parse_option("mask", attn::kMaskNames, "").error.message ==
          "mask must be \"none\", \"causal\" or \"custom\" (got \"\")");
}

TEST_CASE("projection_mismatch: x columns must match w rows") {
    const auto r = attn::project(Matrix(3, 4, 1.0f), Matrix(3, 2, 1.0f));
    REQUIRE_FALSE(r.ok());
    CHECK(testing::same_error(attn::project_simd(Matrix(3, 4, 1.0f), Matrix(3, 2, 1.0f)).error, r.error));
    CHECK(r.error.code == ErrorCode::ProjectionMismatch);
    CHECK(r.error.argument == "w");
    CHECK(params_of(r.error) == "got=3 need=4 xRows=3 xCols=4 wRows=3 wCols=2");
    CHECK(r.error.message == "x is 3×4 but w is 3×2; X·W needs w to have as many rows as x has columns (4)");
    Matrix x(1, 1, 1.0f);
    x(0, 0) = std::numeric_limits<float>::infinity();
    const auto inf = attn::project(x, Matrix(1, 1, 1.0f));
    CHECK(inf.error.argument == "x");
    CHECK(inf.error.message == "x[0][0] is +Infinity; only finite numbers (or NaN) are allowed");
}

TEST_CASE("wrong_length: a claimed shape whose value count wraps around is refused, never read") {
    // rows × cols = 2^64 natively (2^32 on wasm32). Counted in 64 bits that wraps around to 0, the
    // length of the empty data: the check passed and the reference read far outside the buffers.
    Matrix x;
    x.rows = std::numeric_limits<std::size_t>::max() / 4 + 1;
    x.cols = 4;
    const Matrix w(4, 4, 1.0f);
    for (const auto& r : {attn::project(x, w), attn::project_simd(x, w)}) {
        REQUIRE_FALSE(r.ok());
        CHECK(r.error.code == ErrorCode::WrongLength);
        CHECK(r.error.argument == "x");
        CHECK(r.error.message.rfind("x has 0 values but " + attn::shape_string(x) + " needs ", 0) == 0);
    }
    Matrix q = x;  // as q of the worked example's shapes: the same refusal on every path
    const auto e = error_of(q, Matrix(2, 4, 1.0f), V2);
    CHECK(e.code == ErrorCode::WrongLength);
    CHECK(e.argument == "q");
}

TEST_CASE("too_much_memory: a memory estimate too large for 64 bits is refused, not wrapped around") {
    // Shapes only (the memory check reads no data): 6 score matrices of 2^63 × 2^63 floats natively
    // (2^31 × 2^31 on wasm32) wrapped around to 0 bytes, and passed.
    Matrix q, k, v;
    q.rows = k.rows = v.rows = std::numeric_limits<std::size_t>::max() / 2 + 1;
    q.cols = k.cols = v.cols = 1;
    for (attn::Axis axis : {attn::Axis::Row, attn::Axis::Column}) {
        attn::AttentionOptions o;
        o.axis = axis;
        const attn::Error e = attn::check_steps_memory(q, k, v, o);
        CHECK(e.code == ErrorCode::TooMuchMemory);
    }
    CHECK(attn::check_memory("project", "output", 1, 1, attn::float_bytes(std::uint64_t{1} << 62)).code ==
          ErrorCode::TooMuchMemory);
}

TEST_CASE("shapes before values: a mask of the wrong shape is reported before an Infinity in q") {
    // The bindings check shapes before copying any value (check_attention_shapes); every entry point
    // reports the same first error in the same order.
    Matrix q = I2;
    q(0, 0) = std::numeric_limits<float>::infinity();
    attn::AttentionOptions o;
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(1, 3, 1.0f);
    CHECK(error_of(q, I2, V2, o).code == ErrorCode::MaskShape);
    const attn::Shape mask{1, 3, 3};
    CHECK(attn::check_attention_shapes(attn::shape_of(q), attn::shape_of(I2), attn::shape_of(V2), 1.0f, &mask).code ==
          ErrorCode::MaskShape);
    o.mask.keep = Matrix(2, 2, 1.0f);
    CHECK(error_of(q, I2, V2, o).code == ErrorCode::NotFinite);
}

TEST_CASE("check_output_shape: an output the caller provides holds n_q×d_v values") {
    // The article's example: Q = K = I₂, V = 10·I₂ give a 2×2 output, so `out` needs 4 values.
    const attn::Shape q = attn::shape_of(I2), v = attn::shape_of(V2);
    CHECK(attn::check_output_shape(q, v, 4).code == ErrorCode::None);
    const attn::Error short_out = attn::check_output_shape(q, v, 3);
    CHECK(short_out.code == ErrorCode::WrongLength);
    CHECK(short_out.argument == "out");
    CHECK(short_out.message == "out has 3 values but 2×2 needs 4");
    // n_q comes from q and d_v from v: a 1×2 query against 2×3 values needs 1×3.
    CHECK(attn::check_output_shape({1, 2, 2}, {2, 3, 6}, 3).code == ErrorCode::None);
    CHECK(attn::check_output_shape({1, 2, 2}, {2, 3, 6}, 4).code == ErrorCode::WrongLength);
}
