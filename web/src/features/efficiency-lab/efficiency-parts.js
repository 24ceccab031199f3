// The parts the efficiency lab's panels share: a stepper (first / previous / next / last, with the
// arrow keys), a grid of scores whose cells carry a state in a pattern and a sign as well as a
// colour, a table of numbers, and the sentence that says whether two results are equal.

import { h, setText } from '../../views/dom.js';
import { scrollCue } from '../../views/scroll-cue.js';
import { num } from './efficiency-lab.js';

/** Subscript digits, for the rows' and columns' names (q₁, k₁₂). */
export const subscript = (n) => String(n).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);

/**
 * A stepper over 1 … count: { el, draw(t, { at, count, position, label }) }. go(k) is called with
 * the step the reader moved to (clamped); ← / → / Home / End on the buttons move too, and a slider
 * under them reaches any step of thousands (64 words in 1×1 tiles are 4096). The buttons are
 * aria-disabled at the ends rather than disabled, so that a focused button keeps the focus.
 */
export function createStepper({ id, go }) {
  const shown = { at: 1, count: 1 };
  const to = (k) => {
    const next = Math.max(1, Math.min(shown.count, k));
    if (next !== shown.at) go(next);
  };
  const button = (name, sign, step) =>
    h('button', { type: 'button', id: `${id}-${name}`, class: 'eff-step', onclick: () => to(step()) }, sign);
  const first = button('first', '|◀', () => 1);
  const prev = button('prev', '◀', () => shown.at - 1);
  const next = button('next', '▶', () => shown.at + 1);
  const last = button('last', '▶|', () => shown.count);
  const position = h('output', { id: `${id}-position`, class: 'eff-position', 'aria-hidden': 'true' });
  const slider = h('input', {
    type: 'range',
    id: `${id}-range`,
    class: 'eff-range',
    min: 1,
    step: 1,
    oninput: () => to(Number(slider.value)),
  });
  const hint = h('p', { class: 'hint eff-keys', id: `${id}-keys` });
  const KEYS = { ArrowLeft: () => shown.at - 1, ArrowRight: () => shown.at + 1, Home: () => 1, End: () => shown.count };
  const el = h(
    'div',
    {
      class: 'eff-stepper',
      role: 'group',
      'aria-describedby': hint.id,
      onkeydown: (event) => {
        // (The slider moves by its own keys.)
        if (!KEYS[event.key] || event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
        event.preventDefault();
        to(KEYS[event.key]());
      },
    },
    h('div', { class: 'eff-step-row' }, first, prev, position, next, last),
    slider,
    hint,
  );
  return {
    el,
    draw(t, { at, count, position: text, label }) {
      Object.assign(shown, { at, count });
      el.setAttribute('aria-label', label);
      setText(position, text);
      setText(hint, t('eff.stepKeys'));
      slider.max = String(count);
      slider.value = String(at);
      slider.setAttribute('aria-label', label);
      slider.setAttribute('aria-valuetext', text);
      for (const [b, key, end] of [
        [first, 'eff.first', at === 1],
        [prev, 'eff.prev', at === 1],
        [next, 'eff.next', at === count],
        [last, 'eff.last', at === count],
      ]) {
        b.setAttribute('aria-label', `${t(key)} (${text})`);
        b.title = t(key);
        b.setAttribute('aria-disabled', String(end));
      }
    },
  };
}

const SIGNS = { done: '✓', now: '▶', todo: '·', skipped: '×', in: '', out: '×', future: '' };

/**
 * A grid of scores, n_q × n_k: each cell's value and its state ('done', 'now', 'todo', 'skipped'
 * for the tiles; 'in', 'out' and 'future' for a window), the state as a class (a pattern in the sheet) and a sign.
 * cell(i, j) → { value, state }. In a scroll box of its own (at n = 64 it is wider than a phone),
 * under its caption: [caption, box].
 */
export function scoreGrid({ id, caption, rows, cols, cell }) {
  const head = h(
    'tr',
    {},
    h('td', {}), // the corner: it heads neither a row nor a column
    Array.from({ length: cols }, (_, j) => h('th', { scope: 'col' }, `k${subscript(j + 1)}`)),
  );
  const body = Array.from({ length: rows }, (_, i) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, `q${subscript(i + 1)}`),
      Array.from({ length: cols }, (_, j) => {
        const { value, state } = cell(i, j);
        return h(
          'td',
          { class: `eff-cell is-${state}`, dataset: { i, j, state } },
          SIGNS[state] ? h('span', { class: 'eff-sign', 'aria-hidden': 'true' }, SIGNS[state]) : null,
          value === null ? '' : num(value),
        );
      }),
    ),
  );
  // The caption above the box, as wide as the text needs (a <caption> is only as wide as its table).
  return [
    h('p', { class: 'eff-grid-caption', id: `${id}-caption` }, caption),
    scrollCue(
      h(
        'div',
        { class: 'table-scroll eff-grid-scroll' },
        h(
          'table',
          { class: 'eff-grid', id, 'aria-labelledby': `${id}-caption` },
          h('thead', {}, head),
          h('tbody', {}, body),
        ),
      ),
    ),
  ];
}

/**
 * A table of numbers: a header row, then one row per entry of `rows`, each { name, cells } where a
 * cell is a text or an element (a popover's number).
 */
export function numberTable({ className, head, rows }) {
  return scrollCue(
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        { class: `eff-table ${className ?? ''}` },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            // An empty head (over the rows' names) is a plain cell: it heads no column.
            head.map((text) => (text ? h('th', { scope: 'col' }, text) : h('td', {}))),
          ),
        ),
        h(
          'tbody',
          {},
          rows.map(({ name, cells, attrs }) =>
            h(
              'tr',
              attrs ?? {},
              h('th', { scope: 'row' }, name),
              cells.map((c) => h('td', {}, c)),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Whether two results agree, as computed: every value equal, or the largest difference and how many differ. */
export function agreementText(t, { largest, differing, count }) {
  return differing ? t('eff.differ', { largest: num(largest), differing, count }) : t('eff.equal', { count });
}

/** agreementText as a paragraph, its numbers in data-largest and data-differing (for the tests). */
export function agreement(t, difference) {
  const { largest, differing } = difference;
  return h(
    'p',
    { class: `eff-agreement ${differing ? 'differ' : 'equal'}`, dataset: { largest, differing } },
    agreementText(t, difference),
  );
}
