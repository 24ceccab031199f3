// Exercise mode: the article's closing advice — compute a small example by hand — as questions a
// page can ask and check. Pure: no DOM; every expected number comes from the wasm core (the
// engine is passed in), the inputs are small enough to compute with a pocket calculator.
//
// A series (exercise-fields.js: its length, seed, kinds, rounding and source) walks the worked
// example of §7 first — S₁₁ = q₁·k₁ = 1, S₁₁/√2 = 0.71, A₁₁ = 0.67, A₁₂ = 0.33, (AV)₁₁ = 6.7 —
// then seeded random small examples (n, d_k ∈ {2, 3}, whole numbers), one cell each, the kinds
// taken in turn. With exfrom=page every question is on the page's current Q, K, V instead.
// The options are always the article's: ÷√d_k, no mask, the stable softmax along rows.
//
// A question asks for one cell: a score S_ij, a scaled score S_ij/√d_k, a weight A_ij or an
// output (AV)_ic. checkAnswer accepts the value rounded to `digits` decimals (± half a unit of the
// last decimal); hints() gives the sub-steps in order — the dot product, the division, the exp,
// the normalisation, the weighted sum — with the live numbers, for a view to reveal one by one.

import { CELL_KINDS } from './exercise-fields.js';
import { presetMatrices, seededRandom } from '../../presets.js';
import { fromRows, toRows } from '../../matrix.js';
import { parseNumber } from '../../parse-matrix.js';
import { formatNumber } from '../../format.js';

/** The worked example's questions, in the article's order (0-based cells). */
export const WORKED_QUESTIONS = Object.freeze([
  { kind: 'score', i: 0, j: 0 }, // S₁₁ = 1·1 + 0·0 = 1
  { kind: 'scaled', i: 0, j: 0 }, // 1/√2 ≈ 0.71
  { kind: 'weight', i: 0, j: 0 }, // e^0.71/(e^0.71 + e^0) ≈ 0.67
  { kind: 'weight', i: 0, j: 1 }, // ≈ 0.33: a score of 0 still gets weight
  { kind: 'output', i: 0, j: 0 }, // 0.67·10 + 0.33·0 ≈ 6.7
]);

/** The random examples: n and d_k from 2 to 3, d_v = 2; q, k whole numbers in −2 … 2, v in 0 … 10. */
export function randomExample(next) {
  const pick = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const n = pick(2, 3),
    dk = pick(2, 3),
    dv = 2;
  const matrix = (rows, cols, lo, hi) =>
    Array.from({ length: rows }, () => Array.from({ length: cols }, () => pick(lo, hi)));
  return { source: 'random', q: matrix(n, dk, -2, 2), k: matrix(n, dk, -2, 2), v: matrix(n, dv, 0, 10) };
}

/**
 * The series as a list of { number (1-based), kind, i, j, example: { source, q, k, v } } — no
 * numbers computed yet. `page` ({ q, k, v } as rows) is the page's example, for exfrom = 'page'.
 * Question t (0-based) past the worked ones draws from its own generator seeded by (exseed, t), so
 * a link to question 7 shows the same question however the reader got there.
 */
export function seriesPlan({ exlen, exseed, exkinds, exfrom }, page) {
  const article = { source: 'article', ...presetMatrices('article') };
  const worked = exfrom === 'series' ? WORKED_QUESTIONS.filter((w) => exkinds.includes(w.kind)) : [];
  return Array.from({ length: exlen }, (_, t) => {
    if (t < worked.length) return { number: t + 1, ...worked[t], example: article };
    const next = seededRandom(exseed * 7919 + t);
    const example = exfrom === 'page' ? { source: 'page', ...page } : randomExample(next);
    const kind = exkinds[(t - worked.length) % exkinds.length];
    const n = example.q.length,
      cols = kind === 'output' ? example.v[0].length : example.k.length;
    return { number: t + 1, kind, i: Math.floor(next() * n), j: Math.floor(next() * cols), example };
  });
}

const MATRIX_OF = { score: 'scores', scaled: 'scaled', weight: 'weights', output: 'output' };

/**
 * Question number `fields.ex` of the series, computed by the core:
 *   { number, total, kind, i, j, digits, example, expected (the core's float32 value),
 *     answer (expected rounded to digits, as text), steps (the core's attentionSteps: every matrix) }
 */
export function exerciseQuestion(engine, fields, page) {
  if (fields.exfrom === 'page' && !page) throw new Error("exfrom=page needs the page's { q, k, v }");
  const plan = seriesPlan(fields, page);
  const { number, kind, i, j, example } = plan[fields.ex - 1];
  const steps = engine.attentionSteps({ q: fromRows(example.q), k: fromRows(example.k), v: fromRows(example.v) });
  const m = steps[MATRIX_OF[kind]];
  const expected = m.data[i * m.cols + j];
  return {
    number,
    total: plan.length,
    kind,
    i,
    j,
    digits: fields.exdigits,
    example,
    expected,
    answer: expected.toFixed(fields.exdigits),
    steps,
  };
}

/**
 * Checks what the learner typed (full-width digits and the minus sign U+2212 accepted):
 *   { verdict: 'correct' | 'close' | 'wrong', value, expected, answer, tolerance }
 * correct: within half a unit of the last decimal asked for (0.005 for 2 decimals), i.e. the
 * value rounds to the answer; close: within ten times that (a rounding slip, or an intermediate
 * rounded too early); or { verdict: 'unreadable', error } with parse-matrix.js's error.
 */
