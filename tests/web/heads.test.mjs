// Multi-head attention on the page: the hash's heads= and head=, the state changes, the model the
// core computes for the preset "它 是 猫" with 2 heads against the float64 fixture
// (tests/fixtures/multi-head.json), the heads' colours, what the heads overview reads from each
// head, the core's cost counts, and the JSON and CSV exports of every head.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import createAttention from '../../wasm/attention.mjs';
import {
  parseState,
  serializeState,
  defaultState,
  choosePreset,
  setHeads,
  switchMode,
  resize,
  shapesAgree,
  HEADS_LIMIT,
} from '../../web/src/state.js';
import { stepsFor, stepById } from '../../web/src/steps.js';
import { mainFormula, mainFormulaPieces, headsPieces } from '../../web/formulas/formulas.js';
import { computeModel, largestDifference } from '../../web/src/model.js';
import { HEAD_COLORS } from '../../web/src/head-colors.js';
import { headSummary } from '../../web/src/heads.js';
import { nonFiniteFrom } from '../../web/src/non-finite.js';
import { contrast } from '../../web/src/colors.js';
import { exportJson, readJsonExport } from '../../web/src/labs/export/json.js';
import { exportCsv, readCsvExport } from '../../web/src/labs/export/csv.js';
import { engineErrorField, describeEngineError } from '../../web/src/engine-errors.js';
import { translator } from '../../web/src/i18n/index.js';
import { MAX_HEADS } from '../../wasm/vocabulary.mjs';
import { embedSnippet } from '../../web/src/embed/snippet.js';
import { toRows } from '../../web/src/matrix.js';

const FIXTURE = JSON.parse(fs.readFileSync(new URL('../fixtures/multi-head.json', import.meta.url), 'utf8'));
const TWO_HEADS = FIXTURE.cases.find((c) => c.name === '它 是 猫, 2 heads');

let engine;
before(async () => {
  engine = await createAttention({
    wasmBinary: fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url)),
  });
});

const heads = () => choosePreset(defaultState(), 'heads');
const near = (actual, expected, what, tolerance = FIXTURE.tolerance) => {
  const rows = toRows(actual);
  assert.equal(rows.length, expected.length, `${what}: rows`);
  rows.forEach((row, i) =>
    row.forEach((x, j) =>
      assert.ok(Math.abs(x - expected[i][j]) <= tolerance, `${what}[${i}][${j}]: ${x}, expected ${expected[i][j]}`),
    ),
  );
};

test('the preset "它 是 猫" with 2 heads is the fixture\'s example, and its link carries heads=2&head=1', () => {
  const state = heads();
  assert.equal(state.heads, 2);
  assert.equal(state.mode, 'x');
  for (const name of ['x', 'wq', 'wk', 'wv', 'wo']) assert.deepEqual(state.mats[name], TWO_HEADS[name], name);
  const hash = serializeState(state);
  assert.match(hash, /&heads=2&head=1&/);
  assert.deepEqual(parseState(hash), { state, notice: null });
  // Head 2, at the ·W_O step (11 of 11), reads back as it was.
  const back = parseState(serializeState({ ...state, head: 2, step: 11 })).state;
  assert.deepEqual([back.head, back.step, stepsFor(back).at(-1).id], [2, 11, 'outproj']);
});

test('with one head the hash reads and writes as it always has: no heads=, head= or wo=, and nine steps', () => {
  assert.doesNotMatch(serializeState(defaultState()), /heads|head=|wo=/);
  assert.doesNotMatch(serializeState(choosePreset(defaultState(), 'cat')), /heads|head=|wo=/);
  assert.equal(stepsFor(defaultState()).length, 9);
  for (const hash of ['#step=10', '#preset=cat&step=11']) assert.equal(parseState(hash).notice, 'badHash', hash);
});

