// The one-number expansion of the backward steps (one training step, backward.js), as KINDS entries
// of views/explain.js: each gradient's cell written out with its formula and the live numbers,
//   dO_ic = AV_ic − Y_ic                       (the loss ½‖AV − Y‖²; or dO given)
//   dV_jc = Σ_i A_ij·dO_ic     dA_ij = Σ_c dO_ic·v_jc
//   dZ_ij = A_ij·(dA_ij − Σ_t A_it·dA_it)      (the softmax's backward; down a column for a column softmax)
//   dS_ij = dZ_ij / (√d_k·τ)                   (the options' scaling rule, names.js divisorNodes)
//   dQ_ic = Σ_j dS_ij·k_jc     dK_jc = Σ_i dS_ij·q_ic     (dW)_tc = Σ_i x_it·dQ_ic (dK, dV)
// and with heads, the layer's: dO_ic = O_ic − Y_ic, (dW_O)_tc = Σ_i concat_it·dO_ic,
//   d(concat)_it = Σ_c dO_ic·(W_O)_tc, d(head_i)_rc = d(concat)_r,(i−1)d_v+c and
//   dX_it = Σ_c dQ_ic·(W_Q)_tc + Σ_c dK_ic·(W_K)_tc + Σ_c dV_ic·(W_V)_tc.
// Every number is the core's (the model's fields), written with its matrix's format on the stage;
// the numbers computed here are Σ_t A_it·dA_it and dX's three sums, each shown as the sum of the
// terms written before it.
// Render only.

import { matrixFormat, formatInput, formatNumber } from '../format.js';
import { at } from '../matrix.js';
import { mi, mn, mo, msub, mfrac, mrow, num, paren, dk as dkSymbol } from './math.js';
import { divisorNodes } from './names.js';
import { optionForms } from '../options.js';
import { pair, products, line } from './explain-parts.js';

/** dM with a subscript: d·M_sub (dV₁₂, d(W_Q)_{t c}). */
const d = (name, sub) => mrow(mi('d'), msub(mi(name), mi(sub)));

/** A field named outright, or by the state (with heads, dW's factor is every head's dQ). */
const fieldName = (field, state) => (typeof field === 'function' ? field(state) : field);

/** The formatter of a model field, as its cells are written on the stage. */
const fmt = (model, name, digits) => matrixFormat(model[name].data, digits);

/**
 * A cell that is a sum of products: out_rc = Σ_t left(r, c, t) · right(r, c, t). `terms` says over
 * what t runs (count) and the two factors' fields and positions; `symbols` the left side and the
 * general term in symbols.
 */
function sumLines(ctx, { step, out, label, lhs, general, count, left, right }) {
  const { state, model, t, cell, expanded, onExpand } = ctx;
  const [lf, rf] = [fieldName(left.field, state), fieldName(right.field, state)];
  const [fl, fr, fo] = [lf, rf, out].map((name) => fmt(model, name, state.digits));
  const factors = Array.from({ length: count(model) }, (_, k) => [
    fl(at(model[lf], ...left.at(cell, k))),
    fr(at(model[rf], ...right.at(cell, k))),
  ]);
  return [
    line([step], t(label), [
      [lhs(cell)],
      general(cell),
      ...products(factors, { expanded, onExpand, t }),
      [mn(fo(at(model[out], cell.i, cell.j)))],
    ]),
  ];
}

const sub = (cell, n) => pair(cell.i + 1, cell.j + 1, n);

/**
 * dO_ic = AV_ic − Y_ic, or dO_ic given (the probe's, or L = (AV)₁₁'s); with heads the same on the
 * layer's output, dO_ic = O_ic − Y_ic (`layer`).
 */
