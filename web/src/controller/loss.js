// The loss of the backward steps (backward.js): the reader's choice of it, and its matrix (the
// target Y, or dO given) typed or pasted in the loss box, as handlers of the editing part
// (controller/editing.js spreads them into on.*). A new target Y starts as the shown head's V
// (state.js setLoss). A matrix that does not read, or not in AV's shape, is refused at its field
// (page.errors 'loss'), the text kept as typed, the last good numbers on screen.

import { setLoss, setLossMatrix } from '../state.js';
import { toRows } from '../matrix.js';
import { parseMatrix } from '../parse-matrix.js';
import { lossShape } from '../backward.js';

export function lossHandlers(page, describe) {
  const refused = { text: null };
  const refuse = (message, text) => {
    page.errors.set('loss', message);
    refused.text = text;
    page.render({ panel: false, frame: false });
  };
  return {
    loss: (loss) => {
      page.errors.delete('loss');
      refused.text = null;
      page.commit(setLoss(page.state, loss, { v: toRows(page.model.v) }));
    },
    lossMatrix: (text) => {
      const parsed = parseMatrix(text);
      if (!parsed.ok) return refuse(describe(parsed.error), text);
      const [rows, cols] = lossShape(page.state);
      if (parsed.rows.length !== rows || parsed.rows[0].length !== cols)
        return refuse(page.t('loss.shape', { rows, cols }), text);
      page.errors.delete('loss');
      refused.text = null;
      page.commit(setLossMatrix(page.state, parsed.rows));
    },
    /** The refusal shown at the loss's matrix, and the text it refused: { message, text } or null. */
    lossRefusal: () => (page.errors.has('loss') ? { message: page.errors.get('loss'), text: refused.text } : null),
  };
}
