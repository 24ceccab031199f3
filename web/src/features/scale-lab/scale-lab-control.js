// The scale lab's d_k control (scale-lab-view.js): a range over the steps of d_k, its value beside
// it, and halve/double buttons (aria-disabled at the ends rather than disabled, so that a focused
// button keeps the focus). Built once and updated in place, so it keeps the focus while the reader
// steps through d_k with the keyboard.

import { h } from '../../views/dom.js';
import { DK_STEPS, SCALE_LAB_DEFAULTS } from './scale-lab.js';

const indexOf = (dk) => DK_STEPS.indexOf(dk);

/**
 * The control: { el, draw(t, dk) }. choose(dk) is called with the d_k of DK_STEPS the reader
 * moved to (the range's value, or one step from `current()` for ÷2 and ×2).
 */
export function createDkControl({ current, choose }) {
  const to = (index) => choose(DK_STEPS[Math.max(0, Math.min(DK_STEPS.length - 1, index))]);
  const label = h('label', { for: 'sl-dk', class: 'sl-control-label' });
  const slider = h('input', {
    type: 'range',
    id: 'sl-dk',
    min: 0,
    max: DK_STEPS.length - 1,
    step: 1,
    'aria-describedby': 'sl-dk-hint',
    oninput: () => to(Number(slider.value)),
  });
  const output = h('output', { for: 'sl-dk', id: 'sl-dk-value', class: 'sl-dk-value', 'aria-hidden': 'true' });
  const stepButton = (id, text, by) =>
    h('button', { type: 'button', id, class: 'sl-step', onclick: () => to(indexOf(current()) + by) }, text);
  const halve = stepButton('sl-dk-halve', '÷2', -1);
  const double = stepButton('sl-dk-double', '×2', +1);
  const scaleMarks = h(
    'div',
    { class: 'sl-marks', 'aria-hidden': 'true' },
    DK_STEPS.map((dk) => h('span', {}, String(dk))),
  );
  const hint = h('p', { class: 'hint', id: 'sl-dk-hint' });
  const el = h(
    'div',
    { class: 'sl-control', role: 'group', 'aria-labelledby': 'sl-title' },
    h('div', { class: 'sl-control-head' }, label, output),
    h('div', { class: 'sl-control-row' }, halve, h('div', { class: 'sl-range' }, slider, scaleMarks), double),
    hint,
  );

  function draw(t, dk) {
    const at = indexOf(dk);
    slider.value = String(at);
    slider.setAttribute('aria-valuetext', t('scalelab.dkValue', { dk }));
    output.textContent = t('scalelab.dkValue', { dk });
    // The names start with what the buttons show, for those who speak to their computer ("click ÷2").
    halve.setAttribute('aria-label', `÷2, ${t('scalelab.halve')}`);
    halve.title = t('scalelab.halve');
    double.setAttribute('aria-label', `×2, ${t('scalelab.double')}`);
    double.title = t('scalelab.double');
    halve.setAttribute('aria-disabled', String(at === 0));
    double.setAttribute('aria-disabled', String(at === DK_STEPS.length - 1));
    label.textContent = t('scalelab.control');
    hint.textContent = `${t('scalelab.controlHint')} ${t('scalelab.seed', { seed: SCALE_LAB_DEFAULTS.seed })}`;
  }
  return { el, draw };
}
