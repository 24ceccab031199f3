// A matrix too large for numbers (more than 16 rows or columns), drawn on a canvas that a reader
// can still read: row and column axes with index (or word) ticks, a colour bar with the numbers
// its ends stand for, a mark on the cell being expanded, and with heads their blocks of columns
// (or rows) in the heads' colours, as a table marks them. Render only.

import { h, setText } from './dom.js';
import { matrixFormat } from '../format.js';
import { scaleFor, gradientCss } from '../colors.js';
import { rowPainter } from './row-painter.js';

const PLOT = 360; // the longest side of the plot, in CSS pixels (it shrinks with a narrow column)

// px between the centres of two tick labels: rows (0.7rem text, line-height 1, with room between),
// and columns, whose labels stand side by side ("128" is about 17 px wide)
export const MIN_TICK_GAP = { rows: 16, cols: 26 };
const TICK_STEPS = [1, 2, 4, 8, 16, 32, 64, 128];

/**
 * Tick positions (0-based) for `count` rows or columns drawn `length` px long: 1, then every
 * `step` up to the last, at most about nine, and never two closer than `gap` px — at
 * d_k = 256 a W_Q of 24 rows is a few dozen px tall, and a tick on every fourth row would write
 * its labels over one another.
 */
export function ticks(count, length = Infinity, gap = MIN_TICK_GAP.rows) {
  const pixels = length / count; // per row (column)
  const step = TICK_STEPS.find((s) => count / s <= 9 && s * pixels >= gap) ?? TICK_STEPS.at(-1);
  const apart = (a, b) => (a - b) * pixels >= gap;
  const out = [0];
  for (let k = step - 1; k < count; k += step) if (k > 0 && apart(k, out.at(-1))) out.push(k);
  // The last row (column) is named too, in place of a tick too close before it.
  const last = count - 1;
  if (last > 0 && out.at(-1) !== last) {
    if (out.length > 1 && !apart(last, out.at(-1))) out.pop();
    if (apart(last, out.at(-1))) out.push(last);
  }
  return out;
}

/** An axis of tick labels; .set(length) places them for the plot's length in px (ticks). */
function axis(className, count, labels, gap, place) {
  const el = h('div', { class: className, 'aria-hidden': 'true' });
  let shown = '';
  const set = (length) => {
    const at = ticks(count, length, gap);
    if (at.join() === shown) return;
    shown = at.join();
    el.replaceChildren(
      ...at.map((k) => {
        const tick = h('span', {}, labels?.[k] ?? String(k + 1));
        place(tick.style, `${((k + 0.5) / count) * 100}%`);
        return tick;
      }),
    );
  };
  return { el, set };
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
  const cols = axis('hm-cols', matrix.cols, spec.colLabels, MIN_TICK_GAP.cols, (style, at) => {
    style.left = at;
  });
  const rows = axis('hm-rows', matrix.rows, spec.rowLabels, MIN_TICK_GAP.rows, (style, at) => {
    style.top = at;
  });
  // Ticks for the plot's size as drawn, not as asked for: a narrow column shrinks the canvas.
  cols.set(matrix.cols * cell);
  rows.set(matrix.rows * cell);
  if (typeof ResizeObserver !== 'undefined')
    new ResizeObserver(([entry]) => {
      const { inlineSize, blockSize } = entry.contentBoxSize?.[0] ?? {};
      if (!inlineSize || !blockSize) return; // not laid out (a kept pane, a hidden lab)
      cols.set(inlineSize);
      rows.set(blockSize);
    }).observe(canvas);
  const el = h(
    'div',
    { class: 'heatmap-box' },
    h(
      'div',
      { class: 'hm-grid' },
      spec.blocks ? blockStrips(matrix.cols, spec.blocks, true) : null,
      cols.el,
      rows.el,
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
  // An edit repaints the rows whose values changed (row-painter.js): of V, one row for an edit of X.
  const paint = context ? rowPainter(context, matrix.rows, matrix.cols) : null;
  let ramp = null; // the colour bar's gradient on the page
  function update(next, v) {
    const scale = scaleFor(next.matrix.data, next.kind);
    paint?.(next.matrix.data, scale, v.theme);
    const format = matrixFormat(next.matrix.data, v.digits);
    // Written only when they change (an edit mostly keeps a matrix's scale): a text written again,
    // even the same, is laid out again (dom.js setText).
    const gradient = gradientCss(scale.kind, v.theme);
    if (gradient !== ramp) bar.style.background = ramp = gradient;
    setText(low, format(scale.kind === 'seq' ? 0 : -scale.max));
    setText(mid, scale.kind === 'seq' ? '' : '0');
    setText(high, format(scale.max));
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
