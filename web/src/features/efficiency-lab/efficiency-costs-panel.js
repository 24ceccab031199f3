// Panel 6 of the efficiency lab: the costs, measured in the reader's tab. The tiles' working
// memory against the n² scores (the core's own figures, at once); then, on Run, the KV cache's
// decoding step against recomputing, the sliding window against the full causal attention, and
// linear attention's two orders, timed in the labs' Web Worker (or in slices on the page's thread,
// labs/lab-run.js) and drawn as they arrive on log–log axes with their fitted slopes, and the
// crossover n* of linear attention. The numbers are efficiency-costs.js's.
//
// Its parts: the memory table, the run's controls, and one timed part per chart, each owning its
// elements. The run lives in this panel: update() (a change of language included) re-labels what
// is on screen and the run goes on; destroy() stops it.

import { h, setText } from '../../views/dom.js';
import { formatBytes } from './efficiency-lab.js';
import { numberTable } from './efficiency-parts.js';
import { startLabRun } from '../../labs/lab-run.js';
import { SLICE_MS } from '../../labs/worker-host.js';
import { logLogCharts, decades } from '../../labs/loglog-chart.js';
import workerSource from '../../labs/labs-worker-source.js';
import {
  EFFICIENCY_COST_PLAN,
  SHORT_COST_PLAN,
  COST_PARTS,
  COST_SERIES,
  COMPUTE_BOUND_FACTOR,
  MIN_FITTED,
  RUNS,
  MEMORY_TILE_COLS,
  planSteps,
  runEfficiencyCosts,
  slopes,
  crossover,
  memoryRows,
} from './efficiency-costs.js';

const PLANS = { short: SHORT_COST_PLAN, full: EFFICIENCY_COST_PLAN };

// Each part's two series: the efficient path first (a circle), the n² one second (a square).
const { chartFigure, legendItem } = logLogCharts({
  prefix: 'eff-cost',
  marks: {
    cached: 'circle',
    window: 'circle',
    linear: 'circle',
    recompute: 'square',
    causal: 'square',
    quadratic: 'square',
  },
});

/** A time in milliseconds, three significant digits: "0.0612 ms", "12.3 ms", "2.41 s". */
const duration = (ms) => (ms >= 999.5 ? `${Number((ms / 1000).toPrecision(3))} s` : `${Number(ms.toPrecision(3))} ms`);
const slopeText = (fit) => (fit ? fit.slope.toFixed(2) : '—');

/** A series' name, with the window's w where it has one. */
const seriesName = (t, series, plan) => t(`eff.costs.series.${series}`, { w: plan.window.w });

/** The memory part: the scores, the tiles' working set and the core's figures for its tiles, n = 1024 … 16,384. */
function memoryPart(t, engine) {
  const rows = memoryRows(engine);
  const limit = rows[0].limit;
  const cell = (bytes) =>
    bytes > limit
      ? h('span', {}, formatBytes(bytes), ' ', h('span', { class: 'eff-cost-over' }, t('eff.costs.memory.over')))
      : formatBytes(bytes);
  return h(
    'section',
    { class: 'eff-cost-part', id: 'eff-cost-memory' },
    h('h4', {}, t('eff.costs.memory.title')),
    h(
      'p',
      { class: 'explain' },
      t('eff.costs.memory.text', { d: EFFICIENCY_COST_PLAN.d, tileCols: MEMORY_TILE_COLS, limit: formatBytes(limit) }),
    ),
    numberTable({
      className: 'eff-cost-memory',
      head: [
        t('eff.costs.memory.n'),
        t('eff.costs.memory.scores'),
        t('eff.costs.memory.tiles'),
        t('eff.costs.memory.tiled'),
        t('eff.costs.memory.traced'),
      ],
      rows: rows.map((row) => ({
        name: String(row.n),
        cells: [cell(row.scores), cell(row.tiles), cell(row.tiled), cell(row.traced)],
        attrs: {
          dataset: { n: row.n, scores: row.scores, tiles: row.tiles, tiled: row.tiled, traced: row.traced },
        },
      })),
    }),
  );
}

