// The URL state: one table of fields, round trips, the fallback for links that do not parse,
// and the pure state changes the page makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseState,
  serializeState,
  defaultState,
  FIELDS,
  choosePreset,
  setCell,
  setMatrix,
  resize,
  switchMode,
  setOption,
  shapesAgree,
} from '../../web/src/state.js';
import { stepsFor } from '../../web/src/steps.js';

const roundTrip = (state) => parseState(serializeState(state));

test('the default is the article worked example at step 1 in Chinese', () => {
  const s = defaultState();
  assert.equal(s.preset, 'article');
  assert.equal(s.mode, 'qkv');
  assert.equal(s.step, 1);
  assert.equal(s.lang, 'zh-CN');
  assert.deepEqual(s.mats, {
    q: [
      [1, 0],
      [0, 1],
    ],
    k: [
      [1, 0],
      [0, 1],
    ],
    v: [
      [10, 0],
      [0, 10],
    ],
  });
  assert.equal(stepsFor(s).length, 9);
  assert.deepEqual(parseState(''), { state: s, notice: null });
  assert.deepEqual(parseState('#'), { state: s, notice: null });
});

test('every field round-trips through the hash', () => {
  let s = choosePreset(defaultState(), 'cat');
  s = {
    ...s,
    step: 7,
    lang: 'en',
    scale: 'dk',
    temperature: 0.5,
    mask: 'causal',
    softmax: 'naive',
    axis: 'column',
    digits: 2,
  };
  const back = roundTrip(s);
  assert.equal(back.notice, null);
  assert.deepEqual(back.state, s);
  for (const field of FIELDS.filter((f) => !f.only)) {
    assert.match(serializeState(s), new RegExp(`(^#|&)${field.key}=`), `${field.key} is written`);
  }
});

