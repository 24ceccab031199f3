// One matrix on screen: its name and shape, its values as text in a table coloured as a heatmap,
// and beside it, set apart, the side column (row max, row sum) or foot row the step adds.
// Larger than TABLE_LIMIT in either direction, it becomes a canvas heatmap with axes and a
// numeric colour bar (views/heatmap.js). Render only. A rendered matrix can be refreshed in place
// with new values of the same shape, which is what an edit needs: no DOM is rebuilt, and fixed
// cell widths keep the layout still.

import { h } from './dom.js';
import { matrixFormat } from '../format.js';
import { cellStyle, scaleFor } from '../colors.js';
import { TABLE_LIMIT } from '../state.js';
import { renderHeatmap } from './heatmap.js';
import { scrollCue } from './scroll-cue.js';

/**
 * spec: { id, name (a <math>), label (plain text), caption, matrix, kind: 'seq'|'div',
 *         rowLabels?, colLabels?, tokenRows? (its rows are the sentence's words),
 *         side?: { head, title, values, name? } (one value beside each row, e.g. the row max;
 *                name: its symbol and shape, a <math>),
 *         foot?: { head, title, values, name? } (one value under each column),
 *         pick?: a kind of views/explain.js KINDS (its cells expand into the one-number popover),
 *         masked?: (i, j) => bool,
 *         blocks?, rowBlocks?: { width, colors, label(i) } (multi-head: its columns, or rows, in
 *           blocks of `width`, one per head, each marked in the head's colour and named) }
 * view:  { digits, theme, t }
 * Returns { el, update(spec, view) }; update takes a spec of the same shape and options.
 */
export function renderMatrix(spec, view) {
  const { matrix } = spec;
  const large = matrix.rows > TABLE_LIMIT || matrix.cols > TABLE_LIMIT;
  const body = large ? renderHeatmap(spec, view) : table(spec, view);
  const el = h(
    'figure',
    {
      class: `matrix${large ? ' large' : ''}`,
      id: `m-${spec.id}`,
      dataset: { name: spec.id, tokenRows: spec.tokenRows ? 'true' : null },
    },
    h(
      'figcaption',
      {},
      h('span', { class: 'name' }, spec.name),
      spec.caption ? h('span', { class: 'caption' }, spec.caption) : null,
      // the side column's or foot row's own shape (the row max m ∈ ℝ^{n×1})
      (spec.side ?? spec.foot)?.name
        ? h('span', { class: 'name side-name', title: (spec.side ?? spec.foot).title }, (spec.side ?? spec.foot).name)
        : null,
    ),
    body.el,
  );
  return { el, update: body.update };
}

/** The table's elements, and which of them the numbers go into. */
function buildTable(spec, view) {
  const { matrix, side, foot } = spec;
  const cells = []; // the <td>s of the values that are not masked…
  const cellIndex = []; // …and where each one's value sits in matrix.data
  const maskedCells = [];
  const sideCells = [];
  const footCells = [];
  const rows = [];
  for (let i = 0; i < matrix.rows; i++) {
    const tds = [];
    for (let j = 0; j < matrix.cols; j++) {
      // Plain DOM calls: a step at n = 16 builds over a thousand of these.
      const masked = spec.masked?.(i, j) ?? false;
      const td = document.createElement('td');
      td.className = `c${spec.pick ? ' pick' : ''}${masked ? ' masked' : ''}`;
      td.setAttribute('data-i', i);
      td.setAttribute('data-j', j);
      if (spec.pick) {
        td.setAttribute('data-pick', spec.pick);
        td.tabIndex = i === 0 && j === 0 ? 0 : -1;
      }
      if (masked) td.title = view.t('mat.masked');
      if (masked) maskedCells.push([td, i * matrix.cols + j]);
      else {
        cells.push(td);
        cellIndex.push(i * matrix.cols + j);
      }
      tds.push(td);
    }
    if (side) sideCells.push(h('td', { class: 'c side' }));
    const label = spec.rowLabels?.[i] ?? String(i + 1);
    // A row of words can be chosen with a click on its label (the word lines and the mix follow).
    const rowHead = h(
      'th',
      { scope: 'row' },
      spec.tokenRows
        ? h('button', { type: 'button', class: 'row-pick', tabindex: '-1', dataset: { row: i } }, label)
        : label,
    );
    rows.push(
      h(
        'tr',
        { dataset: { i } },
        rowHead,
        tds,
        side ? [h('td', { class: 'gap', 'aria-hidden': 'true' }), sideCells[i]] : null,
      ),
    );
  }
  if (foot) {
    for (let j = 0; j < matrix.cols; j++) footCells.push(h('td', { class: 'c side' }));
    rows.push(
      h(
        'tr',
        { class: 'foot' },
        h('th', { scope: 'row', title: foot.title }, foot.head),
        footCells,
        side ? h('td', { class: 'corner', colspan: 2 }) : null,
      ),
    );
  }
  const el = scrollCue(
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: 'mat', 'aria-label': `${spec.label ?? ''} ${matrix.rows}×${matrix.cols}` },
        h('thead', {}, spec.blocks ? blockHead(spec) : null, columnHead(spec)),
        h('tbody', {}, rows),
      ),
    ),
  );

  return { el, cells, cellIndex, maskedCells, sideCells, footCells };
}

