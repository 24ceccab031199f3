// How numbers are written on the page. Pure.
// Precision is in significant digits: 4 gives the article's 0.6698 and 6.698, 2 gives its 0.67 and 6.7.
// Exact integers (the article's inputs: 1, 0, 10) are written without decimals.

export const PRECISIONS = [2, 4, 6];

const MINUS = '\u2212'; // typographic minus, the same width as '+' in tabular figures

export function formatNumber(value, digits = 4) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '∞';
  if (value === -Infinity) return MINUS + '∞';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  let text;
  if (Number.isInteger(value) && abs < 1e9) text = String(abs);   // exact integers as the article writes them: 1, 10
  else if (abs >= 10 ** digits) text = abs.toFixed(0);              // 12345.6 → 12346, never 1.234e+4
  else if (abs < 1e-6) text = abs.toExponential(digits - 1);   // tiny: 1.234e-7
  else text = abs.toPrecision(digits);
  if (text.includes('e')) text = text.replace(/e([+-])(\d+)/, (m, sign, exp) => `e${sign === '-' ? MINUS : ''}${exp}`);
  return (value < 0 ? MINUS : '') + text;
}

/** A value as it should appear in an editable input: exactly what is stored, ASCII minus. */
export function formatInput(value) {
  return String(value);
}
