// The cost lab's time part (cost-lab-view.js): time against n on log–log axes, one line per path
// with its fitted slope in the legend, the sizes the core refused, every measurement in a table,
// and why a slope carries ⚠. Drawn from the run's record (cost-record.js), or before any run
// from the plan the Run button would start.

import { h } from '../../views/dom.js';
import {
  COST_PLAN,
  slopes,
  COMPUTE_BOUND_FACTOR,
  TRUSTED_SPREAD,
  DISTURBED_SPREAD,
  formatBytes,
  formatDuration,
} from './cost-lab.js';
import { resultsOf, measuredOf, refusedOf } from './cost-record.js';
import { SLICE_MS } from '../../labs/worker-host.js';
import { chartFigure, decades, legendItem } from './cost-lab-chart.js';
import { fillTable, scrollingTable } from './cost-lab-table.js';

/** A fitted slope with its spread, "2.01 ± 0.04" (cost-lab.js, slopes), or "—" before two sizes. */
export const slopeText = (t, fit) =>
  fit ? t('cost.slope.spread', { slope: fit.slope.toFixed(2), spread: fit.spread.toFixed(2) }) : '—';

const refusedParams = (t, r) => ({
  n: r.n,
  path: t(`cost.path.${r.path}`),
  bytes: formatBytes(r.bytes),
  limit: formatBytes(r.limit),
});

/** One path's line in the legend: its name, what it is, its slope, and the room of its ⚠. */
function legendLine(t, path, fit) {
  return legendItem(
    path,
    t(`cost.path.${path}`),
    {
      dataset: { path, slope: fit?.slope ?? '', spread: fit?.spread ?? '', busy: String(Boolean(fit?.busy)) },
    },
    h('span', { class: 'cost-legend-what' }, t(`cost.path.${path}.what`)),
    h('span', { class: 'cost-slope' }, t('cost.slope', { slope: slopeText(t, fit) })),
    // A mark, not the explanation, and its room kept while hidden (cost-lab.css): the
    // legend must not grow under the reader's pointer during a run.
    h(
      'span',
      { class: 'cost-busy-mark', title: t('cost.slope.busy.mark') },
      h('span', { 'aria-hidden': 'true' }, '⚠'),
      h('span', { class: 'sr-only' }, t('cost.slope.busy.mark')),
    ),
  );
}

/** The chart's drawing: a line per path, a cross at the top for each refusal, the slope-2 guide. */
function timeSpec(t, record, plan) {
  const points = resultsOf(record).filter((r) => r.type === 'measure');
  const times = points.map((p) => p.ms);
  const y = decades(times.length ? Math.min(...times) : 0.01, times.length ? Math.max(...times) : 100, 10, 2);
  // The reference line of slope 2 runs through the SIMD path's largest point (or any path's).
  const anchor = measuredOf(record, 'simd').at(-1) ?? points.at(-1);
  const refused = refusedOf(record);
  return {
    x: { min: plan.sizes[0], max: plan.sizes.at(-1), ticks: plan.sizes, label: t('cost.axis.n') },
    y: { ...y, format: formatDuration, label: t('cost.axis.time') },
    series: plan.paths.map((path) => ({
      key: path,
      points: measuredOf(record, path).map((m) => ({
        x: m.n,
        y: m.ms,
        title: `${t(`cost.path.${path}`)}, n = ${m.n}: ${formatDuration(m.ms)}`,
      })),
      // a refusal: a cross at the top edge, where no time can be drawn
      above: refused
        .filter((r) => r.path === path)
        .map((r) => ({ x: r.n, title: t('cost.refused.note', refusedParams(t, r)) })),
    })),
    slope2: anchor && { x: anchor.n, y: anchor.ms, label: t('cost.guide.n2') },
    hint:
      points.length || refused.length
        ? null
        : t(record?.status === 'running' ? 'cost.chart.waiting' : 'cost.chart.hint'),
  };
}

