// The pieces every one-number expansion is written with (views/explain.js, views/explain-backward.js):
// a chain of equalities that wraps between its parts, a sum (of products) with its terms written
// out, folded past FOLD terms, a line of an expansion as data (the steps whose formula it fills in,
// its label, its parts), a row or column of a matrix, a subscript pair. Render only.

import { h } from './dom.js';
import { math, mo, num } from './math.js';
import { at } from '../matrix.js';

const FOLD = 6; // a sum with more terms than this is folded…
const SHOWN = 4; // …to its first SHOWN terms and a button

/** Row i of a matrix, as an array. */
export const row = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
/** Column j of a matrix, as an array. */
export const column = (m, j) => Array.from({ length: m.rows }, (_, i) => at(m, i, j));

/** A subscript pair: S₁₂ reads well, S₁₁₂ would not (then S₁,₁₂). */
export const pair = (i, j, n) => (n > 9 ? `${i},${j}` : `${i}${j}`);

/**
 * A chain of equalities, lhs = part = part = …, as one <math> per part so that a long chain wraps
 * between parts (a line break inside MathML is not portable). `parts` are arrays of nodes; an
 * element that is not MathML (the "… more terms" button) sits between two parts as it is.
 */
export function chain(...parts) {
  let first = true;
  return h(
    'span',
    { class: 'line' },
    parts.map((part) => {
      if (!Array.isArray(part)) return part;
      const out = math(first ? part : [mo('='), ...part]);
      first = false;
      return out;
    }),
  );
}

/**
 * The terms of a sum, written out, or past FOLD terms its first SHOWN and then how many more: a
 * button that shows them in the popover (`onExpand`), their count as text in the step's formula.
 */
function folded(count, termNodes, { expanded, onExpand, t }) {
  if (count <= FOLD || expanded) return [termNodes(count)];
  const more = t('explain.moreTerms', { count: count - SHOWN });
  return [
    [...termNodes(SHOWN), mo('+')],
    onExpand
      ? h('button', { type: 'button', class: 'more-terms', onclick: onExpand }, more)
      : h('span', { class: 'more-terms' }, more),
  ];
}

/** Σ a_t·b_t written out, with negative factors bracketed; folded past FOLD terms. */
export function products(factors, options) {
  return folded(
    factors.length,
    (count) =>
      factors
        .slice(0, count)
        .flatMap(([a, b], index) => [
          ...(index ? [mo('+')] : []),
          num(a, { bracketNegative: true }),
          mo('·'),
          num(b, { bracketNegative: true }),
        ]),
    options,
  );
}

/** a_1 + a_2 + … written out, negative terms bracketed; folded as products are. */
export function sums(terms, options) {
  return folded(
    terms.length,
    (count) =>
      terms.slice(0, count).flatMap((a, index) => [...(index ? [mo('+')] : []), num(a, { bracketNegative: true })]),
    options,
  );
}

/**
 * One line of an expansion: the steps (steps.js ids) whose formula it fills in, its label and the
 * parts of its chain. `popover: false` marks a line only the step's own formula shows (the popover
 * keeps to the dot product, the scaling, exp and the weight).
 */
export const line = (steps, label, parts, { popover = true } = {}) => ({ steps, label, parts, popover });
