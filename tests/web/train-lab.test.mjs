// The lab "watch attention learn" (web/src/features/train-lab/: train-lab.js, train-session.js, train-run.js,
// train-runner.js) on the real wasm core: its hash fields, the configs a state asks for, the
// charts' scales and paths, the snapshot timeline; a session whose numbers do not depend on how the
// steps are sliced, so a link replays the same run; the worker (the real worker bundle, in a Node
// thread) and the page's thread giving the same numbers; and reverse learned within 150 steps.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine } from '../../web/src/engine.js';
import {
  TRAIN_TASKS,
  TRAIN_LAB_FIELDS,
  SNAPSHOT_EVERY,
  HELD_OUT,
  lookupProbe,
  trainerConfigs,
  runChanged,
  niceTicks,
  chartScale,
  thin,
  linePath,
  snapshotAt,
} from '../../web/src/features/train-lab/train-lab.js';
import { createTrainSession } from '../../web/src/features/train-lab/train-session.js';
import { startTrainHost } from '../../web/src/features/train-lab/train-run.js';
import { createTrainRunner } from '../../web/src/features/train-lab/train-runner.js';
import { defaultState, parseState, serializeState } from '../../web/src/state.js';
import { bundleLabsWorker } from '../../scripts/lib/labs-worker.mjs';
import { nodeWorker } from './node-worker.mjs';

let engine, workerSource;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes }, scalar: false });
  workerSource = await bundleLabsWorker();
});

const labState = (over = {}) => ({ ...defaultState(), view: 'train-lab', ...over });

test('the hash fields: written only in view=train-lab, read back as written, a bad value refusing the link', () => {
  assert.deepEqual(
    TRAIN_LAB_FIELDS.map((f) => f.key),
    [
      'traintask',
      'trainseed',
      'trainlr',
      'traindk',
      'trainscale',
      'trainheads',
      'trainsteps',
      'trainvocab',
      'trainlen',
      'trainrule',
      'trainpairs',
      'trainfork',
      'trainforklr',
      'trainforkscale',
    ],
  );
  assert.doesNotMatch(serializeState(defaultState()), /train/);
  const state = labState({ traintask: 'lookup', trainseed: 42, trainlr: 0.003, traindk: 256, trainscale: 'race' });
  const hash = serializeState({ ...state, trainheads: 2, trainsteps: 500 });
  assert.match(
    hash,
    /traintask=lookup&trainseed=42&trainlr=0\.003&traindk=256&trainscale=race&trainheads=2&trainsteps=500/,
  );
  const { state: back, notice } = parseState(hash);
  assert.equal(notice, null);
  for (const key of ['traintask', 'trainseed', 'trainlr', 'traindk', 'trainscale']) assert.equal(back[key], state[key]);
  assert.equal(parseState(hash.replace('traindk=256', 'traindk=512')).notice, 'badHash'); // the core's limit is 256
  assert.equal(parseState(hash.replace('trainseed=42', 'trainseed=4294967296')).notice, 'badHash');
});

test('the configs: one run, or the race — the same seed and sizes, ÷√d_k then none', () => {
  const [one] = trainerConfigs(labState({ trainseed: 7, traindk: 64 }));
  assert.deepEqual(one, {
    task: 'reverse',
    length: 6,
    symbols: 6,
    seed: 7,
    learningRate: 0.01,
    dHead: 64,
    heads: 1,
    scale: 'sqrt_dk',
  });
  const race = trainerConfigs(labState({ trainscale: 'race' }));
  assert.deepEqual(
    race.map((c) => c.scale),
    ['sqrt_dk', 'none'],
  );
  assert.deepEqual({ ...race[0], scale: 'none' }, race[1]);
  // A new run for any field but the step count (which only says how far Play goes).
  assert.equal(runChanged(labState(), labState({ trainsteps: 1000 })), false);
  assert.equal(runChanged(labState(), labState({ trainseed: 8 })), true);
  assert.equal(runChanged(null, labState()), true);
});

test("the probes: lookup's pairs as the core encodes them (key·4 + value, then 8·4 + the key asked)", () => {
  assert.deepEqual(
    lookupProbe(
      [
        [0, 1],
        [4, 1],
      ],
      4,
      { symbols: 8, values: 4 },
    ),
    [1, 17, 36],
  );
  const { probe, label, task } = TRAIN_TASKS.lookup;
  assert.equal(probe.length, task.length);
  assert.deepEqual(probe.map(label), ['0:1', '1:3', '2:0', '3:2', '4:1', '5:0', '6:3', '4?']);
  for (const [key, { probe: tokens, task: sizes }] of Object.entries(TRAIN_TASKS))
    assert.equal(tokens.length, sizes.length, key);
});

