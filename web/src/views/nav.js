// The step list and the previous / next buttons. Render only; `go(step)` is main's.

import { h } from './dom.js';
import { STEPS } from '../steps.js';

export function renderNav(root, { state, t, go }) {
  const list = h('ol', { class: 'step-list' }, STEPS.map((id, index) => {
    const step = index + 1;
    return h('li', {}, h('button', {
      type: 'button', class: 'step-link', dataset: { step },
      'aria-current': step === state.step ? 'step' : null,
      onclick: () => go(step),
    }, h('span', { class: 'num' }, String(step)), ' ', t(`step.${id}.title`)));
  }));
  root.replaceChildren(
    h('h2', { class: 'sr-only', id: 'nav-title' }, t('nav.label')),
    list,
    h('div', { class: 'step-buttons' },
      h('button', { type: 'button', id: 'prev', disabled: state.step <= 1, onclick: () => go(state.step - 1) }, '← ', t('nav.prev')),
      h('span', { class: 'position', 'aria-live': 'polite' }, t('nav.position', { step: state.step, total: STEPS.length })),
      h('button', { type: 'button', id: 'next', disabled: state.step >= STEPS.length, onclick: () => go(state.step + 1) }, t('nav.next'), ' →')),
    h('p', { class: 'keys-hint' }, t('nav.keys')),
  );
}
