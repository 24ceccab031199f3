// One training step through the stepper (issue 17, item 6): the loss, the backward steps' numbers
// from the core (web/src/backward.js, model.js), the state's loss field and its round trip, the
// NumPy export of the gradients run with python3 and numpy, and the training lab's hand-off (its
// probe's X, the head's W's and dO from the trainer). Expected numbers are docs/api.md's (L = (AV)₁₁)
// or computed here independently in float64.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runPython } from './python.mjs';
import { loadEngine } from '../../web/src/engine.js';
import { computeModel } from '../../web/src/model.js';
import {
  defaultState,
  choosePreset,
  switchMode,
  setLoss,
  setLossCell,
  fitLoss,
  resize,
  setOption,
  serializeState,
  parseState,
} from '../../web/src/state.js';
import { stepsFor, stepIdAt, stepNumber } from '../../web/src/steps.js';
import { toRows } from '../../web/src/matrix.js';
import { numpyScript } from '../../web/src/labs/export/numpy.js';
import { exportJson, readJsonExport } from '../../web/src/labs/export/json.js';
import { createTrainSession } from '../../web/src/features/train-lab/train-session.js';
import { TRAIN_TASKS, trainerConfigs } from '../../web/src/features/train-lab/train-lab.js';
import { walkState } from '../../web/src/features/train-lab/train-walk.js';

let engine, dir;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-backward-'));
});

const close = (actual, expected, tol = 1e-3) => {
  assert.equal(actual.length, expected.length);
  actual.flat().forEach((x, i) => assert.ok(Math.abs(x - expected.flat()[i]) <= tol, `${x} ≠ ${expected.flat()[i]}`));
};
const v = (state) => ({ v: toRows(computeModel(engine, state).v) });
const matmul = (a, b) => a.map((row) => b[0].map((_, j) => row.reduce((s, x, t) => s + x * b[t][j], 0)));
const transpose = (a) => a[0].map((_, j) => a.map((row) => row[j]));

test("the worked example with L = (AV)₁₁ (dO given, [[1, 0], [0, 0]]): docs/api.md's gradients", () => {
  const state = setLoss(defaultState(), 'given', v(defaultState()));
  assert.deepEqual(state.dout, [
    [1, 0],
    [0, 0],
  ]);
  const m = computeModel(engine, state);
  close(toRows(m.gradOutput), [
    [1, 0],
    [0, 0],
  ]);
  close(toRows(m.gradV), [
    [0.67, 0],
    [0.33, 0],
  ]);
  close(toRows(m.gradWeights), [
    [10, 0],
    [0, 0],
  ]);
  close(toRows(m.gradScaled), [
    [2.212, -2.212],
    [0, 0],
  ]);
  close(toRows(m.gradScores), [
    [1.564, -1.564],
    [0, 0],
  ]);
  close(toRows(m.gradQ), [
    [1.564, -1.564],
    [0, 0],
  ]);
  close(toRows(m.gradK), [
    [1.564, 0],
    [-1.564, 0],
  ]);
  assert.equal(m.loss, null, 'a given dO states no loss value');
  assert.equal(m.gradWq, undefined, 'Q, K, V given directly: no W, no dW');
});

