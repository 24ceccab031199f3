// The training lab's runs on one engine, as messages in and answers out: the same code on the
// page's thread and in the Web Worker (train-worker.js), so that both give the same numbers. Pure
// of the DOM; the engine (web/src/engine.js, or the JS API itself) is passed in.
//
//   { type: 'reset', configs: [createTrainer's config, …], probe: [tokens], forks?: [fork or null, …] }
//       → { type: 'reset', steps: 0, runs: [{ snapshots: [the step-0 snapshot], parameters }] }
//       A run's fork { step, learningRate?, scale? } (train-fork.js): once the run has trained
//       `step` steps, trainer.configure changes its rate or scaling for the steps after — the model
//       and Adam's moments kept — before that step's snapshot, which shows the model under it.
//   { type: 'step', count }  (count steps of every run, in lockstep)
//       → { type: 'stepped', steps, runs: [{ points, snapshots, parameters }] }
//   { type: 'walk', run, head, step }  (one training step of run `run`'s head `head`, 0-based, on the
//       probe, from the model as it was after `step` steps: the snapshot the timeline shows)
//       → { type: 'walk', step, x, wq, wk, wv, dout, loss, causal, scale }: the probe's X, the head's
//         W_Q, W_K, W_V, the scaling the run's next step uses, and dO = its block of ∂ℓ/∂(the heads' outputs) for the probe's mean cross-entropy ℓ
//         (trainer.probeGradient). An earlier step is retrained from the run's config (and fork):
//         the same config in the same build gives the same weights bit for bit (train.hpp).
//   { type: 'rewind', step }  (every run back to the model after `step` steps, to train on from there)
//       → { type: 'rewound', steps, runs: [{ parameters }] }
//   { type: 'seed-start', configs: [÷√d_k's, none's] }  one seed of the race over seeds (train-race.js)
//       → { type: 'seed-started' }
//   { type: 'seed-step', count, budget }  up to count steps of each run not yet learned, none past budget
//       → { type: 'seed-stepped', steps, learnedAt: [step or null of each run], done }
//   anything refused → { type: 'error', error: { message, code, argument, params } }
//
// points: one [step, loss, accuracy, softmaxGradient] per step (the batch's, train.hpp), so the
// curves are the same however the steps are sliced; snapshots: { step, weights: [A of each head],
// heldOut: { loss, accuracy } on the HELD_OUT sequences }
// at step 0 and every SNAPSHOT_EVERY steps; parameters: { wQ, wK } after the last step.

import { SNAPSHOT_EVERY, HELD_OUT } from './train-lab.js';
import { LEARNED_BELOW } from './train-race.js';

/** Columns from … from + width − 1 of a matrix (one head's block of the heads' outputs side by side). */
function columns(m, from, width) {
  const data = new Float32Array(m.rows * width);
  for (let i = 0; i < m.rows; i++) data.set(m.data.subarray(i * m.cols + from, i * m.cols + from + width), i * width);
  return { rows: m.rows, cols: width, data };
}

/** A step count a message asks for: a whole number of at least 1. */
function checkCount(name, value) {
  if (!Number.isInteger(value) || value < 1)
    throw Object.assign(new Error(`${name}: count must be a whole number of at least 1 (got ${value})`), {
      code: 'bad_option',
      argument: 'count',
    });
}

/**
 * One seed of the race over seeds: its two trainers stepped until each has learned (its batch's
 * loss below LEARNED_BELOW) or the budget is spent. A run that has learned is not stepped again:
 * only its first step below the threshold is asked for.
 */
function seedRace(engine) {
  let trainers = [];
  let learnedAt = [];
  let steps = 0;
  const dispose = () => {
    trainers.forEach((trainer) => trainer.dispose());
    trainers = [];
  };
  return {
    start({ configs }) {
      dispose();
      steps = 0;
      for (const config of configs) trainers.push(engine.createTrainer(config));
      learnedAt = trainers.map(() => null);
      return { type: 'seed-started' };
    },
    step({ count, budget }) {
      checkCount('seed-step', count);
      checkCount('seed-step budget', budget);
      const learning = () => learnedAt.some((at) => at === null) && steps < budget;
      for (let s = 0; s < count && learning(); s++) {
        steps += 1;
        trainers.forEach((trainer, r) => {
          if (learnedAt[r] === null && trainer.step().loss < LEARNED_BELOW) learnedAt[r] = steps;
        });
      }
      const done = !learning();
      if (done) dispose();
      return { type: 'seed-stepped', steps, learnedAt: [...learnedAt], done };
    },
    dispose,
  };
}

/** A fork's { step } as a message gives it: a whole number of at least 0. */
function checkFork(fork) {
  if (fork && !(Number.isInteger(fork.step) && fork.step >= 0))
    throw Object.assign(new Error(`reset: a fork's step must be a whole number of at least 0 (got ${fork.step})`), {
      code: 'bad_option',
      argument: 'fork.step',
    });
}

/** A fork's change for trainer.configure: its rate and scaling, each only if it has one. */
const change = ({ learningRate, scale }) => ({ learningRate, scale });

/**
 * A run's trainer after `at` steps, made afresh: its config's trainer stepped to there, its fork's
 * change made once it has trained the fork's step — as the live run made it (step(), below).
 */
function retrain(engine, { config, fork }, at) {
  const trainer = engine.createTrainer(config);
  const forkAt = fork && fork.step <= at ? fork.step : at;
  if (forkAt > 0) trainer.step(forkAt);
  if (fork && fork.step <= at) trainer.configure(change(fork));
  if (at > forkAt) trainer.step(at - forkAt);
  return trainer;
}

