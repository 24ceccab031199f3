// The choice that turns the backward steps on (one training step, backward.js), under the AV step
// and on the dO step: no loss, L = ½‖AV − Y‖² with its target Y, or dO given; with the loss's value,
// why it is the one chosen, and its matrix to type or paste (Y, or dO). Render only: the choice
// and the matrix go to on.loss and on.lossMatrix (controller/loss.js), which words a refusal.

import { h } from './dom.js';
import { radios } from './controls.js';
import { LOSSES, lossWords } from '../backward.js';
import { formatNumber } from '../format.js';

/** The loss's matrix as text, one row a line, as a paste would give it. */
const asText = (rows) => rows.map((row) => row.join(' ')).join('\n');

/** The field of the loss's matrix: Y or the given dO, its refusal in place, the text kept as typed. */
function matrixField({ state, t, on }) {
  const refusal = on.lossRefusal();
  const box = h('textarea', {
    id: 'loss-matrix',
    rows: Math.min(state.n, 8),
    spellcheck: 'false',
    'aria-describedby': 'loss-matrix-error',
    'aria-invalid': refusal ? 'true' : null,
  });
  box.value = refusal?.text ?? asText(state.loss === 'mse' ? state.y : state.dout);
  return h(
    'div',
    { class: 'field loss-matrix' },
    h('label', { for: 'loss-matrix' }, t(state.loss === 'mse' ? 'loss.matrixY' : 'loss.matrixDO')),
    box,
    h('button', { type: 'button', id: 'loss-apply', onclick: () => on.lossMatrix(box.value) }, t('loss.apply')),
    h('p', { class: 'field-error', id: 'loss-matrix-error', role: 'alert' }, refusal?.message ?? ''),
  );
}

/** The loss box: its choice, then what the chosen loss is, its value for ½‖AV − Y‖² and its matrix. */
export function renderLossChoice(ctx) {
  const { state, model, t, on } = ctx;
  const value = state.loss === 'mse' && Number.isFinite(model.loss) ? formatNumber(model.loss, state.digits) : null;
  return h(
    'div',
    { class: 'loss-choice', id: 'loss-choice' },
    radios(
      'loss',
      t('loss.label'),
      LOSSES.map((loss) => [loss, t(lossWords(state, loss))]),
      state.loss,
      (loss) => on.loss(loss),
    ),
    h('p', { class: 'hint', id: 'loss-why' }, t(lossWords(state, state.loss, '.why'))),
    value !== null ? h('p', { class: 'loss-value', id: 'loss-value' }, t('loss.value', { value })) : null,
    state.loss !== 'none' ? matrixField(ctx) : null,
  );
}