function lossLines({ state, model, t, cell }, layer) {
  const [step, out, grad] = layer ? ['dlayer', 'projected', 'gradProjected'] : ['dout', 'output', 'gradOutput'];
  const ic = sub(cell, state.n);
  const value = mn(fmt(model, grad, state.digits)(at(model[grad], cell.i, cell.j)));
  if (state.loss === 'given') return [line([step], t('explain.gradOutputGiven'), [[d('O', ic)], [value]])];
  const o = fmt(model, out, state.digits)(at(model[out], cell.i, cell.j));
  const y = fmt(model, 'target', state.digits)(at(model.target, cell.i, cell.j));
  const outSymbol = layer ? msub(mi('O'), ic) : msub(paren(mi('A'), mi('V')), ic);
  return [
    line([step], t(layer ? 'explain.gradProjected' : 'explain.gradOutput'), [
      [d('O', ic)],
      [outSymbol, mo('−'), msub(mi('Y'), ic)],
      [num(o), mo('−'), num(y, { bracketNegative: true })],
      [value],
    ]),
  ];
}

/** d(head_i)_rc = d(concat)_r,(i−1)d_v+c: the shown head's block of d(concat), the numbers as they are. */
function gradHeadLines({ state, model, t, cell }) {
  const column = (state.head - 1) * model.gradOutput.cols + cell.j;
  const value = mn(fmt(model, 'gradOutput', state.digits)(at(model.gradOutput, cell.i, cell.j)));
  return [
    line(['dsplit'], t('explain.gradHead', { head: state.head }), [
      [mi('d'), msub(mi('head'), mi(`${state.head},${pair(cell.i + 1, cell.j + 1, state.n)}`))],
      [mi('d'), msub(mi('concat'), mi(`${cell.i + 1},${column + 1}`))],
      [value],
    ]),
  ];
}

/**
 * dX_it = Σ_c dQ_ic·(W_Q)_tc + Σ_c dK_ic·(W_K)_tc + Σ_c dV_ic·(W_V)_tc: one line for each of the
 * three sums (its value added up here, as the softmax's row sum is), then X's gradient, the core's.
 */
function gradXLines(ctx) {
  const { state, model, t, cell, expanded, onExpand } = ctx;
  const { i, j } = cell;
  const terms = [
    ['Q', 'gradQAll', 'wq'],
    ['K', 'gradKAll', 'wk'],
    ['V', 'gradVAll', 'wv'],
  ].map(([name, grad, w]) => {
    const [fg, fw] = [grad, w].map((field) => fmt(model, field, state.digits));
    const count = model[grad].cols;
    const pairs = Array.from({ length: count }, (_, c) => [at(model[grad], i, c), at(model[w], j, c)]);
    const total = pairs.reduce((sum, [a, b]) => sum + a * b, 0);
    const symbol = [sigma(), d(name, `${i + 1}c`), msub(paren(msub(mi('W'), mi(name))), mi(`${j + 1}c`))];
    const factors = pairs.map(([a, b]) => [fg(a), fw(b)]);
    return { total, symbol, factors, name };
  });
  const sumText = (x) => formatNumber(x, state.digits);
  const value = mn(fmt(model, 'gradX', state.digits)(at(model.gradX, i, j)));
  return [
    ...terms.map(({ symbol, factors, total, name }) =>
      line([], t('explain.gradXTerm', { m: name }), [
        symbol,
        ...products(factors, { expanded, onExpand, t }),
        [mn(sumText(total))],
      ]),
    ),
    line(['dx'], t('explain.gradXSum'), [
      [d('X', sub(cell, state.n))],
      terms.flatMap(({ symbol }, k) => [...(k ? [mo('+')] : []), ...symbol]),
      terms.flatMap(({ total }, k) => [...(k ? [mo('+')] : []), num(sumText(total), { bracketNegative: k > 0 })]),
      [value],
    ]),
  ];
}

/**
 * dZ_ij = A_ij·(dA_ij − Σ_t A_it·dA_it): the softmax's backward, along its axis; a masked pair's
 * weight is 0, and so is its gradient.
 */
