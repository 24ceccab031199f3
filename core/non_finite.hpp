// non_finite.hpp — counts the numbers of a finished AttentionSteps that float32 could not hold
// (AttentionSteps::non_finite, attention.hpp). Both step-by-step paths call it last.
#pragma once

#include "attention.hpp"
#include "options.hpp"

namespace attn {

// Every NaN and ±∞ of each intermediate but the −∞ of masked scores (in scaled and shifted, where
// kept is 0) and of the max of a row — or, with `axis` Column, a column — whose every cell is masked.
NonFinite count_non_finite(const AttentionSteps& st, Axis axis);

}  // namespace attn