/** A series' measured points, smallest n first. */
const measuredOf = (results, name) =>
  results.filter((r) => r.type === 'measure' && r.series === name).sort((a, b) => a.n - b.n);

/** What a timed part's chart draws: the measured points of its series and a guide line of each one's own power. */
function chartSpec(t, { series, results, plan, sizes }) {
  const times = series.flatMap((name) => measuredOf(results, name).map((r) => r.ms));
  return {
    x: { min: sizes[0], max: sizes.at(-1), ticks: sizes, label: t('eff.costs.axis.n') },
    y: {
      ...decades(times.length ? Math.min(...times) : 0.001, times.length ? Math.max(...times) : 10, 10, 2),
      format: duration,
      label: t('eff.costs.axis.time'),
    },
    series: series.map((name) => ({
      key: name,
      points: measuredOf(results, name).map((r) => ({
        x: r.n,
        y: r.ms,
        title: `${seriesName(t, name, plan)}, n = ${r.n}: ${duration(r.ms)}`,
      })),
    })),
    // A dashed line of each series' own slope (1 or 2) through its largest point, for reference.
    guides: series
      .map((name) => ({ name, last: measuredOf(results, name).at(-1), power: COST_SERIES[name].power }))
      .filter(({ last }) => last)
      .map(({ last, power }) => ({ power, x: last.n, y: last.ms, label: t(`eff.costs.guide.${power}`) })),
    hint: times.length ? null : t('eff.costs.hint'),
  };
}

/** The chart in words, for its aria-label: each series' points and slope, or that nothing is measured yet. */
function chartWords(t, { series, results, plan, fitted }) {
  if (!series.some((name) => measuredOf(results, name).length)) return t('eff.costs.chart.empty');
  return series
    .map((name) =>
      t('eff.costs.chart.series', {
        series: seriesName(t, name, plan),
        points: measuredOf(results, name).length,
        slope: slopeText(fitted[name]),
      }),
    )
    .join('; ');
}

/** A timed part's table: one row per n, one column per series, a time or why there is none. */
function timesTable(t, { series, results, plan, sizes }) {
  const byKey = new Map(results.map((r) => [`${r.series}:${r.n}`, r]));
  const cell = (r) => {
    if (!r) return '—';
    if (r.type === 'measure') return duration(r.ms);
    return t(`eff.costs.cell.${r.reason}`, { ms: SLICE_MS, max: COST_SERIES[r.series].maxN?.(plan) });
  };
  return numberTable({
    className: 'eff-cost-times',
    head: ['n', ...series.map((name) => seriesName(t, name, plan))],
    rows: sizes.map((n) => ({ name: String(n), cells: series.map((name) => cell(byKey.get(`${name}:${n}`))) })),
  });
}

/** One timed part (decode, window, linear): its chart with a legend of slopes, its table, and (linear) the crossover. */
function createTimedPart(part) {
  const { title, text, legend, chart, caption, figure } = chartFigure(`eff-cost-chart-${part}`);
  const extra = h('p', { class: 'eff-cost-crossover', id: `eff-cost-${part}-note`, hidden: part !== 'linear' });
  const summary = h('summary', {});
  const table = h('div', { class: 'eff-cost-table' });
  const el = h(
    'section',
    { class: 'eff-cost-part', id: `eff-cost-${part}`, dataset: { part } },
    title,
    text,
    figure,
    extra,
    h('details', { class: 'eff-cost-details' }, summary, table),
  );

  function draw(t, record, plan) {
    const series = COST_PARTS[part];
    const results = record?.results ?? [];
    const fitted = slopes(results);
    setText(title, t(`eff.costs.${part}.title`, { w: plan.window.w }));
    setText(text, t(`eff.costs.${part}.text`, { d: plan.d }));
    setText(caption, t('eff.costs.method', { runs: RUNS, factor: COMPUTE_BOUND_FACTOR, fitted: MIN_FITTED }));
    setText(summary, t('eff.costs.table'));
    legend.replaceChildren(
      ...series.map((name) =>
        legendItem(
          name,
          seriesName(t, name, plan),
          { dataset: { series: name, slope: fitted[name]?.slope ?? '' } },
          h('span', { class: 'eff-cost-slope' }, t('eff.costs.slope', { slope: slopeText(fitted[name]) })),
        ),
      ),
    );
    const shown = { series, results, plan, sizes: plan[part].sizes, fitted };
    chart.draw(chartSpec(t, shown));
    chart.svg.setAttribute(
      'aria-label',
      t('eff.costs.chart', { title: title.textContent, summary: chartWords(t, shown) }),
    );
    table.replaceChildren(timesTable(t, shown));
    if (part === 'linear') drawCrossover(t, results);
  }

  function drawCrossover(t, results) {
    const at = crossover(results);
    extra.dataset.n = at?.n ?? '';
    if (!at) setText(extra, t('eff.costs.crossover.none'));
    else if (at.below) setText(extra, t('eff.costs.crossover.below', { n: at.below }));
    else if (at.above) setText(extra, t('eff.costs.crossover.above', { n: at.above }));
    else setText(extra, t('eff.costs.crossover.at', { n: Math.round(at.n), lo: at.between[0], hi: at.between[1] }));
  }

  return { el, draw, destroy: chart.destroy };
}

