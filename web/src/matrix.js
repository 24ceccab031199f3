// The matrix shape that crosses into the wasm core: { rows, cols, data: Float32Array }, row-major.
// Pure helpers to move between it and the nested arrays the state keeps.

export function fromRows(rows) {
  const cols = rows[0]?.length ?? 0;
  const data = new Float32Array(rows.length * cols);
  rows.forEach((row, i) => data.set(row, i * cols));
  return { rows: rows.length, cols, data };
}

export function toRows(m) {
  return Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
}

export const at = (m, i, j) => m.data[i * m.cols + j];
