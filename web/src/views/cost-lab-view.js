// The lab "the cost of n²" (view=cost-lab): a run button and a stop button, progress, the time per
// call against n on log–log axes with each path's fitted slope, the measurements as a table, the
// machine's GFLOP/s, and the memory of the n² score matrix beside the streaming path's.
// The timing itself is labs/cost-run.js (a Web Worker, or slices on the page's thread); this file
// keeps the run's events while the view is open — a change of language re-labels them, it does
// not restart the run — and stops the run when the view closes.

import { h } from './dom.js';
import { svg, px } from './svg.js';
import { startCostRun, SLICE_MS } from '../labs/cost-run.js';
import { COST_PLAN, memoryTable, slopes } from '../labs/cost-lab.js';
import workerSource from '../labs/cost-worker-source.js';

const PATHS = COST_PLAN.paths;
const CHART = { width: 560, height: 300, left: 52, right: 14, top: 12, bottom: 42 };

/** Bytes in binary units, as the core's 1 GiB limit is written. */
function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes,
    unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 || unit === 0 ? Math.round(value) : value.toPrecision(3)} ${units[unit]}`;
}

const formatMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toPrecision(3) : ms.toPrecision(2));

/** Powers of ten from below lo to above hi, the log axis' ticks. */
function decades(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out;
}

function chart(results, sizes, t, label) {
  const measured = results.filter((r) => r.type === 'measure');
  const msValues = measured.map((r) => r.ms);
  const lo = Math.min(...msValues, 0.01),
    hi = Math.max(...msValues, 10);
  const yTicks = decades(lo, hi);
  const [y0, y1] = [Math.log10(yTicks[0]), Math.log10(yTicks[yTicks.length - 1])];
  const [x0, x1] = [Math.log2(sizes[0]), Math.log2(sizes[sizes.length - 1])];
  const plotW = CHART.width - CHART.left - CHART.right,
    plotH = CHART.height - CHART.top - CHART.bottom;
  const x = (n) => CHART.left + (x1 === x0 ? plotW / 2 : ((Math.log2(n) - x0) / (x1 - x0)) * plotW);
  const y = (ms) => CHART.top + plotH - ((Math.log10(ms) - y0) / (y1 - y0)) * plotH;
  const bottom = CHART.top + plotH;
  const lines = PATHS.map((path) => {
    const points = measured.filter((r) => r.path === path).sort((a, b) => a.n - b.n);
    return svg(
      'g',
      { class: `series series-${path}` },
      points.length > 1
        ? svg('path', {
            class: 'line',
            d: points.map((p, k) => `${k ? 'L' : 'M'}${px(x(p.n))},${px(y(p.ms))}`).join(''),
          })
        : null,
      points.map((p) => svg('circle', { class: 'point', cx: px(x(p.n)), cy: px(y(p.ms)), r: 3.5 })),
    );
  });
  return svg(
    'svg',
    { viewBox: `0 0 ${CHART.width} ${CHART.height}`, role: 'img', 'aria-label': label, class: 'chart cost-chart' },
    yTicks.map((v) => [
      svg('line', { class: 'grid', x1: CHART.left, x2: CHART.width - CHART.right, y1: px(y(v)), y2: px(y(v)) }),
      svg(
        'text',
        { class: 'tick', x: CHART.left - 6, y: px(y(v) + 4), 'text-anchor': 'end' },
        v >= 1 ? String(v) : v.toPrecision(1),
      ),
    ]),
    sizes.map((n) => [
      svg('line', { class: 'axis', x1: px(x(n)), x2: px(x(n)), y1: bottom, y2: bottom + 4 }),
      svg('text', { class: 'tick', x: px(x(n)), y: bottom + 16, 'text-anchor': 'middle' }, String(n)),
    ]),
    svg('line', { class: 'axis', x1: CHART.left, x2: CHART.width - CHART.right, y1: bottom, y2: bottom }),
    svg('line', { class: 'axis', x1: CHART.left, x2: CHART.left, y1: CHART.top, y2: bottom }),
    svg(
      'text',
      { class: 'label', x: CHART.left + plotW / 2, y: CHART.height - 4, 'text-anchor': 'middle' },
      t('cost.axisN'),
    ),
    svg(
      'text',
      {
        class: 'label',
        x: 12,
        y: CHART.top + plotH / 2,
        'text-anchor': 'middle',
        transform: `rotate(-90 12 ${CHART.top + plotH / 2})`,
      },
      t('cost.axisMs'),
    ),
    lines,
  );
}

export function createCostLabView({ engine, setState, announce }) {
  let run = null; // the run in progress (cost-run.js), or null
  let events = []; // what the current or last run reported, in order
  let status = 'idle'; // idle | running | done | stopped | error
  let ctx = null;
  let memory = null; // memoryTable(engine): the core's own figures, computed once

  const title = h('h2', { id: 'cost-title' });
  const intro = h('p', { class: 'lab-intro' });
  const maxLabel = h('label', { for: 'cost-max' });
  const maxSelect = h(
    'select',
    { id: 'cost-max' },
    COST_PLAN.sizes.map((n) => h('option', { value: String(n) }, String(n))),
  );
  maxSelect.addEventListener('change', () => setState({ costmax: Number(maxSelect.value) }));
  const runButton = h('button', { type: 'button', id: 'cost-run', class: 'primary', onclick: () => start() });
  const stopButton = h('button', { type: 'button', id: 'cost-stop', onclick: () => stop() });
  const bar = h('progress', { id: 'cost-progress', max: 1, value: 0 });
  const statusLine = h('p', { class: 'cost-status', id: 'cost-status' });
  const modeLine = h('p', { class: 'muted cost-mode', id: 'cost-mode' });
  const gflopsLine = h('p', { class: 'cost-gflops', id: 'cost-gflops' });
  const chartTitle = h('h3', {});
  const chartBox = h('div', { class: 'cost-chart-box' });
  const legend = h('ul', { class: 'cost-legend', id: 'cost-legend' });
  const timeTitle = h('h3', {});
  const timeTable = h('div', { class: 'table-scroll' });
  const memoryTitle = h('h3', {});
  const memoryText = h('p', {});
  const memoryBox = h('div', { class: 'table-scroll' });

  const element = h(
    'section',
    { class: 'lab lab-cost', 'aria-labelledby': 'cost-title' },
    title,
    intro,
    h(
      'div',
      { class: 'lab-card cost-controls' },
      h(
        'div',
        { class: 'cost-buttons' },
        h('span', { class: 'field' }, maxLabel, ' ', maxSelect),
        runButton,
        stopButton,
      ),
      h('div', { class: 'cost-progress-row' }, bar, statusLine),
      modeLine,
      gflopsLine,
    ),
    h('div', { class: 'lab-card' }, chartTitle, chartBox, legend, timeTitle, timeTable),
    h('div', { class: 'lab-card' }, memoryTitle, memoryText, memoryBox),
  );

  const planFor = (max) => ({ ...COST_PLAN, sizes: COST_PLAN.sizes.filter((n) => n <= max) });

  async function start() {
    if (run) return;
    const plan = planFor(ctx.state.costmax);
    events = [];
    status = 'running';
    run = startCostRun({ engine, workerSource, plan });
    const mine = run;
    render();
    announce(ctx.t('cost.run'));
    for await (const event of mine) {
      if (run !== mine) return; // stopped and replaced
      events.push(event);
      if (event.type === 'done') status = 'done';
      else if (event.type === 'stopped') status = 'stopped';
      else if (event.type === 'error') status = 'error';
      render();
      if (status !== 'running') {
        run = null;
        render();
        announce(statusLine.textContent);
      }
    }
  }

  function stop() {
    if (!run) return;
    const r = run;
    run = null;
    status = 'stopped';
    r.stop();
    render();
    announce(statusLine.textContent);
  }

  function render() {
    if (!ctx) return;
    const { t, state } = ctx;
    const plan = events.find((e) => e.type === 'plan')?.plan ?? planFor(state.costmax);
    const results = events.filter((e) => e.type === 'measure' || e.type === 'refused' || e.type === 'skipped');
    const startEvent = events.find((e) => e.type === 'start');
    const progress = [...events].reverse().find((e) => e.type === 'progress');
    const error = events.find((e) => e.type === 'error');
    const total = plan.sizes.length * plan.paths.length;

    title.textContent = t('view.cost-lab');
    intro.textContent = t('cost.intro');
    maxLabel.textContent = t('cost.max');
    maxSelect.value = String(state.costmax);
    maxSelect.disabled = status === 'running';
    runButton.textContent = t('cost.run');
    stopButton.textContent = t('cost.stop');
    // aria-disabled, not disabled: the button under the keyboard keeps the focus.
    runButton.setAttribute('aria-disabled', String(status === 'running'));
    stopButton.setAttribute('aria-disabled', String(status !== 'running'));
    bar.max = total;
    bar.value = progress?.done ?? (status === 'done' ? total : 0);
    bar.setAttribute('aria-label', t('cost.chartTitle'));
    element.dataset.status = status;

    const pathName = (path) => t(`cost.path.${path}`);
    statusLine.textContent =
      status === 'idle'
        ? t('cost.idle', { d: plan.d })
        : status === 'running'
          ? progress
            ? t('cost.progress', { n: progress.n, path: pathName(progress.path), done: progress.done, total })
            : '…'
          : status === 'done'
            ? t('cost.finished', { count: results.filter((r) => r.type === 'measure').length })
            : status === 'stopped'
              ? t('cost.stopped')
              : t('cost.failed', { message: error?.error?.message ?? '' });

    modeLine.textContent = startEvent
      ? `${t(`cost.build.${startEvent.build}`)} · ${startEvent.mode === 'worker' ? t('cost.mode.worker') : t('cost.mode.main-thread', { reason: t(`cost.reason.${startEvent.reason}`), slice: SLICE_MS })}`
      : t(`cost.build.${engine.build}`);
    if (startEvent) element.dataset.mode = startEvent.mode;

    const simd = results.filter((r) => r.type === 'measure' && r.path === 'simd');
    const best = simd.reduce((m, r) => Math.max(m, r.gflops), 0);
    gflopsLine.textContent = best ? t('cost.gflops', { gflops: best.toFixed(2) }) : '';
    gflopsLine.hidden = !best;
    if (best) element.dataset.gflops = String(best);

    // The slope of each path over its larger sizes (cost-lab.js's slopes), live as points arrive.
    const fitted = slopes(results, PATHS);
    const slopeText = (path) =>
      fitted[path] === null ? t('cost.slopeNone') : t('cost.slope', { slope: fitted[path].toFixed(2) });
    chartTitle.textContent = t('cost.chartTitle');
    chartBox.replaceChildren(
      chart(
        results,
        plan.sizes,
        t,
        t('cost.chartLabel', { lines: PATHS.map((p) => `${pathName(p)}: ${slopeText(p)}`).join('; ') }),
      ),
    );
    legend.replaceChildren(
      ...PATHS.map((path) =>
        h(
          'li',
          { class: `series-${path}`, dataset: { path, slope: fitted[path] === null ? '' : String(fitted[path]) } },
          h('span', { class: 'swatch', 'aria-hidden': 'true' }),
          `${pathName(path)} · ${slopeText(path)}`,
        ),
      ),
    );

    timeTitle.textContent = t('cost.timeTitle');
    const cell = (n, path) => {
      const r = results.find((x) => x.n === n && x.path === path);
      if (!r) return h('td', { class: 'pending' }, t('cost.pending'));
      if (r.type === 'measure') return h('td', { class: 'num' }, formatMs(r.ms));
      if (r.type === 'refused')
        return h('td', { class: 'refused' }, t('cost.refused', { bytes: formatBytes(r.bytes) }));
      return h('td', { class: 'skipped' }, t(`cost.skipped.${r.reason}`));
    };
    timeTable.replaceChildren(
      h(
        'table',
        { class: 'lab-table', id: 'cost-times' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'n'),
            PATHS.map((p) => h('th', { scope: 'col' }, pathName(p))),
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
              PATHS.map((p) => cell(n, p)),
            ),
          ),
        ),
      ),
    );

    memory ??= memoryTable(engine);
    memoryTitle.textContent = t('cost.memoryTitle');
    memoryText.textContent = t('cost.memoryText', { limit: formatBytes(memory[0].limit) });
    memoryBox.replaceChildren(
      h(
        'table',
        { class: 'lab-table', id: 'cost-memory' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, t('cost.memory.n')),
            h('th', { scope: 'col' }, t('cost.memory.scores')),
            PATHS.map((p) => h('th', { scope: 'col' }, pathName(p))),
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
              h('td', { class: 'num' }, formatBytes(row.scoreBytes)),
              PATHS.map((p) => {
                const { bytes, fits } = row.paths[p];
                return h(
                  'td',
                  { class: fits ? 'num' : 'num refused' },
                  formatBytes(bytes),
                  fits ? null : h('span', { class: 'sr-only' }, ` ${t('cost.memory.refusedMark')}`),
                  fits ? null : ' ✕',
                );
              }),
            ),
          ),
        ),
      ),
    );
  }

  return {
    element,
    update(next) {
      ctx = next;
      render();
    },
    destroy() {
      run?.stop();
      run = null;
    },
  };
}
