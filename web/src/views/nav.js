// The map of the pipeline and the previous / next buttons. The map is the article's steps as a
// flow: X →(·W)→ Q K V →(QKᵀ)→ S →(÷√dₖ)→ S/√dₖ →(−max)→ … → A →(·V)→ AV, each node a button with a
// live thumbnail of its matrix, each arrow the operation and the shape that comes out of it (each
// step's `map`, steps.js); the current step is marked. On a phone it is a strip that scrolls
// sideways. Render only: a click on a node (data-step) or on a button is its entry's in
// controller/actions.js (go-to-step, previous-step, next-step). The buttons stay the same elements
// from step to step, so that focus stays on "下一步 / Next" after Enter.

import { h } from './dom.js';
import { stepsFor, stepCount, stepWords } from '../steps.js';
import { scaleFor, KIND_OF } from '../colors.js';
import { rowPainter } from './row-painter.js';
import { math, mi, fn, mo, msup } from './math.js';
import { symbol, divisorNodes } from './names.js';
import { figureLooks } from '../state.js';
import { scrollCue } from './scroll-cue.js';

const THUMB = 34; // px, the longest side of a node's thumbnail

// The builders a step's map description draws its symbol and arrow with (steps.js `map`).
const BUILDERS = { mi, mo, fn, msup, symbol: (id, state) => symbol(id, state).nodes(), divisor: divisorNodes };

// What is on screen in each nav root, so that a new step only moves the mark.
const mounted = new WeakMap();

function thumb(name) {
  return h('canvas', { class: 'thumb', dataset: { name }, width: 1, height: 1, 'aria-hidden': 'true' });
}

function node({ id, map: spec }, index, { state, t }) {
  const step = index + 1;
  const names = spec.matrices(state);
  const arrow = spec.op
    ? h(
        'span',
        { class: 'map-arrow', 'aria-hidden': 'true' },
        h('span', { class: 'map-op' }, math(spec.op(BUILDERS, state))),
        h('span', { class: 'map-line' }),
        h('span', { class: 'map-shape' }, spec.shape(state).join('×')),
      )
    : null;
  return h(
    'li',
    { class: 'map-item', dataset: { step } },
    arrow,
    h(
      'button',
      {
        type: 'button',
        class: 'step-link map-node',
        dataset: { step },
        title: names.length ? null : t('map.noX'),
      },
      h(
        'span',
        { class: 'sr-only' },
        `${t('nav.position', { step, total: stepCount(state) })} ${t(stepWords(id, state).title)}`,
      ),
      h(
        'span',
        { class: `thumbs${names.length ? '' : ' empty'}`, 'aria-hidden': 'true' },
        names.length ? names.map(thumb) : '—',
      ),
      h('span', { class: 'map-symbol', 'aria-hidden': 'true' }, math(spec.symbol(BUILDERS, state))),
      h('span', { class: 'map-label', 'aria-hidden': 'true' }, t(`map.${id}`)),
    ),
  );
}

/** Builds the map and buttons (once per language and option set) and marks the current step. */
export function renderNav(root, ctx) {
  const { state, t } = ctx;
  // Rebuilt when a step, a symbol or a shape on it may change: the language, and what changes the
  // steps' figures (state.js figureLooks: the mode, the sizes, the heads, the loss, the options' looks).
  const key = JSON.stringify([state.lang, ...figureLooks(state)]);
  let view = mounted.get(root);
  if (view?.key !== key) {
    const prev = h('button', { type: 'button', id: 'prev' }, '← ', t('nav.prev'));
    const next = h('button', { type: 'button', id: 'next' }, t('nav.next'), ' →');
    const position = h('span', { class: 'position' });
    const list = h(
      'ol',
      { class: 'map', 'aria-label': t('nav.label') },
      stepsFor(state).map((step, index) => node(step, index, ctx)),
    );
    // A focused button is kept across a rebuild (say, a language switch): the same id gets focus back.
    const focused = root.contains(document.activeElement) ? document.activeElement.id : null;
    root.replaceChildren(
      h('h2', { class: 'sr-only', id: 'nav-title' }, t('nav.label')),
      scrollCue(h('div', { class: 'map-scroll' }, list)),
      h('div', { class: 'step-buttons' }, prev, position, next, h('p', { class: 'keys-hint' }, t('nav.keys'))),
    );
    view = { key, prev, next, position, list };
    mounted.set(root, view);
    if (focused) root.querySelector(`#${focused}`)?.focus();
  }
  view.position.textContent = t('nav.position', { step: state.step, total: stepCount(state) });
  // A disabled button cannot keep focus: at either end, focus moves to the other one.
  const nextFocused = document.activeElement === view.next;
  const prevFocused = document.activeElement === view.prev;
  view.prev.disabled = state.step <= 1;
  view.next.disabled = state.step >= stepCount(state);
  if (nextFocused && view.next.disabled) view.prev.focus();
  if (prevFocused && view.prev.disabled) view.next.focus();
  for (const button of view.list.querySelectorAll('.map-node')) {
    const current = Number(button.dataset.step) === state.step;
    if (current) button.setAttribute('aria-current', 'step');
    else if (button.hasAttribute('aria-current')) button.removeAttribute('aria-current');
  }
  // On a narrow screen the strip scrolls so the current step is in view (never the page itself);
  // measured at the next frame, when the page is laid out anyway.
  requestAnimationFrame(() => {
    const current = view.list.querySelector('[aria-current="step"]');
    const scroller = root.querySelector('.map-scroll');
    if (!current || scroller.scrollWidth <= scroller.clientWidth) return;
    const box = current.closest('li');
    scroller.scrollLeft = box.offsetLeft - (scroller.clientWidth - box.offsetWidth) / 2;
  });
}

const drawn = new WeakMap(); // canvas → { data, theme, paint } it shows, and its rowPainter

/**
 * Draws the live thumbnails from the model (after every computation that changed them): of a
 * matrix with new numbers only the rows that changed, while its scale stays (row-painter.js).
 */
export function updateMap(root, { model, theme }) {
  for (const canvas of root.querySelectorAll('canvas.thumb')) {
    const m = model[canvas.dataset.name];
    if (!m) continue;
    const last = drawn.get(canvas);
    if (last?.data === m.data && last.theme === theme) continue;
    const resized = canvas.width !== m.cols || canvas.height !== m.rows;
    if (resized) {
      canvas.width = m.cols;
      canvas.height = m.rows;
      const longest = Math.max(m.rows, m.cols);
      const size = canvas.parentElement.children.length > 1 ? THUMB * 0.62 : THUMB;
      Object.assign(canvas.style, {
        width: `${Math.max(3, Math.round((m.cols / longest) * size))}px`,
        height: `${Math.max(3, Math.round((m.rows / longest) * size))}px`,
      });
    }
    const context = canvas.getContext('2d');
    if (!context) continue;
    // A canvas given a new size is cleared: painted anew, all of it.
    const paint = !resized && last ? last.paint : rowPainter(context, m.rows, m.cols);
    paint(m.data, scaleFor(m.data, KIND_OF[canvas.dataset.name]), theme);
    drawn.set(canvas, { data: m.data, theme, paint });
  }
}
