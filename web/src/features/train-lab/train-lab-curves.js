// The training lab's curves (train-lab-view.js): the loss with the gradient through the softmax,
// and the accuracy with the held-out accuracy at each snapshot — each run's, in the race both
// scalings' and with a fork the fork's from its step on beside the run it left (faint) — the runs'
// legend by colour, and the loss's summary line in words.

import { h, setText } from '../../views/dom.js';
import { createLineChart } from './train-lab-chart.js';
import { RACE_SCALES } from './train-lab.js';
import { forkOf, forkLook, forkNames, forkWords } from './train-fork.js';
import { formatNumber } from '../../format.js';

/** The last point's value at `column` (1 loss, 2 accuracy, 3 gradient) of a run, or NaN. */
export const lastOf = (run, column) => run.points.at(-1)?.[column] ?? NaN;
const largest = (values, floor) => Math.max(floor, ...values.filter(Number.isFinite));

/**
 * { figures: [the loss's, the accuracy's], word({ t }), draw({ state, t }, d, names) }: `d` the
 * runner's data, `names` each run's name (the view's runNames).
 */
export function createCurvesPart() {
  const lossTitle = h('h3', {});
  const lossText = h('p', {});
  const lossSummary = h('p', { class: 'train-summary', id: 'train-loss-summary' });
  const accuracyTitle = h('h3', {});
  const lossChart = createLineChart('train-chart-loss');
  const accuracyChart = createLineChart('train-chart-accuracy');
  // The runs by colour (the summary line below the chart gives their numbers).
  const legend = h(
    'ul',
    { class: 'train-legend', id: 'train-legend', hidden: true },
    [0, 1].map((r) => h('li', {}, h('span', { class: `train-swatch run-${r}`, 'aria-hidden': 'true' }), h('span', {}))),
  );
  const figures = [
    h('figure', { class: 'train-figure' }, lossTitle, legend, lossChart.el, lossSummary, lossText),
    h('figure', { class: 'train-figure' }, accuracyTitle, accuracyChart.el),
  ];
  return {
    figures,
    word({ t }) {
      setText(lossTitle, t('train.chart.loss'));
      setText(lossText, t('train.chart.loss.text'));
      setText(accuracyTitle, t('train.chart.accuracy'));
    },
    draw({ state, t }, d, names) {
      drawLegend(legend, state, t);
      drawCharts({ lossChart, accuracyChart }, { state, t }, d);
      setText(lossSummary, summaryWords({ state, t }, d, names));
    },
  };
}

/** The runs by colour: the race's two scalings, or the fork and the run it left (faint); none for one run. */
function drawLegend(legend, state, t) {
  const names =
    forkNames(t, state) ?? (state.trainscale === 'race' ? RACE_SCALES.map((s) => t(`train.run.${s}`)) : null);
  legend.hidden = !names;
  legend.classList.toggle('forked', Boolean(forkOf(state)));
  names?.forEach((name, r) => setText(legend.children[r].lastChild, name));
}

function drawCharts({ lossChart, accuracyChart }, { state, t }, d) {
  // With a fork, the fork from its step on and the run it left faint (forkLook).
  const looks = d.runs.map((_, r) => forkLook(state, r));
  const from = (points, r) => points.filter(([step]) => step >= looks[r].from);
  const column = (run, c, r) =>
    from(
      run.points.map((p) => [p[0], p[c]]),
      r,
    );
  const hint = d.steps === 0 ? t('train.chart.empty') : null;
  const maxStep = state.trainsteps;
  lossChart.draw({
    maxStep,
    left: {
      max: largest(
        d.runs.flatMap((r) => r.points.map((p) => p[1])),
        0.5,
      ),
      label: t('train.axis.loss'),
    },
    right: {
      max: largest(
        d.runs.flatMap((r) => r.points.map((p) => p[3])),
        0.01,
      ),
      label: t('train.axis.gradient'),
    },
    series: d.runs.flatMap((run, r) => [
      { run: r, points: column(run, 1, r), axis: 'left', faint: looks[r].faint },
      { run: r, points: column(run, 3, r), axis: 'right', dashed: true, faint: looks[r].faint },
    ]),
    label: t('train.chart.loss'),
    hint,
  });
  accuracyChart.draw({
    maxStep,
    left: { max: 1, label: t('train.axis.accuracy') },
    series: d.runs.flatMap((run, r) => [
      { run: r, points: column(run, 2, r), axis: 'left', faint: looks[r].faint },
      {
        run: r,
        points: from(
          run.snapshots.map((s) => [s.step, s.heldOut.accuracy]),
          r,
        ),
        axis: 'left',
        dashed: true,
        dots: true,
        faint: looks[r].faint,
      },
    ]),
    label: t('train.chart.accuracy'),
    hint,
  });
}

/** The loss's summary: the fork, if any, then each run's loss and gradient at the last step; none before a step. */
function summaryWords({ state, t }, d, names) {
  if (!d.steps) return '';
  // In the race the runs are compared by the race's own numbers (the race part), never by two
  // gradients at the last step, where a run that has learned has none left.
  const part = state.trainscale === 'race' ? 'train.chart.partRace' : 'train.chart.part';
  const summary = d.runs.map((run, r) =>
    t(part, {
      run: names[r],
      loss: formatNumber(lastOf(run, 1), 4),
      gradient: formatNumber(lastOf(run, 3), 3),
    }),
  );
  const fork = forkOf(state);
  const forked = fork ? t('train.fork.summary', { step: fork.step, change: forkWords(t, state, fork) }) : '';
  return forked + t('train.chart.summary', { step: d.steps, parts: summary.join(' · ') });
}
