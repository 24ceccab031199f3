// The numbers the browser tests expect, computed here in float64 — never read from the page.

/** softmax of one row. */
export function softmax(row) {
  const m = Math.max(...row);
  const e = row.map((x) => Math.exp(x - m));
  const s = e.reduce((a, c) => a + c);
  return e.map((x) => x / s);
}

/** A number with 4 significant digits as the page writes it by default; whole numbers as they are. */
export const sig4 = (x) => (Number.isInteger(x) ? String(x) : x.toPrecision(4));
