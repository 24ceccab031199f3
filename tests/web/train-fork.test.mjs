// The training lab's fork from a snapshot (issue 26, item 6; web/src/features/train-lab/train-fork.js and the
// session's forks in train-session.js), on the SIMD128 build the page computes with: the fork in
// the link, read and written like the lab's other fields; a fork at step s with another learning
// rate or scaling equal, bit for bit, to a trainer that trains s steps and then changes it, and
// different from the run it left after s; and rewinding a forked run, before or after its fork,
// giving back the same numbers.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine } from '../../web/src/engine.js';
import { TRAIN_TASKS, trainerConfigs } from '../../web/src/features/train-lab/train-lab.js';
import { forkOf, forkChange, sessionRuns, withoutFork, NO_FORK } from '../../web/src/features/train-lab/train-fork.js';
import { createTrainSession } from '../../web/src/features/train-lab/train-session.js';
import { defaultState, parseState, serializeState } from '../../web/src/state.js';
import { translate } from '../../web/src/i18n/index.js';

let engine;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes } });
});

const labState = (over = {}) => ({ ...defaultState(), view: 'train-lab', ...over });
const PROBE = TRAIN_TASKS.reverse.probe;
const pick = (object, keys) => Object.fromEntries(keys.map((key) => [key, object[key]]));

/** A session on the state's runs (the lab's restart), stepped `steps` steps: its 'stepped' reply. */
function sessionFor(state, steps) {
  const session = createTrainSession(engine);
  const { configs, forks } = sessionRuns(state, trainerConfigs(state));
  session.handle({ type: 'reset', configs, forks, probe: PROBE });
  return { session, reply: session.handle({ type: 'step', count: steps }) };
}

/**
 * A trainer of `config` through the public API alone: `at` steps, then configure(change), then on
 * to `total` — every step's [step, loss, accuracy, softmaxGradient], and W_Q, W_K at the end.
 */
function trainDirectly(config, at, change, total) {
  const trainer = engine.createTrainer(config);
  const points = [];
  for (let s = 1; s <= total; s++) {
    const { loss, accuracy, softmaxGradient } = trainer.step();
    points.push([s, loss, accuracy, softmaxGradient]);
    if (s === at) trainer.configure(change);
  }
  const { wQ, wK } = trainer.parameters();
  trainer.dispose();
  return { points, parameters: { wQ, wK } };
}

test('the fork in the link: written only with a fork of one run, read back as written, a bad value refused alone', () => {
  const state = labState({ trainseed: 7, ...forkChange(labState(), 20, { learningRate: 0.1, scale: 'sqrt_dk' }) });
  const hash = serializeState(state);
  assert.match(hash, /&trainfork=20&trainforklr=0\.1(&|$)/);
  assert.doesNotMatch(hash, /trainforkscale/, 'the scaling is the run’s: left out');
  const { state: back, notice } = parseState(hash);
  assert.equal(notice, null);
  assert.deepEqual(forkOf(back), { step: 20, learningRate: 0.1 });
  assert.deepEqual(sessionRuns(back, trainerConfigs(back)), sessionRuns(state, trainerConfigs(state)));
  assert.doesNotMatch(serializeState(labState()), /trainfork/, 'no fork, no field');
  assert.doesNotMatch(serializeState({ ...state, trainscale: 'race' }), /trainfork/, 'the race runs both scalings');
  assert.equal(forkOf({ ...state, trainscale: 'race' }), null);
  // A bad value is refused alone, named in the notice; the rest of the link opens as written.
  for (const [field, text] of [
    ['trainfork', 'abc'],
    ['trainfork', '2001'],
    ['trainforklr', '0.5'],
  ]) {
    const bad = hash.replace(new RegExp(`${field}=[^&]*`), `${field}=${text}`);
    const read = parseState(bad);
    assert.deepEqual(read.notice, { key: 'linkTrain', problem: field, text }, bad);
    assert.equal(read.state[field], null);
    assert.equal(read.state.trainseed, 7);
    assert.equal(read.state.view, 'train-lab');
  }
  const badScale = parseState(`${hash}&trainforkscale=race`);
  assert.deepEqual(badScale.notice, { key: 'linkTrain', problem: 'trainforkscale', text: 'race' });
  assert.deepEqual(forkOf(badScale.state), { step: 20, learningRate: 0.1 }, 'the rest of the fork kept');
});

