// The one-number expansion: a score or weight (i, j), an output (i, c), or with heads an output
// of multi-head attention (i, j), written out as the article computes it, with the live numbers
// substituted (MathML, views/math.js):
//   S_ij = q_i · k_j = Σ_t q_it·k_jt → x_ij = S_ij/√d_k → e_ij = exp(x_ij − max) → A_ij = e_ij/Σ_i
//   O_ij = Σ_t concat_it · (W_O)_tj
// Each kind of cell is one entry of KINDS: its heading, its lines, and what on the stage it is made of.
// Every number is read from the model (the core's intermediates) and written with the same
// per-matrix format as its cell on the stage, so the expansion agrees with the cell to the digit.
// Negative factors are bracketed; a sum of more than FOLD terms shows its first terms and a button
// for the rest. Render only; views/popover.js places it next to the cell.

import { h } from './dom.js';
import { matrixFormat, formatInput } from '../format.js';
import { at } from '../matrix.js';
import { math, mi, fn, mn, mo, msub, mfrac, mrow, num, paren, dk as dkSymbol } from './math.js';
import { markHeatmap } from './heatmap.js';
import { divisorNodes } from './names.js';
import { BACKWARD_KINDS } from './explain-backward.js';
import { row, pair, chain, products, line } from './explain-parts.js';

/** output_ic = Σ_j A_ij · v_jc (§6), every term written out. */
function outputLines({ state, model, t, cell, expanded, onExpand }) {
  const { i, j: c } = cell;
  const fa = matrixFormat(model.weights.data, state.digits);
  const fv = matrixFormat(model.v.data, state.digits);
  const fo = matrixFormat(model.output.data, state.digits);
  const factors = Array.from({ length: model.weights.cols }, (_, j) => [
    fa(at(model.weights, i, j)),
    fv(at(model.v, j, c)),
  ]);
  const ic = pair(i + 1, c + 1, state.n);
  return [
    line(
      t('explain.outputTerms'),
      chain(
        [msub(paren(mi('A'), mi('V')), ic)],
        [mo('∑', { largeop: 'false' }), msub(mi('A'), mi(`${i + 1}j`)), msub(mi('v'), mi(`j${c + 1}`))],
        ...products(factors, { expanded, onExpand, t }),
        [mn(fo(at(model.output, i, c)))],
      ),
    ),
  ];
}

/** O_ij = Σ_t concat_it · (W_O)_tj (multi-head attention's output projection), every term written out. */
function projectionLines({ state, model, t, cell, expanded, onExpand }) {
  const { i, j } = cell;
  const [fc, fw, fo] = [model.concat, model.wo, model.projected].map((m) => matrixFormat(m.data, state.digits));
  const factors = Array.from({ length: model.concat.cols }, (_, k) => [
    fc(at(model.concat, i, k)),
    fw(at(model.wo, k, j)),
  ]);
  const wo = (sub) => msub(mi('W'), mrow(mi('O'), mo(','), mi(sub)));
  return [
    line(
      t('explain.projectionTerms'),
      chain(
        [msub(mi('O'), pair(i + 1, j + 1, state.n))],
        [mo('∑', { largeop: 'false' }), msub(mi('concat'), mi(`${i + 1}t`)), wo(`t${j + 1}`)],
        ...products(factors, { expanded, onExpand, t }),
        [mn(fo(at(model.projected, i, j)))],
      ),
    ),
  ];
}

/** The scaling as the options make it: S_ij/√d_k, S_ij/d_k or S_ij, then ·τ in the denominator. */
function scaledFraction(top, { state, dkValue, temperature }) {
  const tau = state.temperature !== 1 ? [mo('·'), temperature] : [];
  const divisor = divisorNodes(state.scale, dkValue);
  if (!divisor.length) return tau.length ? mfrac(top, mrow(...tau.slice(1))) : top;
  return mfrac(top, mrow(...divisor, ...tau));
}

/**
 * What every line of a score's expansion needs: the cell's numbers formatted as their matrices
 * on the stage, and factories for its symbols (a DOM node stands in one place only, and S_ij
 * appears on two lines).
 */
