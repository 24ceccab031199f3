// Which matrices the JSON and CSV exports carry, in the article's order: the inputs of the page's
// mode (presets.js's MODE_MATRICES: X and the three W in "from X", or Q, K, V directly), then
// every intermediate of attentionSteps (Q, K, V are the projections in "from X").

import { MODE_MATRICES } from '../../presets.js';

/** The intermediates, as computeModel names them (README.md, "The JS API"). */
export const STEP_MATRICES = Object.freeze(['q', 'k', 'v', 'scores', 'kept', 'scaled', 'rowMax', 'shifted', 'exps', 'rowSum', 'weights', 'output']);

/** The input matrices of a mode: ['x', 'wq', 'wk', 'wv'] or ['q', 'k', 'v']. */
export const inputMatrices = (mode) => Object.keys(MODE_MATRICES[mode]);
