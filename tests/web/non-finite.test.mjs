// Which step first shows a number float32 could not hold, from the core's counts (nonFinite),
// through the real wasm core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import createAttention from '../../wasm/attention.mjs';
import { computeModel } from '../../web/src/model.js';
import { defaultState, setOption, choosePreset, setCell, showsArticleNumbers } from '../../web/src/state.js';
import { nonFiniteFrom, showsNonFinite } from '../../web/src/non-finite.js';

const engine = await createAttention({
  wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
});

test('the worked example holds none; with τ = 1e-40 they start at the scaling step (÷√dₖ·τ overflows)', () => {
  const article = computeModel(engine, defaultState());
  assert.equal(nonFiniteFrom(article), null);
  const cold = computeModel(engine, setOption(defaultState(), 'temperature', 1e-40));
  assert.deepEqual(
    { ...cold.nonFinite },
    { scores: 0, scaled: 2, rowMax: 2, shifted: 4, exps: 2, rowSum: 2, weights: 4, output: 4 },
  );
  assert.equal(nonFiniteFrom(cold), 'scale');
  assert.equal(showsNonFinite(cold, 'scores'), false);
  assert.equal(showsNonFinite(cold, 'weights'), true);
});

test("the naive softmax at scores near 1000 overflows at exp; a causal mask's −∞ does not count", () => {
  const naive = computeModel(engine, setOption(choosePreset(defaultState(), 'overflow'), 'softmax', 'naive'));
  assert.equal(nonFiniteFrom(naive), 'exp');
  assert.equal(nonFiniteFrom(computeModel(engine, setOption(defaultState(), 'mask', 'causal'))), null);
  assert.equal(
    nonFiniteFrom(computeModel(engine, setCell(setCell(defaultState(), 'q', 0, 0, 3e38), 'k', 0, 0, 3e38))),
    'scores',
  );
});

test("the article's remarks belong to its numbers: its example with every option at its default", () => {
  assert.equal(showsArticleNumbers(defaultState()), true);
  assert.equal(showsArticleNumbers(setOption(defaultState(), 'temperature', 1e-40)), false);
  assert.equal(showsArticleNumbers(setOption(defaultState(), 'mask', 'causal')), false);
  assert.equal(showsArticleNumbers(choosePreset(defaultState(), 'cat')), false);
});

// Issue 19 item 5: from X, X·W_Q = 3e38·2 + 3e38·(−2) = ∞ − ∞ = NaN in Q, at step 2 (the projections).
test('from X, a NaN in the projection Q = X·W_Q counts, and the first step is 2 (project), not 3', () => {
  const state = {
    ...defaultState(),
    preset: 'custom',
    mode: 'x',
    n: 1,
    d: 2,
    dk: 1,
    dv: 1,
    mats: { x: [[3e38, 3e38]], wq: [[2], [-2]], wk: [[1e-38], [1e-38]], wv: [[1e-38], [1e-38]] },
  };
  const model = computeModel(engine, state);
  assert.ok(Number.isNaN(model.q.data[0]));
  assert.equal(model.nonFinite.q, 1);
  assert.equal(model.nonFinite.k, 0);
  assert.equal(nonFiniteFrom(model), 'project');
  assert.equal(showsNonFinite(model, 'x'), false);
  assert.equal(showsNonFinite(model, 'project'), true);
});
