// The step and option descriptions (web/src/steps.js, web/src/options.js) tied together: every
// word they name exists in both languages, every figure is drawn from a field the core's model
// has, with the shape its description says, every formula renders in KaTeX, the URL's step
// numbers follow the list, and every option's name, default and rule are the JS API's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import katex from 'katex';
import createAttention from '../../wasm/attention.mjs';
import {
  STEP_LIST,
  STEPS,
  FIGURES,
  stepWordKeys,
  stepFigures,
  fieldOf,
  stepsFor,
  figureShape,
  stepIdAt,
  stepNumber,
} from '../../web/src/steps.js';
import { OPTIONS, optionWordKeys, apiOptions, SCALE_RULES, scoreDivisor } from '../../web/src/options.js';
import { VARIANTS, mainFormula, detailFormula, PART_OF_STEP } from '../../web/formulas/formulas.js';
import { computeModel } from '../../web/src/model.js';
import {
  defaultState,
  choosePreset,
  switchMode,
  parseState,
  serializeState,
  setOption,
  setLoss,
} from '../../web/src/state.js';
import { DICTIONARIES } from '../../web/src/i18n/index.js';
import { STEP_MATRICES, stepMatrices } from '../../web/src/labs/export/matrices.js';
import { SCALES, MASKS, SOFTMAXES, AXES, DEFAULTS } from '../../wasm/vocabulary.mjs';
import { toRows } from '../../web/src/matrix.js';

let engine;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
});

// The article's example in both modes, "它 是 猫" (n = 3, d = 4), and the options away from their defaults.
function states() {
  const article = defaultState();
  const fromX = switchMode(article, 'x', { q: article.mats.q, k: article.mats.k, v: article.mats.v });
  const cat = choosePreset(defaultState(), 'cat');
  const odd = ['scale:dk', 'mask:causal', 'softmax:naive', 'axis:column', 'temperature:0.5'].reduce((s, pair) => {
    const [key, value] = pair.split(':');
    return setOption(s, key, key === 'temperature' ? Number(value) : value);
  }, cat);
  // "它 是 猫" with 2 heads, its second head shown, and with the options away from their defaults.
  const heads = { ...choosePreset(defaultState(), 'heads'), head: 2 };
  const oddHeads = { ...odd, ...heads, mats: heads.mats, n: 3, d: 4, dk: 4, dv: 4, preset: 'custom' };
  // One training step (the backward steps): ½‖AV − Y‖² on the article's example from X and on
  // the odd options, and dO given with heads.
  const v = (state) => ({ v: toRows(computeModel(engine, state).v) });
  const withLoss = [
    setLoss(fromX, 'mse', v(fromX)),
    setLoss(odd, 'mse', v(odd)),
    setLoss(heads, 'given', v(heads)),
    setLoss(article, 'given', v(article)),
  ];
  return [article, fromX, cat, odd, heads, oddHeads, ...withLoss];
}

const BACKWARD = ['dout', 'dv', 'dweights', 'dscores', 'dqk', 'dw'];
// With heads the loss is on the layer's output O: back through ·W_O and concat first, then on to dX.
const LAYER_BACKWARD = ['dlayer', 'dwo', 'dsplit', 'dv', 'dweights', 'dscores', 'dqk', 'dw', 'dx'];

