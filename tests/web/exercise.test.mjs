// Exercise mode (web/src/features/exercise/: exercise.js, exercise-fields.js) on the real wasm core: the series
// walks the article's worked example (S₁₁ = 1, 0.71, 0.67, 0.33, 6.7) and then seeded random
// examples; answers are checked at the rounding asked for; hints carry the live numbers; the
// teacher's link fields round-trip.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine } from '../../web/src/engine.js';
import {
  exerciseQuestion,
  checkAnswer,
  hints,
  seriesPlan,
  cellName,
  WORKED_QUESTIONS,
} from '../../web/src/features/exercise/exercise.js';
import { EXERCISE_FIELDS, CELL_KINDS } from '../../web/src/features/exercise/exercise-fields.js';
import { defaultState, serializeState, parseState } from '../../web/src/state.js';

let engine;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes }, scalar: false });
});

const fields = (over = {}) => ({ ...Object.fromEntries(EXERCISE_FIELDS.map((f) => [f.key, f.initial])), ...over });
const question = (over) => exerciseQuestion(engine, fields(over));

// An independent float64 softmax(QKᵀ/√d_k)·V of rows-of-numbers inputs.
function float64Attention({ q, k, v }) {
  const dk = q[0].length;
  const scores = q.map((qi) => k.map((kj) => qi.reduce((s, x, c) => s + x * kj[c], 0)));
  const scaled = scores.map((row) => row.map((x) => x / Math.sqrt(dk)));
  const weights = scaled.map((row) => {
    const m = Math.max(...row);
    const e = row.map((x) => Math.exp(x - m));
    const s = e.reduce((a, b) => a + b);
    return e.map((x) => x / s);
  });
  const output = weights.map((a) => v[0].map((_, c) => a.reduce((s, w, j) => s + w * v[j][c], 0)));
  return { score: scores, scaled, weight: weights, output };
}

test('the series opens with the worked example of §7: S₁₁ = 1, S₁₁/√2 = 0.71, A₁₁ = 0.67, A₁₂ = 0.33, (AV)₁₁ = 6.7', () => {
  const asked = [1, 2, 3, 4, 5].map((ex) => question({ ex }));
  assert.deepEqual(
    asked.map((a) => [a.kind, a.i, a.j]),
    WORKED_QUESTIONS.map((w) => [w.kind, w.i, w.j]),
  );
  assert.deepEqual(
    asked.map((a) => a.answer),
    ['1.00', '0.71', '0.67', '0.33', '6.70'],
  );
  assert.deepEqual(asked[4].example.v, [
    [10, 0],
    [0, 10],
  ]);
  assert.equal(asked[0].example.source, 'article');
  assert.equal(asked[0].total, 10);
  assert.ok(Math.abs(asked[2].expected - 0.6698) < 5e-5);
});

test('answers are checked at the rounding asked for: ± half a unit of the last decimal', () => {
  const a11 = question({ ex: 3 });
  assert.equal(checkAnswer(a11, '0.67').verdict, 'correct');
  assert.equal(checkAnswer(a11, '0.6698').verdict, 'correct');
  assert.equal(checkAnswer(a11, '０．６７').verdict, 'correct', 'full-width, as typed with a Chinese IME');
  assert.equal(checkAnswer(a11, '0.66').verdict, 'close');
  assert.equal(checkAnswer(a11, '0.68').verdict, 'close');
  assert.equal(checkAnswer(a11, '0.33').verdict, 'wrong');
  assert.deepEqual(checkAnswer(a11, 'e^0.71').verdict, 'unreadable');
  assert.equal(checkAnswer(a11, '0.67').tolerance, 0.005);
  const out = question({ ex: 5 });
  assert.equal(checkAnswer(out, '6.7').verdict, 'correct', "the article's own 6.7 is 6.70 to two decimals");
  assert.equal(checkAnswer(out, '6.69').verdict, 'close');
  // one decimal asked: 6.7 ± 0.05
  const coarse = question({ ex: 5, exdigits: 1 });
  assert.equal(coarse.answer, '6.7');
  assert.equal(checkAnswer(coarse, '6.65').verdict, 'correct');
  assert.equal(checkAnswer(coarse, '6.6').verdict, 'close');
});

test("hints for A₁₂ of the worked example: the dot products, ÷√2, exp, then normalise — the article's numbers", () => {
  const h = hints(question({ ex: 4 }));
  assert.deepEqual(
    h.map((x) => x.step),
    ['dot', 'divide', 'exp', 'normalise'],
  );
  assert.equal(h[0].formula, 'S₁₁ = q₁·k₁ = 1×1 + 0×0 = 1; S₁₂ = q₁·k₂ = 1×0 + 0×1 = 0');
  assert.equal(h[1].formula, '√2 = 1.414; 1 / 1.414 = 0.7071, 0 / 1.414 = 0');
  assert.equal(h[2].formula, 'max = 0.7071; e^(0.7071 − 0.7071) = 1, e^(0 − 0.7071) = 0.4931');
  assert.equal(h[3].formula, 'Σ = 1 + 0.4931 = 1.493; A₁₂ = 0.4931 / 1.493 = 0.3302');
  assert.deepEqual(
    hints(question({ ex: 1 })).map((x) => x.step),
    ['dot'],
  );
  assert.deepEqual(
    hints(question({ ex: 2 })).map((x) => x.step),
    ['dot', 'divide'],
  );
  const output = hints(question({ ex: 5 }));
  assert.deepEqual(
    output.map((x) => x.step),
    ['dot', 'divide', 'exp', 'normalise', 'weighted'],
  );
  assert.equal(output[4].formula, '(AV)₁₁ = 0.6698×10 + 0.3302×0 = 6.698');
});

