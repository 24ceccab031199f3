// The loss of the backward steps (backward.js): the reader's choice of it, as handlers of the
// editing part (controller/editing.js spreads them into on.*). A new target Y starts as the shown
// head's V (state.js setLoss).

import { setLoss } from '../state.js';
import { toRows } from '../matrix.js';

export function lossHandlers(page) {
  return {
    loss: (loss) => page.commit(setLoss(page.state, loss, { v: toRows(page.model.v) })),
  };
}