/** A new run's record: what its events have said so far. */
const newRecord = (handle, plan) => ({
  handle,
  plan,
  status: 'running',
  mode: null,
  reason: null,
  results: [],
  done: 0,
  total: planSteps(plan).length,
  error: null,
});

/** What one event of the run changes in its record. */
function takeEvent(record, event) {
  if (event.type === 'start') Object.assign(record, { mode: event.mode, reason: event.reason ?? null });
  else if (event.type === 'measure' || event.type === 'skipped') record.results.push(event);
  else if (event.type === 'progress') record.done = event.done;
  else if (event.type === 'done') record.status = 'done';
  else if (event.type === 'stopped') record.status = 'stopped';
  else if (event.type === 'error') Object.assign(record, { status: 'error', error: event.error });
}

/** The run's status in a line. */
function statusLine(t, record) {
  if (!record) return t('eff.costs.status.idle');
  if (record.status === 'done') return t('eff.costs.status.done', { count: record.total });
  if (record.status === 'stopped') return t('eff.costs.status.stopped', { done: record.done, total: record.total });
  if (record.status === 'error') return t('eff.costs.status.error', { message: record.error?.message ?? '' });
  const next = planSteps(record.plan)[record.done];
  if (!record.mode || !next) return t('eff.costs.status.starting');
  return t('eff.costs.status.running', {
    series: seriesName(t, next.series, record.plan),
    n: next.n,
    step: record.done + 1,
    total: record.total,
  });
}

/** What a screen reader hears when a run ends: the decode and window parts' slopes, or how it ended. */
function endWords(t, record) {
  if (record.status !== 'done') return statusLine(t, record);
  const fitted = slopes(record.results);
  return t('eff.costs.announce.done', {
    cached: slopeText(fitted.cached),
    recompute: slopeText(fitted.recompute),
    window: slopeText(fitted.window),
  });
}

/** The memory part, made again in each language (a table of the core's figures, or the error computing them). */
function createMemory(engine) {
  const el = h('div', {});
  function draw(t) {
    try {
      el.replaceChildren(memoryPart(t, engine));
    } catch (error) {
      el.replaceChildren(h('p', { class: 'notice warn', role: 'alert' }, t('eff.error', { message: error.message })));
    }
  }
  return { el, draw };
}

/**
 * The run's controls: { el, where, runButton, stopButton, draw(t, record, planKey) }: the plan, Run and
 * Stop, the progress and the status line; and `where`, the line saying where the run runs.
 */
