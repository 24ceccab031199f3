// The one-number expansion: a score or weight (i, j), an output (i, c), or with heads an output
// of multi-head attention (i, j), written out as the article computes it, with the live numbers
// substituted (MathML, views/math.js):
//   S_ij = q_i · k_j = Σ_t q_it·k_jt → x_ij = S_ij/√d_k → e_ij = exp(x_ij − max) → A_ij = e_ij/Σ_i
//   O_ij = Σ_t concat_it · (W_O)_tj
//   Q_ij = Σ_t X_it·(W_Q)_tj (and K, V: the projections, mode "from X")
// Each kind of cell is one entry of KINDS: its heading, its lines, and what on the stage it is made of.
// Each line names the steps whose formula it fills in: the same lines are the popover's and, one
// at a time, the step's own formula with the cell's numbers (views/filled-formula.js), so each sum
// is written out in one place; the row max subtracted and the row sum are lines only the steps show.
// Every number is read from the model (the core's intermediates) and written with the same
// per-matrix format as its cell on the stage, so the expansion agrees with the cell to the digit.
// Negative factors are bracketed; a sum of more than FOLD terms shows its first terms and a button
// for the rest. Render only; views/popover.js places it next to the cell.

import { h } from './dom.js';
import { matrixFormat, formatInput } from '../format.js';
import { at } from '../matrix.js';
import { math, mi, fn, mn, mo, msub, mfrac, mrow, num, paren, dk as dkSymbol } from './math.js';
import { markHeatmap } from './heatmap.js';
import { BACKWARD_KINDS } from './explain-backward.js';
import { row, column, pair, chain, products, sums, line } from './explain-parts.js';
import { divisorNodes } from './names.js';
import { optionForms } from '../options.js';

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
    line(['output'], t('explain.outputTerms'), [
      [msub(paren(mi('A'), mi('V')), ic)],
      [mo('∑', { largeop: 'false' }), msub(mi('A'), mi(`${i + 1}j`)), msub(mi('v'), mi(`j${c + 1}`))],
      ...products(factors, { expanded, onExpand, t }),
      [mn(fo(at(model.output, i, c)))],
    ]),
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
    line(['outproj'], t('explain.projectionTerms'), [
      [msub(mi('O'), pair(i + 1, j + 1, state.n))],
      [mo('∑', { largeop: 'false' }), msub(mi('concat'), mi(`${i + 1}t`)), wo(`t${j + 1}`)],
      ...products(factors, { expanded, onExpand, t }),
      [mn(fo(at(model.projected, i, j)))],
    ]),
  ];
}

/**
 * The projection the page shows for `out` ('q', 'k', 'v'): with heads the whole X·W (every head's
 * columns, `qAll`), else X·W itself (`q`); W is W_Q, W_K or W_V.
 */
const projected = (out, state) => ((state.heads ?? 1) > 1 ? `${out}All` : out);

/** Q_ij = Σ_t X_it · (W_Q)_tj (§2), and the same for K and V, every term written out. */
function inputProjectionLines(out, { state, model, t, cell, expanded, onExpand }) {
  const { i, j } = cell;
  const name = projected(out, state);
  const w = `w${out}`;
  const [fx, fw, fp] = [model.x, model[w], model[name]].map((m) => matrixFormat(m.data, state.digits));
  const factors = Array.from({ length: model.x.cols }, (_, k) => [fx(at(model.x, i, k)), fw(at(model[w], k, j))]);
  const W = (sub) => msub(mi('W'), mrow(mi(out.toUpperCase()), mo(','), mi(sub)));
  return [
    line(['project'], t('explain.inputProjectionTerms'), [
      [msub(mi(out.toUpperCase()), pair(i + 1, j + 1, state.n))],
      [mo('∑', { largeop: 'false' }), msub(mi('X'), mi(`${i + 1}t`)), W(`t${j + 1}`)],
      ...products(factors, { expanded, onExpand, t }),
      [mn(fp(at(model[name], i, j)))],
    ]),
  ];
}

