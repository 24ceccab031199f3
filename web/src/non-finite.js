// Where float32 ran out: the step at which a number the core could not hold (NaN, or ±∞ that no
// mask put there) first appears, so that the page can say so instead of showing NaN without a
// word. The core counts them per matrix (attentionSteps' nonFinite); this only maps matrices to
// the article's steps (each step's `produces`, steps.js). Pure: no DOM.

import { STEPS, STEP_LIST } from './steps.js';

/** The id of the first step (steps.js) showing a NaN or ±∞ nobody asked for, or null when there is none. */
export function nonFiniteFrom(model) {
  const counts = model?.nonFinite;
  if (!counts) return null;
  // Each step shows first the fields it produces; a field the core does not count has no entry.
  const first = STEP_LIST.find((step) => step.produces.some((field) => counts[field] > 0));
  return first ? first.id : null;
}

/** True when step `stepId` is at or after the step where such numbers first appear. */
export function showsNonFinite(model, stepId) {
  const from = nonFiniteFrom(model);
  return from !== null && STEPS.indexOf(stepId) >= STEPS.indexOf(from);
}
