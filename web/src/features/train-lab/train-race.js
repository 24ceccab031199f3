// The √d_k race in numbers (§4's "学不动", measured): what each run's first step and its curve say,
// and the race over seeds. Pure: no DOM, no engine; the runs are the session's (train-session.js).
//
//   LEARNED_BELOW, LOSS_AT_STEP   the threshold of "learned" and the fixed step the loss is read at
//   raceFacts(run)                one run's first-step gradients, its step to learn and its loss at LOSS_AT_STEP
//   seedRaceConfigs(state, k)     the race's two configs from the k-th of SEED_COUNT seeds
//   seedSummary(results, budget)  steps to learn over the seeds: median, range, how many not within the budget
//
// Two converged runs are never compared: both sit near a loss of 0 with a gradient near 0, whatever
// the scaling. What §4 claims is about the start — the gradient through a saturated softmax is
// small — and so about how long learning takes: the first step's gradients and the steps to learn.

import { trainerConfigs } from './train-lab.js';

/** A run has learned once its batch's loss first falls below this (nats; chance is ln 6 ≈ 1.79 for reverse). */
export const LEARNED_BELOW = 0.1;
/** The step at which both runs' losses are read side by side. */
export const LOSS_AT_STEP = 100;
/** How many seeds the race over seeds runs: the lab's seed and the next ones. */
export const SEED_COUNT = 16;

/** The first step whose batch loss is below `threshold` (points: [step, loss, …]), or null. */
export function stepToLearn(points, threshold = LEARNED_BELOW) {
  return points.find((p) => p[1] < threshold)?.[0] ?? null;
}

/**
 * The largest entry of the softmax's Jacobian ∂a/∂z over every row of the attention weights
 * `weights` ([{ rows, cols, data }] of each head). For one row a = softmax(z) it is
 * diag(a) − a·aᵀ; its largest entry is on the diagonal, max a_i(1 − a_i) (|a_i·a_j| ≤ a_i(1 − a_i)
 * since a_j ≤ 1 − a_i): ¼ for a row split evenly between two keys, near 0 once a row is one-hot.
 */
export function jacobianPeak(weights) {
  let peak = 0;
  for (const { data } of weights) for (const a of data) peak = Math.max(peak, a * (1 - a));
  return peak;
}

/**
 * One run's race numbers from its points ([step, loss, accuracy, softmaxGradient]) and snapshots
 * (the first at step 0, the A the first step computes with): { gradient (‖∂ℓ/∂Z‖ at step 1),
 * jacobian (jacobianPeak on the probe at step 0), learnedAt (stepToLearn, or null), lossAt (the
 * loss at LOSS_AT_STEP, or null before it) }. Null before the first step.
 */
export function raceFacts(run) {
  if (!run?.points.length) return null;
  return {
    gradient: run.points[0][3],
    jacobian: jacobianPeak(run.snapshots[0].weights),
    learnedAt: stepToLearn(run.points),
    lossAt: run.points[LOSS_AT_STEP - 1]?.[1] ?? null,
  };
}

/** The race's two configs (÷√d_k, none) from the k-th seed: the lab's seed + k, wrapping at 2³². */
export function seedRaceConfigs(state, k) {
  return trainerConfigs({ ...state, trainscale: 'race', trainseed: (state.trainseed + k) % 2 ** 32 });
}

/** The median of numbers (the mean of the middle two for an even count), or null for none. */
export function median(values) {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Steps to learn over the seeds, per run: `results` is [[step or null, step or null] of each seed]
 * (÷√d_k, none). Returns [{ learned, notLearned, median, min, max } of each run], the median and
 * range over the seeds that learned within the budget (null when none did).
 */
export function seedSummary(results) {
  return [0, 1].map((r) => {
    const steps = results.map((pair) => pair[r]).filter((s) => s !== null);
    return {
      learned: steps.length,
      notLearned: results.length - steps.length,
      median: median(steps),
      min: steps.length ? Math.min(...steps) : null,
      max: steps.length ? Math.max(...steps) : null,
    };
  });
}
