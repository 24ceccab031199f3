// The page's words for the input rules of wasm/vocabulary.mjs (temperatureProblem, cellProblem):
// the rules themselves live there, shared with the API and the URL hash; this module writes
// float32's limits as a reader reads them and picks the sentence for each reason. Pure: no DOM.

import { FLOAT32_MAX, FLOAT32_MIN_POSITIVE } from '../../wasm/vocabulary.mjs';

const SUPERSCRIPTS = {
  '-': '⁻',
  '+': '',
  0: '⁰',
  1: '¹',
  2: '²',
  3: '³',
  4: '⁴',
  5: '⁵',
  6: '⁶',
  7: '⁷',
  8: '⁸',
  9: '⁹',
};

/** x in scientific notation with `digits` significant digits: (FLOAT32_MAX, 8) → '3.4028235×10³⁸'. */
export function scientific(x, digits) {
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  return `${mantissa}×10${[...exponent].map((c) => SUPERSCRIPTS[c]).join('')}`;
}

/**
 * float32's limits as the page writes them: enough digits that a refused number never reads the
 * same as the limit it crosses (3.40283e38 is refused, and float32's largest is 3.4028235×10³⁸).
 */
export const LIMITS = Object.freeze({
  max: scientific(FLOAT32_MAX, 8),
  minPositive: scientific(FLOAT32_MIN_POSITIVE, 2),
});

// The dictionary key of each temperatureProblem reason.
const TEMPERATURE_KEYS = {
  not_a_number: 'err.temperature',
  not_positive: 'err.temperature',
  below_float32: 'err.temperatureBelow',
  above_float32: 'err.temperatureAbove',
};

/**
 * The sentence for a temperature refused by temperatureProblem, in the language of `t`; `text` is
 * the temperature as the reader wrote it (the field's text, or the link's).
 */
export function temperatureMessage(problem, t, text) {
  return t(TEMPERATURE_KEYS[problem.reason], { value: text, min: LIMITS.minPositive, max: LIMITS.max });
}
