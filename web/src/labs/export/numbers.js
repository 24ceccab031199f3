// How the exports write a float32 number: the shortest decimal that reads back as the same
// float32 — the worked example's A₁₁, 0.6697615385055542 as a double, is written 0.66976154 — so
// that a file is readable and still carries the page's exact values. Non-finite values, which JSON
// and CSV cannot hold as numbers, become the strings "NaN", "Infinity" and "-Infinity" (as in
// tests/fixtures/worked-example.json).

export function float32Text(x) {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  const f = Math.fround(x);
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(f.toPrecision(digits));
    if (Math.fround(shorter) === f) return String(shorter);
  }
  return String(Number(f.toPrecision(9))); // nine significant digits always read back exactly
}

/** The inverse for the exports' readers: a number, or one of the three strings above. */
export function readFloat32(value) {
  if (value === 'NaN') return NaN;
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  return typeof value === 'number' ? value : Number(value);
}
