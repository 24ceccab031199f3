// One training step through the whole multi-head layer on the page (issue 26, item 3): with heads
// the loss is on the layer's output O = concat·W_O, and the backward steps go dO → dW_O, d(concat)
// → the shown head's block → its steps → dW with every head's block → dX. The model's numbers (the
// core's, web/src/backward.js) and the NumPy export's printed numbers against the float64 gradients
// of tests/fixtures/multi-head.json (scripts/make-multi-head-fixture.mjs, dO = its gradOutput), the
// steps' list, and each new cell's filled formula as a screen reader hears it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installFakeDom } from './fake-dom.mjs';
import { runPython } from './python.mjs';
import createAttention from '../../wasm/attention.mjs';
import { computeModel } from '../../web/src/model.js';
import { defaultState, choosePreset, setLoss, serializeState, parseState } from '../../web/src/state.js';
import { stepsFor, stepNumber } from '../../web/src/steps.js';
import { toRows } from '../../web/src/matrix.js';
import { numpyScript } from '../../web/src/labs/export/numpy.js';
import { translator } from '../../web/src/i18n/index.js';

installFakeDom();
const { renderFilled } = await import('../../web/src/views/filled-formula.js');

const FIXTURE = JSON.parse(fs.readFileSync(new URL('../fixtures/multi-head.json', import.meta.url), 'utf8'));
const TWO_HEADS = FIXTURE.cases.find((c) => c.name === '它 是 猫, 2 heads');
const WANT = TWO_HEADS.expected.backward;

let engine, dir;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-heads-backward-'));
});

/** The preset "它 是 猫" with 2 heads (the fixture's example), head `head` shown, dO given as the fixture's. */
const givenState = (head = 1) => {
  const heads = { ...choosePreset(defaultState(), 'heads'), head };
  return { ...setLoss(heads, 'given', { v: [] }), dout: TWO_HEADS.gradOutput.map((row) => [...row]) };
};

const near = (actual, expected, what, tolerance = FIXTURE.tolerance) => {
  const rows = toRows(actual);
  assert.deepEqual([rows.length, rows[0].length], [expected.length, expected[0].length], `${what}: shape`);
  rows.forEach((row, i) =>
    row.forEach((x, j) =>
      assert.ok(Math.abs(x - expected[i][j]) <= tolerance, `${what}[${i}][${j}]: ${x}, expected ${expected[i][j]}`),
    ),
  );
};

test('with heads the backward steps go through ·W_O and concat to the shown head, and on to dX; dO has its own step', () => {
  const state = givenState();
  assert.deepEqual(
    stepsFor(state).map((step) => step.id),
    [
      ...['x', 'project', 'scores', 'scale', 'max', 'exp', 'sum', 'weights', 'output', 'concat', 'outproj'],
      ...['dlayer', 'dwo', 'dsplit', 'dv', 'dweights', 'dscores', 'dqk', 'dw', 'dx'],
    ],
  );
  // The link keeps the loss on O: dO is n × d (3 × 4), and step 13 is ·W_O's backward.
  const { state: read } = parseState(serializeState({ ...state, step: stepNumber(state, 'dwo') }));
  assert.equal(read.step, 13);
  assert.deepEqual(read.dout, TWO_HEADS.gradOutput);
});

test('the model: dW_O, d(concat), both heads’ six gradients, dQ, dK, dV, dW and dX against the float64 fixture', () => {
  for (const head of [1, 2]) {
    const m = computeModel(engine, givenState(head));
    near(m.gradProjected, TWO_HEADS.gradOutput, 'dO');
    near(m.gradWo, WANT.d_w_o, 'dW_O = concatᵀ·dO');
    near(m.gradConcat, WANT.d_concat, 'd(concat) = dO·W_Oᵀ');
    // The nine steps' fields are the shown head's: its block of d(concat) is its own dO.
    const mine = WANT.heads[head - 1];
    near(m.gradOutput, mine.d_output, `head ${head}: d(head_i)`);
    for (const [field, name] of Object.entries({
      gradV: 'd_v',
      gradWeights: 'd_weights',
      gradScaled: 'd_scaled',
      gradScores: 'd_scores',
      gradQ: 'd_q',
      gradK: 'd_k',
    })) {
      near(m[field], mine[name], `head ${head}: ${field}`);
      m.headGrads.forEach((grads, i) => near(grads[field], WANT.heads[i][name], `every head: ${i + 1} ${field}`));
    }
    near(m.gradQAll, WANT.d_q, 'dQ');
    near(m.gradKAll, WANT.d_k, 'dK');
    near(m.gradVAll, WANT.d_v, 'dV');
    near(m.gradWq, WANT.d_w_q, 'dW_Q');
    near(m.gradWk, WANT.d_w_k, 'dW_K');
    near(m.gradWv, WANT.d_w_v, 'dW_V');
    near(m.gradX, WANT.d_x, 'dX');
    assert.equal(m.loss, null, 'dO given: no L to show');
  }
});

