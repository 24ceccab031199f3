// The export buttons under the stage — NumPy, JSON, CSV, PNG — and "Print handout". Each export
// is the pure text or drawing of labs/export/ saved as a file: a Blob, an object URL and a
// temporary <a download>. On the stepper all of them; in the exercise view only the handout (a
// data export would give the answers away); none in the other labs, nor in an embed (a frame
// sandboxed without allow-downloads cannot save a file: it has its "Open in the playground" link).
// The buttons are built once and relabelled, so that the one under the keyboard keeps its focus.
// What they save is made by export-files.js, a part of the page loaded at the first click (parts.js).

import { h, setText } from './dom.js';
import { loadPart } from '../parts.js';
import { featureOf } from '../features/index.js';

const built = new WeakMap();

/** ctx: { state, model, t, theme, tokens (the rows' words, or null), onPrint } */
export function renderExportBar(root, ctx) {
  let bar = built.get(root);
  if (!bar) {
    bar = build(root);
    built.set(root, bar);
  }
  bar.update(ctx);
}

/** The exports, in the bar's order (each one's file and contents: export-files.js EXPORTS). */
const KINDS = ['numpy', 'json', 'csv', 'png'];

function build(root) {
  let ctx = null;
  const status = h('span', { class: 'export-status', id: 'export-status' });
  const buttons = Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      h('button', {
        type: 'button',
        id: `export-${kind}`,
        onclick: async () => {
          const now = ctx; // the state the reader clicked on, whatever comes while the code loads
          try {
            const { saveExport } = await loadPart('exports');
            const file = await saveExport(kind, now);
            status.textContent = now.t('export.saved', { file });
          } catch (error) {
            status.textContent = now.t('export.failed', { message: error.message });
          }
        },
      }),
    ]),
  );
  const print = h('button', {
    type: 'button',
    id: 'print-handout',
    onclick: async () => {
      const now = ctx;
      try {
        await now.onPrint();
      } catch (error) {
        status.textContent = now.t('export.failed', { message: error.message });
      }
    },
  });
  const label = h('span', { class: 'export-label', id: 'export-label' });
  const group = h(
    'div',
    { class: 'export-buttons', role: 'group', 'aria-labelledby': 'export-label' },
    label,
    Object.values(buttons),
  );
  root.replaceChildren(group, print, status);

  return {
    update(next) {
      ctx = next;
      const { state, t } = ctx;
      const data = state.view === 'steps';
      const sheet = featureOf(state.view)?.handout; // a view whose feature prints a sheet of its own
      const hidden = state.embed || !(data || sheet);
      if (root.hidden !== hidden) root.hidden = hidden;
      if (group.hidden !== !data) group.hidden = !data;
      // Written only when they change: a step must not re-lay out the bar.
      setText(label, t('export.label'));
      for (const [kind, button] of Object.entries(buttons)) {
        setText(button, t(`export.${kind}`));
        if (button.title !== t(`export.${kind}Hint`)) button.title = t(`export.${kind}Hint`);
      }
      setText(print, t(sheet?.printKey ?? 'export.print'));
      if (print.title !== t('export.printHint')) print.title = t('export.printHint');
    },
  };
}
