// The model computes every intermediate through the real wasm core (loaded in Node with its
// bytes, docs/toolchain.md, pitfall 2); the expected numbers here are computed independently in float64.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import createAttention from '../../wasm/attention.mjs';
import { computeModel, stepOptions, totals, largestDifference, COMPARED } from '../../web/src/model.js';
import { defaultState, choosePreset, setCell, switchMode, setOption, setLoss } from '../../web/src/state.js';
import { toRows } from '../../web/src/matrix.js';

let engine;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
});

const close = (actual, expected, tol = 1e-5) =>
  actual.flat().forEach((x, i) => assert.ok(Math.abs(x - expected.flat()[i]) <= tol, `${x} ≠ ${expected.flat()[i]}`));

test('the worked example: A = [[0.6698, 0.3302], …] and AV = [[6.698, 3.302], …]', () => {
  const m = computeModel(engine, defaultState());
  const a = Math.exp(Math.SQRT1_2) / (Math.exp(Math.SQRT1_2) + 1);
  close(toRows(m.scaled), [
    [Math.SQRT1_2, 0],
    [0, Math.SQRT1_2],
  ]);
  close(toRows(m.weights), [
    [a, 1 - a],
    [1 - a, a],
  ]);
  close(
    toRows(m.output),
    [
      [10 * a, 10 * (1 - a)],
      [10 * (1 - a), 10 * a],
    ],
    1e-4,
  );
  assert.deepEqual(
    toRows(m.rowMax).map((r) => r.length),
    [1, 1],
  );
});

test('mode x projects X through W_Q, W_K, W_V first, and gives the same result as the Q, K, V it equals', () => {
  const fromX = computeModel(engine, switchMode(defaultState(), 'x'));
  const direct = computeModel(engine, defaultState());
  assert.deepEqual(fromX.output.data, direct.output.data);
  assert.ok(fromX.x && fromX.wq && fromX.wk && fromX.wv);
  const cat = computeModel(engine, choosePreset(defaultState(), 'cat'));
  // q_它 = x_它 · W_Q = [1, .5, 0, 0] · W_Q = [0.5, 2, 0, 0]
  close(toRows(cat.q)[0], [0.5, 2, 0, 0]);
});

test('the options reach the core: causal mask, naive softmax, column axis', () => {
  const masked = computeModel(engine, setOption(defaultState(), 'mask', 'causal'));
  close(toRows(masked.weights)[0], [1, 0]);
  const overflow = computeModel(engine, setOption(choosePreset(defaultState(), 'overflow'), 'softmax', 'naive'));
  assert.ok(overflow.weights.data.some(Number.isNaN), 'naive softmax at ~1000 gives NaN');
  const stable = computeModel(engine, choosePreset(defaultState(), 'overflow'));
  assert.ok(stable.weights.data.every(Number.isFinite));
  const column = computeModel(engine, setOption(choosePreset(defaultState(), 'cat'), 'axis', 'column'));
  const w = toRows(column.weights);
  for (let j = 0; j < 3; j++) assert.ok(Math.abs(w[0][j] + w[1][j] + w[2][j] - 1) < 1e-5, 'columns sum to 1');
  assert.deepEqual(stepOptions(defaultState()), {
    scale: 'sqrt_dk',
    temperature: 1,
    mask: 'none',
    stable: true,
    axis: 'row',
  });
});

test('an edited cell changes the result as computed independently', () => {
  const m = computeModel(engine, setCell(defaultState(), 'q', 0, 0, 2));
  const x = 2 / Math.SQRT2;
  close(toRows(m.weights)[0], [Math.exp(x) / (Math.exp(x) + 1), 1 / (Math.exp(x) + 1)]);
});

test('a refusal of the core names its argument and cell; a refused projection names its W', () => {
  const bad = setCell(defaultState(), 'q', 0, 1, Infinity);
  assert.throws(
    () => computeModel(engine, bad),
    (e) => e.code === 'not_finite' && e.argument === 'q' && e.cell.row === 0 && e.cell.col === 1,
  );
  // "它 是 猫" from X: W_K one row short makes X·W_K impossible.
  const cat = choosePreset(defaultState(), 'cat');
  const short = { ...cat, preset: 'custom', mats: { ...cat.mats, wk: cat.mats.wk.slice(0, 3) } };
  assert.throws(
    () => computeModel(engine, short),
    (e) => e.code === 'projection_mismatch' && e.argument === 'w' && e.matrix === 'wk',
  );
  assert.ok(computeModel(engine, defaultState()), 'the core is still usable after');
});

