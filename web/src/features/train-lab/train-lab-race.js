// The training lab's race (§4; train-lab-view.js), shown with trainscale=race: both scalings from
// the same seed, compared in words like with like (the numbers are train-race.js's), and the race
// over seeds (train-lab-seeds.js).

import { h, setText } from '../../views/dom.js';
import { createSeedsPanel } from './train-lab-seeds.js';
import { raceFacts, LEARNED_BELOW, LOSS_AT_STEP } from './train-race.js';
import { trainerConfigs } from './train-lab.js';
import { formatNumber } from '../../format.js';

/** The race's two runs' names, ÷√d_k first. */
export const raceNames = (state, t) => trainerConfigs(state).map((c) => t(`train.run.${c.scale}`));

/**
 * { el, word({ t }), draw({ state, t }, d, seeds) }: `d` the runner's data, `seeds` the race over
 * seeds' record (the view's); its button calls onRun().
 */
export function createRacePart({ onRun }) {
  const title = h('h3', {});
  const text = h('p', {});
  const result = h('p', { class: 'train-race-result', id: 'train-race-result' });
  const seeds = createSeedsPanel({ onRun });
  const el = h('section', { class: 'train-race', id: 'train-race', hidden: true }, title, text, result, seeds.el);
  return {
    el,
    word({ t }) {
      setText(title, t('train.race.title'));
      setText(text, t('train.race.text'));
    },
    draw({ state, t }, d, record) {
      el.hidden = state.trainscale !== 'race';
      if (!el.hidden) seeds.update({ t, names: raceNames(state, t), state, seeds: record });
      const ready = !el.hidden && d.runs.length === 2 && d.steps > 0;
      setText(result, ready ? raceWords(t, d.runs.map(raceFacts), d.steps, state.trainsteps) : '');
    },
  };
}

/**
 * The race in words, like with like: both runs' gradients at step 1 (from the same weights), the
 * step each first learned (or that it has not yet, or not within the steps asked for), and both
 * losses at LOSS_AT_STEP once the runs have got there.
 */
function raceWords(t, [scaled, unscaled], steps, total) {
  const learned = (facts) => {
    if (facts.learnedAt !== null) return t('train.race.at', { step: facts.learnedAt });
    return t(steps >= total ? 'train.race.notWithin' : 'train.race.notYet', { step: steps });
  };
  const sentences = [
    t('train.race.first', {
      scaled: formatNumber(scaled.gradient, 3),
      unscaled: formatNumber(unscaled.gradient, 3),
      scaledJacobian: formatNumber(scaled.jacobian, 3),
      unscaledJacobian: formatNumber(unscaled.jacobian, 3),
    }),
    t('train.race.learned', { threshold: LEARNED_BELOW, scaled: learned(scaled), unscaled: learned(unscaled) }),
  ];
  if (scaled.lossAt !== null)
    sentences.push(
      t('train.race.lossAt', {
        step: LOSS_AT_STEP,
        scaled: formatNumber(scaled.lossAt, 3),
        unscaled: formatNumber(unscaled.lossAt, 3),
      }),
    );
  return sentences.join(' ');
}
