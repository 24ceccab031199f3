// The pieces every one-number expansion is written with (views/explain.js, views/explain-backward.js):
// a chain of equalities that wraps between its parts, a sum of products with its terms written out
// (folded past FOLD terms), a labelled line, a subscript pair. Render only.

import { h } from './dom.js';
import { math, mo, num } from './math.js';

const FOLD = 6; // a sum with more terms than this is folded…
const SHOWN = 4; // …to its first SHOWN terms and a button

/** Row i of a matrix, as an array. */
export const row = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));

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

/** Σ a_t·b_t written out, with negative factors bracketed; folded past FOLD terms. */
export function products(factors, { expanded, onExpand, t }) {
  const folded = factors.length > FOLD && !expanded;
  const shown = folded ? factors.slice(0, SHOWN) : factors;
  const terms = [];
  shown.forEach(([a, b], index) => {
    if (index) terms.push(mo('+'));
    terms.push(num(a, { bracketNegative: true }), mo('·'), num(b, { bracketNegative: true }));
  });
  if (!folded) return [terms];
  return [
    [...terms, mo('+')],
    h(
      'button',
      { type: 'button', class: 'more-terms', onclick: onExpand },
      t('explain.moreTerms', { count: factors.length - SHOWN }),
    ),
  ];
}

export const line = (label, body) => h('li', {}, h('span', { class: 'label' }, label), body);
