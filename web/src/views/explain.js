// The explanation panel: one score or weight (i, j) expanded with the live numbers,
//   q_i ⊙ k_j term by term → Σ → ÷ √d_k → exp(x − max_i) → ÷ row sum = A_ij.
// Every number after the products is read from the core's intermediates; the products are
// only written out (a·b) so the reader can check the sum by hand. Render only.

import { h } from './dom.js';
import { formatNumber } from '../format.js';
import { at } from '../matrix.js';

const DIVISOR_TEXT = { sqrt_dk: (dk) => `√${dk}`, dk: (dk) => String(dk), none: () => '1' };
const DIVISOR_VALUE = { sqrt_dk: Math.sqrt, dk: (dk) => dk, none: () => 1 };

const sub = (base, index) => h('span', { class: 'sym' }, h('var', {}, base), h('sub', {}, index));
const row = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));

/** Renders the expansion of cell (i, j) (0-based) into root, or the hint when cell is null. */
export function renderExplain(root, { state, model, t, cell, tokens }) {
  const title = h('h3', {}, t('explain.title'));
  if (!cell || !model) {
    root.replaceChildren(title, h('p', { class: 'hint' }, t('explain.hint')));
    return;
  }
  const { i, j } = cell;
  const f = (x) => formatNumber(x, state.digits);
  const [I, J] = [i + 1, j + 1];
  const byColumn = state.axis === 'column';
  const dk = model.q.cols;
  const q = row(model.q, i);
  const k = row(model.k, j);
  const masked = state.mask === 'causal' && j > i;
  const reduceIndex = byColumn ? j : i;
  const max = model.rowMax.data[reduceIndex];
  const sum = model.rowSum.data[reduceIndex];
  const scaled = at(model.scaled, i, j);
  const tau = state.temperature !== 1 ? ` ÷ ${f(state.temperature)}` : '';

  const lines = [
    [t('explain.dot'), h('span', {}, sub('q', I), ' ⊙ ', sub('k', J), ' = [',
      q.map((a, x) => `${f(a)}×${f(k[x])}`).join(', '), '] = [', q.map((a, x) => f(Math.fround(a * k[x]))).join(', '), ']')],
    [t('explain.sum'), h('span', {}, sub('S', `${I}${J}`), ' = ', q.map((a, x) => f(Math.fround(a * k[x]))).join(' + '), ' = ',
      h('strong', {}, f(at(model.scores, i, j))))],
    [t('explain.scale'), h('span', {}, f(at(model.scores, i, j)), ` ÷ ${DIVISOR_TEXT[state.scale](dk)}`,
      state.scale === 'sqrt_dk' ? ` (≈ ${f(DIVISOR_VALUE.sqrt_dk(dk))})` : '', tau, ' = ', h('strong', {}, f(scaled)))],
  ];
  if (masked) {
    lines.push(['', h('span', { class: 'masked-note' }, t('explain.masked'))]);
  } else {
    const maxLabel = byColumn ? t('explain.maxOfColumn', { j: J }) : t('explain.maxOf', { i: I });
    lines.push(state.softmax === 'stable'
      ? [t('explain.exp'), h('span', {}, `exp(${f(scaled)} − ${f(max)}) = `, h('strong', {}, f(at(model.exps, i, j))), h('span', { class: 'aside' }, ` (${maxLabel} = ${f(max)})`))]
      : [t('explain.expNaive'), h('span', {}, `exp(${f(scaled)}) = `, h('strong', {}, f(at(model.exps, i, j))))]);
  }
  const sumLabel = byColumn ? t('explain.sumOfColumn', { j: J }) : t('explain.sumOf', { i: I });
  lines.push([t(byColumn ? 'explain.normColumn' : 'explain.norm'), h('span', {},
    `${f(at(model.exps, i, j))} ÷ ${f(sum)} = `, sub('A', `${I}${J}`), ' = ', h('strong', { class: 'result' }, f(at(model.weights, i, j))),
    h('span', { class: 'aside' }, ` (${sumLabel} = ${f(sum)})`))]);

  root.replaceChildren(
    title,
    h('p', { class: 'explain-heading' }, tokens
      ? t('explain.headingWords', { i: tokens[i], j: tokens[j] })
      : t('explain.heading', { i: I, j: J })),
    h('p', { class: 'vectors' }, sub('q', I), ' = [', q.map(f).join(', '), ']  ', sub('k', J), ' = [', k.map(f).join(', '), ']'),
    h('ol', { class: 'expansion', dataset: { i, j } }, lines.map(([label, body]) => h('li', {}, label ? h('span', { class: 'label' }, label) : null, body))),
  );
}

/** Marks row i of Q, row j of K and the chosen cell in every matrix on screen (class toggles only). */
export function highlightCell(stage, cell) {
  for (const el of stage.querySelectorAll('.hl-row, .hl-cell')) el.classList.remove('hl-row', 'hl-cell');
  if (!cell) return;
  for (const fig of stage.querySelectorAll('figure.matrix')) {
    const name = fig.dataset.name;
    const rowIndex = name === 'q' ? cell.i : name === 'k' ? cell.j : null;
    if (rowIndex !== null) fig.querySelector(`tbody tr[data-i="${rowIndex}"]`)?.classList.add('hl-row');
    fig.querySelector(`td.pick[data-i="${cell.i}"][data-j="${cell.j}"]`)?.classList.add('hl-cell');
  }
}

