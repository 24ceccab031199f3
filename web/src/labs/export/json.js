// Export as JSON: all inputs, the options and every intermediate, each with its shape, so that a
// program can check or reuse the page's numbers. Pure. Numbers are the shortest decimals of their
// float32 values (numbers.js): read back into a Float32Array they are the page's values exactly;
// NaN and ±∞ (the naive softmax's overflow, masked scores) are the strings "NaN", "Infinity",
// "-Infinity". readJsonExport is the inverse.
//
// With words (words.js: "它 是 猫", or the reader's own), `words` labels the rows of X or Q.
//
//   { "format": "attention-playground/1", "formula": "softmax(QKᵀ/√d_k)·V", "mode": "qkv", "words": ["猫", "狗"],
//     "options": { "scale": "sqrt_dk", "temperature": 1, "mask": "none", "stable": true, "axis": "row" },
//     "inputs": { "q": { "shape": [2, 2], "data": [[1, 0], [0, 1]] }, … },
//     "steps": { "q": …, "scores": …, "weights": { "shape": [2, 2], "data": [[0.66976154, 0.33023846], …] }, … } }

import { stepOptions } from '../../model.js';
import { toRows } from '../../matrix.js';
import { modelMatrices, inputMatrices, headExports } from './matrices.js';
import { float32Text, readFloat32 } from './numbers.js';
import { stateTokens } from '../../words.js';

export const JSON_FORMAT = 'attention-playground/1';

// A matrix as { shape, data: rows }, each value the shortest float32 decimal (a JSON number) or a string.
// (A custom mask may come with a plain array as data, hence Float32Array.from.)
const encode = (m) => ({
  shape: [m.rows, m.cols],
  data: toRows({ ...m, data: Float32Array.from(m.data) }).map((row) =>
    row.map((x) => (Number.isFinite(x) ? Number(float32Text(x)) : float32Text(x))),
  ),
});
const decode = ({ shape: [rows, cols], data }) => ({ rows, cols, data: Float32Array.from(data.flat(), readFloat32) });

/** The JSON text for the page's current example: `model` from computeModel, `state` the page's state. */
export function exportJson(model, state) {
  const options = stepOptions(state);
  if (typeof options.mask === 'object') options.mask = encode(options.mask);
  const pick = (names) => Object.fromEntries(names.map((name) => [name, encode(model[name])]));
  const words = stateTokens(state);
  return JSON.stringify(
    {
      format: JSON_FORMAT,
      formula: 'softmax(QKᵀ/√d_k)·V',
      mode: state.mode,
      ...(words ? { words } : {}),
      options,
      inputs: pick(inputMatrices(state)),
      steps: pick(modelMatrices(state, model)),
      // With a loss (one training step): which, its target Y and its value for ½‖AV − Y‖²; dO and
      // every gradient are in `steps` (gradOutput, gradV …).
      ...(model.gradOutput
        ? {
            loss: state.loss,
            ...(model.target ? { target: encode(model.target), lossValue: model.loss } : {}),
          }
        : {}),
      // With heads: `steps` are the shown head's (and concat, projected = concat·W_O); here are
      // the whole projections and every head's steps (head1.q …).
      ...(model.heads
        ? {
            heads: state.heads,
            head: state.head,
            more: Object.fromEntries(headExports(model).map(([n, m]) => [n, encode(m)])),
          }
        : {}),
    },
    null,
    1,
  );
}

/**
 * Reads an export back: { format, mode, words?, options, inputs, steps } with { rows, cols, data:
 * Float32Array } matrices.
 */
export function readJsonExport(text) {
  const file = JSON.parse(text);
  if (file.format !== JSON_FORMAT)
    throw new Error(`not an ${JSON_FORMAT} file (format ${JSON.stringify(file.format)})`);
  const all = (group) => Object.fromEntries(Object.entries(group).map(([name, m]) => [name, decode(m)]));
  const options = { ...file.options };
  if (typeof options.mask === 'object') options.mask = decode(options.mask);
  const read = {
    format: file.format,
    mode: file.mode,
    ...(file.words ? { words: file.words } : {}),
    options,
    inputs: all(file.inputs),
    steps: all(file.steps),
  };
  return file.more ? { ...read, heads: file.heads, head: file.head, more: all(file.more) } : read;
}
