// The √d_k race in numbers (web/src/features/train-lab/train-race.js, the session's race over seeds in
// train-session.js) on the SIMD128 build, the build every page computes with (engine.js,
// exactBuild): what "learned" means, the softmax Jacobian's largest entry, and the race over the
// 16 seeds 7 … 22 at d_k = 16, 64 and 256, counted in steps — the figures docs/guide.md quotes.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import v8 from 'node:v8';
import { loadEngine, exactBuild, bestBuild } from '../../web/src/engine.js';
import {
  LEARNED_BELOW,
  LOSS_AT_STEP,
  SEED_COUNT,
  stepToLearn,
  jacobianPeak,
  median,
  raceFacts,
  seedRaceConfigs,
  seedSummary,
} from '../../web/src/features/train-lab/train-race.js';
import { TRAIN_TASKS, trainerConfigs } from '../../web/src/features/train-lab/train-lab.js';
import { createTrainSession } from '../../web/src/features/train-lab/train-session.js';
import { defaultState } from '../../web/src/state.js';

let engine;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes } });
});

const labState = (over = {}) => ({ ...defaultState(), view: 'train-lab', ...over });

test('the page computes with SIMD128 even where relaxed SIMD runs; relaxed SIMD only times the cost lab', () => {
  v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
  assert.equal(bestBuild(), 'relaxed');
  assert.equal(exactBuild(), 'simd');
  assert.equal(exactBuild({ simd: () => {}, scalar: () => {} }), 'simd');
  assert.equal(exactBuild({ scalar: () => {} }), 'scalar');
  assert.equal(engine.build, 'simd');
});

test('learned: the first step whose loss is below 0.1 nats; the Jacobian of the article’s A', () => {
  assert.equal(LEARNED_BELOW, 0.1);
  const points = [
    [1, 1.8],
    [2, 0.1],
    [3, 0.09],
    [4, 0.2],
  ];
  assert.equal(stepToLearn(points), 3, '0.1 itself is not below 0.1');
  assert.equal(stepToLearn(points.slice(0, 2)), null);
  // Q = K = I₂: A ≈ [[0.67, 0.33], [0.33, 0.67]]; ∂a₁/∂z₁ = a₁(1 − a₁) ≈ 0.67·0.33 = 0.22.
  const a = { rows: 2, cols: 2, data: Float32Array.of(0.6698, 0.3302, 0.3302, 0.6698) };
  assert.equal(jacobianPeak([a]).toFixed(4), '0.2212');
  assert.equal(jacobianPeak([{ rows: 1, cols: 2, data: Float32Array.of(0.5, 0.5) }]), 0.25, 'at most ¼');
  assert.equal(jacobianPeak([{ rows: 1, cols: 2, data: Float32Array.of(1, 0) }]), 0, 'one-hot: none');
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 2, 3]), 2.5);
  assert.equal(median([]), null);
  assert.deepEqual(
    seedSummary([
      [5, null],
      [7, 40],
      [6, null],
    ]),
    [
      { learned: 3, notLearned: 0, median: 6, min: 5, max: 7 },
      { learned: 1, notLearned: 2, median: 40, min: 40, max: 40 },
    ],
  );
});

test('the race over seeds: the lab’s seed and the next 15, each pair one initialisation, ÷√d_k then none', () => {
  const state = labState({ trainseed: 4294967295, traindk: 64 });
  const [scaled, unscaled] = seedRaceConfigs(state, 1);
  assert.equal(scaled.seed, 0, 'wrapping at 2³²');
  assert.deepEqual([scaled.scale, unscaled.scale], ['sqrt_dk', 'none']);
  assert.deepEqual({ ...scaled, scale: 'none' }, unscaled);
  assert.equal(SEED_COUNT, 16);
});

test('seed 7 at d_k = 256, 300 steps: the gradients at step 1, the step each learns, the losses at step 100', () => {
  const session = createTrainSession(engine);
  const state = labState({ traindk: 256, trainscale: 'race' });
  const reset = session.handle({ type: 'reset', configs: trainerConfigs(state), probe: TRAIN_TASKS.reverse.probe });
  const reply = session.handle({ type: 'step', count: 300 });
  // The runs as the view holds them: the step-0 snapshot first (the A that step 1 computes with).
  const runs = reply.runs.map((run, r) => ({ ...run, snapshots: [...reset.runs[r].snapshots, ...run.snapshots] }));
  const [scaled, unscaled] = runs.map(raceFacts);
  assert.deepEqual(
    [scaled.gradient.toPrecision(3), unscaled.gradient.toPrecision(3)],
    ['0.110', '0.0273'],
    'unscaled, a quarter of the gradient reaches the scores',
  );
  assert.ok(unscaled.jacobian < scaled.jacobian, `${unscaled.jacobian} < ${scaled.jacobian}`);
  assert.deepEqual([scaled.learnedAt, unscaled.learnedAt], [36, null]);
  assert.equal(LOSS_AT_STEP, 100);
  assert.ok(scaled.lossAt < 0.01 && unscaled.lossAt > 1.5, `${scaled.lossAt}, ${unscaled.lossAt}`);
  session.handle({ type: 'dispose' });
});

