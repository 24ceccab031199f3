// Export as CSV: one block per matrix — a header row "name,rows,cols", then its rows — blocks
// separated by an empty line, the inputs of the page's mode first, then every intermediate in the
// article's order. Pure. Values as in the JSON export: the shortest float32 decimals, and NaN,
// Infinity, -Infinity as words. readCsvExport is the inverse.
//
//   q,2,2
//   1,0
//   0,1
//
//   k,2,2
//   …

import { toRows } from '../../matrix.js';
import { modelMatrices, inputMatrices, headExports } from './matrices.js';
import { float32Text, readFloat32 } from './numbers.js';

/**
 * The CSV text: the inputs (x, wq, wk, wv in "from X" mode, else q, k, v; and wo with heads),
 * then the steps, then with heads the whole projections and every head's steps (head1.q …).
 */
export function exportCsv(model, state) {
  const steps = modelMatrices(state, model);
  const inputs = inputMatrices(state.mode, state.heads).filter((name) => !steps.includes(name));
  return (
    [...[...inputs, ...steps].map((name) => [name, model[name]]), ...headExports(model)]
      .map(([name, m]) => {
        return [`${name},${m.rows},${m.cols}`, ...toRows(m).map((row) => row.map(float32Text).join(','))].join('\n');
      })
      .join('\n\n') + '\n'
  );
}

/** { name: { rows, cols, data: Float32Array } } from an export's text. */
export function readCsvExport(text) {
  const out = {};
  for (const block of text.trim().split(/\n\s*\n/)) {
    const [header, ...rows] = block.split('\n');
    const [name, r, c] = header.split(',');
    out[name] = {
      rows: Number(r),
      cols: Number(c),
      data: Float32Array.from(
        rows.flatMap((row) => row.split(',')),
        readFloat32,
      ),
    };
  }
  return out;
}