test('a hand-written fork its run cannot have is dropped and named: in the race, or after a step beyond the run', () => {
  const state = labState({ trainseed: 7, ...forkChange(labState(), 20, { learningRate: 0.1, scale: 'none' }) });
  const hash = serializeState(state);
  // The race already runs both scalings side by side: the race opens, the fork's fields named.
  const race = parseState(`${hash}&trainscale=race`);
  assert.deepEqual(race.notice, { key: 'linkTrain', problem: 'trainfork', text: '20', reason: 'race' });
  assert.deepEqual(pick(race.state, Object.keys(NO_FORK)), NO_FORK, 'no fork in the race');
  assert.equal(race.state.trainscale, 'race');
  assert.equal(race.state.trainseed, 7);
  assert.equal(race.state.view, 'train-lab');
  assert.equal(parseState(serializeState(race.state)).notice, null, 'written back, the race alone');
  // A fork field without its step is named too: it is the first the link carries.
  const scaleOnly = parseState('#view=train-lab&trainscale=race&trainforkscale=none');
  assert.deepEqual(scaleOnly.notice, { key: 'linkTrain', problem: 'trainforkscale', text: 'none', reason: 'race' });
  // A fork after step 500 of a run of 300 steps would never start: dropped, the run's steps named.
  const beyond = parseState(hash.replace('trainfork=20', 'trainfork=500'));
  assert.deepEqual(beyond.notice, { key: 'linkTrain', problem: 'trainfork', text: '500', reason: 'steps', steps: 300 });
  assert.deepEqual(pick(beyond.state, Object.keys(NO_FORK)), NO_FORK);
  assert.equal(beyond.state.trainsteps, 300);
  assert.equal(beyond.state.trainseed, 7);
  // Within the run's steps, up to its last one, the fork opens as written.
  assert.deepEqual(forkOf(parseState(hash.replace('trainfork=20', 'trainfork=300')).state).step, 300);
  const longer = parseState(`${hash.replace('trainfork=20', 'trainfork=500')}&trainsteps=1000`);
  assert.equal(longer.notice, null);
  assert.deepEqual(forkOf(longer.state), { step: 500, learningRate: 0.1, scale: 'none' });
});

test('the notice of a dropped fork says why, in both languages', () => {
  const words = (lang, hash) => {
    const { notice } = parseState(hash);
    return translate(lang, `notice.linkTrain.${notice.reason}`, { ...notice, field: notice.problem });
  };
  const race = '#view=train-lab&trainscale=race&trainfork=20&trainforklr=0.1';
  assert.equal(
    words('zh-CN', race),
    '这个链接的 trainfork 字段(“20”)是分叉的,不适用于赛跑:赛跑已经把两种缩放并排跑着。链接没有打开分叉,其余部分照常打开。',
  );
  assert.match(
    words('en', race),
    /^This link's trainfork field \("20"\) belongs to a fork, which does not apply to the race/,
  );
  const beyond = '#view=train-lab&trainfork=500&trainforklr=0.1';
  assert.match(words('zh-CN', beyond), /要在第 500 步之后分叉,但这次训练只有 300 步,分叉不会开始/);
  assert.match(
    words('en', beyond),
    /forks after step 500, but this run has only 300 steps, so the fork would never start/,
  );
});