test('the worked example with L = ½‖AV − Y‖², Y = V = 10·I: dO = AV − Y, and every step in float64', () => {
  const state = setLoss(defaultState(), 'mse', v(defaultState()));
  assert.deepEqual(state.y, [
    [10, 0],
    [0, 10],
  ]);
  const m = computeModel(engine, state);
  const a = Math.exp(Math.SQRT1_2) / (Math.exp(Math.SQRT1_2) + 1); // 0.6698
  const A = [
    [a, 1 - a],
    [1 - a, a],
  ];
  const dO = [
    [10 * a - 10, 10 * (1 - a)],
    [10 * (1 - a), 10 * a - 10],
  ]; // [[−3.302, 3.302], [3.302, −3.302]]
  close(toRows(m.gradOutput), dO);
  assert.ok(Math.abs(m.loss - 0.5 * dO.flat().reduce((s, x) => s + x * x, 0)) < 1e-3, `L = ${m.loss}`);
  const V = toRows(m.v);
  close(toRows(m.gradV), matmul(transpose(A), dO));
  const dA = matmul(dO, transpose(V));
  close(toRows(m.gradWeights), dA, 1e-3);
  const dZ = A.map((row, i) => row.map((x, j) => x * (dA[i][j] - row.reduce((s, y, t) => s + y * dA[i][t], 0))));
  close(toRows(m.gradScaled), dZ, 1e-3);
  const dS = dZ.map((row) => row.map((x) => x / Math.SQRT2));
  close(toRows(m.gradScores), dS, 1e-3);
  // Gradient descent raises the diagonal scores: A sharpens towards I, as the loss's words say.
  assert.ok(dS[0][0] < 0 && dS[0][1] > 0);
  close(toRows(m.gradQ), matmul(dS, toRows(m.k)), 1e-3);
  close(toRows(m.gradK), matmul(transpose(dS), toRows(m.q)), 1e-3);
});

test('from X, dW = Xᵀ·dQ, Xᵀ·dK, Xᵀ·dV; with heads, every head’s block (dQ side by side)', () => {
  const cat = choosePreset(defaultState(), 'cat');
  const oneHead = setLoss(cat, 'mse', v(cat));
  const heads = setLoss({ ...choosePreset(defaultState(), 'heads'), head: 2 }, 'given', v(cat));
  for (const [state, suffix] of [
    [oneHead, ''],
    [heads, 'All'],
  ]) {
    const m = computeModel(engine, state);
    const X = toRows(m.x);
    for (const [grad, w] of [
      ['gradQ', 'gradWq'],
      ['gradK', 'gradWk'],
      ['gradV', 'gradWv'],
    ])
      close(toRows(m[w]), matmul(transpose(X), toRows(m[grad + suffix])), 1e-4);
    assert.deepEqual([m.gradWq.rows, m.gradWq.cols], [state.d, state.dk]);
  }
});

test('a masked pair passes no gradient: with the causal mask, dZ and dS are 0 above the diagonal', () => {
  const cat = setOption(choosePreset(defaultState(), 'cat'), 'mask', 'causal');
  const m = computeModel(engine, setLoss(cat, 'mse', v(cat)));
  for (const name of ['gradScaled', 'gradScores'])
    toRows(m[name]).forEach((row, i) => row.forEach((x, j) => j > i && assert.equal(x, 0, `${name}[${i}][${j}]`)));
});

test('the loss in the URL: loss, y and dout round-trip; a link without a loss reads as before; a missing or misshapen matrix is named', () => {
  const article = defaultState();
  assert.doesNotMatch(serializeState(article), /loss|dout|&y=/);
  const mse = { ...setLossCell(setLoss(article, 'mse', v(article)), 0, 1, 2.5), step: 12 };
  const hash = serializeState(mse);
  assert.match(hash, /&loss=mse&y=10,2\.5;0,10/);
  const back = parseState(hash);
  assert.equal(back.notice, null);
  assert.deepEqual([back.state.loss, back.state.y, back.state.step], ['mse', mse.y, 12]);
  assert.equal(stepIdAt(back.state, 12), 'dweights');
  const given = setLoss(article, 'given', v(article));
  assert.deepEqual(parseState(serializeState(given)).state.dout, given.dout);
  // A hand-written link whose Y is missing or not AV's shape opens with the rest kept: the cells
  // that fit are kept, the others 0, and the notice names the field (issue 29).
  const short = parseState(hash.replace('y=10,2.5;0,10', 'y=10,2.5'));
  assert.deepEqual(short.notice, {
    key: 'linkLoss',
    problem: 'shape',
    field: 'y',
    loss: 'mse',
    rows: 2,
    cols: 2,
    text: '10,2.5',
  });
  assert.deepEqual(
    [short.state.y, short.state.step],
    [
      [
        [10, 2.5],
        [0, 0],
      ],
      12,
    ],
  );
  const missing = parseState('#step=9&loss=mse');
  assert.deepEqual([missing.notice.key, missing.notice.problem, missing.notice.field], ['linkLoss', 'missing', 'y']);
  assert.deepEqual(
    [missing.state.step, missing.state.loss, missing.state.y],
    [
      9,
      'mse',
      [
        [0, 0],
        [0, 0],
      ],
    ],
  );
  assert.equal(parseState('#step=13&loss=given').notice.field, 'dout');
  assert.equal(parseState('#step=10').notice, 'badHash', 'no backward steps without a loss');
  // Turned off, the backward steps go and the step stays within the list.
  const off = setLoss({ ...mse, step: 14 }, 'none', v(article));
  assert.equal(off.step, 9);
  assert.doesNotMatch(serializeState(off), /loss|&y=/);
});

