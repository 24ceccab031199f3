// The training lab's hand-off to the stepper (issue 17): "walk one training step", which opens the
// stepper on the probe sequence with the trained model's numbers — X, the chosen head's W_Q, W_K,
// W_V — and the gradient the model's cross-entropy sends to that head's output as dO, so that the
// reader walks the exact backward pass of a training step, every number expandable. With several
// heads, a choice of head; in the √d_k race, the ÷√d_k run (the first). The model handed over is
// the one the timeline shows (an early snapshot, where the gradients are large, or the latest),
// and the button says after which step. Render only: the click goes to onWalk(head) (train-lab-view.js).

import { h, setText } from '../../views/dom.js';
import { SIZE_LIMIT } from '../../state.js';

/** True when the stepper can show the head: its d_k and the model's width within the page's sizes. */
export const walkable = (state, width) => state.traindk <= SIZE_LIMIT && width <= SIZE_LIMIT;

/**
 * { el, update({ state, t, ready, width, step, forked }) }: `ready` once the run has its first
 * numbers, `step` the step of the model handed over, `forked` when it is a fork's (train-lab-fork.js).
 */
export function createWalkControl({ onWalk }) {
  const title = h('h3', { id: 'train-walk-title' });
  const text = h('p', { class: 'train-text', id: 'train-walk-text' });
  const headLabel = h('label', { for: 'train-walk-head' });
  const head = h('select', { id: 'train-walk-head' });
  const headField = h('div', { class: 'train-field', hidden: true }, headLabel, head);
  const which = h('p', { class: 'hint', id: 'train-walk-which' });
  const why = h('p', { class: 'hint', id: 'train-walk-why', hidden: true });
  const button = h('button', {
    type: 'button',
    id: 'train-walk',
    'aria-describedby': 'train-walk-why',
    onclick: () => button.getAttribute('aria-disabled') !== 'true' && onWalk(Number(head.value || 0)),
  });
  const el = h(
    'section',
    { class: 'train-part train-walk', 'aria-labelledby': 'train-walk-title' },
    title,
    text,
    headField,
    button,
    which,
    why,
  );

  function update({ state, t, ready, width, step, forked }) {
    setText(title, t('train.walk.title'));
    setText(text, t(state.trainscale === 'race' ? 'train.walk.textRace' : 'train.walk.text'));
    setText(headLabel, t('train.walk.head'));
    const heads = state.trainheads;
    headField.hidden = heads < 2;
    if (head.options.length !== heads) {
      const keep = Math.min(Number(head.value || 0), heads - 1);
      head.replaceChildren(...Array.from({ length: heads }, (_, i) => h('option', { value: String(i) })));
      head.value = String(keep);
    }
    [...head.options].forEach((option, i) => setText(option, t('heads.headN', { i: i + 1 })));
    setText(button, t(step === 0 ? 'train.walk.buttonStart' : 'train.walk.buttonAt', { step }));
    button.dataset.step = String(step);
    setText(which, t('train.walk.which') + (forked ? t('train.walk.fork') : ''));
    const fits = walkable(state, width);
    why.hidden = fits;
    setText(why, fits ? '' : t('train.walk.tooWide', { max: SIZE_LIMIT }));
    button.setAttribute('aria-disabled', String(!ready || !fits));
  }
  return { el, update };
}
