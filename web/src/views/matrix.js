// One matrix on screen: its name and shape, its values as text in a table, coloured as a heatmap.
// Larger than TABLE_LIMIT in either direction, it becomes a canvas heatmap without numbers.
// Render only. A rendered matrix can be refreshed in place with new values of the same shape,
// which is what an edit needs: no DOM is rebuilt, and fixed cell widths keep the layout still.

import { h, shapeLabel } from './dom.js';
import { formatNumber } from '../format.js';
import { cellColors, cellBackground, scaleFor } from '../colors.js';
import { TABLE_LIMIT } from '../state.js';

/**
 * spec: { id, name (node), label (the name as plain text), caption, matrix, kind: 'seq'|'div', rowLabels, colLabels,
 *         side?: { label, values, kind }  (one value beside each row, e.g. the row max),
 *         foot?: { label, values, kind }  (one value under each column),
 *         pick?: 'score' | 'output' (cells open the explanation panel for that kind of number),
 *         masked?: (i, j) => bool }
 * view:  { digits, theme, t }
 * Returns { el, update(spec, view) }; update takes a spec of the same shape and options.
 */
export function renderMatrix(spec, view) {
  const { matrix } = spec;
  const label = h('figcaption', {}, shapeLabel(spec.name, matrix.rows, matrix.cols),
    spec.caption ? h('span', { class: 'caption' }, spec.caption) : null);
  const large = matrix.rows > TABLE_LIMIT || matrix.cols > TABLE_LIMIT;
  const body = large ? heatmap(spec, view) : table(spec, view);
  const el = h('figure', { class: 'matrix', id: spec.id ? `m-${spec.id}` : null, dataset: { name: spec.id ?? '' } }, label, body.el);
  return { el, update: body.update };
}

/** Writes one value into one cell: text, background and a readable text colour. */
function paint(td, value, scale, { digits, theme }) {
  const text = formatNumber(value, digits);
  if (td.textContent !== text) td.textContent = text;
  const { bg, fg } = cellColors(value, scale, theme);
  const style = `background:${bg};color:${fg}`;
  if (td.dataset.paint !== style) { td.style.cssText = style; td.dataset.paint = style; }
}

function table(spec, view) {
  const { matrix, side, foot } = spec;
  const head = h('tr', {}, h('td', { class: 'corner' }),
    Array.from({ length: matrix.cols }, (_, j) => h('th', { scope: 'col' }, spec.colLabels?.[j] ?? String(j + 1))),
    side ? h('th', { scope: 'col', class: 'side-head' }, side.label) : null);
  const cells = [];      // the <td>s of the values that are not masked…
  const cellIndex = [];  // …and where each one's value sits in matrix.data
  const sideCells = [];
  const footCells = [];
  const rows = [];
  for (let i = 0; i < matrix.rows; i++) {
    const tds = [];
    for (let j = 0; j < matrix.cols; j++) {
      const masked = spec.masked?.(i, j) ?? false;
      const td = h('td', {
        class: `c${spec.pick ? ' pick' : ''}${masked ? ' masked' : ''}`,
        dataset: spec.pick ? { i, j, pick: spec.pick } : { i, j },
        tabindex: spec.pick ? (i === 0 && j === 0 ? '0' : '-1') : null,
        title: masked ? view.t('mat.masked') : null,
      });
      if (masked) td.textContent = formatNumber(matrix.data[i * matrix.cols + j], view.digits);
      else { cells.push(td); cellIndex.push(i * matrix.cols + j); }
      tds.push(td);
    }
    if (side) sideCells.push(h('td', { class: 'c side' }));
    rows.push(h('tr', { dataset: { i } }, h('th', { scope: 'row' }, spec.rowLabels?.[i] ?? String(i + 1)), tds, side ? sideCells[i] : null));
  }
  if (foot) {
    for (let j = 0; j < matrix.cols; j++) footCells.push(h('td', { class: 'c side' }));
    rows.push(h('tr', { class: 'foot' }, h('th', { scope: 'row' }, foot.label), footCells, side ? h('td', { class: 'corner' }) : null));
  }
  const el = h('div', { class: 'table-scroll' },
    h('table', { class: 'mat', 'aria-label': `${spec.label ?? ''} ${matrix.rows}×${matrix.cols}` }, h('thead', {}, head), h('tbody', {}, rows)));

  // What each cell shows now, so that an update repaints only the cells whose number or colour
  // scale changed (an edit of X leaves W_Q, W_K, W_V and most of Q, K, V as they were).
  const shown = new Float64Array(cells.length).fill(NaN);
  let shownScale = null;
  function update(next, v) {
    const scale = scaleFor(next.matrix.data, next.kind);
    const sameScale = shownScale && shownScale.max === scale.max && shownScale.kind === scale.kind && shownScale.digits === v.digits;
    cells.forEach((td, k) => {
      const value = next.matrix.data[cellIndex[k]];
      if (sameScale && Object.is(value, shown[k])) return;
      shown[k] = value;
      paint(td, value, scale, v);
    });
    shownScale = { ...scale, digits: v.digits };
    if (next.side) { const s = scaleFor(next.side.values, next.side.kind ?? 'seq'); sideCells.forEach((td, i) => paint(td, next.side.values[i], s, v)); }
    if (next.foot) { const s = scaleFor(next.foot.values, next.foot.kind ?? 'seq'); footCells.forEach((td, j) => paint(td, next.foot.values[j], s, v)); }
  }
  update(spec, view);
  return { el, update };
}

function heatmap(spec, view) {
  const { matrix } = spec;
  const size = Math.max(6, Math.floor(480 / Math.max(matrix.rows, matrix.cols)));
  const message = view.t('mat.heatmapOnly', { rows: matrix.rows, cols: matrix.cols });
  const canvas = h('canvas', {
    class: `heatmap${spec.pick ? ' pick' : ''}`, width: matrix.cols * size, height: matrix.rows * size, role: 'img',
    'aria-label': `${spec.label ?? ''} ${message}`.trim(), dataset: { rows: matrix.rows, cols: matrix.cols, pick: spec.pick ?? '' },
  });
  // One pixel per value in a small bitmap, then scaled up without smoothing: sharp cells, fast.
  const pixels = h('canvas', { width: matrix.cols, height: matrix.rows });
  function update(next, v) {
    const small = pixels.getContext('2d');
    const ctx = canvas.getContext('2d');
    if (!small || !ctx) return;
    const scale = scaleFor(next.matrix.data, next.kind);
    const image = small.createImageData(next.matrix.cols, next.matrix.rows);
    next.matrix.data.forEach((value, k) => {
      image.data.set(cellBackground(value, scale, v.theme), 4 * k);
      image.data[4 * k + 3] = 255;
    });
    small.putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(pixels, 0, 0, canvas.width, canvas.height);
  }
  update(spec, view);
  return { el: h('div', { class: 'heatmap-wrap' }, canvas, h('p', { class: 'note' }, message)), update };
}
