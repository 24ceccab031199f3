// The training lab's controls (train-lab-view.js): the run's fields — each one of the hash's
// (train-lab.js TRAIN_LAB_FIELDS), set through setState — and Play, Pause, Step, Reset.
// Ids stay across updates, so that the app's keepingFocus() finds the focused control again.

import { h, setText } from '../../views/dom.js';
import { TASK_KEYS, SCALINGS, DK_CHOICES, HEAD_CHOICES, LR_CHOICES, STEP_CHOICES } from './train-lab.js';
import { createOwnRuleFields } from './train-lab-own.js';

// The selects: the state's key, the values offered, and how a value is worded (a key, or itself).
const SELECTS = [
  { key: 'traintask', values: TASK_KEYS, word: (v, t) => t(`train.task.${v}`), label: 'train.task.label' },
  { key: 'trainscale', values: SCALINGS, word: (v, t) => t(`train.scale.${v}`), label: 'train.scale.label' },
  { key: 'traindk', values: DK_CHOICES, word: String, label: 'train.dk.label' },
  { key: 'trainheads', values: HEAD_CHOICES, word: String, label: 'train.heads.label' },
  { key: 'trainlr', values: LR_CHOICES, word: String, label: 'train.lr.label' },
  { key: 'trainsteps', values: STEP_CHOICES, word: String, label: 'train.steps.label' },
];
const SEED_MAX = 2 ** 32 - 1;

function selectField({ key, values }, setState) {
  const id = `train-${key.slice('train'.length)}`;
  const select = h(
    'select',
    { id, onchange: () => setState({ [key]: values.find((v) => String(v) === select.value) }) },
    values.map((v) => h('option', { value: String(v) })),
  );
  const label = h('label', { for: id });
  return { key, select, label, el: h('div', { class: 'train-field' }, label, select) };
}

/**
 * The controls: { el, update({ state, t, playing, canStep, error (the run's refusal, which the own rule's fields word) }) } calling setState(patch) for a field
 * and actions.play(), .pause(), .step(), .reset() for the buttons.
 */
export function createTrainControls({ setState, actions }) {
  const fields = SELECTS.map((spec) => selectField(spec, setState));
  const seedLabel = h('label', { for: 'train-seed' });
  const seedError = h('p', { class: 'train-error', id: 'train-seed-error', hidden: true });
  const seed = h('input', {
    id: 'train-seed',
    type: 'number',
    min: 0,
    max: SEED_MAX,
    step: 1,
    inputmode: 'numeric',
    'aria-describedby': 'train-seed-error',
    onchange: () => {
      const value = Number(seed.value);
      const ok = /^\d+$/.test(seed.value.trim()) && value <= SEED_MAX;
      seedError.hidden = ok;
      seed.setAttribute('aria-invalid', ok ? 'false' : 'true');
      if (ok) setState({ trainseed: value });
    },
  });
  // aria-disabled rather than disabled: a button that turns off as it is pressed (Play) keeps the
  // keyboard's focus, and says it is off; a press on it does nothing.
  const button = (id, action, primary) => {
    const b = h('button', {
      type: 'button',
      id,
      class: primary ? 'primary' : null,
      onclick: () => b.getAttribute('aria-disabled') !== 'true' && actions[action](),
    });
    return b;
  };
  const buttons = {
    play: button('train-play', 'play', true),
    pause: button('train-pause', 'pause'),
    step: button('train-step', 'step'),
    reset: button('train-reset', 'reset'),
  };
  const own = createOwnRuleFields({ setState });
  const el = h(
    'div',
    { class: 'train-controls' },
    h(
      'div',
      { class: 'train-fields' },
      fields.map((f) => f.el),
      h('div', { class: 'train-field' }, seedLabel, seed),
    ),
    seedError,
    own.el,
    h('div', { class: 'train-buttons' }, Object.values(buttons)),
  );

  function update({ state, t, playing, canStep, error }) {
    own.update({ state, t, error });
    SELECTS.forEach((spec, k) => {
      const { select, label } = fields[k];
      setText(label, t(spec.label));
      spec.values.forEach((v, i) => setText(select.options[i], spec.word(v, t)));
      select.value = String(state[spec.key]);
    });
    setText(seedLabel, t('train.seed.label'));
    setText(seedError, t('train.seed.error'));
    if (seed.getAttribute('aria-invalid') !== 'true') seed.value = String(state.trainseed);
    for (const [name, b] of Object.entries(buttons)) setText(b, t(`train.${name}`));
    const off = { play: playing || !canStep, pause: !playing, step: playing || !canStep, reset: false };
    for (const [name, b] of Object.entries(buttons)) b.setAttribute('aria-disabled', String(off[name]));
  }
  return { el, update };
}