function gradScaledLines(ctx) {
  const { state, model, t, cell, expanded, onExpand } = ctx;
  const { i, j } = cell;
  const ij = sub(cell, state.n);
  const [fa, fg, fz] = ['weights', 'gradWeights', 'gradScaled'].map((name) => fmt(model, name, state.digits));
  const value = mn(fz(at(model.gradScaled, i, j)));
  if (at(model.kept, i, j) === 0) return [line(['dscores'], t('explain.gradMasked'), [[d('Z', ij)], [value]])];
  const { byColumn: column, lineWords } = optionForms(state);
  // The pairs (A, dA) along the softmax's axis: row i, or column j.
  const along = Array.from({ length: state.n }, (_, k) => (column ? [k, j] : [i, k]));
  const dot = along.reduce((total, [r, c]) => total + at(model.weights, r, c) * at(model.gradWeights, r, c), 0);
  const a = fa(at(model.weights, i, j));
  const g = fg(at(model.gradWeights, i, j));
  // Made anew for each place it is written: a DOM node inserted a second time leaves the first
  // place, and the softmax line would lose its sum ("A₁₁(dA₁₁ − )").
  const sumSymbol = () =>
    column
      ? [mo('∑', { largeop: 'false' }), msub(mi('A'), mi(`t${j + 1}`)), d('A', `t${j + 1}`)]
      : [mo('∑', { largeop: 'false' }), msub(mi('A'), mi(`${i + 1}t`)), d('A', `${i + 1}t`)];
  const terms = products(
    along.map(([r, c]) => [fa(at(model.weights, r, c)), fg(at(model.gradWeights, r, c))]),
    { expanded, onExpand, t },
  );
  return [
    // The sum is the popover's own line: the step's formula shows dZ_ij with the sum's value in it.
    line([], t(`explain.gradSum${lineWords}`), [sumSymbol(), ...terms, [mn(formatNumber(dot, state.digits))]]),
    line(['dscores'], t('explain.gradSoftmax'), [
      [d('Z', ij)],
      [msub(mi('A'), ij), paren(d('A', ij), mo('−'), ...sumSymbol())],
      [num(a), mo('·'), paren(num(g), mo('−'), num(formatNumber(dot, state.digits), { bracketNegative: true }))],
      [value],
    ]),
  ];
}

/** dS_ij = dZ_ij / (√d_k·τ): the scaling's chain rule, written by the options' one scaling rule. */
function gradScoresLines({ state, model, t, cell }) {
  const ij = sub(cell, state.n);
  const z = fmt(model, 'gradScaled', state.digits)(at(model.gradScaled, cell.i, cell.j));
  const value = mn(fmt(model, 'gradScores', state.digits)(at(model.gradScores, cell.i, cell.j)));
  const { tau } = optionForms(state);
  const below = (dkNode, tauNode) => [...divisorNodes(state.scale, dkNode), ...(tau ? [mo('·'), tauNode] : [])];
  const symbols = below(dkSymbol, mi('τ'));
  if (!symbols.length) return [line(['dscores'], t('explain.gradScale'), [[d('S', ij)], [d('Z', ij)], [value]])];
  const numbers = below(() => mn(String(model.q.cols)), mn(formatInput(state.temperature)));
  if (numbers[0]?.tagName === 'mo') numbers.shift(); // no divisor, only τ: no leading "·"
  if (symbols[0]?.tagName === 'mo') symbols.shift();
  return [
    line(['dscores'], t('explain.gradScale'), [
      [d('S', ij)],
      [mfrac(d('Z', ij), mrow(...symbols))],
      [mfrac(num(z), mrow(...numbers))],
      [value],
    ]),
  ];
}

/** A sum-of-products kind: its field, heading, label, symbols and factors (sumLines). */
const sumKind = (spec) => ({
  heading: ({ t, cell }, word) => t(spec.heading, { i: word(cell.i), r: cell.i + 1, c: cell.j + 1 }),
  lines: (ctx) => sumLines(ctx, { ...spec, lhs: (cell) => spec.lhs(sub(cell, ctx.state.n)) }),
  madeOf: spec.madeOf,
});

/** A pair (i, j) heading, each word as cellHeading names it: "dA:“它”看“猫”…" or "dA:第 1 个词看第 2 个词…". */
const pairHeading =
  (key) =>
  ({ t, cell }, word) =>
    t(key, { i: word(cell.i), j: word(cell.j) });

