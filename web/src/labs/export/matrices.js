// Which matrices the JSON and CSV exports carry, in the article's order: the inputs of the page's
// mode (presets.js's MODE_MATRICES: X and the three W in "from X", or Q, K, V directly), then
// every intermediate of attentionSteps (Q, K, V are the projections in "from X").

import { MODE_MATRICES } from '../../presets.js';

/** The intermediates, as computeModel names them (README.md, "The JS API"). */
export const STEP_MATRICES = Object.freeze([
  'q',
  'k',
  'v',
  'scores',
  'kept',
  'scaled',
  'rowMax',
  'shifted',
  'exps',
  'rowSum',
  'weights',
  'output',
]);

/** The input matrices of a mode: ['x', 'wq', 'wk', 'wv'] or ['q', 'k', 'v']. */
export const inputMatrices = (mode) => Object.keys(MODE_MATRICES[mode]);

/**
 * The matrices a step shows, in the order the stage draws them (views/stage.js lays them out with
 * their operators; the PNG export and the printed handout only need which and in what order).
 */
export function stepMatrices(stepId, mode) {
  const inputs = mode === 'x' ? ['x'] : ['q', 'k', 'v'];
  switch (stepId) {
    case 'x':
      return inputs;
    case 'project':
      return mode === 'x' ? ['x', 'wq', 'q', 'wk', 'k', 'wv', 'v'] : ['q', 'k', 'v'];
    case 'scores':
      return ['q', 'k', 'scores'];
    case 'scale':
      return ['scores', 'scaled'];
    case 'max':
      return ['scaled', 'rowMax', 'shifted'];
    case 'exp':
      return ['exps'];
    case 'sum':
      return ['exps', 'rowSum'];
    case 'weights':
      return ['weights'];
    case 'output':
      return ['weights', 'v', 'output'];
    default:
      throw new Error(`no step ${stepId}`);
  }
}