function scoreParts({ state, model, cell }) {
  const { i, j } = cell;
  const ij = pair(i + 1, j + 1, state.n);
  const f = (name) => matrixFormat(model[name].data, state.digits);
  const format = Object.fromEntries(
    ['q', 'k', 'scores', 'scaled', 'shifted', 'exps', 'weights', 'rowMax', 'rowSum'].map((name) => [name, f(name)]),
  );
  const byColumn = state.axis === 'column';
  const reduceAt = byColumn ? j : i;
  return {
    i,
    j,
    byColumn,
    format,
    sum: format.rowSum(model.rowSum.data[reduceAt]),
    max: format.rowMax(model.rowMax.data[reduceAt]),
    S: () => msub(mi('S'), ij),
    x: () => msub(mi('x'), ij),
    e: () => msub(mi('e'), ij),
    A: () => msub(mi('A'), ij),
    sumName: () => msub(mo('Σ'), mi(String(reduceAt + 1))),
    // max over the softmax's axis: max_j′ x_ij′ along a row, max_i′ x_i′j along a column
    maxOf: () =>
      byColumn
        ? [msub(fn('max'), mi('i′')), msub(mi('x'), mi(`i′${j + 1}`))]
        : [msub(fn('max'), mi('j′')), msub(mi('x'), mi(`${i + 1}j′`))],
  };
}

/** S_ij = q_i · k_j = Σ_t q_it·k_jt, every term written out. */
function dotLine({ model, t, expanded, onExpand }, p) {
  const q = row(model.q, p.i);
  const k = row(model.k, p.j);
  return line(
    t('explain.dot'),
    chain(
      [p.S()],
      [msub(mi('q'), String(p.i + 1)), mo('·'), msub(mi('k'), String(p.j + 1))],
      ...products(
        q.map((a, index) => [p.format.q(a), p.format.k(k[index])]),
        { expanded, onExpand, t },
      ),
      [mn(p.format.scores(at(model.scores, p.i, p.j)))],
    ),
  );
}

/** The mask acts after the scaling: the score is set to −∞, whatever it was (the core's `kept`). */
function maskedLines({ model, t }, p) {
  return [
    line(t('explain.maskedScore', { i: p.i + 1, j: p.j + 1 }), chain([p.x()], [mn('−∞')])),
    line(t('explain.maskedExp'), chain([p.e()], [fn('exp'), paren(mn('−∞'))], [mn('0')])),
    line(
      t('explain.maskedWeight'),
      chain(
        [p.A()],
        [mfrac(p.e(), p.sumName())],
        [mfrac(mn('0'), mn(p.sum))],
        [mn(p.format.weights(at(model.weights, p.i, p.j)))],
      ),
    ),
  ];
}

/** x_ij = S_ij / (√d_k · τ) with the numbers. */
function scaleLine({ state, model, t }, p) {
  const xValue = p.format.scaled(at(model.scaled, p.i, p.j));
  const numbers = { state, dkValue: () => mn(String(model.q.cols)), temperature: mn(formatInput(state.temperature)) };
  return line(
    t('explain.scale'),
    state.scale === 'none' && state.temperature === 1
      ? chain([p.x()], [p.S()], [mn(xValue)])
      : chain(
          [p.x()],
          [scaledFraction(p.S(), { state, dkValue: dkSymbol, temperature: mi('τ') })],
          [scaledFraction(mn(p.format.scores(at(model.scores, p.i, p.j))), numbers)],
          [mn(xValue)],
        ),
  );
}

/** e_ij = exp(x_ij − max) (or exp(x_ij) for the naive softmax), then A_ij = e_ij / Σ. */
function softmaxLines({ state, model, t }, p) {
  const xValue = p.format.scaled(at(model.scaled, p.i, p.j));
  const exp = mn(p.format.exps(at(model.exps, p.i, p.j)));
  const expLine =
    state.softmax === 'stable'
      ? line(
          t(p.byColumn ? 'explain.expColumn' : 'explain.exp'),
          chain(
            [p.e()],
            [fn('exp'), paren(p.x(), mo('−'), ...p.maxOf())],
            [fn('exp'), paren(num(xValue), mo('−'), num(p.max, { bracketNegative: true }))],
            [fn('exp'), paren(num(p.format.shifted(at(model.shifted, p.i, p.j))))],
            [exp],
          ),
        )
      : line(t('explain.expNaive'), chain([p.e()], [fn('exp'), paren(p.x())], [fn('exp'), paren(num(xValue))], [exp]));
  const normLine = line(
    t(p.byColumn ? 'explain.normColumn' : 'explain.norm'),
    chain(
      [p.A()],
      [mfrac(p.e(), p.sumName())],
      [mfrac(mn(p.format.exps(at(model.exps, p.i, p.j))), mn(p.sum))],
      [mn(p.format.weights(at(model.weights, p.i, p.j)))],
    ),
  );
  return [expLine, normLine];
}

