// How numbers are written on the page. Pure.
// Precision is in significant digits: 4 gives the article's 0.6698 and 6.698, 2 gives its 0.67 and 6.7.
// Exact integers (the article's inputs: 1, 0, 10) are written without decimals.

export const PRECISIONS = [2, 4, 6];

const MINUS = '\u2212'; // typographic minus, the same width as '+' in tabular figures
// From here on a number is written with an exponent, `digits` significant digits (1e20 →
// "1.000e20", float32's 3e38 → "3.000e38"), whatever its kind: written out, 1e20 as a float32 is
// "100000002004087734272", wider than any cell. Below it, whole numbers are written out
// (123456789) and others rounded to whole numbers once they have `digits` digits before the point.
// (Exports keep every digit: they do not use this file.)
export const COMPACT_FROM = 1e9;
// Below this (and above 0) a number is written with an exponent too: 1.234e−7.
export const TINY_BELOW = 1e-6;

/** `digits` significant digits with an exponent, typographic minus: 1.308e−5, −7.648e−7. */
function exponential(value, digits) {
  const text = Math.abs(value)
    .toExponential(digits - 1)
    .replace(/e([+-])(\d+)/, (m, sign, exp) => `e${sign === '-' ? MINUS : ''}${exp}`);
  return (value < 0 ? MINUS : '') + text;
}

export function formatNumber(value, digits = 4) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '∞';
  if (value === -Infinity) return MINUS + '∞';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (needsExponent(value)) return exponential(value, digits); // huge: 1.000e20; tiny: 1.234e−7
  let text;
  if (Number.isInteger(value))
    text = String(abs); // exact integers as the article writes them: 1, 10
  else if (abs >= 10 ** digits)
    text = abs.toFixed(0); // 12345.6 → 12346, never 1.234e+4
  else text = abs.toPrecision(digits);
  return (value < 0 ? MINUS : '') + text;
}

/** True for a finite non-zero number too large or too small to write without an exponent. */
const needsExponent = (value) =>
  Number.isFinite(value) && value !== 0 && (Math.abs(value) >= COMPACT_FROM || Math.abs(value) < TINY_BELOW);

/**
 * One writing for every number of a matrix, so that a matrix never mixes "2", "0.5000" and
 * "1.000", nor "0.00001308" and "7.648e−7": when one of its values needs an exponent (below 1e−6
 * or from 1e9 on), every non-zero value is written with one (1.308e−5 beside 7.648e−7); else when
 * all its finite values are whole numbers they are written as integers (the article's 1, 0 and
 * 10); otherwise every non-zero value gets `digits` significant digits (1 → "1.000" beside
 * 0.4931). Exact zeros, ∞ and NaN are "0", "∞" and "NaN" in every form. Returns value → text.
 */
export function matrixFormat(data, digits = 4) {
  return MATRIX_FORMS[matrixForm(data)](digits);
}

/** Which of the three writings a matrix's values take: 'exponent', 'decimal' or 'integer'. */
export function matrixForm(data) {
  let form = 'integer';
  for (const value of data) {
    if (needsExponent(value)) return 'exponent';
    if (Number.isFinite(value) && !Number.isInteger(value)) form = 'decimal';
  }
  return form;
}

const MATRIX_FORMS = {
  exponent: (digits) => (v) => (Number.isFinite(v) && v !== 0 ? exponential(v, digits) : formatNumber(v, digits)),
  decimal: (digits) => (v) => significant(v, digits),
  integer: (digits) => (v) => formatNumber(v, digits),
};

/** `digits` significant digits, whole numbers included: 1 → "1.000", 10 → "10.00" (digits 4). */
function significant(value, digits) {
  if (Number.isInteger(value) && value !== 0 && Math.abs(value) < 10 ** digits)
    return (value < 0 ? MINUS : '') + Math.abs(value).toPrecision(digits);
  return formatNumber(value, digits);
}

/** A value as it should appear in an editable input: exactly what is stored, ASCII minus. */
export function formatInput(value) {
  return String(value);
}
