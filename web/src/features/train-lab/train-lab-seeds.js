// The race over seeds (train-lab-race.js; the numbers are train-race.js's): a button that runs
// the √d_k race from SEED_COUNT seeds in the session, a strip chart of each run's steps to learn —
// one dot a seed, those that did not learn within the budget in a column of their own past its end —
// and the same in words: median, range, how many did not learn within the budget.

import { h, setText } from '../../views/dom.js';
import { SEED_COUNT, LEARNED_BELOW, seedSummary } from './train-race.js';
import { niceTicks } from './train-lab.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 640;
const ROW = 34;
const BOX = { left: 96, top: 8, width: WIDTH - 96 - 86, height: 2 * ROW };
const HEIGHT = BOX.top + BOX.height + 30;
const NOT_LEARNED_X = BOX.left + BOX.width + 42; // the column of the seeds that did not learn

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.append(...children);
  return el;
}

/** The strip chart's SVG children for `results` ([[step or null] × 2] of each seed) on 0 … budget. */
function strips(results, budget, { names, notWithin }) {
  const ticks = niceTicks(budget);
  const end = Math.max(budget, ticks.at(-1));
  const x = (step) => BOX.left + (step / end) * BOX.width;
  const bottom = BOX.top + BOX.height;
  const parts = [];
  for (const tick of ticks.filter((t) => t <= end)) {
    parts.push(s('line', { class: 'grid', x1: x(tick), x2: x(tick), y1: BOX.top, y2: bottom }));
    parts.push(s('text', { class: 'tick', x: x(tick), y: bottom + 16, 'text-anchor': 'middle' }, String(tick)));
  }
  parts.push(s('text', { class: 'tick', x: NOT_LEARNED_X, y: bottom + 16, 'text-anchor': 'middle' }, notWithin));
  names.forEach((name, r) => {
    const y = BOX.top + ROW * r + ROW / 2;
    parts.push(s('text', { class: 'axis-label', x: BOX.left - 8, y: y + 4, 'text-anchor': 'end' }, name));
    // Seeds at the same step are stacked a little apart, so that each dot is seen.
    const seen = new Map();
    for (const pair of results) {
      const step = pair[r];
      const at = step === null ? NOT_LEARNED_X : x(step);
      const key = Math.round(at / 4);
      const k = seen.get(key) ?? 0;
      seen.set(key, k + 1);
      const dy = ((k % 5) - 2) * 4;
      parts.push(s('circle', { class: `dot run-${r}${step === null ? ' missed' : ''}`, cx: at, cy: y + dy, r: 3.5 }));
    }
  });
  return parts;
}

/** One run's sentence about its seeds (seedSummary's part `part`). */
function runWords(t, name, part, count, budget) {
  const numbers = { run: name, count, budget, learned: part.learned, notLearned: part.notLearned };
  const range = { median: part.median, min: part.min, max: part.max };
  if (part.notLearned === 0) return t('train.seeds.all', { ...numbers, ...range });
  if (part.learned === 0) return t('train.seeds.none', numbers);
  return t('train.seeds.some', { ...numbers, ...range });
}

/**
 * { el, update({ t, names, state, seeds }) } with seeds { results, running, budget } (the view's);
 * onRun() when the button is pressed.
 */
export function createSeedsPanel({ onRun }) {
  const title = h('h3', { id: 'train-seeds-title' });
  const text = h('p', { id: 'train-seeds-text' });
  const button = h('button', {
    type: 'button',
    id: 'train-seeds-run',
    onclick: () => button.getAttribute('aria-disabled') !== 'true' && onRun(),
  });
  const progress = h('p', { class: 'train-seeds-progress', id: 'train-seeds-progress', role: 'status' });
  const chart = s('svg', { id: 'train-seeds-chart', class: 'train-chart train-seeds-chart', role: 'img' });
  chart.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  const words = h('p', { class: 'train-race-result', id: 'train-seeds-result' });
  const el = h(
    'div',
    { class: 'train-seeds', 'aria-labelledby': 'train-seeds-title' },
    title,
    text,
    button,
    progress,
    chart,
    words,
  );

  function update({ t, names, state, seeds }) {
    const budget = state.trainsteps;
    setText(title, t('train.seeds.title', { count: SEED_COUNT }));
    setText(
      text,
      t('train.seeds.text', {
        count: SEED_COUNT,
        from: state.trainseed,
        to: (state.trainseed + SEED_COUNT - 1) % 2 ** 32,
        threshold: LEARNED_BELOW,
        budget,
      }),
    );
    setText(button, t('train.seeds.button', { count: SEED_COUNT }));
    button.setAttribute('aria-disabled', String(seeds.running));
    const done = seeds.results.length;
    setText(progress, seeds.running ? t('train.seeds.progress', { done, count: SEED_COUNT }) : '');
    chart.hidden = done === 0;
    el.dataset.seeds = String(done);
    const label = t('train.seeds.chart', { budget });
    chart.setAttribute('aria-label', label);
    chart.replaceChildren(...(done ? strips(seeds.results, budget, { names, notWithin: `>${budget}` }) : []));
    if (!done) return setText(words, '');
    const summary = seedSummary(seeds.results);
    const lead = t(seeds.running ? 'train.seeds.sofar' : 'train.seeds.over', { done });
    setText(words, [lead, ...summary.map((part, r) => runWords(t, names[r], part, done, budget))].join(' '));
  }
  return { el, update };
}
