// The panel's multi-head fields: how many heads (1 … HEADS_LIMIT), and with more than one, which
// head the article's steps show, each head named in its colour. Render only: on.heads and on.head
// are controller/heads.js's.

import { h } from './dom.js';
import { HEADS_LIMIT } from '../state.js';

const choice = (id, label, values, chosen, words, onchange, describedBy) =>
  h(
    'div',
    { class: 'field', id: `editor-${id}` },
    h('label', { for: id }, label),
    h(
      'select',
      { id, onchange: (e) => onchange(e.target.value), 'aria-describedby': describedBy },
      values.map((value) => h('option', { value: String(value), selected: value === chosen }, words(value))),
    ),
  );

/** ctx: { state, t, on }. */
export function headsControls({ state, t, on }) {
  const counts = Array.from({ length: HEADS_LIMIT }, (_, i) => i + 1);
  return h(
    'div',
    { class: 'heads-fields' },
    choice(
      'heads',
      t('heads.label'),
      counts,
      state.heads,
      (count) => t('heads.value', { h: count }),
      on.heads,
      state.heads > 1 ? 'err-heads hint-heads' : 'err-heads',
    ),
    state.heads > 1
      ? choice(
          'head',
          t('heads.head'),
          counts.slice(0, state.heads),
          state.head,
          (i) => t('heads.headN', { i }),
          on.head,
        )
      : null,
    h('p', { class: 'field-error', id: 'err-heads', role: 'alert' }),
    // With heads, what d_k and d_v now mean (the widths of all heads together).
    state.heads > 1 ? h('p', { class: 'hint', id: 'hint-heads' }, t('heads.hint')) : null,
  );
}
