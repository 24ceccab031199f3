// The lab "为什么除以 √dₖ" (§4): the spread of q·k at the reader's d_k, unscaled and scaled.

import { oneOf } from '../../fields.js';
import { DK_STEPS, SCALE_LAB_DEFAULTS } from './scale-lab.js';
import words from './words.js';

export default Object.freeze({
  view: 'scale-lab',
  // The lab's d_k: 1, 2, 4 … 1024 (not the example's dk).
  fields: [{ key: 'labdk', type: oneOf(DK_STEPS), initial: SCALE_LAB_DEFAULTS.dk }],
  words,
});