test("a link the heads' rules refuse opens the article's example with a notice", () => {
  const hash = serializeState(heads());
  for (const [what, bad] of [
    ['more heads than the page offers', hash.replace('heads=2', `heads=${HEADS_LIMIT + 1}`)],
    ['no heads', hash.replace('heads=2', 'heads=0')],
    ['a head beyond the heads', hash.replace('head=1', 'head=3')],
    ['heads on Q, K, V given directly', '#preset=custom&mode=qkv&heads=2&head=1&q=1,0;0,1&k=1,0;0,1&v=1,0;0,1'],
  ])
    assert.equal(parseState(bad).notice, 'badHash', what);
  // The page's limit is the core's, within the heads' colours.
  assert.equal(HEADS_LIMIT, Math.min(MAX_HEADS, HEAD_COLORS.light.length));
  assert.equal(HEADS_LIMIT, 8);
});

test('choosing heads: from Q, K, V the inputs become X = I and W = Q, K, V, with a seeded W_O; one head drops W_O', () => {
  const article = defaultState();
  const two = setHeads(article, 2, article.mats);
  assert.equal(two.mode, 'x');
  assert.deepEqual(two.mats.x, [
    [1, 0],
    [0, 1],
  ]);
  assert.deepEqual(two.mats.wv, article.mats.v);
  assert.deepEqual([two.mats.wo.length, two.mats.wo[0].length], [2, 2], 'W_O is h·d_v × d');
  assert.deepEqual(setHeads(article, 2, article.mats).mats.wo, two.mats.wo, 'seeded: the same W_O every time');
  assert.deepEqual(parseState(serializeState(two)).state, two);
  const one = setHeads(two, 1);
  assert.equal(one.heads, 1);
  assert.equal('wo' in one.mats, false);
  // The last step of 11 becomes the last of 9; the head shown stays within the heads.
  const back = setHeads({ ...heads(), step: 11, head: 2 }, 1);
  assert.deepEqual([back.step, back.head], [9, 1]);
  // Larger sizes grow W_O with the others; back to Q, K, V directly, the head shown is the one head.
  assert.deepEqual(resize(heads(), { dv: 6 }).mats.wo.length, 6);
  const shown = { ...heads(), head: 2, step: 10 };
  const { q, k, v } = computeModel(engine, shown);
  const direct = switchMode(shown, 'qkv', { q: toRows(q), k: toRows(k), v: toRows(v) });
  assert.deepEqual([direct.heads, direct.head, direct.step, direct.dk, direct.dv], [1, 1, 9, 2, 2]);
  assert.ok(shapesAgree(direct));
  // …whose weights are the head's, now computed as the one head.
  near(
    computeModel(engine, direct).weights,
    toRows(computeModel(engine, shown).weights),
    'head 2 as the one head',
    1e-6,
  );
});

test("the model shows head 1 or head 2 in the nine steps: the fixture's weights, concat and output to 1e-5", () => {
  const expected = TWO_HEADS.expected;
  for (const head of [1, 2]) {
    const model = computeModel(engine, { ...heads(), head }, { article: true });
    const mine = expected.heads[head - 1];
    for (const name of ['q', 'k', 'v', 'scores', 'scaled', 'exps', 'weights', 'output'])
      near(model[name], mine[name], `head ${head} ${name}`);
    near(model.rowSum, mine.row_sum, `head ${head} rowSum`);
    near(model.concat, expected.concat, 'concat');
    near(model.projected, expected.output, 'concat·W_O');
    near(model.qAll, expected.q, 'Q');
    assert.equal(model.heads.length, 2);
    assert.ok(model.article, "the article's exp without the max, for the shown head");
  }
  // Head 1 attends to the previous word (是 → 它 0.9411, 猫 → 是 0.9411), head 2 to the word itself.
  const [first, second] = computeModel(engine, heads()).heads.map((h) => toRows(h.weights));
  assert.deepEqual(
    first.map((row) => row.map((a) => a.toFixed(4))),
    [
      ['0.3333', '0.3333', '0.3333'],
      ['0.9411', '0.0556', '0.0033'],
      ['0.0556', '0.9411', '0.0033'],
    ],
  );
  assert.deepEqual(
    second.map((row) => row.map((a) => a.toFixed(4))),
    [
      ['0.9411', '0.0556', '0.0033'],
      ['0.0556', '0.9411', '0.0033'],
      ['0.0002', '0.0002', '0.9996'],
    ],
  );
});