test('L = ½‖O − Y‖² with heads: Y starts as X, dO = O − Y, and L is the float64 loss of the fixture’s O', () => {
  const state = setLoss(choosePreset(defaultState(), 'heads'), 'mse', { v: [] });
  assert.deepEqual(state.y, TWO_HEADS.x, 'Y = X');
  const m = computeModel(engine, state);
  const O = TWO_HEADS.expected.output;
  const dO = O.map((row, i) => row.map((o, j) => o - TWO_HEADS.x[i][j]));
  near(m.gradProjected, dO, 'dO = O − Y');
  const loss = 0.5 * dO.flat().reduce((sum, d) => sum + d * d, 0);
  assert.ok(Math.abs(m.loss - loss) < 1e-5, `L = ${m.loss}, float64 ${loss}`);
});

test('NumPy with heads: the script goes back through the whole layer and prints the float64 fixture’s gradients', () => {
  const state = givenState(2);
  const model = computeModel(engine, state);
  const printed = Object.fromEntries(
    Object.entries(runPython(dir, numpyScript(model, state), 'heads-backward')).map(([block, rows]) => [
      block,
      rows.map((row) => row.map(Number)),
    ]),
  );
  const expected = {
    dO: TWO_HEADS.gradOutput,
    dW_O: WANT.d_w_o,
    'd(concat)': WANT.d_concat,
    dQ: WANT.d_q,
    dK: WANT.d_k,
    dV: WANT.d_v,
    dW_Q: WANT.d_w_q,
    dW_K: WANT.d_w_k,
    dW_V: WANT.d_w_v,
    dX: WANT.d_x,
  };
  WANT.heads.forEach((head, i) => {
    const names = { dV: 'd_v', dA: 'd_weights', dZ: 'd_scaled', dS: 'd_scores', dQ: 'd_q', dK: 'd_k' };
    for (const [printedName, name] of Object.entries(names)) expected[`${printedName} (head ${i + 1})`] = head[name];
  });
  for (const [block, want] of Object.entries(expected)) {
    assert.ok(printed[block], `${block} is printed`);
    // Printed to 4 significant digits: within 1.5 units of the last one (float32 against float64).
    printed[block].forEach((row, i) =>
      row.forEach((x, j) => {
        const w = want[i][j];
        const unit = Math.abs(w) < 1e-6 ? 1e-4 : 10 ** (Math.floor(Math.log10(Math.abs(w))) - 3);
        assert.ok(Math.abs(x - w) <= 1.5 * unit + 1e-6, `${block}[${i}][${j}] ${x} ≠ ${w}`);
      }),
    );
  }
});

/** What a screen reader hears of step `id`'s formula filled in for `cell` (views/filled-formula.js). */
function filled(state, id, cell) {
  const at = { ...state, step: stepNumber(state, id), lang: 'en' };
  const into = {
    formulas: document.createElement('div'),
    filled: document.createElement('div'),
    caption: document.createElement('p'),
    live: document.createElement('p'),
  };
  const said = renderFilled(into, {
    state: at,
    model: computeModel(engine, at),
    t: translator('en'),
    cell,
    tokens: null,
  });
  return said.slice(said.lastIndexOf(': ') + 2);
}

test('each new cell fills its step’s formula with its own numbers: dO on O, dW_O, d(concat), d(head_i), dX', () => {
  const state = givenState(2);
  const expected = [
    ['dlayer', { i: 0, j: 2, kind: 'gradProjected' }, 'dO13 = −1.000'],
    // (dW_O)₁₁ = Σ_i concat_i1·dO_i1 over the three words: the fixture's 0.6372.
    [
      'dwo',
      { i: 0, j: 0, kind: 'gradWo' },
      'dWO,11 = ∑concati1dOi1 = 0.6667 · 1.000 + 0.9444 · 0 + 0.05891 · (−0.5000) = 0.6372',
    ],
    [
      'dwo',
      { i: 1, j: 0, kind: 'gradConcat' },
      'dconcat21 = ∑dO2c(WO)1c = 0 · 0.5000 + 1.000 · 0 + 0.5000 · 0.5000 + (−1.000) · 0 = 0.2500',
    ],
    // Head 2's block is columns 3 and 4 of d(concat).
    ['dsplit', { i: 2, j: 0, kind: 'gradHead' }, 'dhead2,31 = dconcat3,3 = −0.7500'],
    // X feeds three projections: its gradient adds their three sums (the fixture's 1.5894).
    [
      'dx',
      { i: 0, j: 0, kind: 'gradX' },
      'dX11 = ∑dQ1c(WQ)1c + ∑dK1c(WK)1c + ∑dV1c(WV)1c = 0.1889 + 0.2243 + 1.176 = 1.589',
    ],
    // dW_Q with every head's block: column 3 is head 2's.
    [
      'dw',
      { i: 0, j: 2, kind: 'gradWq' },
      'dWQ,13 = ∑xi1dQi3 = 1 · 0.09447 + 0 · (−0.09196) + 0 · 0.0002188 = 0.09447',
    ],
  ];
  for (const [id, cell, want] of expected) {
    assert.equal(filled(state, id, cell), want, id);
  }
});
