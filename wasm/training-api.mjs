// training-api.mjs — the JS side of training (issue 17), added to the public API by api.mjs:
// createTrainer. As in api.mjs, this layer reads each argument once and checks only what C++
// cannot see (JS types, unknown keys, names); the ranges, the learning rate's and a probe's
// tokens' included, are checked once, in the core (core/train.hpp, core/tasks.hpp), which refuses
// with out_of_range (or wrong_length for a probe of another length).

import { TASKS, POSITIONS, OPTIMIZERS, SCALES } from './vocabulary.mjs';
import { codedError, plain } from './boundary.mjs';

const NAMED = { task: TASKS, position: POSITIONS, optimizer: OPTIMIZERS, scale: SCALES };

/**
 * The training methods over the Embind module `core`, with api.mjs's helpers
 * { readArgs, badOption, oneOf, unwrap, record, describe, fail }.
 */
export function trainingMethods(core, { readArgs, badOption, oneOf, unwrap, record, describe, fail }) {
  // The fields and their defaults are the core's TrainConfig (core/train.hpp): one place for them.
  // Every value is a string or a number.
  const defaults = Object.freeze(plain(core.trainerDefaults()));
  const TRAINER_KEYS = Object.keys(defaults);

  // A probe's tokens, read once (the array's length, then each element once) into a Float64Array
  // that only the bindings see: the value checked is the value used. The core checks their number
  // and range, and quotes a token as given.
  function readTokens(fn, tokens, field = 'tokens') {
    if (!Array.isArray(tokens)) badOption(fn, field, "an array of the task's length of tokens", tokens);
    const length = tokens.length;
    const copy = new Float64Array(length);
    for (let i = 0; i < length; i++) {
      const token = tokens[i];
      if (typeof token !== 'number')
        fail(
          'bad_option',
          field,
          `${fn}: ${field === 'tokens' ? '' : `${field}: `}tokens[${i}] must be a number (got ${describe(token)})`,
          {
            index: i,
            got: describe(token),
          },
        );
      copy[i] = token;
    }
    return copy;
  }

  // The pairs task's table, read once into [{ input, output }] of Float64Arrays (as a probe's
  // tokens): each pair an object with two arrays of numbers. Their number, lengths and tokens are
  // the core's to check (tasks.hpp).
  function readPairs(fn, pairs) {
    const need = 'an array of { input, output } pairs of token arrays';
    if (!Array.isArray(pairs)) badOption(fn, 'pairs', need, pairs);
    const length = pairs.length;
    const table = [];
    for (let p = 0; p < length; p++) {
      const pair = pairs[p];
      if (pair === null || typeof pair !== 'object') badOption(fn, 'pairs', need, pairs);
      const { input, output } = pair;
      table.push({ input: readTokens(fn, input, 'pairs'), output: readTokens(fn, output, 'pairs') });
    }
    return table;
  }

  return {
    /** createTrainer's fields and their values when left out: a frozen copy of the core's defaults. */
    trainerDefaults: () => defaults,

    /**
     * A trainer of one attention layer on a task, seeded: { step(n), configure({ learningRate,
     * scale }), evaluate({ count, seed }), probe(tokens), probeGradient(tokens), parameters(),
     * dispose() }. The same config (seed
     * included) in the same build gives the same run bit for bit. docs/api.md ("Training") lists the
     * fields and their defaults.
     */
    createTrainer(args = {}) {
      const fn = 'createTrainer';
      const config = record({ ...defaults, ...readArgs(fn, args, TRAINER_KEYS) });
      for (const [key, names] of Object.entries(NAMED))
        if (!names.includes(config[key])) badOption(fn, key, oneOf(names), config[key]);
      for (const key of TRAINER_KEYS)
        if (
          !Object.hasOwn(NAMED, key) &&
          key !== 'learningRate' &&
          key !== 'pairs' &&
          !(Number.isInteger(config[key]) && config[key] >= 0 && config[key] <= 2 ** 32 - 1)
        )
          badOption(fn, key, 'a whole number', config[key]);
      // Its range is the core's, checked on the number as given (before float32 rounds it).
      if (typeof config.learningRate !== 'number') badOption(fn, 'learningRate', 'a number', config.learningRate);
      // The trainer's id in the module, until dispose() has freed it.
      const pairs = readPairs(fn, config.pairs);
      let id = unwrap(core.createTrainer({ ...config, pairs })).id;
      const live = (name) => {
        if (id === undefined)
          throw codedError(`trainer.${name}: this trainer has been disposed`, { code: 'disposed', params: {} });
        return id;
      };
      const count = (name, n, max) => {
        if (!Number.isInteger(n) || n < 1 || n > max)
          badOption(`trainer.${name}`, 'count', `a whole number from 1 to ${max}`, n);
        return n;
      };
      return Object.freeze({
        /**
         * n optimizer steps (default 1) → the last step's { loss, accuracy, steps, softmaxGradient }
         * on its batch; softmaxGradient is the size of the gradient through the softmax (docs/api.md, "Training").
         */
        step: (n = 1) => unwrap(core.trainerStep(live('step'), count('step', n, 100000))),
        /**
         * A fork: { learningRate?, scale? } for the steps to come → the { learningRate, scale } now
         * in force. The parameters, Adam's moments, the step count and the batches' stream are kept,
         * so the next step is the one the run would have taken with this setting alone changed. The
         * rate's range is the core's (as createTrainer's); nothing changes when either is refused.
         */
        configure: (options = {}) => {
          const fn = 'trainer.configure';
          const { learningRate, scale } = readArgs(fn, options, ['learningRate', 'scale']);
          if (learningRate !== undefined && typeof learningRate !== 'number')
            badOption(fn, 'learningRate', 'a number', learningRate);
          if (scale !== undefined && !SCALES.includes(scale)) badOption(fn, 'scale', oneOf(SCALES), scale);
          return unwrap(core.trainerConfigure(live('configure'), { learningRate, scale }));
        },
        /** { loss, accuracy, steps } on `count` held-out sequences of the stream `seed`. */
        evaluate: (options = {}) => {
          const { count: n = 256, seed = 1 } = readArgs('trainer.evaluate', options, ['count', 'seed']);
          if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1)
            badOption('trainer.evaluate', 'seed', 'a whole number from 0 to 4294967295', seed);
          return unwrap(core.trainerEvaluate(live('evaluate'), count('evaluate', n, 4096), seed));
        },
        /** The model on one sequence of `length` tokens: { weights: [A of each head], logits }. */
        probe: (tokens) => {
          const copy = readTokens('trainer.probe', tokens);
          return unwrap(core.trainerProbe(live('probe'), copy));
        },
        /**
         * One sequence's loss and the gradient it sends to the heads (nothing is learned):
         * { x (the heads' input X, n × d_model), gradOutput (∂ℓ/∂O for O the heads' outputs side
         * by side, n × heads·d_k: head h's dO is its h-th block of columns), loss (ℓ, the mean
         * cross-entropy over its scored positions, with the targets the task asks of these
         * tokens), scored, causal (whether the heads' attention is causal, as the task's) }.
         */
        probeGradient: (tokens) => {
          const copy = readTokens('trainer.probeGradient', tokens);
          return unwrap(core.trainerProbeGradient(live('probeGradient'), copy));
        },
        /** A copy of the learned numbers: { tokenEmbedding, positionEmbedding, wQ, wK, wV: [(d_model, d_k) of each head], wOut, bOut }. */
        parameters: () => unwrap(core.trainerParameters(live('parameters'))),
        /**
         * Frees the trainer's memory in the module; the trainer cannot be used again. Called while
         * another call of the module runs (from a built-in the caller replaced), it is refused with
         * reentrant_call and the trainer stays, still to be disposed.
         */
        dispose: () => {
          if (id === undefined) return;
          unwrap(core.trainerDelete(id));
          id = undefined;
        },
      });
    },
  };
}
