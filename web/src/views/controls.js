// The article's switches, each defined once. The input panel lists them all; the stage shows each
// one beside the step where it acts (STAGE_CONTROLS): scaling, temperature and the mask on ÷√dₖ,
// stable/naive on the max and exp steps, the axis on the weights. Both copies read and write the
// same state field, so either one changes the URL and the numbers. Render only: changes go to
// `on.*` (app.js). `prefix` keeps ids and radio groups apart: '' in the panel (the stable hooks
// #scale-<v>, #temperature, #mask, #softmax-<v>, #axis-<v>), 'stage-' on the stage.

import { h } from './dom.js';
import { formatInput } from '../format.js';
import { SCALES, SOFTMAXES, AXES } from '../../../wasm/vocabulary.mjs';

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

/** Each control: ({ state, t, on }, prefix) → element(s). */
export const CONTROLS = {
  scale: ({ state, t, on }, prefix) => [
    radios(
      `${prefix}scale`,
      t('opt.scale'),
      SCALES.map((v) => [v, t(`opt.scale.${v}`)]),
      state.scale,
      (v) => on.option('scale', v),
    ),
    faq(`${prefix}faq-scale`, t('opt.scale.faq'), t('opt.scale.faqText')),
  ],
  temperature: ({ state, t, on }, prefix) =>
    h(
      'div',
      { class: 'field temperature' },
      h('label', { for: `${prefix}temperature` }, t('opt.temperature')),
      h('input', {
        id: `${prefix}temperature`,
        type: 'text',
        inputmode: 'decimal',
        value: formatInput(state.temperature),
        size: 5,
        'aria-describedby': `err-${prefix}temperature ${prefix}hint-temperature`,
        onchange: (e) => on.temperature(e.target.value),
      }),
      h('p', { class: 'hint', id: `${prefix}hint-temperature` }, t('opt.temperatureHint')),
      errorSlot(`err-${prefix}temperature`),
    ),
  mask: ({ state, t, on }, prefix) =>
    h(
      'div',
      { class: 'field check' },
      h(
        'label',
        {},
        h('input', {
          type: 'checkbox',
          id: `${prefix}mask`,
          checked: state.mask === 'causal',
          onchange: (e) => on.option('mask', e.target.checked ? 'causal' : 'none'),
        }),
        ' ',
        t('opt.mask'),
      ),
    ),
  softmax: ({ state, t, on }, prefix) =>
    radios(
      `${prefix}softmax`,
      t('opt.softmax'),
      SOFTMAXES.map((v) => [v, t(`opt.softmax.${v}`)]),
      state.softmax,
      (v) => on.option('softmax', v),
      { hint: t('opt.softmax.hint') },
    ),
  axis: ({ state, t, on }, prefix) => [
    radios(
      `${prefix}axis`,
      t('opt.axis'),
      AXES.map((v) => [v, t(`opt.axis.${v}`)]),
      state.axis,
      (v) => on.option('axis', v),
    ),
    faq(`${prefix}faq-axis`, t('opt.axis.faq'), t('opt.axis.faqText')),
  ],
};

/** Which controls sit on which step of the stage (steps.js ids). */
export const STAGE_CONTROLS = {
  scale: ['scale', 'temperature', 'mask'],
  max: ['softmax'],
  exp: ['softmax'],
  weights: ['axis'],
};

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

/** The stage's copy of a field's error (the panel's own slots are filled by panel.js's showErrors). */
export function showStageErrors(root, errors) {
  const input = root.querySelector('#stage-temperature');
  const slot = root.querySelector('#err-stage-temperature');
  if (!input || !slot) return;
  const message = errors.get('temperature') ?? '';
  slot.textContent = message;
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}