test('the reference path agrees with the SIMD path on every head, the concat and the output', () => {
  const state = { ...heads(), head: 2 };
  const difference = largestDifference(computeModel(engine, state), computeModel(engine, state, { path: 'reference' }));
  assert.ok(difference.value < 1e-6, JSON.stringify(difference));
});

test("the cost note's numbers are the core's: 2 heads of d_k = 2 cost what one head of d_k = 4 costs, stage by stage", () => {
  const model = computeModel(engine, heads());
  assert.deepEqual(model.multiplyAdds, {
    projections: 144,
    scores: 36,
    weighting: 36,
    outputProjection: 48,
    total: 264,
  });
  assert.deepEqual(model.oneHeadMultiplyAdds, model.multiplyAdds);
  const f = TWO_HEADS.expected.multiply_adds;
  assert.deepEqual(
    [f.projections, f.scores, f.weighting, f.output_projection],
    [144, 36, 36, 48],
    'the float64 fixture counts the same',
  );
});

test('a head count that does not divide d_k is refused by the core, worded at the heads field in both languages', () => {
  const three = { ...heads(), heads: 3, preset: 'custom' };
  let error;
  assert.throws(
    () => computeModel(engine, three),
    (e) => (error = e).code === 'heads_indivisible',
  );
  assert.equal(engineErrorField(error), 'heads');
  assert.match(describeEngineError(error, translator('zh-CN'), three), /3 个头/);
  assert.match(describeEngineError(error, translator('en'), three), /3 heads/);
});

test("each head's colour keeps 4.5:1 against the page and its panels in both themes", () => {
  const css = fs.readFileSync(new URL('../../web/styles.css', import.meta.url), 'utf8');
  const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  // Each colour of the page is light-dark(light, dark).
  const grounds = (theme) =>
    ['--bg', '--surface'].map(
      (name) =>
        new RegExp(`${name}: light-dark\\((#[0-9a-f]{6}), (#[0-9a-f]{6})\\)`).exec(css)[theme === 'light' ? 1 : 2],
    );
  for (const theme of ['light', 'dark']) {
    assert.equal(new Set(HEAD_COLORS[theme]).size, 8, `${theme}: eight different colours`);
    for (const ground of grounds(theme))
      for (const color of HEAD_COLORS[theme])
        assert.ok(contrast(rgb(color), rgb(ground)) >= 4.5, `${theme} ${color} on ${ground}`);
  }
});

test("the overview's numbers: head 1 spreads 它's attention evenly (log₂ 3 bits), head 2 is focused", () => {
  const [first, second] = computeModel(engine, heads()).heads.map((h) => headSummary(h.weights));
  // The mean entropy of the fixture's float64 weights: (log₂ 3 + 2 · 0.3415) / 3 = 0.756 bits.
  const entropy = (rows) =>
    rows.reduce((sum, row) => sum - row.reduce((s, a) => s + a * Math.log2(a), 0), 0) / rows.length;
  assert.ok(Math.abs(first.entropy - entropy(TWO_HEADS.expected.heads[0].weights)) < 1e-5, String(first.entropy));
  assert.equal(first.entropy.toFixed(3), '0.756');
  assert.ok(second.entropy < first.entropy);
  assert.equal(first.largest.toFixed(4), '0.9411');
  assert.equal(second.largest.toFixed(4), '0.9996');
  assert.deepEqual(
    first.strongest.slice(1).map(({ i, j }) => [i, j]),
    [
      [1, 0],
      [2, 1],
    ],
    '是 → 它, 猫 → 是: the previous word',
  );
  assert.deepEqual(
    second.strongest.map(({ i, j }) => [i, j]),
    [
      [0, 0],
      [1, 1],
      [2, 2],
    ],
    'each word → itself',
  );
});

