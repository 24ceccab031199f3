// The exercise's part of the URL hash, as data: a teacher's link fixes the series (its seed,
// length, the kinds of cell it asks for, the rounding) and the example (the series' own — the
// article's worked example, then seeded random ones — or the page's current Q, K, V), and which
// question is open. Pure.
//
// EXERCISE_FIELDS has the shape of state.js's FIELDS ({ key, type: { parse, format }, initial }):
// the feature registers them (feature.js), so that state.js writes each only when view=exercise,
// and checks through the feature that the open question is within the series.
//
//   ex=3          the open question, 1 … exlen
//   exlen=10      questions in the series (the worked example's five, then random examples)
//   exseed=1      the random examples and their cells
//   exdigits=2    decimals the answer is rounded to (and checked against: ± half a unit of the last)
//   exkinds=score,scaled,weight,output   the kinds of cell asked for, in this order
//   exfrom=series | page   the series' own examples, or the page's current Q, K, V for every question

import { integer, oneOf } from '../../fields.js';

export const CELL_KINDS = Object.freeze(['score', 'scaled', 'weight', 'output']);
export const EXAMPLE_SOURCES = Object.freeze(['series', 'page']);
export const MAX_SERIES_LENGTH = 50;

// A non-empty list of distinct cell kinds, written comma-separated in the order asked.
const kindList = {
  parse(s) {
    const kinds = s.split(',');
    return kinds.length > 0 && kinds.every((k) => CELL_KINDS.includes(k)) && new Set(kinds).size === kinds.length
      ? kinds
      : undefined;
  },
  format: (kinds) => kinds.join(','),
};

/** The exercise's fields: key (in the state and the hash), type and default (frozen: the state copies it). */
export const EXERCISE_FIELDS = Object.freeze([
  { key: 'ex', type: integer(1, MAX_SERIES_LENGTH), initial: 1 },
  { key: 'exlen', type: integer(1, MAX_SERIES_LENGTH), initial: 10 },
  { key: 'exseed', type: integer(0, 2 ** 31 - 1), initial: 1 },
  { key: 'exdigits', type: integer(0, 4), initial: 2 },
  { key: 'exkinds', type: kindList, initial: CELL_KINDS },
  { key: 'exfrom', type: oneOf(EXAMPLE_SOURCES), initial: 'series' },
]);
