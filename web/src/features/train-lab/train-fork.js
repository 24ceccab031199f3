// The training lab's fork (issue 26, item 6): from the model as it was after step s — its weights,
// Adam's moments and the batches' stream — the run goes on with another learning rate or scaling,
// beside the run it left, which goes on unchanged. Pure: no DOM, no engine.
//
//   forkFields     the fork's part of the URL hash (train-lab.js adds them to the lab's)
//   forkOf         the state's fork: { step, learningRate?, scale? }, or null
//   sessionRuns    the session's runs for a state: { configs, forks } (train-session.js 'reset')
//   withoutFork    a change of the run's fields that drops the fork, which belonged to the old run
//   fitFork        a hand-written link's fork that its run cannot have: dropped, and named (the feature's `fit`)
//
// A fork is of one run: the race already runs both scalings side by side, so a fork there is
// neither offered nor written.

import { integer, oneOf, refusedAlone } from '../../fields.js';

// A field a link may hold unreadable is refused alone, named in the 'linkTrain' notice (fields.js).
const named = (key, type) => refusedAlone(key, type, 'linkTrain');

/** A fork is of one run, and is written only when there is one. */
const forked = (state) => state.trainfork !== null && state.trainscale !== 'race';

/**
 * The fork's hash fields over the lab's choices (train-lab.js, which imports this file): the step
 * it starts after (`trainfork`, 0 … maxStep), and what it changes from there (`trainforklr` one of
 * rates, `trainforkscale` one of scales; each left out when unchanged). No fork: none of them.
 */
export function forkFields({ rates, scales, maxStep }) {
  return [
    { key: 'trainfork', type: named('trainfork', integer(0, maxStep)), initial: null, only: forked },
    {
      key: 'trainforklr',
      type: named('trainforklr', oneOf(rates)),
      initial: null,
      only: (s) => forked(s) && s.trainforklr !== null,
    },
    {
      key: 'trainforkscale',
      type: named('trainforkscale', oneOf(scales)),
      initial: null,
      only: (s) => forked(s) && s.trainforkscale !== null,
    },
  ];
}

/** The state with no fork: what every change of the run's own fields carries. */
export const NO_FORK = Object.freeze({ trainfork: null, trainforklr: null, trainforkscale: null });

/**
 * A link's fork that its run cannot have (a hand-written link; state.js parseState calls this as
 * the feature's `fit`): fork fields in the race, which already runs both scalings side by side, or
 * a fork after a step beyond the run's steps, which would never start. The fork is dropped, the
 * rest of the link kept, and the 'linkTrain' notice names the field and why (i18n's
 * notice.linkTrain.race, notice.linkTrain.steps). Null when the fork fits.
 */
export function fitFork(state) {
  const given = Object.keys(NO_FORK).find((key) => state[key] !== null);
  const refused = (key, reason, more) => ({
    change: NO_FORK,
    notice: { key: 'linkTrain', problem: key, text: String(state[key]), reason, ...more },
  });
  if (given && state.trainscale === 'race') return refused(given, 'race');
  if (state.trainfork > state.trainsteps) return refused('trainfork', 'steps', { steps: state.trainsteps });
  return null;
}

/**
 * The state's fork: { step, learningRate?, scale? } with only what differs from the run's own
 * setting, or null when there is none (no fork, the race, or a fork that would change nothing).
 */
export function forkOf(state) {
  if (!forked(state)) return null;
  const fork = { step: state.trainfork };
  if (state.trainforklr !== null && state.trainforklr !== state.trainlr) fork.learningRate = state.trainforklr;
  if (state.trainforkscale !== null && state.trainforkscale !== state.trainscale) fork.scale = state.trainforkscale;
  return 'learningRate' in fork || 'scale' in fork ? fork : null;
}

/**
 * The session's runs (train-session.js 'reset') for `configs` (trainerConfigs'): with a fork, the
 * fork first — the run the lab reads out — then the run it left; each from the same config, the
 * fork's change made once it has trained `step` steps.
 */
export function sessionRuns(state, configs) {
  const fork = forkOf(state);
  if (!fork) return { configs, forks: configs.map(() => null) };
  return { configs: [configs[0], configs[0]], forks: [fork, null] };
}

/**
 * A change of the lab's fields, with the fork dropped unless only the steps change and the fork's
 * step is still within them: a fork belongs to the run it was made from.
 */
export function withoutFork(state, change) {
  const keys = Object.keys(change);
  const stepsOnly = keys.length === 1 && keys[0] === 'trainsteps';
  return stepsOnly && (state.trainfork ?? 0) <= change.trainsteps ? change : { ...change, ...NO_FORK };
}

/**
 * The hash fields of a fork after `step` steps to `choice` { learningRate, scale } (the fork
 * part's selects): each written only where it differs from the run's own setting.
 */
export function forkChange(state, step, { learningRate, scale }) {
  return {
    trainfork: step,
    trainforklr: learningRate === state.trainlr ? null : learningRate,
    trainforkscale: scale === state.trainscale ? null : scale,
  };
}

/** What the fork changes, in words: "learning rate 0.01 → 0.1, scaling ÷√dₖ → no scaling" (i18n's train.fork.*). */
export function forkWords(t, state, fork) {
  const parts = [];
  if ('learningRate' in fork) parts.push(t('train.fork.lrChange', { from: state.trainlr, to: fork.learningRate }));
  if ('scale' in fork)
    parts.push(
      t('train.fork.scaleChange', {
        from: t(`train.run.${state.trainscale}`),
        to: t(`train.run.${fork.scale}`),
      }),
    );
  return parts.join(t('train.fork.and'));
}

/** The two runs' names with a fork: [the fork's, the original's]; null without one. */
export function forkNames(t, state) {
  const fork = forkOf(state);
  if (!fork) return null;
  return [t('train.fork.name', { step: fork.step, change: forkWords(t, state, fork) }), t('train.fork.original')];
}

/**
 * How run `r`'s curves are drawn: with a fork, the fork (run 0) from its step on — before it, it is
 * the run it left — and that run (run 1) whole but faint. `from` is the first step drawn.
 */
export function forkLook(state, r) {
  const fork = forkOf(state);
  if (!fork) return { from: 0, faint: false };
  return r === 0 ? { from: fork.step, faint: false } : { from: 0, faint: true };
}