test("JSON and CSV hold every head: the shown head's steps, concat, concat·W_O, then head1.q … head2.output", () => {
  const state = { ...heads(), head: 2 };
  const model = computeModel(engine, state);
  const json = readJsonExport(exportJson(model, state));
  assert.deepEqual(Object.keys(json.inputs), ['x', 'wq', 'wk', 'wv', 'wo']);
  assert.deepEqual([json.heads, json.head], [2, 2]);
  assert.ok('concat' in json.steps && 'projected' in json.steps);
  near(json.more['head1.weights'], TWO_HEADS.expected.heads[0].weights, 'JSON head 1 A');
  near(json.more['head2.output'], TWO_HEADS.expected.heads[1].output, 'JSON head 2 AV');
  near(json.steps.projected, TWO_HEADS.expected.output, 'JSON concat·W_O');
  const csv = readCsvExport(exportCsv(model, state));
  for (const name of ['wo', 'concat', 'projected', 'qAll', 'head1.scores', 'head2.weights']) assert.ok(csv[name], name);
  near(csv['head1.weights'], TWO_HEADS.expected.heads[0].weights, 'CSV head 1 A');
  near(csv.concat, TWO_HEADS.expected.concat, 'CSV concat');
});

test('an embed of head 2 at the concat step carries step=10, heads=2 and head=2, and the frame reads it back', () => {
  const state = { ...heads(), head: 2, step: 10, embed: true };
  const snippet = embedSnippet({
    pageUrl: 'https://example.org/attention/index.html',
    hash: serializeState(state),
    title: 'x',
  });
  assert.match(snippet, /#step=10&amp;[^"]*&amp;heads=2&amp;head=2&amp;[^"]*embed=1"/);
  const hash = /src="[^#"]*(#[^"]*)"/.exec(snippet)[1].replace(/&amp;/g, '&');
  assert.deepEqual(parseState(hash).state, state);
});

test("a number float32 cannot hold is placed at the shown head's step, and at concat when only another head has it", () => {
  // X = 1e19 on 它: head 2 asks 它 with its own key, q·k = 4e39 is beyond float32 (∞) from its scores
  // on; head 1's query for 它 is (0, 0), so its steps stay finite and the ∞ first shows in the concat.
  const mats = { ...heads().mats, x: [[1e19, 0, 0, 1], ...heads().mats.x.slice(1)] };
  const big = { ...heads(), preset: 'custom', mats };
  assert.equal(nonFiniteFrom(computeModel(engine, { ...big, head: 2 })), 'scores');
  const first = computeModel(engine, { ...big, head: 1 });
  assert.equal(nonFiniteFrom(first), 'concat');
  assert.deepEqual(
    [first.nonFinite.weights, first.nonFinite.concat > 0, first.nonFinite.projected > 0],
    [0, true, true],
  );
});

test('with heads the main formula goes on: head_i = Attention(Q_i, K_i, V_i), MultiHead(X) = concat(…)·W_O, its own parts', () => {
  const one = mainFormulaPieces('sqrt_dk');
  const pieces = mainFormulaPieces('sqrt_dk', 4);
  assert.equal(pieces.length, 4, 'projections ⇒, the attention, head_i, MultiHead: pieces that wrap on a phone');
  assert.deepEqual(pieces.slice(0, 2), one, "the article's two pieces stay as they are");
  assert.deepEqual(pieces.slice(2), headsPieces(), 'the same pieces for every option');
  assert.equal(pieces[2], '\\mathrm{head}_i = \\operatorname{Attention}(Q_i, K_i, V_i),');
  assert.match(pieces[3], /^\\operatorname\{MultiHead\}\(X\) = \\htmlClass\{part-concat\}\{\\operatorname\{concat\}/);
  assert.match(pieces[3], /\\htmlClass\{part-outproj\}\{W_O\}$/);
  assert.equal(stepById('concat').formula.part, 'concat');
  assert.equal(stepById('outproj').formula.part, 'outproj');
  // One head: the article's formula, with neither part.
  assert.doesNotMatch(mainFormula('sqrt_dk'), /part-concat|part-outproj|head/);
});