test('the loss’s matrix follows the shape of AV: cells kept, new ones 0', () => {
  const article = defaultState();
  const grown = fitLoss(resize(setLoss(article, 'mse', v(article)), { n: 3, dv: 3 }));
  assert.deepEqual(grown.y, [
    [10, 0, 0],
    [0, 10, 0],
    [0, 0, 0],
  ]);
  // With heads the loss is on the layer's output O = concat·W_O, n × d, and starts its own step.
  const heads = choosePreset(article, 'heads');
  const given = setLoss(heads, 'given', v(heads));
  assert.deepEqual([given.dout.length, given.dout[0].length], [3, 4], 'n × d, the shape of O');
  assert.equal(stepNumber(given, 'dlayer'), 12);
  assert.equal(stepNumber(given, 'dout'), 0);
  assert.equal(stepNumber(setLoss(article, 'given', v(article)), 'dout'), 10);
});

/** The script's printed blocks, as numbers. */
const runNumbers = (text, name) =>
  Object.fromEntries(
    Object.entries(runPython(dir, text, name)).map(([block, rows]) => [block, rows.map((row) => row.map(Number))]),
  );

// (with heads, the layer's backward pass: tests/web/heads-backward.test.mjs)
test('NumPy: the script goes on with the backward pass and prints the page’s gradients (one head, columns, mask, τ)', () => {
  const cat = choosePreset(defaultState(), 'cat');
  const odd = { ...setOption(setOption(cat, 'axis', 'column'), 'mask', 'causal'), scale: 'dk', temperature: 0.5 };
  const cases = {
    article: setLoss(defaultState(), 'given', v(defaultState())),
    cat: setLoss(cat, 'mse', v(cat)),
    odd: setLoss(odd, 'mse', v(odd)),
  };
  const printedAs = { dO: 'gradOutput', dV: 'gradV', dA: 'gradWeights', dZ: 'gradScaled', dS: 'gradScores' };
  Object.assign(printedAs, { dQ: 'gradQ', dK: 'gradK', dW_Q: 'gradWq', dW_K: 'gradWk', dW_V: 'gradWv' });
  for (const [name, state] of Object.entries(cases)) {
    const model = computeModel(engine, state);
    const printed = runNumbers(numpyScript(model, state), `backward-${name}`);
    for (const [block, field] of Object.entries(printedAs)) {
      if (!model[field]) {
        assert.equal(printed[block], undefined, `${name}: ${block} is not printed`);
        continue;
      }
      const page = toRows(model[field]);
      // Printed to 4 significant digits: within 1.5 units of the last one, as the forward's check.
      printed[block].forEach((row, i) =>
        row.forEach((x, j) => {
          const unit = page[i][j] === 0 ? 1e-4 : 10 ** (Math.floor(Math.log10(Math.abs(page[i][j]))) - 3);
          assert.ok(
            Math.abs(x - page[i][j]) <= 1.5 * unit + 1e-6,
            `${name}: ${block}[${i}][${j}] ${x} ≠ ${page[i][j]}`,
          );
        }),
      );
    }
  }
});