/** The scaling run `run`'s steps after `at` use: its fork's from the fork's step on. */
const scaleAfter = ({ config, fork }, at) => (fork?.scale && at >= fork.step ? fork.scale : config.scale);

// ---- The session: its state, and a handler for each message type ----------------------------
//
// A session is { engine, runs: [{ trainer, config, fork } per run], probe, steps, seeds }; each
// handler takes it and the message, changes it, and returns the answer.

/** A run's snapshot now: A on the probe, and the held-out score. */
function snapshot(session, trainer) {
  const { loss, accuracy } = trainer.evaluate(HELD_OUT);
  return { step: session.steps, weights: trainer.probe(session.probe).weights, heldOut: { loss, accuracy } };
}

/** The weights the view draws: W_Q and W_K. */
function parameters(trainer) {
  const { wQ, wK } = trainer.parameters();
  return { wQ, wK };
}

const disposeRuns = (session) => session.runs.forEach(({ trainer }) => trainer.dispose());

/** 'reset': the runs of `configs` (each with its fork, if any) made afresh, at step 0. */
function reset(session, { configs, probe, forks = [] }) {
  disposeRuns(session);
  Object.assign(session, { runs: [], probe, steps: 0 });
  forks.forEach(checkFork);
  configs.forEach((config, r) => {
    const run = { config, fork: forks[r] ?? null };
    session.runs.push({ ...run, trainer: retrain(session.engine, run, 0) });
  });
  return {
    type: 'reset',
    steps: session.steps,
    runs: session.runs.map(({ trainer }) => ({
      snapshots: [snapshot(session, trainer)],
      parameters: parameters(trainer),
    })),
  };
}

/** 'step': `count` steps of every run in lockstep, each fork's change made at its step. */
function step(session, { count }) {
  checkCount('step', count);
  const out = session.runs.map(() => ({ points: [], snapshots: [] }));
  for (let s = 0; s < count; s++) {
    const at = (session.steps += 1);
    session.runs.forEach(({ trainer, fork }, r) => {
      const { loss, accuracy, softmaxGradient } = trainer.step();
      out[r].points.push([at, loss, accuracy, softmaxGradient]);
      if (fork?.step === at) trainer.configure(change(fork));
      if (at % SNAPSHOT_EVERY === 0) out[r].snapshots.push(snapshot(session, trainer));
    });
  }
  session.runs.forEach(({ trainer }, r) => {
    out[r].parameters = parameters(trainer);
  });
  return { type: 'stepped', steps: session.steps, runs: out };
}

/** The run's trainer as it was after `at` steps: the live one, or a new one retrained to there. */
function trainerAt(session, run, at) {
  if (!Number.isInteger(at) || at < 0 || at > session.steps)
    throw Object.assign(new Error(`walk: step must be a whole number from 0 to ${session.steps} (got ${at})`), {
      code: 'bad_option',
      argument: 'step',
    });
  if (at === session.steps) return { trainer: run.trainer, done: () => {} };
  const trainer = retrain(session.engine, run, at);
  return { trainer, done: () => trainer.dispose() };
}

/** 'rewind': every run back to step `at`, retrained to there (its fork too), the same weights and batches' stream as then. */
function rewind(session, { step: at }) {
  session.runs = session.runs.map((run) => {
    const { trainer } = trainerAt(session, run, at);
    if (trainer !== run.trainer) run.trainer.dispose();
    return { ...run, trainer };
  });
  session.steps = at;
  return {
    type: 'rewound',
    steps: session.steps,
    runs: session.runs.map(({ trainer }) => ({ parameters: parameters(trainer) })),
  };
}

/** 'walk': one training step of a run's head on the probe, from the model after `step` steps. */
function walk(session, { run, head, step: at = session.steps }) {
  const { trainer, done } = trainerAt(session, session.runs[run], at);
  try {
    const { x, gradOutput, loss, causal } = trainer.probeGradient(session.probe);
    const { wQ, wK, wV } = trainer.parameters();
    const width = wQ[head].cols;
    const dout = columns(gradOutput, head * width, width);
    const scale = scaleAfter(session.runs[run], at);
    return { type: 'walk', step: at, x, wq: wQ[head], wk: wK[head], wv: wV[head], dout, loss, causal, scale };
  } finally {
    done();
  }
}

/** 'dispose': every trainer freed, the race over seeds' too. */
function dispose(session) {
  disposeRuns(session);
  session.seeds.dispose();
  session.runs = [];
  return { type: 'disposed' };
}

/** The answer to each message type (see the top of the file). */
const HANDLERS = Object.freeze({
  reset,
  step,
  walk,
  rewind,
  'seed-start': (session, message) => session.seeds.start(message),
  'seed-step': (session, message) => session.seeds.step(message),
  dispose,
});

/** What a refused message answers: the error's message and, where the core gave them, its code, argument and params. */
const errorAnswer = (error) => ({
  type: 'error',
  error: {
    message: String(error?.message ?? error),
    code: error?.code,
    argument: error?.argument,
    params: error?.params,
  },
});

export function createTrainSession(engine) {
  const session = { engine, runs: [], probe: null, steps: 0, seeds: seedRace(engine) };
  return {
    /** The answer to one message (see the top of the file). */
    handle(message) {
      try {
        return HANDLERS[message.type](session, message);
      } catch (error) {
        return errorAnswer(error);
      }
    },
  };
}
