// The classroom mode, as data and pure functions (no DOM): its two hash fields, which of its
// actions a lab leaves to the browser, the pace a teacher types, and where the auto-advance stands.
// Its keys (a keyboard's and a presentation clicker's) are entries of controller/actions.js.
//
//   classroom=1   for a projector, in large type (not in an embed): the stepper's stage only, or a
//                 lab's charts and key numbers
//   pace=8        auto-advance every 8 seconds, in the stepper (off unless written; 1 … PACE_LIMIT)
//
// CLASSROOM_FIELDS has the shape of state.js's FIELDS ({ key, type: { parse, format }, initial,
// only }): state.js spreads it into FIELDS.

import { integer, flag } from './fields.js';

/** The slowest pace a teacher may set, in seconds (ten minutes a step). */
export const PACE_LIMIT = 600;

/** True when the page shows the classroom mode: asked for, on a whole screen (not in an embed). */
export const inClassroom = (s) => Boolean(s.classroom) && !s.embed;

/** True when the classroom mode pages through the stepper's steps (a lab has none: it scrolls). */
export const pagesSteps = (s) => inClassroom(s) && s.view === 'steps';

/** The classroom's fields: key (in the state and the hash), type, default, when it is written. */
export const CLASSROOM_FIELDS = Object.freeze([
  { key: 'classroom', type: flag, initial: false, only: inClassroom },
  // 0 is "off" in the state and is never written: a link without pace does not advance by itself.
  { key: 'pace', type: integer(0, PACE_LIMIT), initial: 0, only: (s) => pagesSteps(s) && s.pace > 0 },
]);

/**
 * The pace a teacher typed into the bar's field: '' or 0 turns auto-advance off. Returns
 * { pace } or { error: { key, max } } for a text that is not a whole number of seconds within range.
 */
export function parsePace(text) {
  const s = String(text ?? '').trim();
  if (s === '') return { pace: 0 };
  if (!/^\d+$/.test(s) || Number(s) > PACE_LIMIT) return { error: { key: 'classroom.paceError', max: PACE_LIMIT } };
  return { pace: Number(s) };
}

// In a lab the page keys are the browser's: PageDown, Space and the arrows scroll to the lab's next
// chart, as a clicker's PageDown does on a long slide. The mode's own keys stay.
const LAB_ACTIONS = new Set(['fullscreen', 'blank', 'leave']);

/** Whether `action` is the classroom mode's in `view` (a lab leaves the page keys to the browser). */
export const actsIn = (view, action) => view === 'steps' || LAB_ACTIONS.has(action);

/** The step an action moves to from `step` of `count` (1-based), or `step` itself. */
export function stepAfter(action, step, count) {
  if (action === 'next') return Math.min(step + 1, count);
  if (action === 'previous') return Math.max(step - 1, 1);
  if (action === 'first') return 1;
  if (action === 'last') return count;
  return step;
}

/**
 * Where the auto-advance stands `elapsed` ms after the step was shown, at `pace` seconds a step:
 * { due } (time to move on), the whole seconds left (for the countdown) and the fraction gone
 * (for its bar). `reduced` (prefers-reduced-motion): the bar moves in whole seconds, not smoothly.
 */
export function pacing(elapsed, pace, { reduced = false } = {}) {
  const total = pace * 1000;
  const gone = Math.min(Math.max(elapsed, 0), total);
  const shown = reduced ? Math.floor(gone / 1000) * 1000 : gone;
  return { due: elapsed >= total, remaining: Math.ceil((total - gone) / 1000), fraction: total ? shown / total : 0 };
}