test('custom matrices round-trip, negatives and decimals included; presets are written by name only', () => {
  const custom = setCell(defaultState(), 'q', 0, 1, -0.125);
  assert.equal(custom.preset, 'custom');
  assert.match(serializeState(custom), /q=1,-0\.125;0,1/);
  assert.deepEqual(roundTrip(custom).state, custom);
  assert.doesNotMatch(serializeState(defaultState()), /(^#|&)q=/);
  const big = setMatrix(choosePreset(defaultState(), 'cat'), 'x', [[1e-7, 2.5e10, -3, 0.1]]);
  assert.deepEqual(roundTrip(big).state, big);
});

test('random inputs are rebuilt from seed and sizes, the same every time', () => {
  const s = resize(choosePreset(setOption(defaultState(), 'seed', 42), 'random'), { n: 5, dk: 3, dv: 4 });
  assert.equal(s.preset, 'random');
  assert.equal(s.mats.q.length, 5);
  assert.equal(s.mats.q[0].length, 3);
  assert.equal(s.mats.v[0].length, 4);
  assert.deepEqual(roundTrip(s).state, s);
  const other = choosePreset(setOption(s, 'seed', 43), 'random');
  assert.notDeepEqual(other.mats, s.mats);
  assert.match(serializeState(s), /seed=42/);
});

test('a hash that does not parse falls back to the default, with a notice', () => {
  const bad = [
    '#step=0',
    '#step=banana',
    '#step=10',
    '#lang=fr',
    '#preset=nope',
    '#n=0',
    '#n=65',
    '#temperature=abc',
    '#softmax=fast',
    '#preset=custom&mode=qkv&n=2&dk=2&dv=2&q=1,0;0,1', // k and v missing
    '#preset=custom&mode=qkv&n=2&dk=2&dv=2&q=1,0;0&k=1,0;0,1&v=1,0;0,1', // ragged q
    '#preset=custom&mode=qkv&n=2&dk=2&dv=2&q=1,0;0,NaN&k=1,0;0,1&v=1,0;0,1', // NaN
    '#preset=custom&mode=qkv&n=3&dk=2&dv=2&q=1,0;0,1&k=1,0;0,1&v=1,0;0,1', // n disagrees
    '#preset=custom&mode=qkv&n=2&dk=2&dv=2&q=1,0;0,1&k=1,0;0,1&v=1,0;0,1e39', // +∞ in float32
    '#%E0%A4%A',
    '#junk',
    '#=1',
  ];
  for (const hash of bad) {
    const { state, notice } = parseState(hash);
    assert.equal(notice, 'badHash', hash);
    assert.deepEqual(state, defaultState(), hash);
  }
});

// Issue 19 item 8: a link's temperature obeys the rule of the field and the API (vocabulary.mjs);
// one it refuses is named, and the rest of the link opens, rather than "could not be read".
test("a link's temperature that float32 cannot hold opens the link with τ = 1 and names why", () => {
  for (const [text, reason] of [
    ['1e-46', 'below_float32'],
    ['1e39', 'above_float32'],
    ['0', 'not_positive'],
    ['-1', 'not_positive'],
  ]) {
    const { state, notice } = parseState(`#step=3&lang=en&temperature=${text}`);
    assert.equal(notice.key, 'linkTemperature', text);
    assert.equal(notice.problem.reason, reason, text);
    assert.equal(notice.text, text);
    assert.equal(state.temperature, 1, text);
    assert.equal(state.step, 3, text);
    assert.equal(state.lang, 'en', text);
  }
  // Just inside float32: 1e-45 rounds up to its smallest number, 3.4028235e38 down to its largest.
  for (const text of ['1e-45', '3.4028235e38', '0.5']) {
    const { state, notice } = parseState(`#temperature=${text}`);
    assert.equal(notice, null, text);
    assert.equal(state.temperature, Number(text), text);
  }
});

test('unknown keys are ignored; a preset fixes its own sizes', () => {
  const { state, notice } = parseState('#step=3&utm_source=blog&preset=article&n=7');
  assert.equal(notice, null);
  assert.equal(state.step, 3);
  assert.equal(state.n, 2);
});

test('resizing keeps the existing values and fills new cells', () => {
  const s = resize(defaultState(), { n: 3 });
  assert.equal(s.preset, 'custom');
  assert.deepEqual(
    s.mats.q.slice(0, 2).map((r) => r.slice(0, 2)),
    [
      [1, 0],
      [0, 1],
    ],
  );
  assert.equal(s.mats.q.length, 3);
  assert.ok(shapesAgree(s));
  assert.deepEqual(resize(defaultState(), { n: 0 }), { error: { key: 'size', field: 'n', max: 64 } });
  assert.deepEqual(resize(defaultState(), { dk: 65 }).error.key, 'size');
});

test('a pasted matrix of another shape resizes the others to fit', () => {
  const s = setMatrix(defaultState(), 'k', [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
  ]);
  assert.equal(s.n, 3);
  assert.equal(s.dk, 3);
  assert.ok(shapesAgree(s));
  assert.deepEqual(s.mats.k, [
    [1, 2, 3],
    [4, 5, 6],
    [7, 8, 9],
  ]);
});

test('editing one matrix never changes another (the article Q and K start equal)', () => {
  const s = setCell(defaultState(), 'q', 0, 0, 2);
  assert.deepEqual(s.mats.k, [
    [1, 0],
    [0, 1],
  ]);
  assert.deepEqual(
    defaultState().mats.q,
    [
      [1, 0],
      [0, 1],
    ],
    'the preset itself is untouched',
  );
});

test('switching mode keeps every result: X = I and W = Q, K, V; back again, Q, K, V = projections', () => {
  const s = switchMode(defaultState(), 'x');
  assert.equal(s.mode, 'x');
  assert.equal(s.d, 2);
  assert.deepEqual(s.mats.x, [
    [1, 0],
    [0, 1],
  ]);
  assert.deepEqual(s.mats.wv, [
    [10, 0],
    [0, 10],
  ]);
  assert.ok(shapesAgree(s));
  const back = switchMode(s, 'qkv', {
    q: [
      [1, 0],
      [0, 1],
    ],
    k: [
      [1, 0],
      [0, 1],
    ],
    v: [
      [10, 0],
      [0, 10],
    ],
  });
  assert.deepEqual(back.mats, defaultState().mats);
});

test('the words of "它 是 猫" stay on an edited copy, and those that fit stay when n changes', () => {
  const cat = choosePreset(defaultState(), 'cat');
  assert.equal(cat.words, 'cat');
  const edited = setCell(cat, 'x', 0, 0, 2);
  assert.equal(edited.words, 'cat');
  assert.match(serializeState(edited), /words=cat/);
  assert.deepEqual(roundTrip(edited).state, edited);
  // n = 4: the three words, and the new row's number; n = 2: the first two (in the page's language).
  assert.deepEqual(resize(edited, { n: 4 }).words, ['它', '是', '猫', '4']);
  assert.deepEqual(resize({ ...edited, lang: 'en' }, { n: 2 }).words, ['it', 'is']);
  assert.equal(resize(edited, { d: 5 }).words, 'cat');
  assert.equal(choosePreset(edited, 'article').words, 'none');
  // A hand-written link whose words are not one per row: the rest is read, the words fitted.
  const { state, notice } = parseState(
    serializeState(edited)
      .replace('n=3', 'n=2')
      .replace(/&x=[^&]*/, '&x=1,0,0,0;0,0,1,0'),
  );
  assert.deepEqual(notice, { key: 'linkWords', problem: 'count', count: 3, n: 2, text: 'cat' });
  assert.deepEqual(state.words, ['它', '是']);
});
