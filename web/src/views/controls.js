// The article's switches, each drawn from its description (options.js: its kind of control and its
// words). The input panel lists them all; the stage shows each one beside the steps whose
// description lists it (steps.js `controls`): scaling, temperature and the mask on ÷√dₖ,
// stable/naive on the max and exp steps, the axis on the weights. Both copies read and write the
// same state field, so either one changes the URL and the numbers. Render only: changes go to
// `on.*` (controller/editing.js). `prefix` keeps ids and radio groups apart: '' in the panel (the
// stable hooks #scale-<v>, #temperature, #mask, #softmax-<v>, #axis-<v>), 'stage-' on the stage.

import { h } from './dom.js';
import { formatInput } from '../format.js';
import { OPTIONS, valueWords } from '../options.js';
import { STEP_LIST } from '../steps.js';

/** A group of radio buttons with a visible legend. */
export function radios(name, legend, options, current, onChange, { hint } = {}) {
  return h(
    'fieldset',
    { class: 'radios', id: `group-${name}` },
    h('legend', {}, legend),
    options.map(([value, label]) =>
      h(
        'label',
        {},
        h('input', {
          type: 'radio',
          name,
          id: `${name}-${value}`,
          value,
          checked: value === current,
          onchange: () => onChange(value),
        }),
        ' ',
        label,
      ),
    ),
    hint ? h('p', { class: 'hint' }, hint) : null,
  );
}

const errorSlot = (id) => h('p', { class: 'field-error', id, role: 'alert' });

const faq = (id, summary, text) => h('details', { class: 'faq', id }, h('summary', {}, summary), h('p', {}, text));

/** The control of each kind of option (options.js `control`): (option, { state, t, on }, prefix) → element(s). */
const KINDS = {
  radios: (o, { state, t, on }, prefix) => [
    radios(
      `${prefix}${o.key}`,
      t(o.words.label),
      o.values.map((v) => [v, t(valueWords(o, v))]),
      state[o.key],
      (v) => on.option(o.key, v),
      { hint: o.words.hint && t(o.words.hint) },
    ),
    o.words.faq ? faq(`${prefix}faq-${o.key}`, t(o.words.faq), t(o.words.faqText)) : null,
  ],
  number: (o, { state, t, on }, prefix) =>
    h(
      'div',
      { class: `field ${o.key}` },
      h('label', { for: `${prefix}${o.key}` }, t(o.words.label)),
      h('input', {
        id: `${prefix}${o.key}`,
        type: 'text',
        inputmode: 'decimal',
        value: formatInput(state[o.key]),
        size: 5,
        'aria-describedby': `err-${prefix}${o.key} ${prefix}hint-${o.key}`,
        onchange: (e) => on.optionText(o.key, e.target.value),
      }),
      h('p', { class: 'hint', id: `${prefix}hint-${o.key}` }, t(o.words.hint)),
      errorSlot(`err-${prefix}${o.key}`),
    ),
  checkbox: (o, { state, t, on }, prefix) =>
    h(
      'div',
      { class: 'field check' },
      h(
        'label',
        {},
        h('input', {
          type: 'checkbox',
          id: `${prefix}${o.key}`,
          checked: state[o.key] === o.checked,
          onchange: (e) => on.option(o.key, e.target.checked ? o.checked : o.unchecked),
        }),
        ' ',
        t(o.words.label),
      ),
    ),
};

/** Each option's control, by key: ({ state, t, on }, prefix) → element(s). */
export const CONTROLS = Object.fromEntries(
  OPTIONS.map((o) => [o.key, (ctx, prefix) => KINDS[o.control](o, ctx, prefix)]),
);

/** Which controls sit on which step of the stage (each step's `controls`, steps.js). */
export const STAGE_CONTROLS = Object.freeze(
  Object.fromEntries(STEP_LIST.filter((step) => step.controls.length).map((step) => [step.id, step.controls])),
);

/** The controls of one step, for the stage (none for most steps). */
export function stageControls(stepId, ctx) {
  const names = STAGE_CONTROLS[stepId];
  if (!names) return null;
  return h(
    'div',
    { class: 'stage-controls', role: 'group', 'aria-label': ctx.t('stage.controls') },
    names.map((name) => CONTROLS[name](ctx, 'stage-')),
  );
}

/** The options typed as numbers (their errors are keyed by the option's key). */
export const NUMBER_OPTIONS = OPTIONS.filter((o) => o.control === 'number');

/** The stage's copy of a field's error (the panel's own slots are filled by panel.js's showErrors). */
export function showStageErrors(root, errors) {
  for (const { key } of NUMBER_OPTIONS) {
    const input = root.querySelector(`#stage-${key}`);
    const slot = root.querySelector(`#err-stage-${key}`);
    if (!input || !slot) continue;
    const message = errors.get(key) ?? '';
    slot.textContent = message;
    if (message) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
}
