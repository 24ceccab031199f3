// The exercise's formulas (exercise-view.js) as MathML: the cell asked for, "A₁₂ = ?", and the
// name of the matrix it belongs to.

import { math, mi, mn, mo, msub, msqrt, mrow } from '../../views/math.js';
import { cellName } from './exercise.js';

const MINUS = '\u2212';
/** A number as the page prints it: a typographic minus. */
export const typographic = (text) => text.replace(/^-/, MINUS);

/** The cell's index as the article writes it under a name: 12, or 12,1 once an index has two digits. */
const index = (i, j) =>
  i >= 9 || j >= 9 ? mrow(mn(String(i + 1)), mo(','), mn(String(j + 1))) : mn(`${i + 1}${j + 1}`);

/** The name of the matrix a kind of question asks about, as MathML children. */
export function matrixName(kind, dk) {
  if (kind === 'score') return [mi('S')];
  if (kind === 'scaled') return [mi('S'), mo('/', { lspace: '0', rspace: '0' }), msqrt(mn(String(dk)))];
  if (kind === 'weight') return [mi('A')];
  return [mi('A'), mi('V')];
}

/** "A₁₂ = ?" (or S₁₁/√2 = ?, (AV)₁₁ = ?) as one <math>. */
export function askMath(question) {
  const { kind, i, j, example } = question;
  const dk = example.q[0].length;
  const target = {
    score: () => [msub(mi('S'), index(i, j))],
    scaled: () => [msub(mi('S'), index(i, j)), mo('/', { lspace: '0', rspace: '0' }), msqrt(mn(String(dk)))],
    weight: () => [msub(mi('A'), index(i, j))],
    output: () => [msub(mrow(mo('('), mi('A'), mi('V'), mo(')')), index(i, j))],
  }[kind]();
  return math([...target, mo('='), mo('?')], { label: `${cellName(question)} = ?` });
}
