// The training lab's attention panel (train-lab-view.js): A on the probe sequence for each run and
// head, as tables of numbers coloured by weight, and the timeline of snapshots that a reader scrubs
// back through. Hovering or focusing a cell writes its number, with what it is, into the readout.
// The tables are rebuilt only when their shape changes (task, heads, race); a new snapshot repaints
// the numbers in place.

import { h, setText } from '../../views/dom.js';
import { cellStyle } from '../../colors.js';
import { formatNumber, matrixFormat } from '../../format.js';
import { moveInGrid } from '../../views/grid-keys.js';

const SEQUENTIAL = { kind: 'seq', max: 1 }; // weights lie in [0, 1]

/** One head's table: n×n cells of class pick (grid-keys.js's roving tab stop), labelled by tokens. */
function headTable(labels, caption) {
  const n = labels.length;
  const cells = [];
  const rows = labels.map((label, i) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, label),
      labels.map((_, j) => {
        const td = h('td', { class: 'pick', tabindex: i === 0 && j === 0 ? 0 : -1, dataset: { i, j } });
        cells.push(td);
        return td;
      }),
    ),
  );
  const table = h(
    'table',
    { class: 'train-a', onkeydown: moveInGrid },
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('td', {}),
        labels.map((label) => h('th', { scope: 'col' }, label)),
      ),
    ),
    h('tbody', {}, rows),
  );
  return { table, cells, n };
}

/** The timeline: a slider over the snapshots, its label, and the step it shows. */
function createTimeline(onScrub) {
  const slider = h('input', {
    type: 'range',
    id: 'train-timeline',
    min: 0,
    max: 0,
    step: 1,
    value: 0,
    oninput: () => onScrub(Number(slider.value), slider.value === slider.max),
  });
  const label = h('label', { for: 'train-timeline' });
  const value = h('output', { for: 'train-timeline', id: 'train-timeline-value' });
  function update({ count, index, step, live }, t) {
    setText(label, t('train.timeline.label'));
    slider.max = String(count - 1);
    slider.value = String(index);
    setText(value, t('train.timeline.value', { step }) + (live ? t('train.timeline.live') : ''));
    slider.setAttribute('aria-valuetext', value.textContent);
  }
  return { el: h('div', { class: 'train-timeline' }, label, slider, value), update };
}

/** The words of the readout for cell (i, j) of `entry` (a head's table) in the view drawn. */
function cellWords({ t, runs, labels }, entry, i, j) {
  const snapshot = runs[entry.run].snapshot;
  return t('train.cell', {
    run: runs[entry.run].name,
    head: entry.head + 1,
    i: i + 1,
    j: j + 1,
    qi: labels[i],
    kj: labels[j],
    value: formatNumber(snapshot.weights[entry.head].data[i * entry.n + j], 4),
    step: snapshot.step,
  });
}

/**
 * The panel: { el, update(view) } with view { runs: [{ name, snapshot }], labels, t, theme }, each
 * snapshot { step, weights: [A of each head] }; timeline: { count, index, step, live }, and
 * onScrub(index, atEnd) called when the reader moves the timeline.
 */
export function createAttentionPanel({ onScrub }) {
  const timeline = createTimeline(onScrub);
  const grids = h('div', { class: 'train-grids' });
  const readout = h('p', { class: 'train-readout', id: 'train-readout', 'aria-live': 'polite' });
  let shapeKey = '';
  let tables = []; // [{ run, head, table, cells, n }]
  let last = null; // the view last drawn, for the readout
  let current = null; // the cell the readout describes: redescribed at each snapshot shown

  function describe(td) {
    const entry = tables.find((item) => item.cells.includes(td));
    if (!entry || !last) return;
    current = td;
    setText(readout, cellWords(last, entry, Number(td.dataset.i), Number(td.dataset.j)));
  }
  const onCell = (event) => {
    const td = event.target.closest?.('td.pick');
    if (td) describe(td);
  };
  grids.addEventListener('mouseover', onCell);
  grids.addEventListener('focusin', onCell);

  function rebuild({ runs, labels, t }) {
    tables = [];
    grids.replaceChildren(
      ...runs.map((run, r) =>
        h(
          'div',
          { class: `train-run run-${r}` },
          run.snapshot.weights.map((_, head) => {
            const built = headTable(labels, t('train.head', { run: run.name, head: head + 1 }));
            tables.push({ run: r, head, ...built });
            return built.table;
          }),
        ),
      ),
    );
  }

  function update(view) {
    const { runs, labels, t, theme } = view;
    const key = [
      t('train.head', { run: '', head: 1 }),
      labels.join(','),
      ...runs.map((r) => `${r.name}/${r.snapshot.weights.length}`),
    ].join('|');
    if (key !== shapeKey) rebuild(view);
    shapeKey = key;
    last = view;
    for (const { run, head, cells } of tables) {
      const data = runs[run].snapshot.weights[head].data;
      // One form for the whole table (format.js): "1.0" beside "0.50", never "1" beside "0.50".
      const format = matrixFormat(data, 2);
      cells.forEach((td, c) => {
        const value = data[c];
        setText(td, format(value));
        const { bg, fg } = cellStyle(value, SEQUENTIAL, theme);
        td.style.background = bg;
        td.style.color = fg;
        td.dataset.value = String(value);
      });
    }
    timeline.update(view.timeline, t);
    if (current && grids.contains(current)) describe(current);
    else setText(readout, t('train.cell.hint'));
  }

  const el = h('div', { class: 'train-attention' }, timeline.el, grids, readout);
  return { el, update };
}
