// The lab "watch attention learn" (issue 17), as data and numbers for a view to draw. Pure: no DOM,
// no engine; the training itself is the core's (createTrainer), run by train-session.js.
//
//   TRAIN_TASKS        the five tasks: their sizes, a fixed probe sequence, whether one layer can learn them
//   TRAIN_LAB_FIELDS   the lab's part of the URL hash (state.js spreads it into FIELDS)
//   trainerConfigs     the hash's fields → the createTrainer configs of one run, or of the √d_k race
//   chartScale, linePath, niceTicks, thin   the curves' axes and SVG paths
//   snapshotAt         the snapshot the timeline shows for a chosen step
//
//   taskFor            the state's task: a built-in, or the reader's own rule (own-rule.js)
//   (the fork from a snapshot, and its hash fields: train-fork.js)
//
// Every number shown comes from the seed: the same link and the same build give the same run.

import { OWN_RULE_FIELDS, ownTask } from './own-rule.js';
import { forkFields } from './train-fork.js';
import { integer, oneOf } from '../../fields.js';

/** A probe token's label: the token itself (lookup has its own, "key:value" and "key?"). */
const plainLabel = (token) => String(token);
// Lookup's sizes: 7 pairs of 8 keys × 4 values, then the query (the core's tests learn it in 500 steps).
const LOOKUP = Object.freeze({ length: 8, symbols: 8, values: 4 });
const lookupLabel = (token) =>
  token >= LOOKUP.symbols * LOOKUP.values
    ? `${token - LOOKUP.symbols * LOOKUP.values}?`
    : `${Math.floor(token / LOOKUP.values)}:${token % LOOKUP.values}`;

/**
 * The tasks. `learnable`: one attention layer learns it (the core's tests state within how many
 * steps); the other two are offered to show how far one layer gets and why it stops (i18n's
 * train.task.<key>.why). `task` holds createTrainer's task fields; `probe` a fixed sequence whose
 * A the view redraws as the model learns.
 */
export const TRAIN_TASKS = Object.freeze({
  reverse: { learnable: true, task: { length: 6, symbols: 6 }, probe: [0, 1, 2, 3, 4, 5], label: plainLabel },
  shift: { learnable: true, task: { length: 6, symbols: 6, shift: 2 }, probe: [0, 1, 2, 3, 4, 5], label: plainLabel },
  lookup: {
    learnable: true,
    task: LOOKUP,
    // Pairs (key, value) with keys 0 … 6, then the query "key 4?" (whose answer is 1).
    probe: lookupProbe(
      [
        [0, 1],
        [1, 3],
        [2, 0],
        [3, 2],
        [4, 1],
        [5, 0],
        [6, 3],
      ],
      4,
      LOOKUP,
    ),
    label: lookupLabel,
  },
  sort: { learnable: false, task: { length: 8, symbols: 16 }, probe: [9, 2, 14, 5, 0, 11, 7, 3], label: plainLabel },
  // Distinct tokens, the last a repeat of the one at position 1: the answer is the token after it, 1.
  induction: { learnable: false, task: { length: 8, symbols: 8 }, probe: [3, 6, 1, 7, 0, 4, 2, 6], label: plainLabel },
});
/** The built-in tasks, then the reader's own rule (own-rule.js). */
export const TASK_KEYS = Object.freeze([...Object.keys(TRAIN_TASKS), 'own']);

/**
 * The state's task as TRAIN_TASKS describes one: a built-in's entry, or the own rule's, made from
 * the state (learnable: null, for the run to measure; the probe is the first pair's input; a token
 * is labelled with the reader's word).
 */
export function taskFor(state) {
  if (state.traintask !== 'own') return TRAIN_TASKS[state.traintask];
  const task = ownTask(state);
  return {
    learnable: null,
    task,
    probe: task.pairs[0]?.input ?? [],
    label: (token) => state.trainvocab[token] ?? '?',
  };
}

/** Lookup's tokens for `pairs` [key, value] and a query key (core/tasks.cpp's encoding: a pair is key·values + value, the query symbols·values + key). */
export function lookupProbe(pairs, queryKey, { symbols, values }) {
  return [...pairs.map(([key, value]) => key * values + value), symbols * values + queryKey];
}

/** The choices the lab offers (the core accepts more: d_k 1 … 256, lr (0, 1]). */
export const DK_CHOICES = Object.freeze([4, 8, 16, 32, 64, 128, 256]);
export const LR_CHOICES = Object.freeze([0.001, 0.003, 0.01, 0.03, 0.1]);
export const STEP_CHOICES = Object.freeze([100, 200, 300, 500, 1000, 2000]);
export const HEAD_CHOICES = Object.freeze([1, 2, 3, 4]);
/** ÷√d_k, no scaling, or the race: both from the same seed, side by side. */
export const SCALINGS = Object.freeze(['sqrt_dk', 'none', 'race']);
/** The race's two runs, in the order they are drawn. */
export const RACE_SCALES = Object.freeze(['sqrt_dk', 'none']);