test('JSON: the loss, its target and every gradient, read back exactly', () => {
  const state = setLoss(defaultState(), 'mse', v(defaultState()));
  const model = computeModel(engine, state);
  const text = exportJson(model, state);
  const back = readJsonExport(text);
  for (const name of ['gradOutput', 'gradV', 'gradWeights', 'gradScaled', 'gradScores', 'gradQ', 'gradK'])
    assert.deepEqual([...back.steps[name].data], [...model[name].data], name);
  const file = JSON.parse(text);
  assert.equal(file.loss, 'mse');
  assert.deepEqual(file.target.data, state.y);
});

test("the training lab's hand-off: the probe's X, the head's W's and its block of ∂ℓ/∂(heads' outputs) open the stepper with dO given", () => {
  const lab = { ...defaultState(), view: 'train-lab', trainheads: 2, traindk: 8, lang: 'en' };
  const session = createTrainSession(engine);
  const { probe } = TRAIN_TASKS[lab.traintask];
  const configs = trainerConfigs(lab);
  assert.equal(session.handle({ type: 'reset', configs, probe }).type, 'reset');
  session.handle({ type: 'step', count: 20 });
  const reply = session.handle({ type: 'walk', run: 0, head: 1 });
  assert.equal(reply.type, 'walk');
  const trainer = engine.createTrainer(configs[0]);
  trainer.step(20);
  const whole = trainer.probeGradient(probe);
  const { wQ, wV } = trainer.parameters();
  trainer.dispose();
  // The same run from the same seed: the session's head 2 is the trainer's.
  assert.deepEqual([...reply.wq.data], [...wQ[1].data]);
  assert.deepEqual([...reply.wv.data], [...wV[1].data]);
  assert.deepEqual(
    toRows(reply.dout),
    toRows(whole.gradOutput).map((row) => row.slice(8, 16)),
  );
  assert.ok(whole.loss > 0 && whole.scored === 6);
  const state = walkState(lab, reply, configs[0]);
  assert.equal(state.view, 'steps');
  assert.equal(stepIdAt(state, state.step), 'dout');
  assert.deepEqual([state.n, state.d, state.dk, state.dv, state.loss, state.mode], [6, 22, 8, 8, 'given', 'x']);
  // The link replays it: the same numbers, float32 for float32.
  const back = parseState(serializeState(state));
  assert.equal(back.notice, null);
  const [m, again] = [computeModel(engine, state), computeModel(engine, back.state)];
  assert.deepEqual([...again.gradWq.data], [...m.gradWq.data]);
  assert.deepEqual([...m.gradOutput.data], [...reply.dout.data]);
  assert.deepEqual([...m.x.data], [...reply.x.data]);
  session.handle({ type: 'dispose' });
});

test('the hand-off of a causal task opens the stepper with the causal mask', () => {
  const lab = { ...defaultState(), view: 'train-lab', traintask: 'induction' };
  const session = createTrainSession(engine);
  session.handle({ type: 'reset', configs: trainerConfigs(lab), probe: TRAIN_TASKS.induction.probe });
  const reply = session.handle({ type: 'walk', run: 0, head: 0 });
  assert.equal(reply.causal, true);
  const state = walkState(lab, reply, trainerConfigs(lab)[0]);
  assert.equal(state.mask, 'causal');
  // Only the last position is scored (induction): the rows of dO before it are 0.
  toRows(reply.dout)
    .slice(0, -1)
    .forEach((row) => row.forEach((x) => assert.equal(x, 0)));
  assert.ok(stepsFor(state).some((step) => step.id === 'dw'));
  session.handle({ type: 'dispose' });
});
