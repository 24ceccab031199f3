// The scale lab's body (scale-lab-view.js) for one d_k's numbers (scale-lab.js), in three
// sections: 1. the variance of q·k under each scaling, as histograms; 2. one query's row of
// weights under each scaling, with its numbers as a table; 3. the softmax's largest gradient.
// Every number a chart shows is also in the text beside it.

import { h } from '../../views/dom.js';
import { scrollCue } from '../../views/scroll-cue.js';
import { formatNumber } from '../../format.js';
import { niceTicks, formatWeight, formatGradient } from './scale-lab.js';
import { ORDER, subscript, tick, histogramChart, weightsChart, gradientChart } from './scale-lab-charts.js';

/** A variance, a mean, an entropy: four significant digits (260.5, 1.018, 0.003975). */
export const num = (x, digits = 4) => formatNumber(x, digits);

/** One figure per scaling: its swatch and name, then the chart and what follows it. */
const seriesFigure = (kind, scale, name, ...children) =>
  h(
    'figure',
    { class: `sl-${kind} s-${scale}`, dataset: { scale } },
    h('figcaption', {}, h('span', { class: 'sl-swatch', 'aria-hidden': 'true' }), name),
    ...children,
  );

/** One of a figure's numbers: its term, and its value in a <dd> with `attrs`. */
const stat = (term, attrs, value) => h('div', { class: 'sl-stat' }, h('dt', {}, term), h('dd', attrs, value));

/** A section of the body: its heading (id sl-h-<id>), then its parts. */
const part = (id, heading, ...children) =>
  h(
    'section',
    { class: 'sl-part', 'aria-labelledby': `sl-h-${id}` },
    h('h3', { id: `sl-h-${id}` }, heading),
    ...children,
  );

/** The words each part uses for a scaling. */
function wordsFor(t, lab) {
  return {
    t,
    name: (scale) => t(`scalelab.series.${scale}`),
    shortName: (scale) => t(`scalelab.short.${scale}`),
    theoryText: (scale) => t(`scalelab.theory.${scale}`, { value: num(lab.series[scale].theory) }),
  };
}

/** 1. One scaling's histogram, with its measured variance beside the theory's. */
function histogramFigure(words, lab, scale, yScale) {
  const { t, name, theoryText } = words;
  const range = lab.edges.at(-1);
  const series = lab.series[scale];
  const { below, above } = series.histogram;
  const off =
    below + above
      ? t('scalelab.offAxis', { n: below + above, range, below, above })
      : t('scalelab.onAxis', { n: lab.count, range });
  const label = t('scalelab.histLabel', {
    name: name(scale),
    range,
    variance: num(series.variance),
    theory: theoryText(scale),
    off,
  });
  const chart = histogramChart(lab, scale, yScale, {
    label,
    countName: t('scalelab.axis.count'),
    valueName: t('scalelab.axis.value'),
  });
  return seriesFigure(
    'hist',
    scale,
    name(scale),
    chart,
    h(
      'dl',
      { class: 'sl-stats' },
      stat(t('scalelab.measured'), { class: 'sl-measured', dataset: { value: series.variance } }, num(series.variance)),
      stat(t('scalelab.theory'), { class: 'sl-theory-value', dataset: { value: series.theory } }, theoryText(scale)),
      stat(t('scalelab.mean'), {}, num(series.mean, 2)),
    ),
    h('p', { class: 'sl-off', dataset: { below, above } }, off),
  );
}

/** 1. The histograms, on one y axis fitted to q·k and q·k/√d_k (q·k/d_k is a spike that is cut). */
function varianceSection(words, lab) {
  const { t } = words;
  const range = lab.edges.at(-1),
    width = lab.edges[1] - lab.edges[0];
  const tallest = Math.max(...['none', 'sqrt_dk'].map((scale) => Math.max(...lab.series[scale].histogram.counts)));
  const yScale = niceTicks(tallest * 1.05);
  const legend = h(
    'ul',
    { class: 'sl-legend' },
    h(
      'li',
      {},
      h('span', { class: 'sl-key bars', 'aria-hidden': 'true' }),
      t('scalelab.legend.bars', { width: tick(width) }),
    ),
    h('li', {}, h('span', { class: 'sl-key theory', 'aria-hidden': 'true' }), t('scalelab.legend.theory')),
    h('li', {}, t('scalelab.legend.clipped')),
    h('li', {}, t('scalelab.legend.off')),
  );
  return part(
    'variance',
    t('scalelab.h.variance'),
    h('p', { class: 'explain' }, t('scalelab.variance.text', { range })),
    legend,
    h(
      'div',
      { class: 'sl-grid sl-hists' },
      ORDER.map((scale) => histogramFigure(words, lab, scale, yScale)),
    ),
    h('p', { class: 'explain sl-faq' }, t('scalelab.faq')),
  );
}