test('a fork belongs to its run: a change of the run drops it; more steps keep it while it is within them', () => {
  const state = labState({ trainsteps: 300, ...forkChange(labState(), 100, { learningRate: 0.1, scale: 'none' }) });
  assert.deepEqual(forkOf(state), { step: 100, learningRate: 0.1, scale: 'none' });
  assert.deepEqual(withoutFork(state, { trainseed: 8 }), { trainseed: 8, ...NO_FORK });
  assert.deepEqual(withoutFork(state, { trainsteps: 1000 }), { trainsteps: 1000 });
  assert.deepEqual(withoutFork(state, { trainsteps: 100 }), { trainsteps: 100 });
  assert.deepEqual(withoutFork(state, { trainsteps: 50 }), { trainsteps: 50, ...NO_FORK });
  // A fork to the run's own setting changes nothing: there is none.
  assert.equal(forkOf(labState(forkChange(labState(), 20, { learningRate: 0.01, scale: 'sqrt_dk' }))), null);
  const { configs, forks } = sessionRuns(state, trainerConfigs(state));
  assert.equal(configs.length, 2);
  assert.deepEqual(configs[0], configs[1], 'the fork and the run it left start from one config');
  assert.deepEqual(forks, [{ step: 100, learningRate: 0.1, scale: 'none' }, null]);
});

for (const [what, choice, change] of [
  ['learning rate 0.01 → 0.1', { learningRate: 0.1, scale: 'sqrt_dk' }, { learningRate: 0.1 }],
  ['scaling ÷√d_k → none', { learningRate: 0.01, scale: 'none' }, { scale: 'none' }],
]) {
  test(`a fork at step 20 (${what}) is, bit for bit, a trainer that trains 20 steps and then changes it`, () => {
    const base = labState({ traindk: 64 });
    const state = { ...base, ...forkChange(base, 20, choice) };
    const { session, reply } = sessionFor(state, 60);
    const [fork, left] = reply.runs;
    const config = trainerConfigs(state)[0];
    const direct = trainDirectly(config, 20, change, 60);
    const unforked = trainDirectly(config, 60, {}, 60);
    assert.deepEqual(fork.points, direct.points);
    assert.deepEqual(fork.parameters, direct.parameters);
    assert.deepEqual(left.points, unforked.points, 'the run it left goes on unchanged');
    assert.deepEqual(left.parameters, unforked.parameters);
    // One run up to step 20 (its batch's loss is taken before the step's update), two after.
    assert.deepEqual(fork.points.slice(0, 20), left.points.slice(0, 20));
    for (let s = 21; s < 60; s++) assert.notEqual(fork.points[s][1], left.points[s][1], `step ${s + 1}`);
    // The walk hands over the scaling the fork's next step uses.
    const walked = (step) => session.handle({ type: 'walk', run: 0, head: 0, step }).scale;
    assert.deepEqual([walked(10), walked(20), walked(60)], ['sqrt_dk', choice.scale, choice.scale]);
    session.handle({ type: 'dispose' });
  });
}

test('a forked run rewound before or after its fork trains on to the same numbers as one never rewound', () => {
  const state = labState(forkChange(labState(), 20, { learningRate: 0.1, scale: 'none' }));
  const { session: straight, reply: all } = sessionFor(state, 60);
  for (const back of [10, 20, 30]) {
    const { session } = sessionFor(state, 50);
    assert.equal(session.handle({ type: 'rewind', step: back }).steps, back);
    const again = session.handle({ type: 'step', count: 60 - back });
    again.runs.forEach((run, r) => {
      assert.deepEqual(run.points, all.runs[r].points.slice(back), `back to ${back}, run ${r}`);
      assert.deepEqual(run.parameters, all.runs[r].parameters);
    });
    session.handle({ type: 'dispose' });
  }
  straight.handle({ type: 'dispose' });
});

test('a fork at step 0 is the run made with the new setting; a fork with a bad step is refused', () => {
  const state = labState(forkChange(labState(), 0, { learningRate: 0.1, scale: 'sqrt_dk' }));
  const { session, reply } = sessionFor(state, 20);
  const { reply: made } = sessionFor(labState({ trainlr: 0.1 }), 20);
  assert.deepEqual(reply.runs[0].points, made.runs[0].points);
  session.handle({ type: 'dispose' });
  const refused = createTrainSession(engine).handle({
    type: 'reset',
    configs: trainerConfigs(labState()),
    forks: [{ step: -1, learningRate: 0.1 }],
    probe: PROBE,
  });
  assert.equal(refused.type, 'error');
  assert.equal(refused.error.argument, 'fork.step');
});
