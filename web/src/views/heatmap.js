// A matrix too large for numbers (more than 16 rows or columns), drawn on a canvas that a reader
// can still read: row and column axes with index (or word) ticks, a colour bar with the numbers
// its ends stand for, a mark on the cell being expanded, and with heads their blocks of columns
// (or rows) in the heads' colours, as a table marks them. Render only.

import { h } from './dom.js';
import { matrixFormat } from '../format.js';
import { scaleFor, paintImage, gradientCss } from '../colors.js';

const PLOT = 360; // the longest side of the plot, in CSS pixels (it shrinks with a narrow column)

/** Tick positions (0-based) for `count` rows or columns: 1, then every `step` up to the last. */
export function ticks(count) {
  const step = [1, 2, 4, 8, 16].find((s) => count / s <= 9) ?? 16;
  const out = [0];
  for (let k = step - 1; k < count; k += step) if (k > 0) out.push(k);
  if (out.at(-1) !== count - 1) out.push(count - 1);
  return out;
}

function axis(className, count, labels, place) {
  return h(
    'div',
    { class: className, 'aria-hidden': 'true' },
    ticks(count).map((k) => {
      const tick = h('span', {}, labels?.[k] ?? String(k + 1));
      place(tick.style, `${((k + 0.5) / count) * 100}%`);
      return tick;
    }),
  );
}

/**
 * The heads' blocks along one side of the plot (multi-head: matrix.js's `blocks` over the columns,
 * `rowBlocks` beside the rows): one strip per head in its colour, from its first column (row) to
 * its last, named as in a table ("头 1": above the columns as the table's block header; beside the
 * rows as a title, the table's row heads carry theirs).
 */
function blockStrips(count, { width, colors, label }, across) {
  const place = across ? ['left', 'width'] : ['top', 'height'];
  return h(
    'div',
    { class: across ? 'hm-blocks' : 'hm-row-blocks' },
    Array.from({ length: count / width }, (_, b) => {
      const strip = h('span', { class: 'hm-block', title: label(b) }, across ? label(b) : null);
      strip.style[place[0]] = `${((b * width) / count) * 100}%`;
      strip.style[place[1]] = `${(width / count) * 100}%`;
      strip.style.color = colors[b];
      strip.style.borderColor = colors[b];
      return strip;
    }),
  );
}

/** See matrix.js for spec and view. Returns { el, update }. */
export function renderHeatmap(spec, view) {
  const { matrix } = spec;
  const cell = Math.max(3, Math.floor(PLOT / Math.max(matrix.rows, matrix.cols)));
  const canvas = h('canvas', {
    class: `heatmap${spec.pick ? ' pick' : ''}`,
    width: matrix.cols,
    height: matrix.rows,
    role: 'img',
    'aria-label': `${spec.label ?? ''} ${view.t('mat.heatmapOnly', { rows: matrix.rows, cols: matrix.cols })}`.trim(),
    dataset: { rows: matrix.rows, cols: matrix.cols, pick: spec.pick ?? '' },
  });
  Object.assign(canvas.style, { width: `${matrix.cols * cell}px`, aspectRatio: `${matrix.cols} / ${matrix.rows}` });
  const mark = h('div', { class: 'hm-mark', hidden: true });
  const band = h('div', { class: 'hm-band', hidden: true });
  const plot = h('div', { class: 'hm-plot' }, canvas, band, mark);
  const low = h('span', { class: 'cb-low' });
  const mid = h('span', { class: 'cb-mid' });
  const high = h('span', { class: 'cb-high' });
  const bar = h('span', { class: 'cb-bar' });
  const el = h(
    'div',
    { class: 'heatmap-box' },
    h(
      'div',
      { class: 'hm-grid' },
      spec.blocks ? blockStrips(matrix.cols, spec.blocks, true) : null,
      axis('hm-cols', matrix.cols, spec.colLabels, (style, at) => {
        style.left = at;
      }),
      axis('hm-rows', matrix.rows, spec.rowLabels, (style, at) => {
        style.top = at;
      }),
      spec.rowBlocks ? blockStrips(matrix.rows, spec.rowBlocks, false) : null,
      plot,
    ),
    h(
      'div',
      { class: `colorbar${spec.kind === 'div' ? ' signed' : ''}`, 'aria-hidden': 'true' },
      low,
      h('span', { class: 'cb-track' }, bar, mid),
      high,
    ),
    h('p', { class: 'note' }, view.t('mat.heatmapOnly', { rows: matrix.rows, cols: matrix.cols })),
  );

  const context = canvas.getContext('2d');
  const image = context?.createImageData(matrix.cols, matrix.rows);
  function update(next, v) {
    const scale = scaleFor(next.matrix.data, next.kind);
    if (context) {
      paintImage(image, next.matrix.data, scale, v.theme);
      context.putImageData(image, 0, 0);
    }
    const format = matrixFormat(next.matrix.data, v.digits);
    bar.style.background = gradientCss(scale.kind, v.theme);
    low.textContent = format(scale.kind === 'seq' ? 0 : -scale.max);
    mid.textContent = scale.kind === 'seq' ? '' : '0';
    high.textContent = format(scale.max);
  }
  update(spec, view);
  return { el, update };
}

/** Puts the cell mark (i, j), or the band of row i, on a heatmap figure; null hides it. */
export function markHeatmap(figure, { cell, row }) {
  const canvas = figure.querySelector('canvas.heatmap');
  if (!canvas) return;
  const rows = Number(canvas.dataset.rows);
  const cols = Number(canvas.dataset.cols);
  const mark = figure.querySelector('.hm-mark');
  const band = figure.querySelector('.hm-band');
  mark.hidden = !cell;
  if (cell)
    Object.assign(mark.style, {
      left: `${(cell.j / cols) * 100}%`,
      top: `${(cell.i / rows) * 100}%`,
      width: `${100 / cols}%`,
      height: `${100 / rows}%`,
    });
  band.hidden = row === null || row === undefined;
  if (!band.hidden) Object.assign(band.style, { top: `${(row / rows) * 100}%`, height: `${100 / rows}%` });
}