test('then seeded random small examples, one cell each, the kinds in turn; each answer as float64 computes it', () => {
  const plan = seriesPlan(fields({ exlen: 13, exseed: 4 }));
  assert.deepEqual(
    plan.slice(5).map((p) => p.kind),
    [...CELL_KINDS, ...CELL_KINDS],
  );
  for (let ex = 6; ex <= 13; ex++) {
    const qn = question({ ex, exlen: 13, exseed: 4 });
    const { q, k, v } = qn.example;
    assert.equal(qn.example.source, 'random');
    assert.ok(
      [2, 3].includes(q.length) && [2, 3].includes(q[0].length) && k.length === q.length && v.length === q.length,
    );
    assert.ok([...q, ...k].flat().every((x) => Number.isInteger(x) && x >= -2 && x <= 2));
    const want = float64Attention(qn.example)[qn.kind][qn.i][qn.j];
    assert.ok(Math.abs(qn.expected - want) < 1e-5, `question ${ex}: ${qn.expected} vs ${want}`);
    assert.equal(checkAnswer(qn, want.toFixed(2)).verdict, 'correct');
    assert.ok(hints(qn).length >= 1);
    // a link to a question shows the same question, however the reader got there
    assert.deepEqual(question({ ex, exlen: 13, exseed: 4 }).example, qn.example);
  }
  assert.notDeepEqual(question({ ex: 6, exseed: 5 }).example, question({ ex: 6, exseed: 4 }).example);
});

test('the teacher picks the kinds and the example: exkinds=output only, exfrom=page', () => {
  const outputs = seriesPlan(fields({ exkinds: ['output'] }));
  assert.deepEqual(
    outputs.map((p) => p.kind),
    Array(10).fill('output'),
  );
  assert.deepEqual([outputs[0].i, outputs[0].j, outputs[0].example.source], [0, 0, 'article']);
  const page = {
    q: [
      [0.5, 2, 0, 0],
      [0, 0, 1, 0],
      [0, 1.5, 0, 1],
    ],
    k: [
      [1, 0.75, 0, 0],
      [0, 0, 1, 0],
      [0, 1.5, 0, 1],
    ],
    v: [
      [1, 0.5, 0, 0],
      [0, 0, 1, 0],
      [0, 1, 0, 1],
    ],
  };
  const onPage = exerciseQuestion(engine, fields({ exfrom: 'page', ex: 3 }), page);
  assert.equal(onPage.example.source, 'page');
  assert.deepEqual(onPage.example.q, page.q);
  assert.ok(Math.abs(onPage.expected - float64Attention(page)[onPage.kind][onPage.i][onPage.j]) < 1e-5);
  assert.throws(() => exerciseQuestion(engine, fields({ exfrom: 'page' })), /needs the page/);
});

test('each question names its cell as the article writes it: S₁₁, S₁₁/√2, A₁₁, A₁₂, (AV)₁₁; two-digit indices with a comma', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((ex) => cellName(question({ ex }))),
    ['S₁₁', 'S₁₁/√2', 'A₁₁', 'A₁₂', '(AV)₁₁'],
  );
  const example = { q: [[1, 2, 3]] };
  assert.equal(cellName({ kind: 'scaled', i: 0, j: 1, example }), 'S₁₂/√3');
  assert.equal(cellName({ kind: 'weight', i: 11, j: 0, example }), 'A₁₂,₁');
});

test("the hash fields, through the page's state: defaults, round trip, written only in the exercise view, a bad link falls back whole", () => {
  assert.deepEqual(
    EXERCISE_FIELDS.map((f) => f.key),
    ['ex', 'exlen', 'exseed', 'exdigits', 'exkinds', 'exfrom'],
  );
  const exercise = { ...defaultState(), view: 'exercise' };
  assert.match(
    serializeState(exercise),
    /^#view=exercise&step=1&.*&ex=1&exlen=10&exseed=1&exdigits=2&exkinds=score,scaled,weight,output&exfrom=series$/,
  );
  assert.doesNotMatch(serializeState(defaultState()), /ex=|exlen=/, "the stepper's links carry no exercise fields");
  const teacher = {
    ...exercise,
    ex: 4,
    exlen: 6,
    exseed: 2024,
    exdigits: 3,
    exkinds: ['weight', 'score'],
    exfrom: 'page',
  };
  assert.deepEqual(parseState(serializeState(teacher)), { state: teacher, notice: null });
  assert.equal(parseState('#view=exercise&step=3&lang=en&ex=2').state.ex, 2);
  for (const bad of [
    'ex=11',
    'ex=0',
    'exkinds=weight,weight',
    'exkinds=softmax',
    'exkinds=',
    'exdigits=5',
    'exfrom=mine',
    'exseed=-1',
    'ex',
  ])
    assert.deepEqual(parseState(`#view=exercise&${bad}`), { state: defaultState(), notice: 'badHash' }, bad);
});