/** The scaling as the options make it: S_ij/√d_k, S_ij/d_k or S_ij, then ·τ in the denominator. */
function scaledFraction(top, { state, dkValue, temperature }) {
  const tau = optionForms(state).tau ? [mo('·'), temperature] : [];
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
  const { byColumn, lineWords, shiftsMax, divisor, tau } = optionForms(state);
  const reduceAt = byColumn ? j : i;
  return {
    i,
    j,
    byColumn,
    // the words of the lines along the softmax's axis: 'explain.sum' or 'explain.sumColumn'
    words: (key) => `${key}${lineWords}`,
    shiftsMax,
    divides: Boolean(divisor.tex) || tau,
    format,
    reduceAt,
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
  return line(['scores'], t('explain.dot'), [
    [p.S()],
    [msub(mi('q'), String(p.i + 1)), mo('·'), msub(mi('k'), String(p.j + 1))],
    ...products(
      q.map((a, index) => [p.format.q(a), p.format.k(k[index])]),
      { expanded, onExpand, t },
    ),
    [mn(p.format.scores(at(model.scores, p.i, p.j)))],
  ]);
}

/** The mask acts after the scaling: the score is set to −∞, whatever it was (the core's `kept`). */
function maskedLines({ model, t }, p) {
  return [
    line(['scale', 'max'], t('explain.maskedScore', { i: p.i + 1, j: p.j + 1 }), [[p.x()], [mn('−∞')]]),
    line(['exp'], t('explain.maskedExp'), [[p.e()], [fn('exp'), paren(mn('−∞'))], [mn('0')]]),
    line(['weights'], t('explain.maskedWeight'), [
      [p.A()],
      [mfrac(p.e(), p.sumName())],
      [mfrac(mn('0'), mn(p.sum))],
      [mn(p.format.weights(at(model.weights, p.i, p.j)))],
    ]),
  ];
}

/** x_ij = S_ij / (√d_k · τ) with the numbers. */
function scaleLine({ state, model, t }, p) {
  const xValue = p.format.scaled(at(model.scaled, p.i, p.j));
  const numbers = { state, dkValue: () => mn(String(model.q.cols)), temperature: mn(formatInput(state.temperature)) };
  return line(
    ['scale'],
    t('explain.scale'),
    !p.divides
      ? [[p.x()], [p.S()], [mn(xValue)]]
      : [
          [p.x()],
          [scaledFraction(p.S(), { state, dkValue: dkSymbol, temperature: mi('τ') })],
          [scaledFraction(mn(p.format.scores(at(model.scores, p.i, p.j))), numbers)],
          [mn(xValue)],
        ],
  );
}

/** x_ij − max (§5's first step): what exp is taken of, the shifted score from the core. */
function shiftLine({ model, t }, p) {
  const xValue = p.format.scaled(at(model.scaled, p.i, p.j));
  return line(
    ['max'],
    t(p.words('explain.shift')),
    [
      [p.x(), mo('−'), ...p.maxOf()],
      [num(xValue), mo('−'), num(p.max, { bracketNegative: true })],
      [num(p.format.shifted(at(model.shifted, p.i, p.j)))],
    ],
    { popover: false },
  );
}

/** Σ_i = e_i1 + … + e_in (or down column j), every term written out: the denominator of A_ij. */
function sumLine({ model, t, expanded, onExpand }, p) {
  const terms = (p.byColumn ? column(model.exps, p.j) : row(model.exps, p.i)).map(p.format.exps);
  const index = (k) => (p.byColumn ? `${k}${p.j + 1}` : `${p.i + 1}${k}`);
  return line(
    ['sum'],
    t(p.words('explain.sum')),
    [
      [p.sumName()],
      [mo('∑', { largeop: 'false' }), msub(mi('e'), mi(index(p.byColumn ? 'i' : 'j')))],
      ...sums(terms, { expanded, onExpand, t }),
      [mn(p.sum)],
    ],
    { popover: false },
  );
}

/** e_ij = exp(x_ij − max) (or exp(x_ij) for the naive softmax), then A_ij = e_ij / Σ. */
function softmaxLines({ state, model, t }, p) {
  const xValue = p.format.scaled(at(model.scaled, p.i, p.j));
  const exp = mn(p.format.exps(at(model.exps, p.i, p.j)));
  const expLine = p.shiftsMax
    ? line(['exp'], t(p.words('explain.exp')), [
        [p.e()],
        [fn('exp'), paren(p.x(), mo('−'), ...p.maxOf())],
        [fn('exp'), paren(num(xValue), mo('−'), num(p.max, { bracketNegative: true }))],
        [fn('exp'), paren(num(p.format.shifted(at(model.shifted, p.i, p.j))))],
        [exp],
      ])
    : line(['exp'], t('explain.expNaive'), [
        [p.e()],
        [fn('exp'), paren(p.x())],
        [fn('exp'), paren(num(xValue))],
        [exp],
      ]);
  const normLine = line(['weights'], t(p.words('explain.norm')), [
    [p.A()],
    [mfrac(p.e(), p.sumName())],
    [mfrac(mn(p.format.exps(at(model.exps, p.i, p.j))), mn(p.sum))],
    [mn(p.format.weights(at(model.weights, p.i, p.j)))],
  ]);
  return [expLine, normLine];
}

/** A score or weight (i, j), from the dot product to the weight (§3–§5). */
function scoreLines(ctx) {
  const p = scoreParts(ctx);
  const masked = at(ctx.model.kept, p.i, p.j) === 0; // the core's mask: 0 = masked
  if (masked) {
    const [maskedScore, maskedExp, maskedWeight] = maskedLines(ctx, p);
    return [dotLine(ctx, p), maskedScore, maskedExp, sumLine(ctx, p), maskedWeight];
  }
  const [expLine, normLine] = softmaxLines(ctx, p);
  const shift = p.shiftsMax ? [shiftLine(ctx, p)] : [];
  return [dotLine(ctx, p), scaleLine(ctx, p), ...shift, expLine, sumLine(ctx, p), normLine];
}

/** A cell of X·W_Q, X·W_K or X·W_V (the projections step, mode "from X"), as a KINDS entry. */
const inputProjection = (out) => ({
  heading: ({ t, cell }, word) =>
    t('explain.inputProjectionHeading', { name: out.toUpperCase(), i: word(cell.i), c: cell.j + 1 }),
  lines: (ctx) => inputProjectionLines(out, ctx),
  madeOf: { x: (c) => ({ row: c.i }), [`w${out}`]: (c) => ({ col: c.j }) },
  cols: (state) => state[out === 'v' ? 'dv' : 'dk'],
});

/**
 * The kinds of cell that expand (steps.js FIGURE `pick`): the popover's heading (`word(k)` names
 * row k), its lines (each tagged with the steps whose formula it fills in), what each matrix on
 * the stage contributes — the row (`row`) and column (`col`) of it the number is made of, by
 * figure name — and how many columns such cells have in a state.
 */
const KINDS = {
  score: {
    heading: ({ t, cell, tokens }) =>
      tokens
        ? t('explain.headingWords', { i: tokens[cell.i], j: tokens[cell.j] })
        : t('explain.heading', { i: cell.i + 1, j: cell.j + 1 }),
    lines: (ctx) => scoreLines(ctx),
    madeOf: { q: (c) => ({ row: c.i }), k: (c) => ({ row: c.j }) },
    cols: (state) => state.n,
  },
  output: {
    heading: ({ t, cell }, word) => t('explain.outputHeading', { i: word(cell.i), c: cell.j + 1 }),
    lines: (ctx) => outputLines(ctx),
    madeOf: { weights: (c) => ({ row: c.i }), v: (c) => ({ col: c.j }) },
    cols: (state) => state.dv / state.heads,
  },
  projection: {
    heading: ({ t, cell }, word) => t('explain.projectionHeading', { i: word(cell.i), c: cell.j + 1 }),
    lines: (ctx) => projectionLines(ctx),
    madeOf: { concat: (c) => ({ row: c.i }), wo: (c) => ({ col: c.j }) },
    cols: (state) => state.d,
  },
  projectQ: inputProjection('q'),
  projectK: inputProjection('k'),
  projectV: inputProjection('v'),
  // The backward steps' cells (views/explain-backward.js): dO, dV, dA, dZ, dS, dQ, dK, dW.
  ...BACKWARD_KINDS,
};

/** How many columns a kind of cell has in a state (a cell beyond them is gone after a resize). */
export const cellCols = (kind, state) => KINDS[kind].cols(state);

/** The heading of `cell`'s expansion (the popover's title; the step formula's caption). */
export function cellHeading(ctx) {
  const { cell, tokens } = ctx;
  // A word as a heading names it: “猫” with words, else 第 2 个词 / word 2 (the headings read
  // "{i}的输出", "output of {i}" either way).
  const word = (k) => (tokens ? `“${tokens[k]}”` : ctx.t('mix.wordN', { i: k + 1 }));
  return KINDS[cell.kind].heading(ctx, word);
}

/**
 * Every line of `cell`'s expansion, as { steps, label, parts, popover }: the one place its
 * numbers are written out, for the popover and for the step's own formula (views/filled-formula.js).
 * ctx: as renderExplain's (`onExpand` absent: a folded sum names how many terms it leaves out).
 */
export const cellLines = (ctx) => KINDS[ctx.cell.kind].lines(ctx);

/**
 * Fills the popover `root` for `cell` ({ i, j, kind: a KINDS key }, 0-based). ctx: { state,
 * model, t, cell, tokens, expanded (all terms shown), onExpand(), onClose() }.
 */
export function renderExplain(root, ctx) {
  const { state, t, cell, onClose } = ctx;
  const heading = cellHeading(ctx);
  const lines = cellLines(ctx)
    .filter((l) => l.popover)
    .map(({ label, parts }) => h('li', {}, h('span', { class: 'label' }, label), chain(...parts)));
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
    h('ol', { class: 'expansion', dataset: { i: cell.i, j: cell.j, kind: cell.kind } }, lines),
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
