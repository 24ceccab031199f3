// Which matrices the JSON and CSV exports carry, in the article's order: the inputs of the page's
// state (presets.js's inputShapes: X and the three W in "from X", or Q, K, V directly, and W_O
// with heads), then every intermediate of its steps (Q, K, V are the projections in "from X").
// Each takes the whole state: what a dimension (heads, a loss, an axis) adds or changes is said
// by the step descriptions it reads (steps.js `when`, `figures`), not here.

import { inputShapes } from '../../presets.js';
import { STEP_LIST, FIGURES, stepById, stepFigures, stepsFor } from '../../steps.js';

/**
 * The intermediates, as computeModel names them (docs/api.md): what each of the steps
 * every state has produces — the nine of one head (concat and ·W_O come with heads: stateMatrices).
 */
export const STEP_MATRICES = Object.freeze(STEP_LIST.filter((step) => !step.when).flatMap((step) => step.produces));

/** The intermediates of this state's steps (with heads: the shown head's, then concat and the output). */
export const stateMatrices = (state) => stepsFor(state).flatMap((step) => step.produces);

/**
 * The intermediates of this state's steps that the model holds: all of them, except the gradients
 * when dO is not finite (the core computes none from it; the notice names the dO step).
 */
export const modelMatrices = (state, model) => stateMatrices(state).filter((name) => model[name]);

/**
 * With heads, the matrices beyond the shown head's, as [export name, matrix]: the whole
 * projections (qAll, kAll, vAll), then every head's, named head1.q … head2.output. None with one head.
 */
export const headExports = (model) =>
  model.heads
    ? [
        ...['qAll', 'kAll', 'vAll'].map((name) => [name, model[name]]),
        ...model.heads.flatMap((head, i) => STEP_MATRICES.map((name) => [`head${i + 1}.${name}`, head[name]])),
      ]
    : [];

/** The input matrices of a state: ['x', 'wq', 'wk', 'wv'] or ['q', 'k', 'v'] (and 'wo' with heads). */
export const inputMatrices = (state) => Object.keys(inputShapes(state));

/**
 * The matrices a step shows, in the order the stage draws them (steps.js; views/stage.js lays them
 * out with their operators; the PNG export and the printed handout only need which and in what
 * order): each figure, then the max or sum set beside it. A figure the page shows only beside its
 * own (the article's exp without the max) is left out.
 */
export function stepMatrices(stepId, state) {
  const step = stepById(stepId);
  if (!step) throw new Error(`no step ${stepId}`);
  return stepFigures(step, state)
    .filter(({ figure }) => !FIGURES[figure].optional)
    .flatMap(({ figure, reduce }) => [FIGURES[figure].field, ...(reduce ? [reduce[1]] : [])]);
}
