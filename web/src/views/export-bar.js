// The export buttons under the stage — NumPy, JSON, CSV, PNG — and "Print handout". Each export
// is the pure text or drawing of labs/export/ saved as a file: a Blob, an object URL and a
// temporary <a download>. On the stepper all of them; in the exercise view only the handout (a
// data export would give the answers away); none in the other labs, nor in an embed (a frame
// sandboxed without allow-downloads cannot save a file: it has its "Open in the playground" link).
// The buttons are built once and relabelled, so that the one under the keyboard keeps its focus.

import { h, setText } from './dom.js';
import { stepIdAt, stepById, stepFigures, FIGURES, sizeOf } from '../steps.js';
import { KIND_OF } from '../colors.js';
import { HEAD_COLORS } from '../head-colors.js';
import { symbol } from './names.js';
import { numpyScript } from '../labs/export/numpy.js';
import { exportJson } from '../labs/export/json.js';
import { exportCsv } from '../labs/export/csv.js';
import { layoutMatrices, drawMatrices } from '../labs/export/png.js';
import { stepMatrices } from '../labs/export/matrices.js';
import { exportFileName } from '../labs/export/file-name.js';

/** Saves `blob` as a file named `name` (the browser's download, no network). */
function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the URL; give it a moment before the URL is let go.
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * The current step's matrices as the PNG draws them (labs/export/png.js): each with what the stage
 * shows around it — its words (steps.js FIGURE `labels`), its heads' blocks (`blocks`, `rowBlocks`)
 * and its masked cells (`masked`, the core's mask).
 */
export function pngPanels({ model, state, theme, t, tokens }) {
  const stepId = stepIdAt(state, state.step);
  const looks = new Map(stepFigures(stepById(stepId), state).map((look) => [FIGURES[look.figure].field, look]));
  const blocksOf = (size) =>
    size && {
      width: sizeOf(state, size),
      colors: HEAD_COLORS[theme] ?? HEAD_COLORS.light,
      label: (b) => t('heads.headN', { i: b + 1 }),
    };
  const kept = model.kept;
  return stepMatrices(stepId, state.mode, state.heads, state.loss).map((id) => {
    const look = looks.get(id) ?? {};
    return {
      label: symbol(id, state).text,
      matrix: model[id],
      kind: KIND_OF[id],
      rowLabels: look.labels && tokens ? tokens : undefined,
      colLabels: look.labels === 'pair' && tokens ? tokens : undefined,
      blocks: blocksOf(look.blocks),
      rowBlocks: blocksOf(look.rowBlocks),
      masked: look.masked && kept ? (i, j) => kept.data[i * kept.cols + j] === 0 : undefined,
    };
  });
}

/** The current step's matrices drawn as a PNG (labs/export/png.js), as a Blob. */
function stepPng(ctx) {
  const layout = layoutMatrices(pngPanels(ctx), { digits: ctx.state.digits, theme: ctx.theme });
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(layout.width * layout.scale);
  canvas.height = Math.ceil(layout.height * layout.scale);
  drawMatrices(canvas.getContext('2d'), layout);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob gave nothing'))), 'image/png'),
  );
}

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

function build(root) {
  let ctx = null;
  const file = (ext) => exportFileName(ctx.state, ext);
  const text = (type) => (content) => new Blob([content], { type });
  const exports = {
    numpy: { ext: 'py', save: () => text('text/x-python')(numpyScript(ctx.model, ctx.state, { file: file('py') })) },
    json: { ext: 'json', save: () => text('application/json')(exportJson(ctx.model, ctx.state)) },
    csv: { ext: 'csv', save: () => text('text/csv')(exportCsv(ctx.model, ctx.state)) },
    png: { ext: 'png', save: () => stepPng(ctx) },
  };
  const status = h('span', { class: 'export-status', id: 'export-status' });
  const buttons = Object.fromEntries(
    Object.entries(exports).map(([kind, { ext, save }]) => [
      kind,
      h('button', {
        type: 'button',
        id: `export-${kind}`,
        onclick: async () => {
          try {
            download(file(ext), await save());
            status.textContent = ctx.t('export.saved', { file: file(ext) });
          } catch (error) {
            status.textContent = ctx.t('export.failed', { message: error.message });
          }
        },
      }),
    ]),
  );
  const print = h('button', { type: 'button', id: 'print-handout', onclick: () => ctx.onPrint() });
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
      const hidden = state.embed || !(data || state.view === 'exercise');
      if (root.hidden !== hidden) root.hidden = hidden;
      if (group.hidden !== !data) group.hidden = !data;
      // Written only when they change: a step must not re-lay out the bar.
      setText(label, t('export.label'));
      for (const [kind, button] of Object.entries(buttons)) {
        setText(button, t(`export.${kind}`));
        if (button.title !== t(`export.${kind}Hint`)) button.title = t(`export.${kind}Hint`);
      }
      setText(print, t(state.view === 'exercise' ? 'export.printBlank' : 'export.print'));
      if (print.title !== t('export.printHint')) print.title = t('export.printHint');
    },
  };
}
