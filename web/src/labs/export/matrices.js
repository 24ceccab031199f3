// Which matrices the JSON and CSV exports carry, in the article's order: the inputs of the page's
// mode (presets.js's MODE_MATRICES: X and the three W in "from X", or Q, K, V directly), then
// every intermediate of attentionSteps (Q, K, V are the projections in "from X").

import { MODE_MATRICES } from '../../presets.js';
import { STEP_LIST, FIGURES, stepById, stepFigures } from '../../steps.js';

/** The intermediates, as computeModel names them (README.md, "The JS API"): what each step produces. */
export const STEP_MATRICES = Object.freeze(STEP_LIST.flatMap((step) => step.produces));

/** The input matrices of a mode: ['x', 'wq', 'wk', 'wv'] or ['q', 'k', 'v']. */
export const inputMatrices = (mode) => Object.keys(MODE_MATRICES[mode]);

/**
 * The matrices a step shows, in the order the stage draws them (steps.js; views/stage.js lays them
 * out with their operators; the PNG export and the printed handout only need which and in what
 * order): each figure, then the max or sum set beside it. A figure the page shows only beside its
 * own (the article's exp without the max) is left out.
 */
export function stepMatrices(stepId, mode) {
  const step = stepById(stepId);
  if (!step) throw new Error(`no step ${stepId}`);
  return stepFigures(step, { mode, axis: 'row' })
    .filter(({ figure }) => !FIGURES[figure].optional)
    .flatMap(({ figure, reduce }) => [FIGURES[figure].field, ...(reduce ? [reduce[1]] : [])]);
}
