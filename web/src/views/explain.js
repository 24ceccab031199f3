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

/** output_ic = Σ_j A_ij · v_jc (§6), with every term written out. */
function renderOutput(root, title, { state, model, t, cell, tokens }) {
  const { i, j: c } = cell;
  const f = (x) => formatNumber(x, state.digits);
  const terms = Array.from({ length: model.weights.cols }, (_, j) => [at(model.weights, i, j), at(model.v, j, c)]);
  root.replaceChildren(
    title,
    h('p', { class: 'explain-heading' }, t('explain.outputHeading', { i: tokens ? `“${tokens[i]}”` : i + 1, c: c + 1 })),
    h('ol', { class: 'expansion', dataset: { i, j: c, kind: 'output' } },
      h('li', {}, h('span', { class: 'label' }, t('explain.outputTerms')),
        h('span', {}, terms.map(([a, v]) => `${f(a)}×${f(v)}`).join(' + '))),
      h('li', {}, h('span', { class: 'label' }, t('explain.outputSum')),
        h('span', {}, sub('output', `${i + 1},${c + 1}`), ' = ', h('strong', { class: 'result' }, f(at(model.output, i, c)))))),
  );
}

/** Renders the expansion of cell (i, j) (0-based) into root, or the hint when cell is null. */
export function renderExplain(root, ctx) {
  const { state, model, t, cell, tokens } = ctx;
  const title = h('h3', {}, t('explain.title'));
  if (!cell || !model) {
    root.replaceChildren(title, h('p', { class: 'hint' }, t('explain.hint')));
    return;
  }
  if (cell.kind === 'output') {
    renderOutput(root, title, ctx);
    return;
  }
  const { i, j } = cell;
  const f = (x) => formatNumber(x, state.digits);
  const [I, J] = [i + 1, j + 1];
  const ij = state.n > 9 ? `${I},${J}` : `${I}${J}`; // S₁₂ reads well; S₁₁₂ would not: S₁,₁₂
  const byColumn = state.axis === 'column';
  const dk = model.q.cols;
  const q = row(model.q, i);
  const k = row(model.k, j);
  const masked = at(model.kept, i, j) === 0;  // the core's mask
  const reduceIndex = byColumn ? j : i;
  const max = model.rowMax.data[reduceIndex];
  const sum = model.rowSum.data[reduceIndex];
  const scaled = at(model.scaled, i, j);
  const tau = state.temperature !== 1 ? ` ÷ ${f(state.temperature)}` : '';

  const lines = [
    [t('explain.dot'), h('span', {}, sub('q', I), ' ⊙ ', sub('k', J), ' = [',
      q.map((a, x) => `${f(a)}×${f(k[x])}`).join(', '), '] = [', q.map((a, x) => f(Math.fround(a * k[x]))).join(', '), ']')],
    [t('explain.sum'), h('span', {}, sub('S', ij), ' = ', q.map((a, x) => f(Math.fround(a * k[x]))).join(' + '), ' = ',
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
    `${f(at(model.exps, i, j))} ÷ ${f(sum)} = `, sub('A', ij), ' = ', h('strong', { class: 'result' }, f(at(model.weights, i, j))),
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

/**
 * Marks what the chosen number is made of (class toggles only): for a score or weight (i, j),
 * row i of Q and row j of K; for an output (i, c), row i of A and column c of V.
 */
export function highlightCell(stage, cell) {
  for (const el of stage.querySelectorAll('.hl-row, .hl-cell, .hl-col')) el.classList.remove('hl-row', 'hl-cell', 'hl-col');
  if (!cell) return;
  const output = cell.kind === 'output';
  for (const fig of stage.querySelectorAll('figure.matrix')) {
    const name = fig.dataset.name;
    const rowIndex = output ? (name === 'weights' ? cell.i : null) : name === 'q' ? cell.i : name === 'k' ? cell.j : null;
    if (rowIndex !== null) fig.querySelector(`tbody tr[data-i="${rowIndex}"]`)?.classList.add('hl-row');
    if (output && name === 'v') for (const td of fig.querySelectorAll(`td.c[data-j="${cell.j}"]`)) td.classList.add('hl-col');
    fig.querySelector(`td[data-pick="${cell.kind}"][data-i="${cell.i}"][data-j="${cell.j}"]`)?.classList.add('hl-cell');
  }
}