/** The header row: the columns' numbers (or words), and the side column's head. */
function columnHead({ matrix, side, colLabels }) {
  return h(
    'tr',
    {},
    h('td', { class: 'corner' }),
    Array.from({ length: matrix.cols }, (_, j) => h('th', { scope: 'col' }, colLabels?.[j] ?? String(j + 1))),
    side
      ? [
          h('td', { class: 'gap', 'aria-hidden': 'true' }),
          h('th', { scope: 'col', class: 'side-head', title: side.title }, side.head),
        ]
      : null,
  );
}

/**
 * A header row over the columns that names each head's block ("头 1"), in its colour: the
 * colour shows which columns belong together, the words say which head they are.
 */
function blockHead({ matrix, blocks, side }) {
  const count = matrix.cols / blocks.width;
  return h(
    'tr',
    { class: 'head-blocks' },
    h('td', { class: 'corner' }),
    Array.from({ length: count }, (_, b) =>
      h(
        'th',
        {
          scope: 'colgroup',
          colspan: blocks.width,
          class: 'head-block',
          style: { color: blocks.colors[b], borderColor: blocks.colors[b] },
        },
        blocks.label(b),
      ),
    ),
    side ? h('td', { class: 'corner', colspan: 2 }) : null,
  );
}

/** Marks each head's block of rows (W_O's rows read one head's output each) in its colour. */
function markRowBlocks(el, blocks) {
  el.querySelectorAll('tbody tr').forEach((tr, i) => {
    const b = Math.floor(i / blocks.width);
    const th = tr.firstChild;
    th.style.borderLeft = `4px solid ${blocks.colors[b]}`;
    th.title = blocks.label(b);
    if (i % blocks.width === 0) th.classList.add('block-start');
  });
}

// Built apart from its update, so that the update (which a kept pane holds on to, views/panes.js)
// refers to the cells alone, not to the spec and the model it was built from.
function table(spec, view) {
  const { el, cells, cellIndex, maskedCells, sideCells, footCells } = buildTable(spec, view);
  if (spec.rowBlocks) markRowBlocks(el, spec.rowBlocks);
  // What each cell shows now, so that an update repaints only the cells whose number, format or
  // colour scale changed (an edit of X leaves W_Q, W_K, W_V and most of Q, K, V as they were).
  const shown = new Float64Array(cells.length).fill(NaN);
  const shownText = new Array(cells.length);
  const shownStyle = new Array(cells.length);
  let shownKey = '';
  function update(next, v) {
    const scale = scaleFor(next.matrix.data, next.kind);
    const format = matrixFormat(next.matrix.data, v.digits);
    const key = `${scale.kind}/${scale.max}/${v.digits}/${format(1)}/${v.theme}`;
    const same = key === shownKey;
    cells.forEach((td, k) => {
      const value = next.matrix.data[cellIndex[k]];
      if (same && Object.is(value, shown[k])) return;
      shown[k] = value;
      // Text, then background with a readable text colour, each written only when it changed, and
      // property by property (replacing the whole style attribute costs a style and layout pass).
      const text = format(value);
      const style = cellStyle(value, scale, v.theme);
      if (shownText[k] !== text) {
        td.textContent = text;
        shownText[k] = text;
      }
      if (shownStyle[k] !== style) {
        td.style.backgroundColor = style.bg;
        td.style.color = style.fg;
        shownStyle[k] = style;
      }
    });
    shownKey = key;
    for (const [td, index] of maskedCells) td.textContent = format(next.matrix.data[index]);
    // Side and foot values are read, not compared by colour: plain text on a neutral ground.
    const plain = (tds, values) => {
      const f = matrixFormat(values, v.digits);
      tds.forEach((td, k) => {
        td.textContent = f(values[k]);
      });
    };
    if (next.side) plain(sideCells, next.side.values);
    if (next.foot) plain(footCells, next.foot.values);
  }
  update(spec, view);
  return { el, update };
}
