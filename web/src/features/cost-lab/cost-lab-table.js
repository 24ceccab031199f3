// The cost lab's two tables (times and memory, cost-lab-view.js): a row of column names, then one
// row per size n with its cells.

import { h } from '../../views/dom.js';
import { scrollCue } from '../../views/scroll-cue.js';

/** A table of `className` in a box that scrolls sideways, a region (with `id`) a keyboard can scroll. */
export function scrollingTable(className, id) {
  const table = h('table', { class: className });
  return { table, scroll: scrollCue(h('div', { class: 'cost-scroll', tabindex: 0, role: 'region', id }, table)) };
}

/**
 * Fills `table`: `caption` (screen-reader text, or none), the column names `head`, and `rows`,
 * each [n, …cells] with the cells as <td> elements.
 */
export function fillTable(table, { caption = null, head, rows }) {
  table.replaceChildren(
    ...(caption === null ? [] : [h('caption', { class: 'sr-only' }, caption)]),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        head.map((name) => h('th', { scope: 'col' }, name)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map(([n, ...cells]) => h('tr', {}, h('th', { scope: 'row' }, String(n)), cells)),
    ),
  );
}
