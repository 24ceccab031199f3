// The cost lab's memory part (cost-lab-view.js): the working memory each path needs against n,
// from the core's own memory check (cost-lab.js memoryTable), as a log–log chart beside a table.
// The same in every run: drawn again only for a change of language.

import { h } from '../../views/dom.js';
import { COST_PLAN, MEMORY_SIZES, formatBytes } from './cost-lab.js';
import { chartFigure, decades, legendItem } from './cost-lab-chart.js';
import { fillTable, scrollingTable } from './cost-lab-table.js';

/** The figures the text quotes: the score matrix at n = 4096, the limit, where it is passed, the largest n. */
function memoryFacts(memory) {
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

/** The chart's drawing: the score matrix, and each path's need (hollow where the core refuses it). */
function memorySpec(t, memory) {
  const limit = memory[0].limit;
  const all = memory.flatMap((row) => [row.scoreBytes, row.paths.reference.bytes, row.paths.streaming.bytes]);
  const point = (n, bytes, name, over) => ({
    x: n,
    y: bytes,
    hollow: over,
    title: `${name}, n = ${n}: ${formatBytes(bytes)}${over ? ` — ${t('cost.memory.refused')}` : ''}`,
  });
  const path = (key) => ({
    key,
    points: memory.map((row) => point(row.n, row.paths[key].bytes, t(`cost.path.${key}`), !row.paths[key].fits)),
  });
  return {
    x: { min: MEMORY_SIZES[0], max: MEMORY_SIZES.at(-1), ticks: MEMORY_SIZES, label: t('cost.axis.n') },
    y: { ...decades(Math.min(...all), Math.max(...all), 16, 2), format: formatBytes, label: t('cost.axis.bytes') },
    series: [
      { key: 'scores', points: memory.map((row) => point(row.n, row.scoreBytes, t('cost.memory.scores'), false)) },
      path('reference'),
      path('streaming'),
    ],
    level: { y: limit, label: t('cost.memory.limit', { limit: formatBytes(limit) }) },
  };
}

/** One size's cells: the score matrix's bytes, then each path's need, marked where it is refused. */
function memoryCells(t, row) {
  const refusedBadge = () => h('span', { class: 'cost-badge' }, t('cost.memory.refused'));
  return [
    h('td', { class: row.scoreBytes > row.limit ? 'over' : null }, formatBytes(row.scoreBytes)),
    ...COST_PLAN.paths.map((path) => {
      const need = row.paths[path];
      return h('td', { class: need.fits ? null : 'over' }, formatBytes(need.bytes), need.fits ? null : refusedBadge());
    }),
  ];
}

/** The part: { el, draw(t), destroy() } for `memory` (cost-lab.js memoryTable's rows). */
export function createMemoryPart(memory) {
  const { title, text, legend, chart, caption, figure } = chartFigure('cost-chart-memory');
  const { table, scroll } = scrollingTable('cost-table cost-memory-table', 'cost-memory-scroll');
  const el = h('section', { class: 'cost-part' }, title, text, h('div', { class: 'cost-memory' }, figure, scroll));

  function draw(t) {
    const params = memoryFacts(memory);
    title.textContent = t('cost.memory.title');
    text.textContent = t('cost.memory.text', params);
    caption.textContent = t('cost.memory.caption', { d: COST_PLAN.d, limit: params.limit });
    scroll.setAttribute('aria-label', t('cost.memory.table'));
    legend.replaceChildren(
      legendItem('scores', t('cost.memory.scores')),
      legendItem('reference', t('cost.path.reference')),
      legendItem('streaming', t('cost.path.streaming')),
      legendItem('limit', t('cost.memory.limit', { limit: params.limit })),
    );
    chart.draw(memorySpec(t, memory));
    chart.svg.setAttribute('aria-label', t('cost.chart.memory', params));
    fillTable(table, {
      caption: t('cost.memory.table'),
      head: [t('cost.times.n'), t('cost.memory.scores'), ...COST_PLAN.paths.map((path) => t(`cost.path.${path}`))],
      rows: memory.map((row) => [row.n, ...memoryCells(t, row)]),
    });
  }

  return { el, draw, destroy: chart.destroy };
}