const sigma = () => mo('∑', { largeop: 'false' });
/** (dW_M)_tc = Σ_i x_it·dM_ic, for M = Q, K, V; with heads dM is every head's (gradQAll …). */
const weightKind = (out, grad, name) =>
  sumKind({
    step: 'dw',
    out,
    heading: `explain.gradW${name}Heading`,
    label: 'explain.gradWeightTerms',
    lhs: (tc) => mrow(mi('d'), msub(mi('W'), mi(`${name},${tc}`))),
    general: (c) => [sigma(), msub(mi('x'), mi(`i${c.i + 1}`)), d(name, `i${c.j + 1}`)],
    count: (model) => model.x.rows,
    left: { field: 'x', at: (c, k) => [k, c.i] },
    right: { field: (state) => ((state.heads ?? 1) > 1 ? `${grad}All` : grad), at: (c, k) => [k, c.j] },
    madeOf: { x: (c) => ({ col: c.i }), [grad]: (c) => ({ col: c.j }), [`${grad}All`]: (c) => ({ col: c.j }) },
  });

/** The backward steps' kinds of cell (steps.js FIGURE `pick`), before each is given its `cols`. */
const KINDS = {
  gradOutput: {
    heading: ({ t, cell }, word) => t('explain.gradOutputHeading', { i: word(cell.i), c: cell.j + 1 }),
    lines: (ctx) => lossLines(ctx, false),
    madeOf: { output: (c) => ({ row: c.i }), target: (c) => ({ row: c.i }) },
  },
  // With heads: the layer's dO, then back through ·W_O and concat to the shown head.
  gradProjected: {
    heading: ({ t, cell }, word) => t('explain.gradProjectedHeading', { i: word(cell.i), c: cell.j + 1 }),
    lines: (ctx) => lossLines(ctx, true),
    madeOf: { projected: (c) => ({ row: c.i }), target: (c) => ({ row: c.i }) },
  },
  gradWo: sumKind({
    step: 'dwo',
    out: 'gradWo',
    heading: 'explain.gradWoHeading',
    label: 'explain.gradWoTerms',
    lhs: (tc) => mrow(mi('d'), msub(mi('W'), mi(`O,${tc}`))),
    general: (c) => [sigma(), msub(mi('concat'), mi(`i${c.i + 1}`)), d('O', `i${c.j + 1}`)],
    count: (model) => model.concat.rows,
    left: { field: 'concat', at: (c, k) => [k, c.i] },
    right: { field: 'gradProjected', at: (c, k) => [k, c.j] },
    madeOf: { concat: (c) => ({ col: c.i }), gradProjected: (c) => ({ col: c.j }) },
  }),
  gradConcat: sumKind({
    step: 'dwo',
    out: 'gradConcat',
    heading: 'explain.gradConcatHeading',
    label: 'explain.gradConcatTerms',
    lhs: (it) => mrow(mi('d'), msub(mi('concat'), mi(it))),
    general: (c) => [sigma(), d('O', `${c.i + 1}c`), msub(paren(msub(mi('W'), mi('O'))), mi(`${c.j + 1}c`))],
    count: (model) => model.gradProjected.cols,
    left: { field: 'gradProjected', at: (c, k) => [c.i, k] },
    right: { field: 'wo', at: (c, k) => [c.j, k] },
    madeOf: { gradProjected: (c) => ({ row: c.i }), wo: (c) => ({ row: c.j }) },
  }),
  gradHead: {
    heading: ({ t, cell, state }, word) =>
      t('explain.gradHeadHeading', { head: state.head, i: word(cell.i), c: cell.j + 1 }),
    lines: gradHeadLines,
    madeOf: {},
  },
  gradX: {
    heading: ({ t, cell }, word) => t('explain.gradXHeading', { i: word(cell.i), t: cell.j + 1 }),
    lines: gradXLines,
    madeOf: {
      gradQAll: (c) => ({ row: c.i }),
      gradKAll: (c) => ({ row: c.i }),
      gradVAll: (c) => ({ row: c.i }),
      wq: (c) => ({ row: c.j }),
      wk: (c) => ({ row: c.j }),
      wv: (c) => ({ row: c.j }),
    },
  },
  gradV: sumKind({
    step: 'dv',
    out: 'gradV',
    heading: 'explain.gradVHeading',
    label: 'explain.gradVTerms',
    lhs: (jc) => d('V', jc),
    general: (c) => [sigma(), msub(mi('A'), mi(`i${c.i + 1}`)), d('O', `i${c.j + 1}`)],
    count: (model) => model.weights.rows,
    left: { field: 'weights', at: (c, k) => [k, c.i] },
    right: { field: 'gradOutput', at: (c, k) => [k, c.j] },
    madeOf: { weights: (c) => ({ col: c.i }), gradOutput: (c) => ({ col: c.j }) },
  }),
  gradWeights: {
    ...sumKind({
      step: 'dweights',
      out: 'gradWeights',
      label: 'explain.gradWeightsTerms',
      lhs: (ij) => d('A', ij),
      general: (c) => [sigma(), d('O', `${c.i + 1}c`), msub(mi('v'), mi(`${c.j + 1}c`))],
      count: (model) => model.gradOutput.cols,
      left: { field: 'gradOutput', at: (c, k) => [c.i, k] },
      right: { field: 'v', at: (c, k) => [c.j, k] },
      madeOf: { gradOutput: (c) => ({ row: c.i }), v: (c) => ({ row: c.j }) },
    }),
    heading: pairHeading('explain.gradWeightsHeading'),
  },
  gradScaled: {
    heading: pairHeading('explain.gradScaledHeading'),
    lines: gradScaledLines,
    madeOf: { weights: (c) => ({ row: c.i }), gradWeights: (c) => ({ row: c.i }) },
  },
  gradScores: {
    heading: pairHeading('explain.gradScoresHeading'),
    lines: gradScoresLines,
    madeOf: {},
  },
  gradQ: sumKind({
    step: 'dqk',
    out: 'gradQ',
    heading: 'explain.gradQHeading',
    label: 'explain.gradQTerms',
    lhs: (ic) => d('Q', ic),
    general: (c) => [sigma(), d('S', `${c.i + 1}j`), msub(mi('k'), mi(`j${c.j + 1}`))],
    count: (model) => model.gradScores.cols,
    left: { field: 'gradScores', at: (c, k) => [c.i, k] },
    right: { field: 'k', at: (c, k) => [k, c.j] },
    madeOf: { gradScores: (c) => ({ row: c.i }), k: (c) => ({ col: c.j }) },
  }),
  gradK: sumKind({
    step: 'dqk',
    out: 'gradK',
    heading: 'explain.gradKHeading',
    label: 'explain.gradKTerms',
    lhs: (jc) => d('K', jc),
    general: (c) => [sigma(), d('S', `i${c.i + 1}`), msub(mi('q'), mi(`i${c.j + 1}`))],
    count: (model) => model.gradScores.rows,
    left: { field: 'gradScores', at: (c, k) => [k, c.i] },
    right: { field: 'q', at: (c, k) => [k, c.j] },
    madeOf: { q: (c) => ({ col: c.j }) },
  }),
  gradWq: weightKind('gradWq', 'gradQ', 'Q'),
  gradWk: weightKind('gradWk', 'gradK', 'K'),
  gradWv: weightKind('gradWv', 'gradV', 'V'),
};

/** How many columns a backward kind's matrix has (a cell beyond them is gone after a resize). */
function backwardCols(kind, state) {
  const dvHead = state.dv / (state.heads ?? 1);
  const dkHead = state.dk / (state.heads ?? 1);
  const { n, d, dk, dv } = state;
  const cols = { gradOutput: dvHead, gradHead: dvHead, gradV: dvHead, gradWeights: n, gradScaled: n, gradScores: n };
  Object.assign(cols, { gradWq: dk, gradWk: dk, gradWv: dv, gradProjected: d, gradWo: d, gradConcat: dv, gradX: d });
  return cols[kind] ?? dkHead;
}

/** The backward steps' kinds of cell, for views/explain.js's KINDS: each with its `cols`. */
export const BACKWARD_KINDS = Object.fromEntries(
  Object.entries(KINDS).map(([kind, entry]) => [kind, { ...entry, cols: (state) => backwardCols(kind, state) }]),
);