function createControls({ choose, run, stop }) {
  const planLabel = h('label', { for: 'eff-cost-plan' });
  const planSelect = h(
    'select',
    { id: 'eff-cost-plan', onchange: () => choose(planSelect.value) },
    Object.keys(PLANS).map((key) => h('option', { value: key })),
  );
  const runButton = h('button', { type: 'button', id: 'eff-cost-run', class: 'primary', onclick: () => run() });
  const stopButton = h('button', { type: 'button', id: 'eff-cost-stop', onclick: () => stop() });
  const progress = h('progress', { id: 'eff-cost-progress', max: 1, value: 0 });
  const status = h('p', { class: 'eff-cost-status', id: 'eff-cost-status' });
  const where = h('p', { class: 'eff-cost-where', id: 'eff-cost-where' });
  const el = h(
    'div',
    { class: 'eff-cost-controls' },
    h('span', { class: 'eff-field' }, planLabel, planSelect),
    h('span', { class: 'eff-cost-buttons' }, runButton, stopButton),
    h('span', { class: 'eff-cost-progress' }, progress, status),
  );

  function draw(t, record, planKey) {
    const running = record?.status === 'running';
    setText(planLabel, t('eff.costs.plan.label'));
    for (const option of planSelect.options) setText(option, t(`eff.costs.plan.${option.value}`));
    planSelect.value = planKey;
    planSelect.disabled = running; // the run in progress keeps its plan
    setText(runButton, t(record && !running ? 'eff.costs.run.again' : 'eff.costs.run'));
    setText(stopButton, t('eff.costs.stop'));
    runButton.disabled = running;
    stopButton.disabled = !running;
    progress.setAttribute('aria-label', t('eff.costs.progress'));
    progress.max = record?.total ?? 1;
    progress.value = record?.done ?? 0;
    setText(status, statusLine(t, record));
    where.dataset.mode = record?.mode ?? '';
    setText(
      where,
      !record?.mode
        ? ''
        : record.mode === 'worker'
          ? t('eff.costs.where.worker')
          : t('eff.costs.where.main', { reason: t(`eff.costs.reason.${record.reason}`), ms: SLICE_MS }),
    );
  }

  return { el, where, runButton, stopButton, draw };
}

export default {
  id: 'costs',
  titleKey: 'eff.costs.title',
  create({ engine, announce }) {
    const view = { t: null, lang: null, plan: 'short', record: null, destroyed: false };
    const title = h('h3', {});
    const lede = h('p', { class: 'explain' });
    const memory = createMemory(engine);
    const controls = createControls({
      choose: (key) => ((view.plan = key), render()),
      run: () => begin(),
      stop: () => view.record?.handle.stop(),
    });
    const parts = Object.keys(COST_PARTS).map(createTimedPart);
    const element = h(
      'section',
      { class: 'eff-panel eff-costs', id: 'eff-costs', dataset: { status: 'idle' } },
      title,
      lede,
      memory.el,
      controls.el,
      controls.where,
      parts.map((part) => part.el),
    );

    function render() {
      const { t, record } = view;
      const plan = record?.plan ?? PLANS[view.plan];
      element.dataset.status = record?.status ?? 'idle';
      setText(title, t('eff.costs.title'));
      setText(lede, t('eff.costs.lede', { d: plan.d }));
      controls.draw(t, record, view.plan);
      for (const part of parts) part.draw(t, record, plan);
    }

    async function begin() {
      if (view.record?.status === 'running') return;
      const { runButton, stopButton } = controls;
      const plan = PLANS[view.plan];
      const handle = startLabRun({
        engine,
        workerSource,
        request: { type: 'efficiency-run', plan },
        generate: (on, { sliceMs, now }) => runEfficiencyCosts(on, { plan, sliceMs, now }),
      });
      const mine = newRecord(handle, plan);
      view.record = mine;
      const wasOnRun = document.activeElement === runButton;
      render();
      // A disabled button loses focus: it moves to where the next action is (and back at the end).
      if (wasOnRun) stopButton.focus({ preventScroll: true });
      announce(view.t('eff.costs.announce.start'));
      for await (const event of handle) {
        if (view.destroyed || view.record !== mine) return;
        const onStop = document.activeElement === stopButton;
        takeEvent(mine, event);
        render();
        if (onStop && stopButton.disabled) runButton.focus({ preventScroll: true });
      }
      if (!view.destroyed) announce(endWords(view.t, mine));
    }

    return {
      element,
      update({ state, t }) {
        view.t = t;
        if (view.lang !== state.lang) {
          view.lang = state.lang;
          memory.draw(t);
        }
        render();
      },
      destroy() {
        view.destroyed = true;
        for (const part of parts) part.destroy();
        view.record?.handle.stop();
      },
    };
  },
};