test("the article's own hand computation (§7): exp without the max gives 2.028 and the sum 3.028, and the same weights", () => {
  const state = defaultState();
  const m = computeModel(engine, state, { article: true });
  const x = Math.SQRT1_2;
  close(
    toRows(m.article.exps),
    [
      [Math.exp(x), 1],
      [1, Math.exp(x)],
    ],
    1e-5,
  );
  close(toRows(m.article.rowSum), [[Math.exp(x) + 1], [Math.exp(x) + 1]], 1e-5);
  close(
    toRows(m.exps),
    [
      [1, Math.exp(-x)],
      [Math.exp(-x), 1],
    ],
    1e-6,
  );
  close(toRows(m.article.weights), toRows(m.weights), 1e-6);
  assert.equal(computeModel(engine, state).article, undefined, 'only when asked for');
  assert.equal(
    computeModel(engine, setOption(state, 'softmax', 'naive'), { article: true }).article,
    undefined,
    "the naive softmax is already the article's way",
  );
});

test("the article's exp (§7) is computed when a view first reads it, once, with or without a loss", () => {
  // The engine with its calls of the naive softmax counted: the page's own path is the stable one.
  let naiveCalls = 0;
  const counting = Object.create(engine, {
    attentionSteps: {
      value: (args) => {
        if (args.stable === false) naiveCalls++;
        return engine.attentionSteps(args);
      },
    },
  });
  for (const state of [
    defaultState(),
    setLoss(defaultState(), 'mse', {
      v: [
        [1, 0],
        [0, 1],
      ],
    }),
  ]) {
    naiveCalls = 0;
    const m = computeModel(counting, state, { article: true });
    assert.equal(naiveCalls, 0, 'not while the model is computed');
    assert.ok(Math.abs(m.article.exps.data[0] - Math.exp(Math.SQRT1_2)) < 1e-5, 'e^0.7071 ≈ 2.028');
    assert.equal(m.article, m.article, 'the same numbers at every read');
    assert.equal(naiveCalls, 1);
  }
});

test("the weights' totals come from the model: each row of A sums to 1, each column of a column softmax", () => {
  const cat = computeModel(engine, choosePreset(defaultState(), 'cat'));
  for (const total of cat.weightTotals.rows) assert.ok(Math.abs(total - 1) < 1e-6);
  const column = computeModel(engine, setOption(choosePreset(defaultState(), 'cat'), 'axis', 'column'));
  for (const total of column.weightTotals.cols) assert.ok(Math.abs(total - 1) < 1e-6);
  assert.deepEqual(Array.from(totals({ rows: 2, cols: 3, data: Float32Array.of(1, 2, 3, 4, 5, 6) }).cols), [5, 7, 9]);
});

test('the reference path computes the same numbers; the largest difference says where paths differ', () => {
  const state = resizeRandom(setOption(defaultState(), 'seed', 5));
  const random = computeModel(engine, state);
  const reference = computeModel(engine, state, { path: 'reference' });
  assert.equal(random.path, 'simd', 'the SIMD loops by default');
  assert.equal(reference.path, 'reference');
  const difference = largestDifference(random, reference);
  assert.ok(difference.value < 1e-4, `float32 rounding only (${difference.value})`);
  assert.ok(difference.value === 0 || COMPARED.includes(difference.name));
  // A difference planted in one cell is found there.
  const planted = { ...random, weights: { ...random.weights, data: random.weights.data.slice() } };
  planted.weights.data[5] += 0.5;
  assert.deepEqual(largestDifference(random, planted), {
    value: 0.5,
    name: 'weights',
    i: Math.floor(5 / planted.weights.cols),
    j: 5 % planted.weights.cols,
  });
  assert.equal(largestDifference(random, random).value, 0);
});

/** The random preset at a size where the SIMD loops run full vectors and a tail: n = 11, d = d_k = d_v = 13. */
function resizeRandom(state) {
  return choosePreset({ ...state, n: 11, d: 13, dk: 13, dv: 13, mode: 'x' }, 'random');
}
