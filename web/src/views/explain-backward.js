// The one-number expansion of the backward steps (one training step, backward.js), as KINDS entries
// of views/explain.js: each gradient's cell written out with its formula and the live numbers,
//   dO_ic = AV_ic − Y_ic                       (the loss ½‖AV − Y‖²; or dO given)
//   dV_jc = Σ_i A_ij·dO_ic     dA_ij = Σ_c dO_ic·v_jc
//   dZ_ij = A_ij·(dA_ij − Σ_t A_it·dA_it)      (the softmax's backward; down a column for a column softmax)
//   dS_ij = dZ_ij / (√d_k·τ)                   (the options' scaling rule, names.js divisorNodes)
//   dQ_ic = Σ_j dS_ij·k_jc     dK_jc = Σ_i dS_ij·q_ic     (dW)_tc = Σ_i x_it·dQ_ic (dK, dV)
// Every number is the core's (the model's fields), written with its matrix's format on the stage;
// the one number computed here is Σ_t A_it·dA_it, shown as the sum of the terms written before it.
// Render only.

import { matrixFormat, formatInput, formatNumber } from '../format.js';
import { at } from '../matrix.js';
import { mi, mn, mo, msub, mfrac, mrow, num, paren, dk as dkSymbol } from './math.js';
import { divisorNodes } from './names.js';
import { pair, products, line } from './explain-parts.js';

/** dM with a subscript: d·M_sub (dV₁₂, d(W_Q)_{t c}). */
const d = (name, sub) => mrow(mi('d'), msub(mi(name), mi(sub)));

/** The formatter of a model field, as its cells are written on the stage. */
const fmt = (model, name, digits) => matrixFormat(model[name].data, digits);

/**
 * A cell that is a sum of products: out_rc = Σ_t left(r, c, t) · right(r, c, t). `terms` says over
 * what t runs (count) and the two factors' fields and positions; `symbols` the left side and the
 * general term in symbols.
 */
function sumLines(ctx, { step, out, label, lhs, general, count, left, right }) {
  const { state, model, t, cell, expanded, onExpand } = ctx;
  const [fl, fr, fo] = [left.field, right.field, out].map((name) => fmt(model, name, state.digits));
  const factors = Array.from({ length: count(model) }, (_, k) => [
    fl(at(model[left.field], ...left.at(cell, k))),
    fr(at(model[right.field], ...right.at(cell, k))),
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

/** dO_ic = AV_ic − Y_ic, or dO_ic given (the probe's, or L = (AV)₁₁'s). */
function gradOutputLines({ state, model, t, cell }) {
  const ic = sub(cell, state.n);
  const value = mn(fmt(model, 'gradOutput', state.digits)(at(model.gradOutput, cell.i, cell.j)));
  if (state.loss === 'given') return [line(['dout'], t('explain.gradOutputGiven'), [[d('O', ic)], [value]])];
  const av = fmt(model, 'output', state.digits)(at(model.output, cell.i, cell.j));
  const y = fmt(model, 'target', state.digits)(at(model.target, cell.i, cell.j));
  return [
    line(['dout'], t('explain.gradOutput'), [
      [d('O', ic)],
      [msub(paren(mi('A'), mi('V')), ic), mo('−'), msub(mi('Y'), ic)],
      [num(av), mo('−'), num(y, { bracketNegative: true })],
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
  const column = state.axis === 'column';
  // The pairs (A, dA) along the softmax's axis: row i, or column j.
  const along = Array.from({ length: state.n }, (_, k) => (column ? [k, j] : [i, k]));
  const dot = along.reduce((total, [r, c]) => total + at(model.weights, r, c) * at(model.gradWeights, r, c), 0);
  const a = fa(at(model.weights, i, j));
  const g = fg(at(model.gradWeights, i, j));
  const sumSymbol = column
    ? [mo('∑', { largeop: 'false' }), msub(mi('A'), mi(`t${j + 1}`)), d('A', `t${j + 1}`)]
    : [mo('∑', { largeop: 'false' }), msub(mi('A'), mi(`${i + 1}t`)), d('A', `${i + 1}t`)];
  const terms = products(
    along.map(([r, c]) => [fa(at(model.weights, r, c)), fg(at(model.gradWeights, r, c))]),
    { expanded, onExpand, t },
  );
  return [
    // The sum is the popover's own line: the step's formula shows dZ_ij with the sum's value in it.
    line([], t(column ? 'explain.gradSumColumn' : 'explain.gradSum'), [
      [...sumSymbol],
      ...terms,
      [mn(formatNumber(dot, state.digits))],
    ]),
    line(['dscores'], t('explain.gradSoftmax'), [
      [d('Z', ij)],
      [msub(mi('A'), ij), paren(d('A', ij), mo('−'), ...sumSymbol)],
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
  const tau = state.temperature !== 1;
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
/** (dW_M)_tc = Σ_i x_it·dM_ic, for M = Q, K, V. */
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
    right: { field: grad, at: (c, k) => [k, c.j] },
    madeOf: { x: (c) => ({ col: c.i }), [grad]: (c) => ({ col: c.j }) },
  });

/** The backward steps' kinds of cell (steps.js FIGURE `pick`), before each is given its `cols`. */
const KINDS = {
  gradOutput: {
    heading: ({ t, cell }, word) => t('explain.gradOutputHeading', { i: word(cell.i), c: cell.j + 1 }),
    lines: gradOutputLines,
    madeOf: { output: (c) => ({ row: c.i }), target: (c) => ({ row: c.i }) },
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
  const n = state.n;
  return (
    { gradOutput: dvHead, gradV: dvHead, gradWv: dvHead, gradWeights: n, gradScaled: n, gradScores: n }[kind] ?? dkHead
  );
}

/** The backward steps' kinds of cell, for views/explain.js's KINDS: each with its `cols`. */
export const BACKWARD_KINDS = Object.fromEntries(
  Object.entries(KINDS).map(([kind, entry]) => [kind, { ...entry, cols: (state) => backwardCols(kind, state) }]),
);