test('the chart scales: round ticks, steps left to right, values upwards, a NaN breaking the line', () => {
  assert.deepEqual(niceTicks(1.79), [0, 0.5, 1, 1.5, 2]); // ln 6, reverse's loss at chance
  assert.deepEqual(niceTicks(300), [0, 100, 200, 300]);
  assert.deepEqual(niceTicks(0), [0, 1]);
  const scale = chartScale({ maxStep: 300, yMax: 1.79 }, { left: 50, top: 10, width: 300, height: 200 });
  assert.equal(scale.x(0), 50);
  assert.equal(scale.x(300), 350);
  assert.equal(scale.y(0), 210);
  assert.equal(scale.y(2), 10);
  assert.equal(scale.y(1), 110);
  assert.equal(
    linePath(
      [
        [0, 2],
        [150, 1],
        [200, NaN],
        [300, 0],
      ],
      scale,
    ),
    'M50.0,10.0L200.0,110.0M350.0,210.0',
  );
  const many = Array.from({ length: 2001 }, (_, i) => [i, i]);
  const few = thin(many, 400);
  assert.equal(few.length, 400);
  assert.deepEqual([few[0], few.at(-1)], [many[0], many[2000]]);
});

test('the timeline: the snapshot at or before a step, none before the first', () => {
  const snapshots = [0, 10, 20, 30].map((step) => ({ step }));
  assert.equal(snapshotAt(snapshots, 0).step, 0);
  assert.equal(snapshotAt(snapshots, 19).step, 10);
  assert.equal(snapshotAt(snapshots, 30).step, 30);
  assert.equal(snapshotAt(snapshots, 1e9).step, 30);
  assert.equal(snapshotAt([], 5), null);
  assert.equal(snapshotAt([{ step: 10 }], 5), null);
});

test('a session: the same numbers however its steps are sliced; snapshots every 10 steps; reverse learned within 150', () => {
  const configs = trainerConfigs(labState());
  const { probe } = TRAIN_TASKS.reverse;
  const whole = createTrainSession(engine);
  const sliced = createTrainSession(engine);
  const started = whole.handle({ type: 'reset', configs, probe });
  sliced.handle({ type: 'reset', configs, probe });
  assert.equal(started.runs[0].snapshots[0].step, 0);
  assert.equal(started.runs[0].parameters.wQ[0].rows, 16 + 6); // d_token + n, one-hot positions
  const a = whole.handle({ type: 'step', count: 150 });
  const b = [7, 50, 1, 92].map((count) => sliced.handle({ type: 'step', count }));
  assert.equal(a.steps, 150);
  assert.equal(b.at(-1).steps, 150);
  assert.deepEqual(
    a.runs[0].points,
    b.flatMap((reply) => reply.runs[0].points),
  );
  assert.deepEqual(
    a.runs[0].snapshots.map((s) => s.step),
    Array.from({ length: 150 / SNAPSHOT_EVERY }, (_, k) => (k + 1) * SNAPSHOT_EVERY),
  );
  // The first step's loss is near chance (ln 6 = 1.79); by step 150 the batch loss is below 0.05.
  const [first, last] = [a.runs[0].points[0], a.runs[0].points.at(-1)];
  assert.ok(first[1] > 1, `step 1: ${first[1]}`);
  assert.ok(last[1] < 0.05, `step 150: ${last[1]}`);
  // A at step 150: each query's largest weight on its mirror key (the anti-diagonal).
  const A = a.runs[0].snapshots.at(-1).weights[0].data;
  for (let i = 0; i < 6; i++) {
    const row = Array.from(A.slice(i * 6, i * 6 + 6));
    assert.equal(row.indexOf(Math.max(...row)), 5 - i);
  }
  assert.equal(whole.handle({ type: 'step', count: 0.5 }).type, 'error'); // refused by the API, answered
  whole.handle({ type: 'dispose' });
  sliced.handle({ type: 'dispose' });
});

