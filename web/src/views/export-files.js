// The exports' files — NumPy, JSON, CSV, PNG — and the printed handout: one part of the page,
// loaded when the reader first asks for one (parts.js; the bar's buttons are views/export-bar.js).
// Each export is the pure text or drawing of labs/export/ saved as a file: a Blob, an object URL
// and a temporary <a download>.

import { h } from './dom.js';
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

export { renderHandout } from './handout.js';

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
  return stepMatrices(stepId, state).map((id) => {
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

const text = (type) => (content) => new Blob([content], { type });

/** Each export's file extension and contents (a Blob, or a promise of one), from the bar's ctx. */
const EXPORTS = {
  numpy: {
    ext: 'py',
    save: (ctx) => text('text/x-python')(numpyScript(ctx.model, ctx.state, { file: exportFileName(ctx.state, 'py') })),
  },
  json: { ext: 'json', save: (ctx) => text('application/json')(exportJson(ctx.model, ctx.state)) },
  csv: { ext: 'csv', save: (ctx) => text('text/csv')(exportCsv(ctx.model, ctx.state)) },
  png: { ext: 'png', save: (ctx) => stepPng(ctx) },
};

/**
 * Saves the export `kind` (a key of EXPORTS) of what ctx shows — { state, model, t, theme, tokens }
 * — as a file; resolves to the file's name.
 */
export async function saveExport(kind, ctx) {
  const { ext, save } = EXPORTS[kind];
  const name = exportFileName(ctx.state, ext);
  download(name, await save(ctx));
  return name;
}
