// Where float32 ran out: the step at which a number the core could not hold (NaN, or ±∞ that no
// mask put there) first appears, so that the page can say so instead of showing NaN without a
// word. The core counts them per matrix (attentionSteps' nonFinite); this only maps matrices to
// the article's steps. Pure: no DOM.

import { STEPS } from './steps.js';

// Each intermediate, in order, with the step that first shows it: the projections (counted by
// model.js from X; in "Q, K, V" mode they are inputs, finite), then those of attentionSteps.
const SHOWN_AT = [
  ['q', 'project'],
  ['k', 'project'],
  ['v', 'project'],
  ['scores', 'scores'],
  ['scaled', 'scale'],
  ['rowMax', 'max'],
  ['shifted', 'max'],
  ['exps', 'exp'],
  ['rowSum', 'sum'],
  ['weights', 'weights'],
  ['output', 'output'],
];

/** The id of the first step (steps.js) showing a NaN or ±∞ nobody asked for, or null when there is none. */
export function nonFiniteFrom(model) {
  const counts = model?.nonFinite;
  if (!counts) return null;
  const first = SHOWN_AT.find(([matrix]) => counts[matrix] > 0);
  return first ? first[1] : null;
}

/** True when step `stepId` is at or after the step where such numbers first appear. */
export function showsNonFinite(model, stepId) {
  const from = nonFiniteFrom(model);
  return from !== null && STEPS.indexOf(stepId) >= STEPS.indexOf(from);
}