test('the race in a session: from the same seed at d_k = 64, the unscaled run saturates and stays near chance', () => {
  const session = createTrainSession(engine);
  session.handle({
    type: 'reset',
    configs: trainerConfigs(labState({ trainscale: 'race', traindk: 64 })),
    probe: [0, 1, 2, 3, 4, 5],
  });
  const { runs } = session.handle({ type: 'step', count: 150 });
  const [scaled, unscaled] = runs.map((run) => run.points);
  // Step 1's gradient through the softmax: 0.094 scaled, 0.040 unscaled (docs/api.md, "Training").
  assert.ok(unscaled[0][3] < 0.5 * scaled[0][3], `${scaled[0][3]} vs ${unscaled[0][3]}`);
  assert.ok(scaled.at(-1)[1] < 0.05, `scaled: ${scaled.at(-1)[1]}`);
  assert.ok(unscaled.at(-1)[1] > 1, `unscaled: ${unscaled.at(-1)[1]}`);
  session.handle({ type: 'dispose' });
});

test('the host: in the worker bundle (a Node thread) and on the page thread, the same numbers; destroy ends the worker', async () => {
  let worker;
  const inWorker = startTrainHost({
    engine,
    workerSource,
    createWorker: (source) => (worker = nodeWorker(source)),
  });
  const onPage = startTrainHost({ engine }); // no worker source: the page's thread
  assert.equal((await inWorker.ready).mode, 'worker');
  assert.deepEqual(await onPage.ready, { mode: 'main-thread', build: 'simd', reason: 'no-worker-source' });
  const message = {
    type: 'reset',
    configs: trainerConfigs(labState({ traintask: 'shift' })),
    probe: [0, 1, 2, 3, 4, 5],
  };
  await Promise.all([inWorker.call(message), onPage.call(message)]);
  const [x, y] = await Promise.all([
    inWorker.call({ type: 'step', count: 20 }),
    onPage.call({ type: 'step', count: 20 }),
  ]);
  assert.deepEqual(x.runs[0].points, y.runs[0].points);
  inWorker.destroy();
  onPage.destroy();
  assert.equal(worker.terminated, true);
  assert.deepEqual(await inWorker.call({ type: 'step', count: 1 }), { type: 'disposed' });
});

test('a worker that throws on start: the run goes to the page thread and says why', async () => {
  const host = startTrainHost({
    engine,
    workerSource,
    createWorker: () => {
      throw new Error('Workers are not allowed in this sandbox');
    },
  });
  assert.equal((await host.ready).reason, 'worker-threw');
  host.destroy();
});

test('the runner: play stops at the target, pause stops it early, step adds one, a reset drops the old run', async () => {
  const runner = createTrainRunner({ engine, onChange() {}, onEvent() {} });
  await runner.reset(trainerConfigs(labState()), TRAIN_TASKS.reverse.probe);
  await runner.step();
  assert.equal(runner.data().steps, 1);
  await runner.play(40);
  assert.equal(runner.data().steps, 40);
  assert.equal(runner.data().runs[0].points.length, 40);
  const playing = runner.play(1000);
  runner.pause();
  await playing;
  assert.ok(runner.data().steps < 1000 && !runner.data().playing);
  await runner.reset(trainerConfigs(labState({ trainseed: 8 })), TRAIN_TASKS.reverse.probe);
  assert.equal(runner.data().steps, 0);
  assert.equal(runner.data().runs[0].points.length, 0);
  runner.destroy();
});

test('each snapshot scores the model on 64 held-out sequences: reverse goes from chance to all right; induction stays near chance while its batches look better', () => {
  const held = (task) => {
    const session = createTrainSession(engine);
    const configs = trainerConfigs(labState({ traintask: task }));
    const start = session.handle({ type: 'reset', configs, probe: TRAIN_TASKS[task].probe });
    const reply = session.handle({ type: 'step', count: 300 });
    session.handle({ type: 'dispose' });
    const snapshots = [...start.runs[0].snapshots, ...reply.runs[0].snapshots];
    return { snapshots, batch: reply.runs[0].points.at(-1)[2] };
  };
  assert.deepEqual(HELD_OUT, { count: 64, seed: 1 });
  const reverse = held('reverse');
  assert.equal(reverse.snapshots[0].heldOut.accuracy.toFixed(3), '0.128', 'chance is 1/6');
  assert.equal(reverse.snapshots.find((s) => s.step === 100).heldOut.accuracy, 1);
  // Induction: one scored position a sequence, so the batch's 16 answers are a noisy measure.
  const induction = held('induction');
  assert.equal(induction.snapshots.at(-1).heldOut.accuracy, 0.125);
  assert.equal(induction.batch, 0.3125);
});
