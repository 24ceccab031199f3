// The lab "why divide by √d_k" (view=scale-lab), drawn from labs/scale-lab.js's numbers: the d_k
// control, three histograms of the core's sampled dot products on one axis (unscaled, ÷√d_k, ÷d_k),
// each with its measured variance beside the theory, and one query row through softmax under each
// scaling — its weights, largest weight, entropy and the largest entry of the softmax's Jacobian.
// Render only; the numbers are computed once per d_k (≈ 0.15 s at d_k = 1024) and kept.

import { h } from './dom.js';
import { svg, px } from './svg.js';
import { scaleLab, DK_STEPS } from '../labs/scale-lab.js';
import { formatNumber } from '../format.js';

// The reading order: the problem, the article's fix, the FAQ's overcorrection.
const ORDER = ['none', 'sqrt_dk', 'dk'];
const HIST = { width: 320, height: 170, left: 8, right: 8, top: 10, bottom: 28 };
const ROW = { width: 220, height: 70, gap: 4 };

const fmt = (x) => formatNumber(x, 3);

/** The density of the normal distribution with mean 0 and variance 1, for the dashed reference. */
const normalDensity = (x) => Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);

function histogramChart(lab, scale, label) {
  const { edges, count } = lab;
  const { histogram } = lab.series[scale];
  const bins = histogram.counts.length;
  const width = edges[bins] - edges[0];
  const binWidth = width / bins;
  const density = Array.from(histogram.counts, (c) => c / (count * binWidth));
  const top = Math.max(0.45, ...density);
  const plotW = HIST.width - HIST.left - HIST.right,
    plotH = HIST.height - HIST.top - HIST.bottom;
  const x = (v) => HIST.left + ((v - edges[0]) / width) * plotW;
  const y = (d) => HIST.top + plotH - (d / top) * plotH;
  const bars = density.map((d, b) =>
    svg('rect', {
      class: 'bar',
      x: px(x(edges[b]) + 0.5),
      width: px(plotW / bins - 1),
      y: px(y(d)),
      height: px(HIST.top + plotH - y(d)),
    }),
  );
  const curve = Array.from({ length: 121 }, (_, k) => {
    const v = edges[0] + (width * k) / 120;
    return `${k ? 'L' : 'M'}${px(x(v))},${px(y(normalDensity(v)))}`;
  }).join('');
  const ticks = [-6, -4, -2, 0, 2, 4, 6].filter((v) => v >= edges[0] && v <= edges[bins]);
  return svg(
    'svg',
    {
      viewBox: `0 0 ${HIST.width} ${HIST.height}`,
      role: 'img',
      'aria-label': label,
      class: `chart hist hist-${scale}`,
    },
    bars,
    svg('path', { class: 'reference', d: curve }),
    svg('line', {
      class: 'axis',
      x1: HIST.left,
      x2: HIST.width - HIST.right,
      y1: HIST.top + plotH,
      y2: HIST.top + plotH,
    }),
    ticks.map((v) => [
      svg('line', { class: 'axis', x1: px(x(v)), x2: px(x(v)), y1: HIST.top + plotH, y2: HIST.top + plotH + 4 }),
      svg(
        'text',
        { class: 'tick', x: px(x(v)), y: HIST.height - 8, 'text-anchor': 'middle' },
        v < 0 ? `−${-v}` : String(v),
      ),
    ]),
  );
}

function weightsChart(weights, label) {
  const n = weights.length;
  const barW = (ROW.width - ROW.gap * (n - 1)) / n;
  const largest = Math.max(...weights);
  return svg(
    'svg',
    { viewBox: `0 0 ${ROW.width} ${ROW.height}`, role: 'img', 'aria-label': label, class: 'chart weights' },
    Array.from(weights, (a, j) =>
      svg('rect', {
        class: a === largest ? 'bar winner' : 'bar',
        x: px(j * (barW + ROW.gap)),
        width: px(barW),
        y: px(ROW.height - 2 - a * (ROW.height - 4)),
        height: px(Math.max(a * (ROW.height - 4), 0.5)),
      }),
    ),
    svg('line', { class: 'axis', x1: 0, x2: ROW.width, y1: ROW.height - 1.5, y2: ROW.height - 1.5 }),
  );
}

