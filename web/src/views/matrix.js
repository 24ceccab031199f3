// One matrix on screen: its name and shape, its values as text in a table, coloured as a heatmap.
// Larger than TABLE_LIMIT in either direction, it becomes a canvas heatmap without numbers.
// Render only: it reads the matrix and draws it.

import { h, shapeLabel } from './dom.js';
import { formatNumber } from '../format.js';
import { cellColors, scaleFor } from '../colors.js';
import { TABLE_LIMIT } from '../state.js';

/**
 * spec: { id, name (node), label (the name as plain text), caption, matrix, kind: 'seq'|'div', rowLabels, colLabels,
 *         side?: { label, values }  (one value beside each row, e.g. the row max),
 *         foot?: { label, values }  (one value under each column),
 *         pick?: true (cells open the explanation panel), masked?: (i, j) => bool }
 * view:  { digits, theme, t }
 */
export function renderMatrix(spec, view) {
  const { matrix } = spec;
  const label = h('figcaption', {}, shapeLabel(spec.name, matrix.rows, matrix.cols),
    spec.caption ? h('span', { class: 'caption' }, spec.caption) : null);
  const large = matrix.rows > TABLE_LIMIT || matrix.cols > TABLE_LIMIT;
  const body = large ? renderHeatmap(spec, view) : renderTable(spec, view);
  return h('figure', { class: 'matrix', id: spec.id ? `m-${spec.id}` : null, dataset: { name: spec.id ?? '' } }, label, body);
}

function renderTable(spec, { digits, theme, t }) {
  const { matrix, side, foot } = spec;
  const scale = scaleFor(matrix.data, spec.kind);
  const sideScale = side && scaleFor(side.values, 'seq');
  const head = h('tr', {}, h('td', { class: 'corner' }),
    Array.from({ length: matrix.cols }, (_, j) => h('th', { scope: 'col' }, spec.colLabels?.[j] ?? String(j + 1))),
    side ? h('th', { scope: 'col', class: 'side-head' }, side.label) : null);
  const rows = [];
  for (let i = 0; i < matrix.rows; i++) {
    const cells = [];
    for (let j = 0; j < matrix.cols; j++) {
      const value = matrix.data[i * matrix.cols + j];
      const masked = spec.masked?.(i, j) ?? false;
      const { bg, fg } = cellColors(value, scale, theme);
      cells.push(h('td', {
        class: `c${spec.pick ? ' pick' : ''}${masked ? ' masked' : ''}`,
        dataset: { i, j },
        tabindex: spec.pick ? (i === 0 && j === 0 ? '0' : '-1') : null,
        title: masked ? t('mat.masked') : null,
        style: masked ? null : { background: bg, color: fg },
      }, formatNumber(value, digits)));
    }
    let sideCell = null;
    if (side) {
      const { bg, fg } = cellColors(side.values[i], sideScale, theme);
      sideCell = h('td', { class: 'c side', style: { background: bg, color: fg } }, formatNumber(side.values[i], digits));
    }
    rows.push(h('tr', { dataset: { i } }, h('th', { scope: 'row' }, spec.rowLabels?.[i] ?? String(i + 1)), cells, sideCell));
  }
  let footRow = null;
  if (foot) {
    const footScale = scaleFor(foot.values, 'seq');
    footRow = h('tr', { class: 'foot' }, h('th', { scope: 'row' }, foot.label),
      Array.from(foot.values, (value) => {
        const { bg, fg } = cellColors(value, footScale, theme);
        return h('td', { class: 'c side', style: { background: bg, color: fg } }, formatNumber(value, digits));
      }),
      side ? h('td', { class: 'corner' }) : null);
  }
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'mat', 'aria-label': `${spec.label ?? ''} ${matrix.rows}×${matrix.cols}` }, h('thead', {}, head), h('tbody', {}, rows, footRow)));
}

function renderHeatmap(spec, { theme, t }) {
  const { matrix } = spec;
  const scale = scaleFor(matrix.data, spec.kind);
  const cell = Math.max(4, Math.floor(320 / Math.max(matrix.rows, matrix.cols)));
  const canvas = h('canvas', {
    class: 'heatmap', width: matrix.cols * cell, height: matrix.rows * cell, role: 'img',
    'aria-label': `${spec.label ?? ''} ${t('mat.heatmapOnly', { rows: matrix.rows, cols: matrix.cols })}`.trim(),
  });
  const ctx = canvas.getContext('2d');
  if (ctx) {
    for (let i = 0; i < matrix.rows; i++) {
      for (let j = 0; j < matrix.cols; j++) {
        ctx.fillStyle = cellColors(matrix.data[i * matrix.cols + j], scale, theme).bg;
        ctx.fillRect(j * cell, i * cell, cell, cell);
      }
    }
  }
  return h('div', { class: 'heatmap-wrap' }, canvas, h('p', { class: 'note' }, t('mat.heatmapOnly', { rows: matrix.rows, cols: matrix.cols })));
}