/** The chart in words, for a screen reader: each path's points and slope. */
function timeSummary(t, record, plan, fitted) {
  const measures = resultsOf(record).some((r) => r.type === 'measure');
  const summary = measures
    ? plan.paths
        .map((path) =>
          t('cost.chart.path', {
            path: t(`cost.path.${path}`),
            points: measuredOf(record, path).length,
            slope: slopeText(t, fitted[path]),
          }),
        )
        .join('; ')
    : t('cost.chart.empty');
  return t('cost.chart.time', { summary });
}

/** One cell of the times table: the time, its GFLOP/s and spread; a refusal; or why it was skipped. */
function timeCell(t, r) {
  if (!r) return h('td', { class: 'pending' }, '—');
  if (r.type === 'measure') {
    const disturbed = r.spread > DISTURBED_SPREAD;
    return h(
      'td',
      { class: disturbed ? 'disturbed' : null },
      formatDuration(r.ms),
      h('span', { class: 'cost-gflops' }, `${r.gflops.toFixed(1)} GFLOP/s`),
      h(
        'span',
        { class: 'cost-spread' },
        t(disturbed ? 'cost.spread.disturbed' : 'cost.spread', { percent: Math.round(r.spread * 100) }),
      ),
    );
  }
  if (r.type === 'refused') return h('td', { class: 'over' }, t('cost.cell.refused', { bytes: formatBytes(r.bytes) }));
  return h('td', { class: 'skipped' }, t(`cost.cell.${r.reason}`, { ms: SLICE_MS }));
}

/** The part: { el, word(t), draw({ t, record, plan }) }; word() sets the texts no run changes. */
export function createTimePart() {
  const { title, text, legend, chart, caption, figure } = chartFigure('cost-chart-time');
  const refusedNotes = h('ul', { class: 'cost-refused' });
  const summary = h('summary', {});
  const { table, scroll } = scrollingTable('cost-table', 'cost-times-scroll');
  // Why a slope carries ⚠, once for all of them, below everything a reader clicks during a run.
  const busyNote = h('p', { class: 'cost-busy', id: 'cost-busy-note', role: 'note', hidden: true });
  const el = h(
    'section',
    { class: 'cost-part' },
    title,
    text,
    figure,
    refusedNotes,
    h('details', { id: 'cost-times', class: 'cost-details' }, summary, scroll),
    busyNote,
  );

  function word(t) {
    title.textContent = t('cost.time.title');
    text.textContent = t('cost.time.text', { factor: COMPUTE_BOUND_FACTOR, trusted: TRUSTED_SPREAD });
    caption.textContent = t('cost.time.caption', { d: COST_PLAN.d });
    summary.textContent = t('cost.times.summary');
    scroll.setAttribute('aria-label', t('cost.times.summary'));
  }

  function draw({ t, record, plan }) {
    const fitted = slopes(resultsOf(record), plan.paths);
    legend.replaceChildren(...plan.paths.map((path) => legendLine(t, path, fitted[path])));
    const busy = plan.paths.filter((path) => fitted[path]?.busy);
    busyNote.hidden = busy.length === 0;
    busyNote.textContent = t('cost.slope.busy', {
      paths: busy.map((path) => t(`cost.path.${path}`)).join(t('list.and')),
    });
    chart.draw(timeSpec(t, record, plan));
    chart.svg.setAttribute('aria-label', timeSummary(t, record, plan, fitted));
    const refused = refusedOf(record);
    refusedNotes.hidden = refused.length === 0;
    refusedNotes.replaceChildren(...refused.map((r) => h('li', {}, t('cost.refused.note', refusedParams(t, r)))));
    const byKey = new Map(resultsOf(record).map((r) => [`${r.path}:${r.n}`, r]));
    fillTable(table, {
      head: [t('cost.times.n'), ...plan.paths.map((path) => t(`cost.path.${path}`))],
      rows: plan.sizes.map((n) => [n, ...plan.paths.map((path) => timeCell(t, byKey.get(`${path}:${n}`)))]),
    });
  }

  return { el, word, draw, destroy: chart.destroy };
}