test('the URL numbers the steps as the list orders them: step=3 is the scores, step=9 the output, with heads 10 and 11 the concat and ·W_O, then with a loss the backward steps', () => {
  assert.deepEqual(
    stepsFor(defaultState()).map((step) => step.id),
    ['x', 'project', 'scores', 'scale', 'max', 'exp', 'sum', 'weights', 'output'],
  );
  assert.deepEqual(STEPS, [
    'x',
    'project',
    'scores',
    'scale',
    'max',
    'exp',
    'sum',
    'weights',
    'output',
    'concat',
    'outproj',
    'dout',
    'dlayer',
    'dwo',
    'dsplit',
    ...BACKWARD.slice(1),
    'dx',
  ]);
  const heads = choosePreset(defaultState(), 'heads');
  assert.deepEqual(
    stepsFor(heads).map((step) => step.id),
    STEPS.slice(0, 11),
  );
  // With a loss: the nine keep their numbers; dW only from X (Q, K, V given directly have no W).
  const v = [
    [10, 0],
    [0, 10],
  ];
  assert.deepEqual(
    stepsFor(setLoss(defaultState(), 'mse', { v })).map((step) => step.id),
    [...STEPS.slice(0, 9), ...BACKWARD.slice(0, 5)],
  );
  assert.deepEqual(
    stepsFor(setLoss(heads, 'given', { v })).map((step) => step.id),
    [...STEPS.slice(0, 11), ...LAYER_BACKWARD],
  );
  // A step's number is its place in its state's list: dQ, dK is step 14 without heads, 18 with them
  // (after dO, ·W_O and the split of d(concat)).
  const backward = { ...setLoss(defaultState(), 'mse', { v }), step: 14 };
  assert.equal(stepIdAt(parseState(serializeState(backward)).state, 14), 'dqk');
  assert.equal(stepNumber(setLoss(heads, 'given', { v }), 'dqk'), 18);
  for (const step of [10, 11])
    assert.equal(STEPS[parseState(serializeState({ ...heads, step })).state.step - 1], STEPS[step - 1]);
  stepsFor(defaultState()).forEach((step, index) => {
    const { state } = parseState(serializeState({ ...defaultState(), step: index + 1 }));
    assert.equal(STEPS[state.step - 1], step.id);
  });
  assert.equal(parseState('#step=10').notice, 'badHash');
  assert.equal(new Set(STEPS).size, STEPS.length, 'ids are unique');
});

test('every word a step or an option names is in both dictionaries', () => {
  const keys = [...STEP_LIST.flatMap((step) => stepWordKeys(step, states())), ...optionWordKeys()];
  assert.ok(
    keys.includes('step.scores.title') && keys.includes('opt.scale.sqrt_dk') && keys.includes('mat.kTransposed'),
  );
  for (const lang of ['zh-CN', 'en'])
    for (const key of keys) assert.equal(typeof DICTIONARIES[lang][key], 'string', `${lang}: ${key}`);
  for (const option of OPTIONS)
    if (option.notice)
      for (const state of states()) {
        const said = option.notice.say(state[option.key], computeModel(engine, state));
        if (said) for (const lang of ['zh-CN', 'en']) assert.equal(typeof DICTIONARIES[lang][said[1]], 'string');
      }
});

test('every figure of every step is drawn from a field of the model, with the shape its description says', () => {
  for (const state of states()) {
    const model = computeModel(engine, state, { article: true });
    for (const step of stepsFor(state))
      for (const figure of stepFigures(step, state)) {
        const described = FIGURES[figure.figure];
        assert.ok(described, `${step.id}: ${figure.figure} is described`);
        const matrix = fieldOf(model, described.field);
        if (described.optional && state.softmax === 'naive') continue; // the article's exp: stable only
        assert.ok(matrix, `${step.id}: ${described.field} is in the model`);
        const [rows, cols] = figureShape(figure.figure, state);
        assert.deepEqual([matrix.rows, matrix.cols], [rows, cols], `${step.id}: ${figure.figure}`);
        if (figure.reduce) assert.equal(fieldOf(model, figure.reduce[1]).data.length, state.n, figure.reduce[1]);
      }
    // What the steps produce is what the exports carry, and the model has all of it.
    for (const field of STEP_MATRICES) assert.ok(model[field], field);
    for (const { id, produces } of stepsFor(state)) {
      for (const field of stepMatrices(id, state)) assert.ok(model[field], field);
      for (const field of produces) assert.ok(model[field], field);
    }
    // The map's thumbnails are model fields too.
    for (const step of stepsFor(state)) for (const field of step.map.matrices(state)) assert.ok(model[field], field);
  }
});

