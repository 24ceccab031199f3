// options.hpp — the article's switches: how scores are scaled, what is masked, how softmax runs.
#pragma once

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
    bool stable = true;        // false: exp(x) without subtracting the row max (overflows ~ x > 88)
    Axis axis = Axis::Row;
};

}  // namespace attn