/** A snapshot of A on the probe every this many steps (and at step 0). */
export const SNAPSHOT_EVERY = 10;
/**
 * The held-out set each snapshot is scored on: this many sequences of the task drawn from a seeded
 * stream of their own (trainer.evaluate), the same at every snapshot and in every run — not the
 * batches' stream, so the model is scored on sequences it is not being fitted to step by step.
 */
export const HELD_OUT = Object.freeze({ count: 64, seed: 1 });

/** The lab's hash fields (state.js's FIELDS shape; the feature registers them, written only when view=train-lab). */
export const TRAIN_LAB_FIELDS = Object.freeze([
  { key: 'traintask', type: oneOf(TASK_KEYS), initial: 'reverse' },
  { key: 'trainseed', type: integer(0, 2 ** 32 - 1), initial: 7 },
  { key: 'trainlr', type: oneOf(LR_CHOICES), initial: 0.01 },
  { key: 'traindk', type: oneOf(DK_CHOICES), initial: 16 },
  { key: 'trainscale', type: oneOf(SCALINGS), initial: 'sqrt_dk' },
  { key: 'trainheads', type: oneOf(HEAD_CHOICES), initial: 1 },
  { key: 'trainsteps', type: oneOf(STEP_CHOICES), initial: 300 },
  ...OWN_RULE_FIELDS,
  ...forkFields({ rates: LR_CHOICES, scales: RACE_SCALES, maxStep: STEP_CHOICES.at(-1) }),
]);
export const TRAIN_FIELD_KEYS = Object.freeze(TRAIN_LAB_FIELDS.map((f) => f.key));

/**
 * The createTrainer configs the state asks for: one run, or the race's two (÷√d_k, then none),
 * identical but for the scaling. Fields left out take the core's defaults (batch 16, d_token 16,
 * Adam, one-hot positions).
 */
export function trainerConfigs(state) {
  const config = {
    task: state.traintask,
    ...taskFor(state).task,
    seed: state.trainseed,
    learningRate: state.trainlr,
    dHead: state.traindk,
    heads: state.trainheads,
  };
  const scales = state.trainscale === 'race' ? RACE_SCALES : [state.trainscale];
  return scales.map((scale) => ({ ...config, scale }));
}

/** True when a change from `before` to `after` asks for a new run (any field but the step count). */
export function runChanged(before, after) {
  const same = (key) => JSON.stringify(before[key]) === JSON.stringify(after[key]); // the own rule's are arrays
  return !before || TRAIN_FIELD_KEYS.some((key) => key !== 'trainsteps' && !same(key));
}

// ---- Curves ---------------------------------------------------------------------------------

/** 0 and a few round steps up to at least `max`: 1, 2 or 5 times a power of ten. */
export function niceTicks(max, count = 4) {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const ticks = [];
  for (let k = 0; k * step < max + step * 1e-9; k++) ticks.push(Number((k * step).toPrecision(12)));
  if (ticks.at(-1) < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

/**
 * Linear axes for a plot box { left, top, width, height }: x over steps 0 … maxStep, y over
 * 0 … yMax (the last of niceTicks(yMax)), y growing upwards. Returns { x(step), y(value), xTicks, yTicks }.
 */
export function chartScale({ maxStep, yMax }, box) {
  const xTicks = niceTicks(Math.max(1, maxStep));
  const yTicks = niceTicks(yMax);
  const xEnd = xTicks.at(-1);
  const yEnd = yTicks.at(-1);
  return {
    x: (step) => box.left + (step / xEnd) * box.width,
    y: (value) => box.top + box.height - (Math.min(value, yEnd) / yEnd) * box.height,
    xTicks,
    yTicks,
  };
}

/** At most `max` points of `points`, evenly spaced, the first and the last always kept. */
export function thin(points, max = 400) {
  if (points.length <= max) return points;
  const every = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, k) => points[Math.round(k * every)]);
}

/**
 * An SVG path through [step, value] points on `scale`; a point whose value is not finite breaks
 * the line (a run that diverged shows where, not a line to nowhere).
 */
export function linePath(points, scale) {
  let d = '';
  let pen = 'M';
  for (const [step, value] of points) {
    if (!Number.isFinite(value)) {
      pen = 'M';
      continue;
    }
    d += `${pen}${scale.x(step).toFixed(1)},${scale.y(value).toFixed(1)}`;
    pen = 'L';
  }
  return d;
}

// ---- The timeline ---------------------------------------------------------------------------

/**
 * The snapshot to show for `step`: the last one taken at or before it (snapshots are in step
 * order, the first at step 0). Null before any.
 */
export function snapshotAt(snapshots, step) {
  let lo = 0;
  let hi = snapshots.length - 1;
  if (hi < 0 || snapshots[0].step > step) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (snapshots[mid].step <= step) lo = mid;
    else hi = mid - 1;
  }
  return snapshots[lo];
}
