// The lab view 'cost-lab' (state.view): article §8, "the cost of n²". It times attention in the
// reader's own browser — labs/cost-run.js runs the measurements in a Web Worker, or in slices on
// the page's thread where no Worker can start — and draws them as they arrive: time against n on
// log–log axes, one line per path with its fitted slope, and beside it the working memory each
// path needs, from the core's own memory check.
//
// The run lives in this view, not in the state: update() (every state change, a language switch
// included) re-labels what is on screen and the run goes on; destroy() stops it.

import { h } from './dom.js';
import {
  COST_PLAN,
  MEMORY_SIZES,
  memoryTable,
  planUpTo,
  planStep,
  slopes,
  COMPUTE_BOUND_FACTOR,
  TRUSTED_SPREAD,
  DISTURBED_SPREAD,
  bestGflops,
  formatBytes,
  formatDuration,
} from '../labs/cost-lab.js';
import { startCostRun, SLICE_MS } from '../labs/cost-run.js';
import workerSource from '../labs/cost-worker-source.js';

const SVG = 'http://www.w3.org/2000/svg';

/** How each line looks besides its colour (cost-lab.css), so that the paths differ without colour too. */
const MARKS = { reference: 'square', simd: 'circle', streaming: 'triangle', scores: 'dot' };

export function createCostLabView({ engine, setState, announce }) {
  let state = null;
  let t = null;
  let run = null; // the current or last run: see begin()
  let destroyed = false;
  const memory = memoryTable(engine);

  // ---- The controls: ids stay, so that the app's keepingFocus() finds them after an update ----
  const maxLabel = h('label', { for: 'cost-max' });
  const maxSelect = h(
    'select',
    { id: 'cost-max', onchange: () => setState({ costmax: Number(maxSelect.value) }) },
    COST_PLAN.sizes.map((n) => h('option', { value: String(n) })),
  );
  const runButton = h('button', { type: 'button', id: 'cost-run', class: 'primary', onclick: begin });
  const stopButton = h('button', { type: 'button', id: 'cost-stop', onclick: () => run?.handle.stop() });
  const progress = h('progress', { id: 'cost-progress', max: 1, value: 0 });
  const statusText = h('p', { class: 'cost-status-text', id: 'cost-status' });

  const fact = (id) => h('dd', { id });
  const facts = { build: fact('cost-build'), where: fact('cost-where'), speed: fact('cost-speed') };
  const factTerms = { build: h('dt'), where: h('dt'), speed: h('dt') };
  const mainNote = h('p', { class: 'cost-note', id: 'cost-main-note', hidden: true });

  const title = h('h2', {});
  const lede = h('p', { class: 'cost-lede' });

  const timeTitle = h('h3', {});
  const timeText = h('p', {});
  const timeLegend = h('ul', { class: 'cost-legend' });
  const timeSvg = svgRoot('cost-chart-time');
  const timeBox = h('div', { class: 'cost-chart-box' }, timeSvg);
  const timeCaption = h('figcaption', {});
  const refusedNotes = h('ul', { class: 'cost-refused' });
  const timesSummary = h('summary', {});
  const timesTable = h('table', { class: 'cost-table' });
  const timesScroll = h(
    'div',
    { class: 'cost-scroll', tabindex: 0, role: 'region', id: 'cost-times-scroll' },
    timesTable,
  );
  const timesDetails = h('details', { id: 'cost-times', class: 'cost-details' }, timesSummary, timesScroll);
  // Why a slope carries ⚠, once for all of them, below everything a reader clicks during a run.
  const busyNote = h('p', { class: 'cost-busy', id: 'cost-busy-note', role: 'note', hidden: true });

  const memTitle = h('h3', {});
  const memText = h('p', {});
  const memLegend = h('ul', { class: 'cost-legend' });
  const memSvg = svgRoot('cost-chart-memory');
  const memBox = h('div', { class: 'cost-chart-box' }, memSvg);
  const memCaption = h('figcaption', {});
  const memTable = h('table', { class: 'cost-table cost-memory-table' });
  const memScroll = h('div', { class: 'cost-scroll', tabindex: 0, role: 'region', id: 'cost-memory-scroll' }, memTable);

  const element = h(
    'section',
    { class: 'lab lab-cost-lab', dataset: { status: 'idle' } },
    h('header', { class: 'cost-head' }, title, lede),
    h(
      'div',
      { class: 'cost-controls' },
      h('div', { class: 'cost-field' }, maxLabel, maxSelect),
      h('div', { class: 'cost-buttons' }, runButton, stopButton),
      h('div', { class: 'cost-progress' }, progress, statusText),
    ),
    h(
      'dl',
      { class: 'cost-facts' },
      h('div', {}, factTerms.build, facts.build),
      h('div', {}, factTerms.where, facts.where),
      h('div', {}, factTerms.speed, facts.speed),
    ),
    mainNote,
    h(
      'section',
      { class: 'cost-part' },
      timeTitle,
      timeText,
      h('figure', { class: 'cost-figure' }, timeLegend, timeBox, timeCaption),
      refusedNotes,
      timesDetails,
      busyNote,
    ),
    h(
      'section',
      { class: 'cost-part' },
      memTitle,
      memText,
      h(
        'div',
        { class: 'cost-memory' },
        h('figure', { class: 'cost-figure' }, memLegend, memBox, memCaption),
        memScroll,
      ),
    ),
  );

  // The charts are drawn at their box's width in pixels, so their text keeps its size on a phone.
  const widths = new Map();
  const resized = new ResizeObserver(() => {
    if (!t || destroyed) return;
    if (widthOf(timeBox) !== widths.get(timeBox)) renderTimeChart();
    if (widthOf(memBox) !== widths.get(memBox)) renderMemoryChart();
  });
  resized.observe(timeBox);
  resized.observe(memBox);

  // ---- A run ---------------------------------------------------------------------------------

  /** Starts a run over the sizes up to state.costmax; its events are shown as they arrive. */
  async function begin() {
    if (run?.status === 'running') return;
    const plan = planUpTo(state.costmax);
    const handle = startCostRun({ engine, workerSource, plan });
    run = {
      handle,
      plan,
      status: 'running',
      mode: null,
      reason: null,
      build: engine.build,
      warmedUp: false,
      results: [],
      done: 0,
      total: plan.sizes.length * plan.paths.length,
      error: null,
      startedAt: performance.now(),
      endedAt: null,
    };
    const wasOnRun = document.activeElement === runButton;
    renderRun();
    // A disabled button loses focus: it moves to where the next action is (and back at the end).
    if (wasOnRun) stopButton.focus({ preventScroll: true });
    announce(t('cost.announce.start'));
    const mine = run;
    for await (const event of handle) {
      if (destroyed || run !== mine) return;
      const onStop = document.activeElement === stopButton;
      take(event);
      renderRun();
      if (onStop && stopButton.disabled) runButton.focus({ preventScroll: true });
    }
    if (destroyed) return;
    if (run.status === 'done') {
      const fitted = slopes(run.results, run.plan.paths);
      const busy = Object.values(fitted).some((fit) => fit?.busy);
      announce(
        [t('cost.announce.done', { slope: slopeText(fitted.simd) }), busy ? t('cost.announce.busy') : '']
          .filter(Boolean)
          .join(' '),
      );
    } else announce(statusLine());
  }

  /** What one event of cost-run.js changes in the run. */
  function take(event) {
    switch (event.type) {
      case 'start':
        Object.assign(run, { mode: event.mode, reason: event.reason ?? null, build: event.build });
        break;
      case 'plan':
        Object.assign(run, { build: event.build, total: event.total });
        break;
      case 'measure':
      case 'refused':
      case 'skipped':
        run.results.push(event);
        run.warmedUp = true;
        break;
      case 'progress':
        run.done = event.done;
        break;
      case 'done':
        Object.assign(run, { status: 'done', endedAt: performance.now() });
        break;
      case 'stopped':
        run.status = 'stopped';
        break;
      case 'error':
        Object.assign(run, { status: 'error', error: event.error });
        break;
      default:
        break;
    }
  }

  // ---- Rendering -----------------------------------------------------------------------------

  function update(context) {
    ({ state, t } = context);
    title.textContent = t('view.cost-lab');
    lede.textContent = t('cost.lede');
    maxLabel.textContent = t('cost.max.label');
    [...maxSelect.options].forEach((option) => {
      const n = Number(option.value);
      option.textContent = t(
        memory.find((row) => row.n === n)?.paths.reference.fits === false ? 'cost.max.refused' : 'cost.max.option',
        { n },
      );
    });
    maxSelect.value = String(state.costmax);
    stopButton.textContent = t('cost.stop');
    progress.setAttribute('aria-label', t('cost.progress.label'));
    factTerms.build.textContent = t('cost.fact.build');
    factTerms.where.textContent = t('cost.fact.where');
    factTerms.speed.textContent = t('cost.fact.speed');
    timeTitle.textContent = t('cost.time.title');
    timeText.textContent = t('cost.time.text', { factor: COMPUTE_BOUND_FACTOR, trusted: TRUSTED_SPREAD });
    timeCaption.textContent = t('cost.time.caption', { d: COST_PLAN.d });
    timesSummary.textContent = t('cost.times.summary');
    timesScroll.setAttribute('aria-label', t('cost.times.summary'));
    renderMemory();
    renderRun();
  }

  /** Everything a run's events change: controls, progress, the facts, the time chart and table. */
  function renderRun() {
    const status = run?.status ?? 'idle';
    element.dataset.status = status;
    const running = status === 'running';
    runButton.textContent = t(run && !running ? 'cost.run.again' : 'cost.run');
    runButton.disabled = running;
    stopButton.disabled = !running;
    maxSelect.disabled = running; // the run in progress keeps its plan
    progress.max = run?.total ?? 1;
    progress.value = run?.done ?? 0;
    statusText.textContent = statusLine();

    facts.build.textContent = t(`cost.build.${run?.build ?? engine.build}`);
    facts.where.dataset.mode = run?.mode ?? '';
    facts.where.textContent = t(
      run?.mode === 'worker'
        ? 'cost.where.worker'
        : run?.mode === 'main-thread'
          ? 'cost.where.main'
          : 'cost.where.none',
    );
    const best = run && bestGflops(run.results);
    facts.speed.textContent = best ? t('cost.speed', { gflops: best.gflops.toFixed(1), n: best.n }) : '—';
    mainNote.hidden = run?.mode !== 'main-thread';
    if (run?.mode === 'main-thread')
      mainNote.textContent = t('cost.main.note', { reason: t(`cost.reason.${run.reason}`), ms: SLICE_MS });

    renderTimeLegend();
    renderTimeChart();
    renderRefused();
    renderTimesTable();
  }

  function statusLine() {
    if (!run) return t('cost.status.idle');
    switch (run.status) {
      case 'done':
        return t('cost.status.done', { count: run.total, time: formatDuration(run.endedAt - run.startedAt) });
      case 'stopped':
        return t('cost.status.stopped', { done: run.done, total: run.total });
      case 'error':
        return t('cost.status.error', { message: run.error?.message ?? '' });
      default: {
        if (!run.mode) return t('cost.status.starting');
        if (!run.warmedUp) return t('cost.status.warming');
        const next = planStep(run.plan, run.done);
        return next
          ? t('cost.status.running', {
              n: next.n,
              path: t(`cost.path.${next.path}`),
              step: run.done + 1,
              total: run.total,
            })
          : '';
      }
    }
  }

  /** The sizes and paths on screen: the run's, or before any run the plan the button would start. */
  const shownPlan = () => run?.plan ?? planUpTo(state.costmax);
  const measured = (path) =>
    (run?.results ?? []).filter((r) => r.type === 'measure' && r.path === path).sort((a, b) => a.n - b.n);
  // A fitted slope with its spread, "2.01 ± 0.04" (cost-lab.js, slopes), or "—" before two sizes.
  const slopeText = (fit) =>
    fit ? t('cost.slope.spread', { slope: fit.slope.toFixed(2), spread: fit.spread.toFixed(2) }) : '—';

  function renderTimeLegend() {
    const fitted = slopes(run?.results ?? [], shownPlan().paths);
    timeLegend.replaceChildren(
      ...shownPlan().paths.map((path) =>
        h(
          'li',
          {
            class: `cost-series-${path}`,
            dataset: {
              path,
              slope: fitted[path]?.slope ?? '',
              spread: fitted[path]?.spread ?? '',
              busy: String(Boolean(fitted[path]?.busy)),
            },
          },
          swatch(path),
          h('span', { class: 'cost-legend-name' }, t(`cost.path.${path}`)),
          h('span', { class: 'cost-legend-what' }, t(`cost.path.${path}.what`)),
          h('span', { class: 'cost-slope' }, t('cost.slope', { slope: slopeText(fitted[path]) })),
          // A mark, not the explanation, and its room kept while hidden (cost-lab.css): the
          // legend must not grow under the reader's pointer during a run.
          h(
            'span',
            { class: 'cost-busy-mark', title: t('cost.slope.busy.mark') },
            h('span', { 'aria-hidden': 'true' }, '⚠'),
            h('span', { class: 'sr-only' }, t('cost.slope.busy.mark')),
          ),
        ),
      ),
    );
    const busy = shownPlan().paths.filter((path) => fitted[path]?.busy);
    busyNote.hidden = busy.length === 0;
    busyNote.textContent = t('cost.slope.busy', {
      paths: busy.map((path) => t(`cost.path.${path}`)).join(t('list.and')),
    });
  }

  function renderTimeChart() {
    const plan = shownPlan();
    const points = (run?.results ?? []).filter((r) => r.type === 'measure');
    const times = points.map((p) => p.ms);
    const y = decades(times.length ? Math.min(...times) : 0.01, times.length ? Math.max(...times) : 100, 10, 2);
    const fitted = slopes(run?.results ?? [], plan.paths);
    // The reference line of slope 2 runs through the SIMD path's largest point (or any path's).
    const anchor = measured('simd').at(-1) ?? points.at(-1);
    const refused = (run?.results ?? []).filter((r) => r.type === 'refused');
    drawLogLog(timeSvg, timeBox, {
      x: { min: plan.sizes[0], max: plan.sizes.at(-1), ticks: plan.sizes, label: t('cost.axis.n') },
      y: { ...y, format: formatDuration, label: t('cost.axis.time') },
      series: plan.paths.map((path) => ({
        key: path,
        points: measured(path).map((m) => ({
          x: m.n,
          y: m.ms,
          title: `${t(`cost.path.${path}`)}, n = ${m.n}: ${formatDuration(m.ms)}`,
        })),
        // a refusal: a cross at the top edge, where no time can be drawn
        above: refused
          .filter((r) => r.path === path)
          .map((r) => ({ x: r.n, title: t('cost.refused.note', refusedParams(r)) })),
      })),
      slope2: anchor && { x: anchor.n, y: anchor.ms, label: t('cost.guide.n2') },
      hint:
        points.length || refused.length
          ? null
          : t(run?.status === 'running' ? 'cost.chart.waiting' : 'cost.chart.hint'),
    });
    const summary = points.length
      ? plan.paths
          .map((path) =>
            t('cost.chart.path', {
              path: t(`cost.path.${path}`),
              points: measured(path).length,
              slope: slopeText(fitted[path]),
            }),
          )
          .join('; ')
      : t('cost.chart.empty');
    timeSvg.setAttribute('aria-label', t('cost.chart.time', { summary }));
  }

  const refusedParams = (r) => ({
    n: r.n,
    path: t(`cost.path.${r.path}`),
    bytes: formatBytes(r.bytes),
    limit: formatBytes(r.limit),
  });

  function renderRefused() {
    const refused = (run?.results ?? []).filter((r) => r.type === 'refused');
    refusedNotes.hidden = refused.length === 0;
    refusedNotes.replaceChildren(...refused.map((r) => h('li', {}, t('cost.refused.note', refusedParams(r)))));
  }

  function renderTimesTable() {
    const plan = shownPlan();
    const byKey = new Map((run?.results ?? []).map((r) => [`${r.path}:${r.n}`, r]));
    const cell = (r) => {
      if (!r) return h('td', { class: 'pending' }, '—');
      if (r.type === 'measure')
        return h(
          'td',
          { class: r.spread > DISTURBED_SPREAD ? 'disturbed' : null },
          formatDuration(r.ms),
          h('span', { class: 'cost-gflops' }, `${r.gflops.toFixed(1)} GFLOP/s`),
          h(
            'span',
            { class: 'cost-spread' },
            t(r.spread > DISTURBED_SPREAD ? 'cost.spread.disturbed' : 'cost.spread', {
              percent: Math.round(r.spread * 100),
            }),
          ),
        );
      if (r.type === 'refused')
        return h('td', { class: 'over' }, t('cost.cell.refused', { bytes: formatBytes(r.bytes) }));
      return h('td', { class: 'skipped' }, t(`cost.cell.${r.reason}`, { ms: SLICE_MS }));
    };
    timesTable.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, t('cost.times.n')),
          plan.paths.map((path) => h('th', { scope: 'col' }, t(`cost.path.${path}`))),
        ),
      ),
      h(
        'tbody',
        {},
        plan.sizes.map((n) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, String(n)),
            plan.paths.map((path) => cell(byKey.get(`${path}:${n}`))),
          ),
        ),
      ),
    );
  }

  // ---- Memory: the core's figures, the same in every run -------------------------------------

  function memoryFacts() {
    const limit = memory[0].limit;
    const at = COST_PLAN.sizes.includes(4096) ? 4096 : COST_PLAN.sizes.at(-1);
    const over = memory.find((row) => !row.paths.reference.fits);
    const last = memory.at(-1);
    return {
      at,
      scores: formatBytes(memory.find((row) => row.n === at).scoreBytes),
      limit: formatBytes(limit),
      over: over?.n ?? '—',
      overBytes: over ? formatBytes(over.paths.reference.bytes) : '—',
      max: last.n,
      maxBytes: formatBytes(last.paths.streaming.bytes),
    };
  }

  function renderMemory() {
    const params = memoryFacts();
    memTitle.textContent = t('cost.memory.title');
    memText.textContent = t('cost.memory.text', params);
    memCaption.textContent = t('cost.memory.caption', { d: COST_PLAN.d, limit: params.limit });
    memScroll.setAttribute('aria-label', t('cost.memory.table'));
    memLegend.replaceChildren(
      ...[
        ['scores', t('cost.memory.scores')],
        ['reference', t('cost.path.reference')],
        ['streaming', t('cost.path.streaming')],
      ].map(([key, name]) =>
        h('li', { class: `cost-series-${key}` }, swatch(key), h('span', { class: 'cost-legend-name' }, name)),
      ),
      h(
        'li',
        { class: 'cost-series-limit' },
        swatch('limit'),
        h('span', { class: 'cost-legend-name' }, t('cost.memory.limit', { limit: params.limit })),
      ),
    );
    renderMemoryChart();
    memSvg.setAttribute('aria-label', t('cost.chart.memory', params));

    const paths = COST_PLAN.paths;
    const refusedBadge = () => h('span', { class: 'cost-badge' }, t('cost.memory.refused'));
    memTable.replaceChildren(
      h('caption', { class: 'sr-only' }, t('cost.memory.table')),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, t('cost.times.n')),
          h('th', { scope: 'col' }, t('cost.memory.scores')),
          paths.map((path) => h('th', { scope: 'col' }, t(`cost.path.${path}`))),
        ),
      ),
      h(
        'tbody',
        {},
        memory.map((row) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, String(row.n)),
            h('td', { class: row.scoreBytes > row.limit ? 'over' : null }, formatBytes(row.scoreBytes)),
            paths.map((path) => {
              const need = row.paths[path];
              return h(
                'td',
                { class: need.fits ? null : 'over' },
                formatBytes(need.bytes),
                need.fits ? null : refusedBadge(),
              );
            }),
          ),
        ),
      ),
    );
  }

  function renderMemoryChart() {
    const limit = memory[0].limit;
    const all = memory.flatMap((row) => [row.scoreBytes, row.paths.reference.bytes, row.paths.streaming.bytes]);
    const point = (n, bytes, name, over) => ({
      x: n,
      y: bytes,
      hollow: over,
      title: `${name}, n = ${n}: ${formatBytes(bytes)}${over ? ` — ${t('cost.memory.refused')}` : ''}`,
    });
    drawLogLog(memSvg, memBox, {
      x: { min: MEMORY_SIZES[0], max: MEMORY_SIZES.at(-1), ticks: MEMORY_SIZES, label: t('cost.axis.n') },
      y: { ...decades(Math.min(...all), Math.max(...all), 16, 2), format: formatBytes, label: t('cost.axis.bytes') },
      series: [
        { key: 'scores', points: memory.map((row) => point(row.n, row.scoreBytes, t('cost.memory.scores'), false)) },
        {
          key: 'reference',
          points: memory.map((row) =>
            point(row.n, row.paths.reference.bytes, t('cost.path.reference'), !row.paths.reference.fits),
          ),
        },
        {
          key: 'streaming',
          points: memory.map((row) =>
            point(row.n, row.paths.streaming.bytes, t('cost.path.streaming'), !row.paths.streaming.fits),
          ),
        },
      ],
      level: { y: limit, label: t('cost.memory.limit', { limit: formatBytes(limit) }) },
    });
  }

  // ---- Charts --------------------------------------------------------------------------------

  function widthOf(box) {
    return Math.max(280, Math.round(box.clientWidth || 640));
  }

  /**
   * A log–log chart into `svg`, at `box`'s width. x and y: { min, max, ticks, format?, label };
   * series: [{ key, points: [{ x, y, hollow?, title }], above?: [{ x, title }] }] — `above` marks
   * an x where a point has no value (a refusal) at the top edge; slope2: a dashed line of slope 2
   * through { x, y }; level: a dashed horizontal line at y (the memory limit); hint: a line of
   * text in the middle of an empty chart.
   */
  function drawLogLog(svg, box, { x, y, series, slope2, level, hint }) {
    const width = widthOf(box);
    widths.set(box, width);
    const height = Math.round(Math.min(360, Math.max(240, width * 0.56)));
    const yLabels = y.ticks.map((v) => y.format(v));
    const left = Math.round(Math.max(...yLabels.map((label) => label.length)) * 6.6 + 16);
    const pad = { left, right: 18, top: 28, bottom: 46 };
    const plotW = width - pad.left - pad.right,
      plotH = height - pad.top - pad.bottom;
    // A quarter of a doubling of room on both sides of x, so the end points sit off the frame.
    const x0 = Math.log2(x.min) - 0.25,
      x1 = Math.log2(x.max) + 0.25;
    const y0 = Math.log10(y.min),
      y1 = Math.log10(y.max);
    const px = (v) => pad.left + ((Math.log2(v) - x0) / (x1 - x0)) * plotW;
    const py = (v) => pad.top + plotH - ((Math.log10(v) - y0) / (y1 - y0)) * plotH;
    const f = (v) => v.toFixed(1);

    const parts = [];
    // grid and ticks
    y.ticks.forEach((v, i) => {
      parts.push(s('line', { class: 'grid', x1: pad.left, x2: width - pad.right, y1: f(py(v)), y2: f(py(v)) }));
      parts.push(
        s(
          'text',
          { class: 'tick', x: pad.left - 8, y: f(py(v)), 'text-anchor': 'end', 'dominant-baseline': 'middle' },
          yLabels[i],
        ),
      );
    });
    let lastLabelEnd = -Infinity;
    for (const v of x.ticks) {
      const at = px(v);
      parts.push(s('line', { class: 'grid', x1: f(at), x2: f(at), y1: pad.top, y2: pad.top + plotH }));
      const half = String(v).length * 3.6;
      if (at - half < lastLabelEnd + 10) continue; // no room: every other label on a narrow chart
      lastLabelEnd = at + half;
      parts.push(s('text', { class: 'tick', x: f(at), y: pad.top + plotH + 18, 'text-anchor': 'middle' }, String(v)));
    }
    parts.push(s('rect', { class: 'frame', x: pad.left, y: pad.top, width: plotW, height: plotH }));
    parts.push(
      s('text', { class: 'axis-label', x: pad.left + plotW / 2, y: height - 6, 'text-anchor': 'middle' }, x.label),
    );
    parts.push(s('text', { class: 'axis-label', x: pad.left, y: 14, 'text-anchor': 'start' }, y.label));

    if (level) {
      parts.push(
        s('line', { class: 'guide', x1: pad.left, x2: width - pad.right, y1: f(py(level.y)), y2: f(py(level.y)) }),
      );
      // on the left, where the lines of small n run low and leave the room
      parts.push(
        s(
          'text',
          { class: 'guide-label', x: pad.left + 6, y: f(py(level.y) - 6), 'text-anchor': 'start' },
          level.label,
        ),
      );
    }
    if (slope2) {
      // y = slope2.y·(n / slope2.x)², drawn where it stays inside the y range
      const lo = Math.max(2 ** x0, slope2.x * Math.sqrt(y.min / slope2.y));
      const hi = Math.min(2 ** x1, slope2.x * Math.sqrt(y.max / slope2.y));
      if (hi > lo) {
        const at = (n) => slope2.y * (n / slope2.x) ** 2;
        parts.push(s('line', { class: 'guide', x1: f(px(lo)), y1: f(py(at(lo))), x2: f(px(hi)), y2: f(py(at(hi))) }));
        // labelled a quarter of the way along, under the line: the measured lines run above it at small n
        const n = lo * (hi / lo) ** 0.25;
        parts.push(
          s(
            'text',
            { class: 'guide-label', x: f(px(n) + 4), y: f(py(at(n)) + 16), 'text-anchor': 'start' },
            slope2.label,
          ),
        );
      }
    }
    for (const { key, points, above = [] } of series) {
      const g = s('g', { class: `series cost-series-${key}` });
      if (points.length > 1)
        g.append(
          s('path', { class: 'line', d: points.map((p, i) => `${i ? 'L' : 'M'}${f(px(p.x))},${f(py(p.y))}`).join('') }),
        );
      for (const p of points) g.append(mark(MARKS[key], px(p.x), py(p.y), p.hollow, p.title));
      for (const p of above) g.append(mark('cross', px(p.x), pad.top + 8, false, p.title));
      parts.push(g);
    }
    if (hint) {
      // after its colon on a line of its own, so that it fits a phone's chart
      const lines = hint.split(/(?<=[:：])\s*/);
      const text = s('text', {
        class: 'hint',
        x: pad.left + plotW / 2,
        y: f(pad.top + plotH / 2 - (lines.length - 1) * 10),
        'text-anchor': 'middle',
      });
      lines.forEach((line, i) => text.append(s('tspan', { x: pad.left + plotW / 2, dy: i ? 20 : 0 }, line)));
      parts.push(text);
    }
    svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    svg.setAttribute('width', width);
    svg.setAttribute('height', height);
    svg.replaceChildren(...parts);
  }

  return {
    element,
    update,
    destroy() {
      destroyed = true;
      resized.disconnect();
      run?.handle.stop();
    },
  };
}

