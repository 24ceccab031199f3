// The training lab's own rule (web/src/features/train-lab/own-rule.js; issue 26, item 7): the vocabulary, length,
// rule and pairs in the link and back; a listed rule written out as pairs; typed pairs read; the
// words' refusals; and on the real wasm core, a rule typed as pairs learned and one that one layer
// cannot fit reported as stalled.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine } from '../../web/src/engine.js';
import {
  readVocabulary,
  readPairs,
  pairsText,
  exampleInputs,
  ruleTable,
  ownTask,
  ownVerdict,
  OWN_PAIRS,
} from '../../web/src/features/train-lab/own-rule.js';
import { trainerConfigs, taskFor, runChanged, HELD_OUT } from '../../web/src/features/train-lab/train-lab.js';
import { defaultState, parseState, serializeState } from '../../web/src/state.js';
import { ownRefusal } from '../../web/src/features/train-lab/train-lab-own.js';
import { translator } from '../../web/src/i18n/index.js';

const own = (over = {}) => ({ ...defaultState(), view: 'train-lab', traintask: 'own', ...over });

test('a vocabulary as typed: spaces or commas between words, or one word a character', () => {
  assert.deepEqual(readVocabulary('甲乙丙丁'), ['甲', '乙', '丙', '丁']);
  assert.deepEqual(readVocabulary(' cat, dog  bird '), ['cat', 'dog', 'bird']);
  assert.equal(readVocabulary('甲 乙 甲'), undefined); // a word twice
  assert.equal(readVocabulary('   '), undefined);
});

test('pairs as typed, one a line: 甲乙丙丁 → 丁丙乙甲; a line without an arrow is named', () => {
  const pairs = readPairs('甲乙丙丁 → 丁丙乙甲\n\ncat dog -> dog cat');
  assert.deepEqual(pairs, [
    { input: ['甲', '乙', '丙', '丁'], output: ['丁', '丙', '乙', '甲'] },
    { input: ['cat', 'dog'], output: ['dog', 'cat'] },
  ]);
  assert.deepEqual(readPairs(pairsText(pairs)), pairs);
  assert.deepEqual(readPairs('甲乙 → 乙甲\n甲乙丙'), { line: 2 });
});

test('a listed rule written out: 12 distinct inputs, the same everywhere, each with the rule applied', () => {
  const inputs = exampleInputs(4, 4);
  assert.equal(inputs.length, OWN_PAIRS);
  assert.equal(new Set(inputs.map(String)).size, OWN_PAIRS);
  assert.deepEqual(exampleInputs(4, 4), inputs);
  assert.equal(exampleInputs(2, 3).length, 8); // only 2³ sequences exist: all of them
  const vocabulary = ['甲', '乙', '丙', '丁'];
  const table = (rule) => ruleTable(rule, vocabulary, 4);
  for (const [k, x] of inputs.entries()) {
    const words = x.map((t) => vocabulary[t]);
    assert.deepEqual(table('reverse')[k], { input: words, output: [...words].reverse() });
    assert.deepEqual(table('shift')[k].output, [words[3], words[0], words[1], words[2]]);
    assert.deepEqual(table('first')[k].output, Array(4).fill(words[0]));
    assert.deepEqual(table('max')[k].output, Array(4).fill(vocabulary[Math.max(...x)]));
    const odd = x.filter((t) => t === 0).length % 2;
    assert.deepEqual(table('parity')[k].output, Array(4).fill(vocabulary[odd]));
  }
});

test("the own rule's fields: in the link only for traintask=own, read back as written", () => {
  const pairs = [
    { input: ['甲', '乙'], output: ['乙', '甲'] },
    { input: ['乙', '乙'], output: ['乙', '乙'] },
  ];
  const state = own({ trainvocab: ['甲', '乙', '丙'], trainlen: 2, trainrule: 'typed', trainpairs: pairs });
  const hash = serializeState(state);
  assert.match(
    decodeURIComponent(hash),
    /trainvocab=甲,乙,丙&trainlen=2&trainrule=typed&trainpairs=甲,乙>乙,甲;乙,乙>乙,乙/,
  );
  const { state: back, notice } = parseState(hash);
  assert.equal(notice, null);
  for (const key of ['trainvocab', 'trainlen', 'trainrule', 'trainpairs']) assert.deepEqual(back[key], state[key]);
  assert.equal(runChanged(state, back), false);
  assert.doesNotMatch(serializeState({ ...state, traintask: 'reverse' }), /trainvocab|trainpairs/);
});

test('a field of the own rule that cannot be read is named in the notice, the rest of the link kept', () => {
  const hash = serializeState(own({ trainseed: 42, trainrule: 'first' }));
  const repeated = parseState(hash.replace(/trainvocab=[^&]*/, `trainvocab=${encodeURIComponent('甲,甲')}`));
  assert.deepEqual(repeated.notice, { key: 'linkTrain', problem: 'trainvocab', text: '甲,甲' });
  assert.deepEqual(repeated.state.trainvocab, ['甲', '乙', '丙', '丁']);
  assert.equal(repeated.state.trainseed, 42);
  assert.equal(repeated.state.trainrule, 'first');
  const broken = parseState(hash.replace('trainpairs=', 'trainpairs=a>b>c'));
  assert.equal(broken.notice.problem, 'trainpairs');
  assert.equal(parseState(hash.replace('trainlen=4', 'trainlen=99')).notice.problem, 'trainlen');
});