/** 2. One scaling's row of weights as bars, with its largest weight, entropy and gradient. */
function rowFigure({ t, name }, row, scale) {
  const r = row.byScale[scale];
  const label = t('scalelab.rowLabel', {
    name: name(scale),
    keys: row.keys,
    largest: formatWeight(r.largest),
    entropy: num(r.entropy, 3),
  });
  const names = { weight: t('scalelab.axis.weight'), key: t('scalelab.axis.key') };
  return seriesFigure(
    'row',
    scale,
    name(scale),
    weightsChart(row, scale, label, names, formatWeight),
    h(
      'dl',
      { class: 'sl-stats' },
      stat(t('scalelab.largest'), { class: 'sl-largest', dataset: { value: r.largest } }, formatWeight(r.largest)),
      stat(
        t('scalelab.entropy'),
        { class: 'sl-entropy', dataset: { value: r.entropy } },
        t('scalelab.entropyOf', { value: num(r.entropy, 3), max: num(r.maxEntropy, 3) }),
      ),
      stat(
        t('scalelab.grad'),
        { class: 'sl-grad', dataset: { value: r.jacobian.value } },
        `${formatGradient(r.jacobian.value)} ≤ 0.25`,
      ),
    ),
  );
}

/** 2. The row's numbers as a table: each key's score, and its weight under each scaling. */
function numbersTable({ t, shortName }, row) {
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, t('scalelab.col.key')),
    h('th', { scope: 'col' }, t('scalelab.col.score')),
    ORDER.map((scale) => h('th', { scope: 'col' }, t('scalelab.col.weight', { name: shortName(scale) }))),
  );
  const body = Array.from(row.scores, (score, j) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, `k${subscript(j + 1)}`),
      h('td', {}, num(score)),
      ORDER.map((scale) => h('td', {}, formatWeight(row.byScale[scale].weights[j]))),
    ),
  );
  return h(
    'details',
    { class: 'sl-numbers', id: 'sl-numbers' },
    h('summary', {}, t('scalelab.table')),
    scrollCue(
      h(
        'div',
        { class: 'table-scroll' },
        h('table', { class: 'sl-table' }, h('thead', {}, head), h('tbody', {}, body)),
      ),
    ),
  );
}

/** 2. One row of scores through softmax under each scaling. */
function softmaxSection(words, { row }) {
  const { t } = words;
  const by = row.byScale;
  return part(
    'softmax',
    t('scalelab.h.softmax'),
    h(
      'p',
      { class: 'explain' },
      t('scalelab.softmax.text', { keys: row.keys, last: subscript(row.keys), max: num(by.none.maxEntropy, 3) }),
    ),
    h(
      'div',
      { class: 'sl-grid sl-rows' },
      ORDER.map((scale) => rowFigure(words, row, scale)),
    ),
    h(
      'p',
      { class: 'explain sl-row-summary' },
      t('scalelab.rowSummary', {
        none: formatWeight(by.none.largest),
        hn: num(by.none.entropy, 3),
        sqrt: formatWeight(by.sqrt_dk.largest),
        hs: num(by.sqrt_dk.entropy, 3),
        dk: formatWeight(by.dk.largest),
        hd: num(by.dk.entropy, 3),
      }),
    ),
    numbersTable(words, row),
  );
}

/** 3. What the gradients say at this d_k: the same (d_k = 1), none unscaled, or their ratio. */
function gradientVerdict(t, dk, g) {
  const params = { dk, none: formatGradient(g.none), sqrt: formatGradient(g.sqrt_dk) };
  if (dk === 1) return t('scalelab.grad.same');
  if (g.none === 0) return t('scalelab.grad.zero', params);
  if (g.sqrt_dk / g.none >= 1.5)
    return t('scalelab.grad.ratio', { ...params, ratio: formatNumber(g.sqrt_dk / g.none, 2) });
  return t('scalelab.grad.close', params);
}

/** 3. The gradient: its largest entry under each scaling, and what that means here. */
function gradientSection({ t, shortName }, lab) {
  const { row } = lab;
  const g = Object.fromEntries(ORDER.map((scale) => [scale, row.byScale[scale].jacobian.value]));
  const gradLabel = t('scalelab.gradLabel', {
    values: ORDER.map((scale) => `${shortName(scale)} ${formatGradient(g[scale])}`).join(', '),
  });
  return part(
    'gradient',
    t('scalelab.h.gradient'),
    h('p', { class: 'explain' }, t('scalelab.gradient.text')),
    h(
      'figure',
      { class: 'sl-grad-figure' },
      gradientChart(row, { label: gradLabel, limit: t('scalelab.limit') }, shortName, formatGradient),
    ),
    h('p', { class: 'explain sl-verdict' }, gradientVerdict(t, lab.dk, g)),
    h('p', { class: 'explain sl-conclusion' }, t('scalelab.conclusion')),
  );
}

/** Draws `lab` (scaleLab's numbers for one d_k) into `body`, in the reader's language. */
export function drawBody(body, t, lab) {
  const words = wordsFor(t, lab);
  body.replaceChildren(varianceSection(words, lab), softmaxSection(words, lab), gradientSection(words, lab));
}