export function createScaleLabView({ engine, setState }) {
  const computed = new Map(); // d_k → scaleLab's numbers
  const labFor = (dk) => {
    if (!computed.has(dk)) computed.set(dk, scaleLab(engine, { dk }));
    return computed.get(dk);
  };

  const title = h('h2', { id: 'scale-title' });
  const intro = h('p', { class: 'lab-intro' });
  const dkLabel = h('label', { for: 'scale-dk' });
  const dkValue = h('output', { for: 'scale-dk', id: 'scale-dk-value', class: 'scale-dk-value' });
  const slider = h('input', { type: 'range', id: 'scale-dk', min: 0, max: DK_STEPS.length - 1, step: 1 });
  slider.addEventListener('input', () => setState({ labdk: DK_STEPS[Number(slider.value)] }));
  const samples = h('p', { class: 'muted scale-samples' });
  const summary = h('p', { class: 'scale-summary', id: 'scale-summary' });
  const histTitle = h('h3', {});
  const histograms = h('div', { class: 'scale-hists' });
  const curveNote = h('p', { class: 'muted scale-curve-note' });
  const rowTitle = h('h3', {});
  const rowText = h('p', { class: 'scale-row-text' });
  const gradTitle = h('h3', {});
  const gradText = h('p', { class: 'scale-grad-text' });
  const rows = h('div', { class: 'scale-rows' });

  const element = h(
    'section',
    { class: 'lab lab-scale', 'aria-labelledby': 'scale-title' },
    title,
    intro,
    h(
      'div',
      { class: 'lab-card scale-control' },
      h('div', { class: 'scale-dk-row' }, dkLabel, slider, dkValue),
      samples,
      summary,
    ),
    h('div', { class: 'lab-card' }, histTitle, histograms, curveNote),
    h('div', { class: 'lab-card' }, rowTitle, rowText, gradTitle, gradText, rows),
  );

  return {
    element,
    update({ state, t }) {
      const lab = labFor(state.labdk);
      const { dk, count, seed, edges, series, row } = lab;
      title.textContent = t('view.scale-lab');
      intro.textContent = t('scale.intro');
      dkLabel.textContent = t('scale.dk');
      slider.value = String(DK_STEPS.indexOf(dk));
      slider.setAttribute('aria-valuetext', t('scale.dkValue', { dk }));
      dkValue.textContent = t('scale.dkValue', { dk });
      samples.textContent = t('scale.samples', { count, seed });
      const none = row.byScale.none,
        sqrt = row.byScale.sqrt_dk;
      summary.textContent = t('scale.summary', {
        dk,
        noneLargest: fmt(none.largest),
        noneGrad: fmt(none.jacobian.value),
        sqrtLargest: fmt(sqrt.largest),
        sqrtGrad: fmt(sqrt.jacobian.value),
      });

      histTitle.textContent = t('scale.histTitle');
      const range = edges[edges.length - 1];
      histograms.replaceChildren(
        ...ORDER.map((scale) => {
          const s = series[scale];
          const name = t(`scale.series.${scale}`);
          const measured = fmt(s.variance),
            theory = fmt(s.theory);
          const off = s.histogram.below + s.histogram.above;
          return h(
            'figure',
            { class: 'scale-hist', dataset: { scale, variance: String(s.variance), theory: String(s.theory) } },
            h('figcaption', {}, h('strong', {}, name)),
            histogramChart(lab, scale, t('scale.chartLabel', { name, measured, theory })),
            h('p', { class: 'scale-variance' }, t('scale.variance', { measured, theory })),
            off ? h('p', { class: 'muted scale-off' }, t('scale.offAxis', { count: off, range })) : null,
          );
        }),
      );
      curveNote.textContent = t('scale.curve');

      rowTitle.textContent = t('scale.rowTitle');
      rowText.textContent = t('scale.rowText', { keys: row.keys });
      gradTitle.textContent = t('scale.gradTitle');
      gradText.textContent = t('scale.gradText');
      rows.replaceChildren(
        ...ORDER.map((scale) => {
          const r = row.byScale[scale];
          const name = t(`scale.series.${scale}`);
          const stat = (key, value, params = {}) => [h('dt', {}, t(key, params)), h('dd', {}, value)];
          return h(
            'figure',
            { class: 'scale-row', dataset: { scale, largest: String(r.largest), gradient: String(r.jacobian.value) } },
            h('figcaption', {}, h('strong', {}, name)),
            weightsChart(
              r.weights,
              t('scale.weightsLabel', { name, keys: row.keys }) + ' ' + Array.from(r.weights, fmt).join(', '),
            ),
            h(
              'dl',
              {},
              stat('scale.largest', fmt(r.largest)),
              stat('scale.entropy', fmt(r.entropy), { keys: row.keys, max: fmt(r.maxEntropy) }),
              stat('scale.gradient', fmt(r.jacobian.value)),
            ),
          );
        }),
      );
    },
    destroy() {},
  };
}