test("createTrainer's task from the state: the pairs as tokens, a word outside the vocabulary one past its end", () => {
  const state = own({ trainvocab: ['甲', '乙'], trainlen: 2, trainrule: 'typed' });
  const task = ownTask({ ...state, trainpairs: [{ input: ['甲', '戊'], output: ['乙', '甲'] }] });
  assert.deepEqual(task, { task: 'pairs', length: 2, symbols: 2, pairs: [{ input: [0, 2], output: [1, 0] }] });
  const [config] = trainerConfigs({ ...state, trainpairs: [{ input: ['乙', '甲'], output: ['甲', '乙'] }] });
  assert.equal(config.task, 'pairs');
  const probe = taskFor({ ...state, trainpairs: [{ input: ['乙', '甲'], output: ['甲', '乙'] }] });
  assert.deepEqual(probe.probe.map(probe.label), ['乙', '甲']); // the reader's words label A
});

test('the verdict: learned at the first held-out accuracy ≥ 0.9; stalled after 100 steps without gain', () => {
  const at = (pairs) => pairs.map(([step, accuracy]) => ({ step, heldOut: { accuracy } }));
  assert.deepEqual(
    ownVerdict(
      at([
        [0, 0.3],
        [10, 0.92],
        [20, 0.95],
      ]),
    ),
    { kind: 'learned', step: 10, accuracy: 0.92 },
  );
  assert.equal(
    ownVerdict(
      at([
        [0, 0.3],
        [50, 0.6],
      ]),
    ).kind,
    'learning',
  );
  const flat = at(Array.from({ length: 21 }, (_, k) => [k * 10, k < 5 ? 0.5 + k * 0.05 : 0.7]));
  assert.deepEqual(ownVerdict(flat), { kind: 'stalled', step: 200, since: 40, accuracy: 0.7 });
  const rising = at(Array.from({ length: 21 }, (_, k) => [k * 10, 0.3 + k * 0.02]));
  assert.equal(ownVerdict(rising).kind, 'learning');
});

// ---- On the real core -----------------------------------------------------------------------

let engine;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes }, scalar: false });
});

/** The held-out snapshots of a run of the state, every 10 steps up to `steps`, as the lab takes them. */
function snapshots(state, steps) {
  const trainer = engine.createTrainer(trainerConfigs(state)[0]);
  const out = [];
  for (let step = 0; step <= steps; step += 10) {
    if (step > 0) trainer.step(10);
    out.push({ step, heldOut: trainer.evaluate(HELD_OUT) });
  }
  trainer.dispose();
  return out;
}

const SEED = 8;

test("the core's refusal of a table, worded at the pairs in both languages: the pair, the side and the word", () => {
  const state = own({
    trainvocab: ['甲', '乙'],
    trainlen: 2,
    trainrule: 'typed',
    trainpairs: [
      { input: ['甲', '乙'], output: ['乙', '甲'] },
      { input: ['乙', '戊'], output: ['甲', '乙'] },
    ],
  });
  let error;
  try {
    engine.createTrainer(trainerConfigs(state)[0]);
  } catch (e) {
    error = { code: e.code, argument: e.argument, params: e.params };
  }
  assert.equal(error?.code, 'out_of_range');
  assert.equal(ownRefusal(error, state, translator('en')), "Pair 2's input, word 2 (“戊”), is not in the vocabulary.");
  assert.equal(ownRefusal(error, state, translator('zh-CN')), '第 2 对的输入第 2 个词“戊”不在词表里。');
  const many = own({ trainvocab: [...'甲乙丙丁戊己庚辛壬癸子丑寅'] });
  try {
    engine.createTrainer(trainerConfigs(many)[0]);
  } catch (e) {
    error = { code: e.code, argument: e.argument, params: e.params };
  }
  assert.equal(ownRefusal(error, many, translator('en')), 'The vocabulary needs 2 to 12 words (it has 13).');
});

test('reverse typed as 12 pairs over 甲乙丙丁, length 4, is learned: held-out accuracy ≥ 0.9 within 100 steps', () => {
  const vocabulary = ['甲', '乙', '丙', '丁'];
  const pairs = exampleInputs(4, 4).map((x) => {
    const words = x.map((t) => vocabulary[t]);
    return { input: words, output: [...words].reverse() };
  });
  const state = own({ trainvocab: vocabulary, trainlen: 4, trainrule: 'typed', trainpairs: pairs, trainseed: SEED });
  const verdict = ownVerdict(snapshots(state, 100));
  assert.equal(verdict.kind, 'learned', JSON.stringify(verdict));
});

// Measured (SIMD128 build, 500 steps): parity over the two words 甲乙, length 4 (its 12 example
// pairs of the 16 sequences), stalls at 0.70–0.78 for seeds 7, 8 and 9 (seed 8: 0.754 since step 230);
// over 甲乙丙丁 the same rule's 12 examples are fitted (1.00 by step 200: learned by heart, 12 of
// 256 sequences), so the test takes the table that forces the count.
test('parity over 甲乙 (a count across the sequence) stalls short of 0.9, and the page says so', () => {
  const state = own({ trainvocab: ['甲', '乙'], trainlen: 4, trainrule: 'parity', trainseed: SEED });
  const verdict = ownVerdict(snapshots(state, 500));
  assert.equal(verdict.kind, 'stalled', JSON.stringify(verdict));
  assert.ok(verdict.accuracy < 0.9);
});