export function checkAnswer(question, text) {
  const parsed = parseNumber(text);
  if (!parsed.ok) return { verdict: 'unreadable', error: parsed.error };
  const tolerance = 0.5 * 10 ** -question.digits;
  const off = Math.abs(parsed.value - question.expected);
  // 1e-9: "0.005 off" must count as within 0.005 despite binary fractions
  const verdict = off <= tolerance + 1e-9 ? 'correct' : off <= 10 * tolerance ? 'close' : 'wrong';
  return { verdict, value: parsed.value, expected: question.expected, answer: question.answer, tolerance };
}

// ---- Hints ------------------------------------------------------------------------------------

const show = (x) => formatNumber(x, 4);
const factor = (x) => (x < 0 ? `(${show(x)})` : show(x));
const SUB = '₀₁₂₃₄₅₆₇₈₉';
const subscript = (n) => String(n).replace(/\d/g, (c) => SUB[c]);
// 1-based indices as the article writes them: S₁₂; with a comma once an index has two digits.
const cell = (name, i, j) =>
  i >= 9 || j >= 9 ? `${name}${subscript(i + 1)},${subscript(j + 1)}` : `${name}${subscript(i + 1)}${subscript(j + 1)}`;

/** The cell a question asks for, as the article writes it in plain text: S₁₁, S₁₁/√2, A₁₂, (AV)₁₁. */
export function cellName({ kind, i, j, example }) {
  const name = {
    score: cell('S', i, j),
    scaled: `${cell('S', i, j)}/√${example.q[0].length}`,
    weight: cell('A', i, j),
    output: cell('(AV)', i, j),
  };
  return name[kind];
}

/**
 * The sub-steps leading to the question's cell, in order; a view reveals them one at a time.
 * Each is { step, formula, value?, … } where formula is a language-neutral line of math with the
 * live numbers, e.g. 'q₁·k₁ = 1×1 + 0×0 = 1':
 *   dot        (every kind)   the dot products q_i·k_j — for a weight or an output, of the whole row
 *   divide     (scaled, …)    ÷ √d_k
 *   exp        (weight, …)    the row's max m_i, then e^(x − m_i) of each scaled score
 *   normalise  (weight, …)    the row sum s_i, then e/s_i
 *   weighted   (output)       Σ_j A_ij v_jc
 */
export function hints(question) {
  const { kind, i, j, example, steps } = question;
  const rows = Object.fromEntries(
    ['scores', 'scaled', 'rowMax', 'shifted', 'exps', 'rowSum', 'weights', 'output'].map((name) => [
      name,
      toRows(steps[name]),
    ]),
  );
  const { q, k, v } = example;
  const dk = q[0].length,
    divisor = Math.sqrt(dk);
  const keys = kind === 'score' || kind === 'scaled' ? [j] : k.map((_, jj) => jj);
  const out = [];

  out.push({
    step: 'dot',
    keys,
    products: keys.map((jj) => q[i].map((x, c) => x * k[jj][c])),
    values: keys.map((jj) => rows.scores[i][jj]),
    formula: keys
      .map(
        (jj) =>
          `${cell('S', i, jj)} = q${subscript(i + 1)}·k${subscript(jj + 1)} = ${q[i].map((x, c) => `${factor(x)}×${factor(k[jj][c])}`).join(' + ')} = ${show(rows.scores[i][jj])}`,
      )
      .join('; '),
  });
  if (kind === 'score') return out;

  out.push({
    step: 'divide',
    keys,
    divisor,
    dk,
    values: keys.map((jj) => rows.scaled[i][jj]),
    formula:
      `√${dk} = ${show(divisor)}; ` +
      keys.map((jj) => `${show(rows.scores[i][jj])} / ${show(divisor)} = ${show(rows.scaled[i][jj])}`).join(', '),
  });
  if (kind === 'scaled') return out;

  const max = rows.rowMax[i][0];
  out.push({
    step: 'exp',
    max,
    shifted: rows.shifted[i],
    values: rows.exps[i],
    formula:
      `max = ${show(max)}; ` +
      rows.scaled[i].map((x, jj) => `e^(${show(x)} − ${show(max)}) = ${show(rows.exps[i][jj])}`).join(', '),
  });
  const sum = rows.rowSum[i][0];
  out.push({
    step: 'normalise',
    sum,
    values: rows.weights[i],
    formula:
      `Σ = ${rows.exps[i].map(show).join(' + ')} = ${show(sum)}; ` +
      (kind === 'weight' ? [j] : keys)
        .map((jj) => `${cell('A', i, jj)} = ${show(rows.exps[i][jj])} / ${show(sum)} = ${show(rows.weights[i][jj])}`)
        .join(', '),
  });
  if (kind === 'weight') return out;

  out.push({
    step: 'weighted',
    column: j,
    value: rows.output[i][j],
    formula: `${cell('(AV)', i, j)} = ${rows.weights[i].map((a, jj) => `${show(a)}×${factor(v[jj][j])}`).join(' + ')} = ${show(rows.output[i][j])}`,
  });
  return out;
}

export { CELL_KINDS };
