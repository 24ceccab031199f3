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

export function formatNumber(value, digits = 4) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '∞';
  if (value === -Infinity) return MINUS + '∞';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  let text;
  if (abs >= COMPACT_FROM)
    text = abs.toExponential(digits - 1); // huge: 1.000e20
  else if (Number.isInteger(value))
    text = String(abs); // exact integers as the article writes them: 1, 10
  else if (abs >= 10 ** digits)
    text = abs.toFixed(0); // 12345.6 → 12346, never 1.234e+4
  else if (abs < 1e-6)
    text = abs.toExponential(digits - 1); // tiny: 1.234e-7
  else text = abs.toPrecision(digits);
  if (text.includes('e')) text = text.replace(/e([+-])(\d+)/, (m, sign, exp) => `e${sign === '-' ? MINUS : ''}${exp}`);
  return (value < 0 ? MINUS : '') + text;
}

/**
 * One writing for every number of a matrix, so that a matrix never mixes "2", "0.5000" and
 * "1.000": when all its finite values are whole numbers they are written as integers (the
 * article's 1, 0 and 10); otherwise every non-zero value gets `digits` significant digits
 * (1 → "1.000" beside 0.4931). Exact zeros are "0" either way. Returns value → text.
 */
export function matrixFormat(data, digits = 4) {
  for (const value of data)
    if (Number.isFinite(value) && !Number.isInteger(value)) return (v) => significant(v, digits);
  return (v) => formatNumber(v, digits);
}

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