/**
 * A log axis's range: powers of `base` enclosing [lo, hi], at least `span` of them apart, with a
 * tick at each power. → { min, max, ticks }
 */
function decades(lo, hi, base, span) {
  const log = (v) => Math.log(v) / Math.log(base);
  let a = Math.floor(log(lo) + 1e-9),
    b = Math.ceil(log(hi) - 1e-9);
  while (b - a < span) {
    if ((b - a) % 2) a--;
    else b++;
  }
  const ticks = [];
  for (let k = a; k <= b; k++) ticks.push(base ** k);
  return { min: base ** a, max: base ** b, ticks };
}

function svgRoot(id) {
  return s('svg', { id, class: 'cost-chart', role: 'img', xmlns: SVG });
}

/** An SVG element; attributes as given, string children become text. */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs))
    if (value !== null && value !== undefined) el.setAttribute(key, value);
  for (const child of children)
    if (child !== null && child !== undefined) el.append(child instanceof Node ? child : String(child));
  return el;
}

/** One point's marker, centred on (x, y); `title` is its tooltip. */
function mark(shape, x, y, hollow, title) {
  const r = 4.5;
  const d = {
    square: `M${x - r * 0.85},${y - r * 0.85}h${r * 1.7}v${r * 1.7}h${-r * 1.7}Z`,
    triangle: `M${x},${y - r * 1.15}L${x + r * 1.1},${y + r * 0.8}L${x - r * 1.1},${y + r * 0.8}Z`,
    cross: `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`,
  }[shape];
  const attrs = { class: `mark${hollow ? ' hollow' : ''}${shape === 'cross' ? ' cross' : ''}` };
  const el = d
    ? s('path', { ...attrs, d })
    : s('circle', { ...attrs, cx: x.toFixed(1), cy: y.toFixed(1), r: shape === 'dot' ? 3 : r });
  if (title) el.append(s('title', {}, title));
  return el;
}

/** The legend's picture of a line: a short stroke with the series' marker (or the dashed limit). */
function swatch(key) {
  const svg = s('svg', {
    class: `cost-swatch cost-series-${key}`,
    width: 28,
    height: 14,
    viewBox: '0 0 28 14',
    'aria-hidden': 'true',
  });
  if (key === 'limit') svg.append(s('line', { class: 'guide', x1: 1, x2: 27, y1: 7, y2: 7 }));
  else svg.append(s('path', { class: 'line', d: 'M1,7H27' }), mark(MARKS[key], 14, 7, false));
  return svg;
}
