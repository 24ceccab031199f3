// Issue 27, item 9: every link the page writes opens again as the same state. Random sequences of
// the page's own state changes — the functions the controller commits (a preset, the heads, the
// head shown, the mode, an option, the seed, the loss and its matrix, a size, a cell, a paste, a
// step, the language) — each adopted as the page's commit adopts it (state.js adopt), from a fixed
// seed — and the reader's own words (one per row: the panel refuses any other count before it
// commits), with Chinese and characters a URL escapes. After every change the page takes (the core computes it), the link it writes parses with
// no notice, computes the same numbers, and is written back the same; a change that is not a move
// keeps the reader on the same step wherever that step still exists (dO stays dO when heads change).
// The numbers are the wasm core's, loaded in Node as the other tests/web tests load it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import createAttention from '../../wasm/attention.mjs';
import { computeModel, COMPARED } from '../../web/src/model.js';
import {
  defaultState,
  parseState,
  serializeState,
  adopt,
  keepStep,
  choosePreset,
  setOption,
  setCell,
  setMatrix,
  resize,
  switchMode,
  setHeads,
  setLoss,
  setLossMatrix,
  setWords,
  HEADS_LIMIT,
  SIZE_NAMES,
  LANGS,
} from '../../web/src/state.js';
import { PRESETS } from '../../web/src/presets.js';
import { LOSSES, lossShape, BACKWARD_FIELDS } from '../../web/src/backward.js';
import { stepCount, stepIdAt, stepsFor, stepNumber } from '../../web/src/steps.js';
import { toRows } from '../../web/src/matrix.js';
import { SCALES, MASKS, SOFTMAXES, AXES } from '../../wasm/vocabulary.mjs';

const SEED = 20261203;
const SEQUENCES = 300;
const CHANGES = 16;

let engine;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
});

/** mulberry32: a small seeded generator, so that a failure names a sequence that replays. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  // A cell's value as a reader types it: mostly small, now and then near float32's limit.
  const value = () => (next() < 0.05 ? pick([3e38, -3e38, 1e30]) : Math.round((next() * 8 - 4) * 10) / 10);
  const matrix = (rows, cols) => Array.from({ length: rows }, () => Array.from({ length: cols }, value));
  return { next, int, pick, value, matrix };
}

/** Q, K, V of the head on screen, as rows: what setHeads and switchMode take from the page's model. */
const projections = (model) => ({ q: toRows(model.q), k: toRows(model.k), v: toRows(model.v) });

/**
 * The page's own changes: [name, (state, model, random) → the state the controller commits, or
 * null when the page refuses it before committing (a size out of range, a loss matrix of the
 * wrong shape)]. `move: true` for the changes that move the step themselves.
 */
const CHANGES_OF_THE_PAGE = [
  ['preset', (s, m, r) => choosePreset(s, r.pick(PRESETS))],
  ['heads', (s, m, r) => setHeads(s, r.int(1, Math.min(4, HEADS_LIMIT)), projections(m))],
  ['head', (s, m, r) => (s.heads > 1 ? { ...s, head: r.int(1, s.heads) } : null)],
  ['mode', (s, m, r) => switchMode(s, r.pick(['x', 'qkv']), projections(m))],
  [
    'option',
    (s, m, r) =>
      r.pick([
        () => setOption(s, 'scale', r.pick(SCALES)),
        () => setOption(s, 'mask', r.pick(MASKS)),
        () => setOption(s, 'softmax', r.pick(SOFTMAXES)),
        () => setOption(s, 'axis', r.pick(AXES)),
        () => setOption(s, 'temperature', r.pick([0.5, 1, 2])),
      ])(),
  ],
  ['seed', (s, m, r) => choosePreset(setOption(s, 'seed', r.int(0, 1000)), 'random')],
  ['loss', (s, m, r) => setLoss(s, r.pick(LOSSES), { v: toRows(m.v) })],
  ['loss matrix', (s, m, r) => (s.loss === 'none' ? null : setLossMatrix(s, r.matrix(...lossShape(s))))],
  [
    'size',
    (s, m, r) => {
      const next = resize(s, { [r.pick(SIZE_NAMES)]: r.int(1, 6) });
      return next.error ? null : next;
    },
  ],
  [
    'cell',
    (s, m, r) => {
      const name = r.pick(Object.keys(s.mats));
      const rows = s.mats[name];
      return setCell(s, name, r.int(0, rows.length - 1), r.int(0, rows[0].length - 1), r.value());
    },
  ],
  [
    'paste',
    (s, m, r) => {
      const name = r.pick(Object.keys(s.mats));
      const next = setMatrix(s, name, r.matrix(r.int(1, 5), r.int(1, 5)));
      return next.error ? null : next;
    },
  ],
  ['step', (s, m, r) => ({ ...s, step: r.int(1, stepCount(s)) }), { move: true }],
  ['language', (s, m, r) => ({ ...s, lang: r.pick(LANGS) })],
  [
    'words',
    (s, m, r) =>
      setWords(
        s,
        r.next() < 0.2
          ? 'none'
          : Array.from({ length: s.n }, () => r.pick(['猫', '狗', 'cat', 'a&b', '50%', '#1', 'x=y'])),
      ),
  ],
];

