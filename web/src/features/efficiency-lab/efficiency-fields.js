// A whole-number field of the efficiency lab (n, the seed, B_r, B_c, w): its label, the input and
// an error line beside it. A number outside its range is never taken: the field says why, and the
// lab keeps the last good value. Built once and updated in place, so it keeps the focus.

import { h, setText } from '../../views/dom.js';

/**
 * { el, draw(t, { value, max }) }: choose(value) is called with each acceptable number typed.
 * `labelKey` names the field; min is fixed, max may change with the inputs (w ≤ n).
 */
export function createNumberField({ id, labelKey, min, choose }) {
  const label = h('label', { for: id, class: 'eff-field-label' });
  const input = h('input', {
    id,
    type: 'number',
    inputmode: 'numeric',
    min,
    step: 1,
    'aria-describedby': `${id}-error`,
    oninput: () => read(),
  });
  const error = h('span', { id: `${id}-error`, class: 'field-error eff-field-error', role: 'alert' });
  const el = h('span', { class: 'eff-field' }, label, input, error);
  const shown = { t: null, max: Infinity };

  function read() {
    const text = input.value.trim();
    const value = Number(text);
    const ok = /^\d+$/.test(text) && value >= min && value <= shown.max;
    input.setAttribute('aria-invalid', String(!ok));
    setText(error, ok ? '' : shown.t('eff.field.range', { min, max: shown.max }));
    if (ok) choose(value);
  }

  return {
    el,
    input,
    draw(t, { value, max }) {
      Object.assign(shown, { t, max });
      setText(label, t(labelKey));
      input.max = String(max);
      // The reader's typing stays while it is theirs to finish; a value from elsewhere replaces it.
      if (document.activeElement !== input || input.getAttribute('aria-invalid') !== 'true') {
        if (input.value !== String(value)) input.value = String(value);
        input.setAttribute('aria-invalid', 'false');
        setText(error, '');
      }
    },
  };
}
