// The choice that turns the backward steps on (one training step, backward.js), under the AV step
// and on the dO step: no loss, L = ½‖AV − Y‖² with its target Y, or dO given; with the loss's value
// and why it is the one chosen. Render only: the choice goes to on.loss (controller/loss.js).

import { h } from './dom.js';
import { radios } from './controls.js';
import { LOSSES } from '../backward.js';
import { formatNumber } from '../format.js';

/** The loss box: its choice, then what the chosen loss is and, for ½‖AV − Y‖², its value. */
export function renderLossChoice({ state, model, t, on }) {
  const value = state.loss === 'mse' && Number.isFinite(model.loss) ? formatNumber(model.loss, state.digits) : null;
  return h(
    'div',
    { class: 'loss-choice', id: 'loss-choice' },
    radios(
      'loss',
      t('loss.label'),
      LOSSES.map((loss) => [loss, t(`loss.${loss}`)]),
      state.loss,
      (loss) => on.loss(loss),
    ),
    h('p', { class: 'hint', id: 'loss-why' }, t(`loss.${state.loss}.why`)),
    value !== null ? h('p', { class: 'loss-value', id: 'loss-value' }, t('loss.value', { value })) : null,
  );
}
