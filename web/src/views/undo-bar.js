// The panel's Undo and Redo buttons (controller/undo.js; a click is their entry's in
// controller/actions.js). The panel is rebuilt by views/panel.js; the bar is put back at its top
// whenever it is missing, and otherwise only its words and its disabled states change. Render only.

import { h, setText } from './dom.js';

/** ctx: { t, canUndo, canRedo }. */
export function renderUndoBar(panel, { t, canUndo, canRedo }) {
  if (!panel) return;
  let bar = panel.querySelector('#undo-bar');
  if (!bar) {
    bar = h(
      'div',
      { id: 'undo-bar', class: 'undo-bar', role: 'group' },
      h('button', { type: 'button', id: 'undo' }),
      h('button', { type: 'button', id: 'redo' }),
    );
    panel.prepend(bar);
  }
  bar.setAttribute('aria-label', t('undo.label'));
  for (const [id, can, words] of [
    ['undo', canUndo, 'undo.undo'],
    ['redo', canRedo, 'undo.redo'],
  ]) {
    const button = bar.querySelector(`#${id}`);
    setText(button, t(words));
    button.title = t(`${words}Keys`);
    // aria-disabled rather than disabled: a button that has the focus keeps it when it runs out.
    button.setAttribute('aria-disabled', String(!can));
  }
}
