// Export as CSV: one block per matrix — a header row "name,rows,cols", then its rows — blocks
// separated by an empty line, the inputs of the page's mode first, then every intermediate in the
// article's order. Pure. Values as in the JSON export: the shortest float32 decimals, and NaN,
// Infinity, -Infinity as words. readCsvExport is the inverse. With words (words.js: "它 是 猫", or
// the reader's own), a first block "words,1,n" names the rows of X or Q (readCsvWords reads it).
//
//   words,1,2
//   猫,狗
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
import { stateTokens } from '../../words.js';

// A word holds no comma nor line break (words.js); one with a quote is quoted as RFC 4180 says.
const csvWord = (word) => (word.includes('"') ? `"${word.replaceAll('"', '""')}"` : word);
const readCsvWord = (field) => (field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field);

/**
 * The CSV text: the inputs (x, wq, wk, wv in "from X" mode, else q, k, v; and wo with heads),
 * then the steps, then with heads the whole projections and every head's steps (head1.q …).
 */
export function exportCsv(model, state) {
  const steps = modelMatrices(state, model);
  const inputs = inputMatrices(state).filter((name) => !steps.includes(name));
  const words = stateTokens(state);
  return (
    [
      ...(words ? [`words,1,${words.length}\n${words.map(csvWord).join(',')}`] : []),
      ...[...[...inputs, ...steps].map((name) => [name, model[name]]), ...headExports(model)].map(([name, m]) =>
        [`${name},${m.rows},${m.cols}`, ...toRows(m).map((row) => row.map(float32Text).join(','))].join('\n'),
      ),
    ].join('\n\n') + '\n'
  );
}

const blocks = (text) => text.trim().split(/\n\s*\n/);

/** The words of an export's first block ("words,1,n"), or null when it has none. */
export function readCsvWords(text) {
  const [header, row] = blocks(text)[0].split('\n');
  return header.startsWith('words,') ? row.split(',').map(readCsvWord) : null;
}

/** { name: { rows, cols, data: Float32Array } } from an export's text (its words: readCsvWords). */
export function readCsvExport(text) {
  const out = {};
  for (const block of blocks(text)) {
    const [header, ...rows] = block.split('\n');
    const [name, r, c] = header.split(',');
    if (name === 'words') continue;
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
