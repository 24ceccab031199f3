// The exercise's figures (exercise-view.js): Q, K and V as the stepper draws them, the rows the
// question uses marked, then the matrix asked about, empty but for a "?" in the cell asked for.

import { h } from '../../views/dom.js';
import { scrollCue } from '../../views/scroll-cue.js';
import { math } from '../../views/math.js';
import { shapeMath } from '../../views/names.js';
import { renderMatrix } from '../../views/matrix.js';
import { matrixName } from './exercise-math.js';
import { KIND_OF } from '../../colors.js';
import { fromRows } from '../../matrix.js';
import { TABLE_LIMIT } from '../../state.js';
import { cellName } from './exercise.js';

/** The matrix the question is about, empty but for a "?" in the cell asked for (small ones only). */
function unknownGrid(question, t) {
  const { kind, i, j, example } = question;
  const rows = example.q.length,
    cols = kind === 'output' ? example.v[0].length : example.k.length;
  if (rows > TABLE_LIMIT || cols > TABLE_LIMIT) return null;
  const nameText = cellName(question).replace(/[₀-₉,]+/g, ''); // S, S/√2, A, (AV)
  const nameMath = math(matrixName(kind, example.q[0].length), { label: nameText });
  const head = h(
    'tr',
    {},
    h('td', { class: 'corner' }),
    Array.from({ length: cols }, (_, c) => h('th', { scope: 'col' }, String(c + 1))),
  );
  const body = Array.from({ length: rows }, (_, r) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, String(r + 1)),
      Array.from({ length: cols }, (_, c) =>
        r === i && c === j ? h('td', { class: 'c ex-cell hl-cell' }, '?') : h('td', { class: 'c ex-blank' }),
      ),
    ),
  );
  const label = t('ex.unknownLabel', { name: `${nameText} ${rows}×${cols}`, cell: cellName(question) });
  return h(
    'figure',
    { class: 'matrix ex-unknown' },
    h('figcaption', {}, h('span', { class: 'name' }, nameMath), h('span', { class: 'caption' }, t('ex.unknown'))),
    scrollCue(
      h(
        'div',
        { class: 'table-scroll' },
        h('table', { class: 'mat', 'aria-label': label }, h('thead', {}, head), h('tbody', {}, body)),
      ),
    ),
  );
}

/** One of the inputs Q, K, V (`id` 'q', 'k', 'v') as the stepper draws it. */
function inputFigure(id, rows, { state, t, theme }) {
  const matrix = fromRows(rows);
  return renderMatrix(
    {
      id: `ex-${id}`,
      name: shapeMath(id, state, matrix.rows, matrix.cols),
      label: id.toUpperCase(),
      caption: t(`mat.${id}`),
      matrix,
      kind: KIND_OF[id],
    },
    { digits: 4, theme, t },
  ).el;
}

/** The figures: { el, draw(key, question, ctx) }, drawn again only for another question, theme or language. */
export function createFigures() {
  const el = h('div', { class: 'ex-figures' });
  let drawn = ''; // what the matrices were drawn for

  function draw(key, question, ctx) {
    const drawing = `${key}|${ctx.theme}|${ctx.state.lang}`;
    if (drawing === drawn) return;
    drawn = drawing;
    const { kind, i, j, example } = question;
    const q = inputFigure('q', example.q, ctx),
      k = inputFigure('k', example.k, ctx),
      v = inputFigure('v', example.v, ctx);
    const markRow = (fig, row) => fig.querySelector(`tbody tr[data-i="${row}"]`)?.classList.add('hl-row');
    markRow(q, i);
    if (kind === 'score' || kind === 'scaled') markRow(k, j);
    if (kind === 'output') for (const td of v.querySelectorAll(`td.c[data-j="${j}"]`)) td.classList.add('hl-col');
    const unknown = unknownGrid(question, ctx.t); // none for a matrix too large to draw as a table
    el.replaceChildren(h('div', { class: 'ex-inputs' }, q, k, v), ...(unknown ? [unknown] : []));
  }
  return { el, draw };
}
