// Issue 18, item 13: the step's own formula filled in with one cell's numbers, from the same lines
// the popover writes (views/explain.js cellLines), on every step, as a screen reader hears it.
// The views run on a fake DOM (fake-dom.mjs) with the real wasm core; the expected hand
// computations are the article's (§3–§6: Q = K = I₂, V = 10·I₂).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { installFakeDom } from './fake-dom.mjs';
import createAttention from '../../wasm/attention.mjs';
import { computeModel } from '../../web/src/model.js';
import { defaultState, choosePreset, resize, setOption } from '../../web/src/state.js';
import { translator } from '../../web/src/i18n/index.js';
import { STEP_LIST } from '../../web/src/steps.js';

installFakeDom();
const { renderFilled, stepLine, stepFills } = await import('../../web/src/views/filled-formula.js');
const { cellLines, renderExplain } = await import('../../web/src/views/explain.js');

let engine;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
});

const slots = () => ({
  formulas: document.createElement('div'),
  filled: document.createElement('div'),
  caption: document.createElement('p'),
  live: document.createElement('p'),
});

/** Renders step `step` of `state` for `cell`: what a screen reader hears, and the slots. */
function fill(state, step, cell, { tokens = null } = {}) {
  const at = { ...state, step, lang: 'en' };
  const into = slots();
  const said = renderFilled(into, { state: at, model: computeModel(engine, at), t: translator('en'), cell, tokens });
  return { said, into, formula: said.slice(said.lastIndexOf(': ') + 2) };
}

const score = (i, j) => ({ i, j, kind: 'score' });

test('the worked example: each step of §3–§6 reads its own hand computation for the cell', () => {
  const article = defaultState();
  const expected = [
    [3, score(0, 1), 'S12 = q1 · k2 = 1 · 0 + 0 · 1 = 0'],
    [4, score(0, 0), 'x11 = S11 ÷ √dk = 1 ÷ √2 = 0.7071'],
    [5, score(0, 1), 'x12 − maxj′x1j′ = 0 − 0.7071 = −0.7071'],
    [6, score(0, 1), 'e12 = exp(x12 − maxj′x1j′) = exp(0 − 0.7071) = exp(−0.7071) = 0.4931'],
    [7, score(0, 0), 'Σ1 = ∑e1j = 1.000 + 0.4931 = 1.493'],
    [8, score(0, 1), 'A12 = e12 ÷ Σ1 = 0.4931 ÷ 1.493 = 0.3302'],
    [9, { i: 0, j: 0, kind: 'output' }, '(AV)11 = ∑A1jvj1 = 0.6698 · 10 + 0.3302 · 0 = 6.698'],
  ];
  for (const [step, cell, formula] of expected) {
    const { into, formula: said } = fill(article, step, cell);
    assert.equal(said, formula, `step ${step}`);
    assert.ok(into.formulas.classList.contains('filling'), `step ${step}: the filled line replaces the general one`);
    assert.equal(into.filled.dataset.cell, `${cell.kind}:${cell.i}:${cell.j}`);
  }
});

test('no cell: the general formula stays, and the caption says how to fill it in', () => {
  const { said, into } = fill(defaultState(), 3, null);
  assert.equal(said, '');
  assert.equal(into.formulas.classList.contains('filling'), false);
  assert.equal(into.filled.childNodes.length, 0);
  assert.equal(into.caption.textContent, translator('en')('filled.hint'));
});

test('the projections: Q_ij = Σ_t X_it·(W_Q)_tj in "from X" mode, with the words in the caption', () => {
  const cat = choosePreset(defaultState(), 'cat');
  const { said, formula } = fill(cat, 2, { i: 1, j: 2, kind: 'projectK' }, { tokens: ['它', '是', '猫'] });
  assert.ok(said.startsWith('K of “是”, dimension 3'), said);
  assert.equal(formula, 'K23 = ∑X2tWK,t3 = 0 · 0 + 0 · 0 + 1.000 · 1.000 + 0 · 0 = 1.000');
  assert.equal(stepFills('project', cat), true);
  assert.equal(stepFills('project', defaultState()), false, 'Q, K, V given directly: nothing to fill in');
});

test('d_k = 64: the dot product is folded as the popover folds it, naming how many terms are left', () => {
  const wide = resize(choosePreset(defaultState(), 'random'), { dk: 64 });
  const { formula } = fill(wide, 3, score(0, 1));
  const terms = formula.split(' = ')[2];
  assert.equal(terms.split(' + ').length, 5, 'four products, then the rest named');
  assert.ok(terms.endsWith('… 60 more terms'), terms);
});

test('steps whose numbers are no sums (the input, the heads side by side) say so', () => {
  const heads = choosePreset(defaultState(), 'heads');
  for (const [state, id] of [
    [defaultState(), 'x'],
    [heads, 'concat'],
  ]) {
    const step = STEP_LIST.findIndex((s) => s.id === id) + 1;
    const { said, into } = fill(state, step, null);
    assert.equal(said, '');
    assert.equal(into.caption.textContent, translator('en')('filled.none'), id);
  }
  // The multi-head output projection has its own sum: O_ij = Σ_t concat_it·(W_O)_tj.
  const outproj = STEP_LIST.findIndex((s) => s.id === 'outproj') + 1;
  const { formula } = fill(heads, outproj, { i: 0, j: 0, kind: 'projection' });
  assert.match(formula, /^O11 = ∑concat1tWO,t1 = /);
});

test('one place for each sum: the popover shows the same lines, less the two only the steps show', () => {
  const state = { ...defaultState(), step: 3, lang: 'en' };
  const ctx = { state, model: computeModel(engine, state), t: translator('en'), cell: score(0, 1), tokens: null };
  const lines = cellLines(ctx);
  assert.deepEqual(
    lines.map((l) => [l.steps.join(), l.popover]),
    [
      ['scores', true],
      ['scale', true],
      ['max', false],
      ['exp', true],
      ['sum', false],
      ['weights', true],
    ],
  );
  const root = document.createElement('div');
  renderExplain(root, { ...ctx, expanded: false, onExpand() {}, onClose() {} });
  assert.equal(root.all('li').length, 4, 'the popover keeps its four lines');
  // A weight shown on the AV step fills in how it was made (the last line at or before the step).
  assert.deepEqual(stepLine(lines, 'output').steps, ['weights']);
});

test('a column softmax and the naive softmax fill in their own lines', () => {
  const column = setOption(defaultState(), 'axis', 'column');
  assert.equal(fill(column, 7, score(1, 0)).formula, 'Σ1 = ∑ei1 = 1.000 + 0.4931 = 1.493');
  const naive = setOption(defaultState(), 'softmax', 'naive');
  assert.equal(fill(naive, 6, score(0, 0)).formula, 'e11 = exp(x11) = exp(0.7071) = 2.028');
});