/** The race over seeds at `dk` with `budget` steps, through the session's messages (the worker's). */
function raceOverSeeds(session, dk, budget) {
  const state = labState({ traindk: dk });
  return Array.from({ length: SEED_COUNT }, (_, k) => {
    session.handle({ type: 'seed-start', configs: seedRaceConfigs(state, k) });
    let reply;
    do reply = session.handle({ type: 'seed-step', count: 97, budget });
    while (reply.type === 'seed-stepped' && !reply.done);
    assert.equal(reply.type, 'seed-stepped', reply.error?.message);
    return reply.learnedAt;
  });
}

test('the race over seeds 7 … 22, 1,000 steps: steps to learn (loss below 0.1), ÷√d_k against unscaled', () => {
  const session = createTrainSession(engine);
  const table = Object.fromEntries([16, 64, 256].map((dk) => [dk, seedSummary(raceOverSeeds(session, dk, 1000))]));
  assert.deepEqual(table, {
    16: [
      { learned: 16, notLearned: 0, median: 73, min: 64, max: 83 },
      { learned: 16, notLearned: 0, median: 93, min: 63, max: 117 },
    ],
    64: [
      { learned: 16, notLearned: 0, median: 53, min: 46, max: 62 },
      { learned: 16, notLearned: 0, median: 259.5, min: 150, max: 696 },
    ],
    256: [
      { learned: 16, notLearned: 0, median: 46.5, min: 35, max: 74 },
      { learned: 8, notLearned: 8, median: 754.5, min: 572, max: 988 },
    ],
  });
  // The slices do not matter: the same seed in one call of 1,000 steps.
  session.handle({ type: 'seed-start', configs: seedRaceConfigs(labState({ traindk: 256 }), 0) });
  assert.deepEqual(session.handle({ type: 'seed-step', count: 1000, budget: 1000 }), {
    type: 'seed-stepped',
    steps: 572, // both have learned: no step past it
    learnedAt: [36, 572],
    done: true,
  });
  session.handle({ type: 'dispose' });
});

test('a seed stops at its budget; a count that is no whole number is refused by name', () => {
  const session = createTrainSession(engine);
  session.handle({ type: 'seed-start', configs: seedRaceConfigs(labState({ traindk: 256 }), 0) });
  assert.deepEqual(session.handle({ type: 'seed-step', count: 500, budget: 300 }), {
    type: 'seed-stepped',
    steps: 300,
    learnedAt: [36, null],
    done: true,
  });
  const refused = session.handle({ type: 'seed-step', count: 0, budget: 300 });
  assert.equal(refused.type, 'error');
  assert.equal(refused.error.argument, 'count');
  session.handle({ type: 'dispose' });
});

test('the walk hands over any snapshot: an earlier step is retrained to the live run’s numbers, bit for bit', () => {
  const probe = TRAIN_TASKS.reverse.probe;
  const configs = trainerConfigs(labState());
  const long = createTrainSession(engine);
  long.handle({ type: 'reset', configs, probe });
  long.handle({ type: 'step', count: 60 });
  const short = createTrainSession(engine);
  short.handle({ type: 'reset', configs, probe });
  short.handle({ type: 'step', count: 20 });
  const early = long.handle({ type: 'walk', run: 0, head: 0, step: 20 });
  const live = short.handle({ type: 'walk', run: 0, head: 0 });
  assert.equal(early.step, 20);
  for (const key of ['x', 'wq', 'wk', 'wv', 'dout']) assert.deepEqual(early[key], live[key], key);
  assert.equal(early.loss, live.loss);
  // The untrained model's dO is large; the model after 60 steps sends back far less.
  const largest = (m) => Math.max(...Array.from(m.data, Math.abs));
  const start = long.handle({ type: 'walk', run: 0, head: 0, step: 0 });
  assert.ok(largest(start.dout) > 0.05, `dO at step 0: ${largest(start.dout)}`);
  assert.equal(long.handle({ type: 'walk', run: 0, head: 0, step: 61 }).error.argument, 'step');
  long.handle({ type: 'dispose' });
  short.handle({ type: 'dispose' });
});

test('a run rewound to a snapshot trains on from there to the same numbers as a run never rewound', () => {
  const probe = TRAIN_TASKS.reverse.probe;
  const configs = trainerConfigs(labState({ trainscale: 'race' }));
  const straight = createTrainSession(engine);
  straight.handle({ type: 'reset', configs, probe });
  const all = straight.handle({ type: 'step', count: 60 });
  const rewound = createTrainSession(engine);
  rewound.handle({ type: 'reset', configs, probe });
  rewound.handle({ type: 'step', count: 50 });
  const back = rewound.handle({ type: 'rewind', step: 20 });
  assert.equal(back.steps, 20);
  const again = rewound.handle({ type: 'step', count: 40 });
  assert.equal(again.steps, 60);
  again.runs.forEach((run, r) => {
    assert.deepEqual(run.points, all.runs[r].points.slice(20), `run ${r}: steps 21 … 60`);
    assert.deepEqual(run.parameters, all.runs[r].parameters);
  });
  assert.equal(rewound.handle({ type: 'rewind', step: 61 }).error.argument, 'step');
  straight.handle({ type: 'dispose' });
  rewound.handle({ type: 'dispose' });
});