/** A score or weight (i, j), from the dot product to the weight (§3–§5). */
function scoreLines(ctx) {
  const p = scoreParts(ctx);
  const masked = at(ctx.model.kept, p.i, p.j) === 0; // the core's mask: 0 = masked
  return [dotLine(ctx, p), ...(masked ? maskedLines(ctx, p) : [scaleLine(ctx, p), ...softmaxLines(ctx, p)])];
}

/**
 * The kinds of cell that expand (steps.js FIGURE `pick`): the popover's heading (`word(k)` names
 * row k), its lines, and what each matrix on the stage contributes — the row (`row`) and column
 * (`col`) of it the number is made of, by figure name.
 */
const KINDS = {
  score: {
    heading: ({ t, cell, tokens }) =>
      tokens
        ? t('explain.headingWords', { i: tokens[cell.i], j: tokens[cell.j] })
        : t('explain.heading', { i: cell.i + 1, j: cell.j + 1 }),
    lines: (ctx) => scoreLines(ctx),
    madeOf: { q: (c) => ({ row: c.i }), k: (c) => ({ row: c.j }) },
  },
  output: {
    heading: ({ t, cell }, word) => t('explain.outputHeading', { i: word(cell.i), c: cell.j + 1 }),
    lines: (ctx) => outputLines(ctx),
    madeOf: { weights: (c) => ({ row: c.i }), v: (c) => ({ col: c.j }) },
  },
  projection: {
    heading: ({ t, cell }, word) => t('explain.projectionHeading', { i: word(cell.i), c: cell.j + 1 }),
    lines: (ctx) => projectionLines(ctx),
    madeOf: { concat: (c) => ({ row: c.i }), wo: (c) => ({ col: c.j }) },
  },
  // The backward steps' cells (views/explain-backward.js): dO, dV, dA, dZ, dS, dQ, dK, dW.
  ...BACKWARD_KINDS,
};

/**
 * Fills the popover `root` for `cell` ({ i, j, kind: a KINDS key }, 0-based). ctx: { state,
 * model, t, cell, tokens, expanded (all terms shown), onExpand(), onClose() }.
 */
export function renderExplain(root, ctx) {
  const { state, t, cell, tokens, onClose } = ctx;
  const word = (k) => (tokens ? `“${tokens[k]}”` : String(k + 1));
  const heading = KINDS[cell.kind].heading(ctx, word);
  root.replaceChildren(
    h(
      'div',
      { class: 'popover-head' },
      h('h3', { id: 'explain-title' }, heading),
      h(
        'button',
        {
          type: 'button',
          class: 'popover-close',
          id: 'explain-close',
          'aria-label': t('explain.close'),
          onclick: onClose,
        },
        '×',
      ),
    ),
    h('ol', { class: 'expansion', dataset: { i: cell.i, j: cell.j, kind: cell.kind } }, KINDS[cell.kind].lines(ctx)),
    state.digits < 6 ? h('p', { class: 'hint' }, t('explain.rounding')) : null,
  );
}

/**
 * Marks what the chosen number is made of (class toggles only, KINDS' madeOf): for a score or
 * weight (i, j), row i of Q and row j of K; for an output (i, c), row i of A and column c of V;
 * for a multi-head output (i, j), row i of concat and column j of W_O. `row` is the
 * word whose row is selected everywhere (views/mixing.js), or null.
 */
export function highlight(stage, { cell, row }) {
  for (const el of stage.querySelectorAll('.hl-row, .hl-cell, .hl-col, .sel-row'))
    el.classList.remove('hl-row', 'hl-cell', 'hl-col', 'sel-row');
  const madeOf = cell ? KINDS[cell.kind].madeOf : {};
  for (const fig of stage.querySelectorAll('figure.matrix')) {
    const name = fig.dataset.name;
    if (row !== null && fig.dataset.tokenRows) fig.querySelector(`tbody tr[data-i="${row}"]`)?.classList.add('sel-row');
    const picked = cell && fig.querySelector(`[data-pick="${cell.kind}"]`) ? cell : null;
    markHeatmap(fig, { cell: picked, row: fig.dataset.tokenRows ? row : null });
    if (!cell) continue;
    const part = madeOf[name]?.(cell) ?? {};
    if (part.row !== undefined) fig.querySelector(`tbody tr[data-i="${part.row}"]`)?.classList.add('hl-row');
    if (part.col !== undefined)
      for (const td of fig.querySelectorAll(`td.c[data-j="${part.col}"]`)) td.classList.add('hl-col');
    fig.querySelector(`td[data-pick="${cell.kind}"][data-i="${cell.i}"][data-j="${cell.j}"]`)?.classList.add('hl-cell');
  }
}
