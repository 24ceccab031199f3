// Every way the input can be wrong gives a clear message, and nothing is computed.
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "attention.hpp"
#include "helpers.hpp"

using attn::Matrix;

namespace {

const Matrix I2(2, 2, {1, 0, 0, 1});
const Matrix V2(2, 2, {10, 0, 0, 10});

// The message of attention_steps(q, k, v, o), and the fast path must say the same thing.
std::string error_of(const Matrix& q, const Matrix& k, const Matrix& v, const attn::AttentionOptions& o = {}) {
    const auto steps = attn::attention_steps(q, k, v, o);
    const auto fast = attn::attention(q, k, v, o);
    CHECK_FALSE(steps.ok());
    CHECK(fast.error == steps.error);
    return steps.error;
}

}  // namespace

TEST_CASE("a data length that does not match the shape names the argument and both sizes") {
    const Matrix q(3, 4, std::vector<float>(10, 1.0f));
    CHECK(error_of(q, I2, V2) == "q has 10 values but 3×4 needs 12");
}

TEST_CASE("an empty matrix is refused") {
    CHECK(error_of(I2, Matrix(0, 2), V2) == "k must have at least one row and one column (got 0×2)");
}

TEST_CASE("±Infinity in Q, K or V is refused with its position") {
    Matrix v = V2;
    v(1, 0) = std::numeric_limits<float>::infinity();
    CHECK(error_of(I2, I2, v) == "v[1][0] is +Infinity; only finite numbers (or NaN) are allowed");
    Matrix q = I2;
    q(0, 1) = -std::numeric_limits<float>::infinity();
    CHECK(error_of(q, I2, V2) == "q[0][1] is -Infinity; only finite numbers (or NaN) are allowed");
}

TEST_CASE("shape mismatches say which dimension must agree") {
    CHECK(error_of(Matrix(2, 3), I2, V2) == "q has d_k = 3 columns but k has 2; QKᵀ needs the same d_k in both");
    CHECK(error_of(I2, I2, Matrix(3, 2)) == "k has 2 rows (keys) but v has 3; every key needs exactly one value row");
}

TEST_CASE("temperature must be finite and > 0") {
    attn::AttentionOptions o;
    o.temperature = 0.0f;
    CHECK(error_of(I2, I2, V2, o) == "temperature must be a finite number greater than 0 (got 0)");
    o.temperature = -1.5f;
    CHECK(error_of(I2, I2, V2, o) == "temperature must be a finite number greater than 0 (got -1.5)");
    o.temperature = std::numeric_limits<float>::quiet_NaN();
    CHECK(error_of(I2, I2, V2, o).rfind("temperature must be", 0) == 0);
}

TEST_CASE("a custom mask must be n_q×n_k of 0/1") {
    attn::AttentionOptions o;
    o.mask.kind = attn::MaskKind::Custom;
    o.mask.keep = Matrix(2, 3, 1.0f);
    CHECK(error_of(I2, I2, V2, o) == "mask is 2×3 but the scores are 2×2 (n_q×n_k)");
    o.mask.keep = Matrix(2, 2, {1, 0, 0.5f, 1});
    CHECK(error_of(I2, I2, V2, o) == "mask[1][0] is 0.5; a mask holds only 0 (masked) and 1 (kept)");
}

TEST_CASE("sizes over the memory limit are refused before anything is allocated") {
    // 12000 queries × 12000 keys: the data below is only 12000×1 per matrix, but the score
    // matrices would need 5 × 12000² × 4 bytes ≈ 2.7 GiB.
    const Matrix q(12000, 1, 0.5f), k(12000, 1, 0.5f), v(12000, 1, 0.5f);
    const auto steps = attn::attention_steps(q, k, v);
    REQUIRE_FALSE(steps.ok());
    CHECK(steps.error == "attention_steps on 12000×12000 scores needs 2.7 GiB of working memory; the limit is 1.0 GiB");
    // The fast path keeps one row of scores, so the same call fits.
    CHECK(attn::attention(q, k, v).ok());
}

TEST_CASE("projection: x columns must match w rows") {
    const auto r = attn::project(Matrix(3, 4, 1.0f), Matrix(3, 2, 1.0f));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error == "x is 3×4 but w is 3×2; X·W needs w to have as many rows as x has columns (4)");
    Matrix x(1, 1, 1.0f);
    x(0, 0) = std::numeric_limits<float>::infinity();
    CHECK(attn::project(x, Matrix(1, 1, 1.0f)).error == "x[0][0] is +Infinity; only finite numbers (or NaN) are allowed");
}
