// The training lab's fork (issue 26, item 6): at the snapshot the timeline shows, another scaling
// or learning rate from there on. The fork is a change of the link (train-fork.js), so that the
// link reopens it: the lab retrains the run with its fork, and the run it left beside it. Render
// only: the click goes to onFork(step, choice) (train-lab-view.js), "remove" to onRemove().

import { h, setText } from '../../views/dom.js';
import { LR_CHOICES, RACE_SCALES } from './train-lab.js';
import { forkOf, forkWords } from './train-fork.js';

/** A labelled select of `values`, worded by word(value, t) at each update. */
function choiceField(id, values) {
  const label = h('label', { for: id });
  const select = h(
    'select',
    { id },
    values.map((v) => h('option', { value: String(v) })),
  );
  return { label, select, values, el: h('div', { class: 'train-field' }, label, select) };
}
const valueOf = ({ select, values }) => values.find((v) => String(v) === select.value);

/**
 * { el, update({ state, t, ready, step }) }: `ready` once the run has numbers and is still, `step`
 * the step of the snapshot the timeline shows (the model the fork starts from).
 */
export function createForkPart({ onFork, onRemove }) {
  const title = h('h3', { id: 'train-fork-title' });
  const text = h('p', { class: 'train-text' });
  const scale = choiceField('train-fork-scale', RACE_SCALES);
  const rate = choiceField('train-fork-lr', LR_CHOICES);
  // The selects start at the run's own setting, and keep the reader's choice until the run changes.
  let chosenFor = '';
  const hint = h('p', { class: 'hint', id: 'train-fork-hint' });
  const button = h('button', {
    type: 'button',
    id: 'train-fork',
    'aria-describedby': 'train-fork-hint',
    onclick: () =>
      button.getAttribute('aria-disabled') !== 'true' &&
      onFork(Number(button.dataset.step), { learningRate: valueOf(rate), scale: valueOf(scale) }),
  });
  const current = h('p', { class: 'train-fork-current', id: 'train-fork-current', hidden: true });
  const remove = h('button', { type: 'button', id: 'train-fork-remove', hidden: true, onclick: () => onRemove() });
  const fields = h('div', { class: 'train-fields' }, scale.el, rate.el);
  const el = h(
    'section',
    { class: 'train-part train-fork', 'aria-labelledby': 'train-fork-title' },
    title,
    text,
    fields,
    h('div', { class: 'train-buttons' }, button, remove),
    hint,
    current,
  );

  function update({ state, t, ready, step }) {
    setText(title, t('train.fork.title'));
    setText(text, t('train.fork.text'));
    setText(scale.label, t('train.fork.scale'));
    setText(rate.label, t('train.fork.lr'));
    [...scale.select.options].forEach((o, i) => setText(o, t(`train.scale.${RACE_SCALES[i]}`)));
    [...rate.select.options].forEach((o, i) => setText(o, String(LR_CHOICES[i])));
    const race = state.trainscale === 'race';
    const run = `${state.trainscale}/${state.trainlr}`;
    if (run !== chosenFor && !race) {
      chosenFor = run;
      const fork = forkOf(state);
      scale.select.value = fork?.scale ?? state.trainscale;
      rate.select.value = String(fork?.learningRate ?? state.trainlr);
    }
    fields.hidden = race;
    const same = valueOf(scale) === state.trainscale && valueOf(rate) === state.trainlr;
    setText(button, t('train.fork.button', { step }));
    button.dataset.step = String(step);
    button.hidden = race;
    button.setAttribute('aria-disabled', String(!ready || race || same));
    setText(hint, t(race ? 'train.fork.race' : same ? 'train.fork.same' : 'train.fork.how', { step }));
    const fork = forkOf(state);
    current.hidden = remove.hidden = !fork;
    setText(remove, t('train.fork.remove'));
    setText(current, fork ? t('train.fork.current', { step: fork.step, change: forkWords(t, state, fork) }) : '');
  }
  // A choice changes whether there is anything to fork: the button and hint follow it at once.
  let last = null;
  const redraw = () => last && update(last);
  scale.select.addEventListener('change', redraw);
  rate.select.addEventListener('change', redraw);
  return {
    el,
    update(args) {
      last = args;
      update(args);
    },
  };
}