/** The model the page would show for `state`, or null when the core refuses it (the page keeps the last good one). */
function computed(state) {
  try {
    return computeModel(engine, state);
  } catch (error) {
    if (error.code === undefined) throw error; // not the core's refusal: a defect of the page
    return null;
  }
}

/** Every number two models of the same state hold, compared bit for bit (NaN with NaN). */
function sameNumbers(a, b, where) {
  for (const name of [...COMPARED, ...BACKWARD_FIELDS, 'concat', 'projected']) {
    if (!a[name] && !b[name]) continue;
    assert.ok(a[name] && b[name], `${where}: ${name} on one side only`);
    const x = a[name].data;
    const y = b[name].data;
    assert.equal(x.length, y.length, `${where}: ${name}'s size`);
    for (let k = 0; k < x.length; k++)
      assert.ok(Object.is(x[k], y[k]) || (Number.isNaN(x[k]) && Number.isNaN(y[k])), `${where}: ${name}[${k}]`);
  }
  assert.ok(Object.is(a.loss ?? null, b.loss ?? null), `${where}: L`);
}

test(`${SEQUENCES} random sequences of the page's own changes: every link it writes opens again as the same state`, () => {
  const random = generator(SEED);
  const counts = { adopted: 0, refused: 0, renumbered: 0 };
  for (let sequence = 0; sequence < SEQUENCES; sequence++) {
    let state = defaultState();
    let model = computed(state);
    const trail = [];
    for (let change = 0; change < CHANGES; change++) {
      const [name, make, { move = false } = {}] = random.pick(CHANGES_OF_THE_PAGE);
      const made = make(state, model, random);
      if (!made) continue;
      const next = adopt(state, made);
      const nextModel = computed(next);
      trail.push(name);
      const where = `sequence ${sequence} (${trail.join(' → ')})`;
      if (!nextModel) {
        counts.refused++;
        continue;
      }
      assert.ok(next.step >= 1 && next.step <= stepCount(next), `${where}: step ${next.step} of ${stepCount(next)}`);
      // The same step by its identity, where the new state still has it.
      const before = stepIdAt(state, state.step);
      if (!move && stepsFor(next).some((step) => step.id === before)) {
        assert.equal(stepIdAt(next, next.step), before, `${where}: the reader stays on ${before}`);
        if (next.step !== state.step) counts.renumbered++;
      }
      const link = serializeState(next);
      const opened = parseState(link);
      assert.equal(opened.notice, null, `${where}: ${link} opens with a notice`);
      assert.equal(serializeState(opened.state), link, `${where}: ${link} is written back the same`);
      const openedModel = computed(opened.state);
      assert.ok(openedModel, `${where}: ${link} computes`);
      sameNumbers(nextModel, openedModel, `${where}: ${link}`);
      state = next;
      model = nextModel;
      counts.adopted++;
    }
  }
  // The sequences did reach what they test: many adopted changes, some the core refuses, and
  // changes that renumbered the steps while keeping the reader's.
  assert.ok(counts.adopted > SEQUENCES * 5, JSON.stringify(counts));
  assert.ok(counts.refused > 0 && counts.renumbered > 0, JSON.stringify(counts));
});

test('a change keeps the step by its identity: dV stays dV through 1 → 2 → 1 heads; concat, gone, gives AV', () => {
  const cat = choosePreset(defaultState(), 'cat');
  const withLoss = setLoss(cat, 'given', { v: toRows(computed(cat).v) });
  const onDv = { ...withLoss, step: stepNumber(withLoss, 'dv') };
  const two = setHeads(onDv, 2, projections(computed(onDv)));
  assert.equal(stepIdAt(two, two.step), 'dv');
  assert.notEqual(two.step, onDv.step, 'its number moved: the layer’s steps come first');
  const one = setHeads(two, 1, projections(computed(two)));
  assert.deepEqual([stepIdAt(one, one.step), one.step], ['dv', onDv.step]);
  // Steps that are gone: the nearest one before them that is still there.
  const heads = choosePreset(defaultState(), 'heads');
  const onConcat = { ...heads, step: stepNumber(heads, 'concat') };
  assert.equal(stepIdAt(setHeads(onConcat, 1, projections(computed(onConcat))), 9), 'output');
  assert.equal(setHeads(onConcat, 1, projections(computed(onConcat))).step, 9);
  assert.equal(choosePreset({ ...heads, step: stepNumber(heads, 'outproj') }, 'article').step, 9);
  assert.equal(setLoss({ ...onDv, step: stepNumber(onDv, 'dw') }, 'none', { v: [] }).step, 9);
  // A step named from another view (the training lab's hand-off to dO) is taken as it is named,
  // even where the step the reader left had the same number (concat, with heads).
  const dout = { ...withLoss, step: stepNumber(withLoss, 'dout') };
  const lab = { ...onConcat, view: 'train-lab', step: dout.step };
  assert.equal(stepIdAt(lab, lab.step), 'concat');
  assert.equal(keepStep(lab, dout).step, dout.step);
});