test("every step's formula renders in KaTeX for every scaling, softmax and axis, and marks a part of the main one", () => {
  const render = (tex) =>
    katex.renderToString(tex, { throwOnError: true, strict: 'ignore', trust: (c) => c.command === '\\htmlClass' });
  for (const variant of VARIANTS) {
    const main = mainFormula(variant.scale);
    const withHeads = mainFormula(variant.scale, 4);
    render(main);
    render(withHeads);
    for (const step of STEP_LIST) {
      render(detailFormula(step.id, variant.scale, variant.softmax, variant.axis));
      const marks = `part-${PART_OF_STEP[step.id]}`;
      // a step every state has is a part of both main formulas; a step of heads only, of the heads' one
      if (!step.when) assert.ok(main.includes(marks), `${step.id} marks a part`);
      assert.ok(withHeads.includes(marks), `${step.id} marks a part with heads`);
    }
  }
  assert.match(detailFormula('scale', 'sqrt_dk'), /\\frac\{S_\{ij\}\}\{\\sqrt\{d_k\}\}/);
});

test("every option is the JS API's: its name, its values, its default; its rule refuses what the core refuses", () => {
  assert.deepEqual(
    OPTIONS.map((o) => o.key),
    ['scale', 'temperature', 'mask', 'softmax', 'axis'],
  );
  assert.deepEqual(OPTIONS.find((o) => o.key === 'scale').values, SCALES);
  assert.deepEqual(OPTIONS.find((o) => o.key === 'mask').values, MASKS);
  assert.deepEqual(OPTIONS.find((o) => o.key === 'softmax').values, SOFTMAXES);
  assert.deepEqual(OPTIONS.find((o) => o.key === 'axis').values, AXES);
  const defaults = apiOptions(defaultState());
  for (const key of ['scale', 'temperature', 'mask', 'stable', 'axis']) assert.equal(defaults[key], DEFAULTS[key], key);
  // Every value of every choice reaches the core and is accepted.
  const q = { rows: 2, cols: 2, data: new Float32Array([1, 0, 0, 1]) };
  const v = { rows: 2, cols: 2, data: new Float32Array([10, 0, 0, 10]) };
  for (const o of OPTIONS.filter((option) => option.values))
    for (const value of o.values)
      engine.attentionSteps({ q, k: q, v, ...apiOptions({ ...defaultState(), [o.key]: value }) });
  // The temperature's rule: what it refuses, the core refuses too, and the URL does not carry it.
  const temperature = OPTIONS.find((o) => o.key === 'temperature');
  for (const bad of [0, -1, NaN, Infinity]) {
    assert.ok(temperature.validate(bad), String(bad));
    assert.throws(() => engine.attentionSteps({ q, k: q, v, temperature: bad }), { code: 'bad_temperature' });
    assert.equal(parseState(`#temperature=${bad}`).state.temperature, DEFAULTS.temperature);
  }
  assert.equal(temperature.validate(0.5), null);
});

test('the scaling rule: the article divides S by √d_k = √2 (S/√2 = 0.7071), d_k by 2, none by 1; τ multiplies it', () => {
  assert.equal(SCALE_RULES.sqrt_dk.divisor(2), Math.SQRT2);
  assert.equal(SCALE_RULES.dk.divisor(2), 2);
  assert.equal(SCALE_RULES.none.divisor(2), 1);
  assert.equal(scoreDivisor({ scale: 'sqrt_dk', temperature: 2 }, 4), 4);
  // The core agrees: scaled = scores / divisor, on the article's Q = K = I₂.
  for (const scale of SCALES) {
    const model = computeModel(engine, setOption(defaultState(), 'scale', scale));
    const expected = 1 / SCALE_RULES[scale].divisor(2);
    assert.ok(Math.abs(toRows(model.scaled)[0][0] - expected) < 1e-6, scale);
  }
});
