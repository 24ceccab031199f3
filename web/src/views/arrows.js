// §3's picture, "两个向量就像两支箭": on the scores step, for d_k = 2, q_i and k_j as two arrows
// from 0, the angle θ between them and their dot product |q||k|cos θ = q·k, with the numbers.
// Built once and updated in place (a drag keeps its element under the pointer); the SVG is made
// with DOM calls. The controller part (controller/arrows.js) listens to its heads and choosers.
//   createArrows({ t }) → { element, update(ctx) }, ctx: { state, model, t, pair: { i, j },
//   mode: arrows.js arrowsMode, extent }

import { h, setText } from './dom.js';
import { geometry, rowOf, PLANE, toDrawing } from '../arrows.js';
import { formatNumber } from '../format.js';

const SVG = 'http://www.w3.org/2000/svg';
const SUBSCRIPT = '₀₁₂₃₄₅₆₇₈₉';
/** q₁₂: a row's number as a subscript. */
const sub = (n) => [...String(n)].map((d) => SUBSCRIPT[d]).join('');

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.append(...children);
  return el;
}

const set = (el, attrs) => {
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
};

/** One arrow: its shaft, its head (a marker) and the handle that drags it; `which` is 'q' or 'k'. */
function arrow(which) {
  const shaft = svg('line', {
    class: `arrow-shaft arrow-${which}`,
    x1: 0,
    y1: 0,
    'marker-end': `url(#arrow-tip-${which})`,
  });
  const handle = svg('circle', { class: `arrow-handle arrow-${which}`, 'data-which': which, role: 'button' });
  const label = svg('text', { class: `arrow-label arrow-${which}` });
  return { shaft, handle, label };
}

/** A marker for an arrow's tip, in its colour. */
const tip = (which) =>
  svg(
    'marker',
    {
      id: `arrow-tip-${which}`,
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerWidth: 5,
      markerHeight: 5,
      orient: 'auto-start-reverse',
    },
    svg('path', { d: 'M0,0 L10,5 L0,10 z', class: `arrow-${which}` }),
  );

/** The chooser of one arrow's row (q_i or k_j). */
function chooser(which, t) {
  const select = h('select', { id: `arrows-${which}`, class: 'arrows-choose', dataset: { which } });
  const name = h('span', {}, t(`arrows.choose.${which}`));
  return { select, name, label: h('label', { for: `arrows-${which}` }, name, ' ', select) };
}

export function createArrows({ t }) {
  const parts = { q: arrow('q'), k: arrow('k'), choosers: { q: chooser('q', t), k: chooser('k', t) } };
  parts.arc = svg('path', { class: 'arrow-angle' });
  parts.grid = svg('g', { class: 'arrows-grid' });
  parts.plane = svg(
    'g',
    { transform: 'scale(1,-1)' },
    parts.grid,
    parts.arc,
    ...['q', 'k'].flatMap((w) => [parts[w].shaft]),
    ...['q', 'k'].map((w) => parts[w].handle),
  );
  parts.svg = svg(
    'svg',
    { class: 'arrows-plane', role: 'group' },
    svg('defs', {}, tip('q'), tip('k')),
    parts.plane,
    parts.q.label,
    parts.k.label,
  );
  parts.title = h('h3', { id: 'arrows-title' });
  parts.text = h('p', { class: 'arrows-text' });
  // Not a live region: the stage's step change must be said once; a move is said by controller/arrows.js.
  parts.readout = h('p', { class: 'arrows-readout', id: 'arrows-readout' });
  parts.note = h('p', { class: 'arrows-note' });
  parts.switch = h('button', { type: 'button', class: 'arrows-switch', id: 'arrows-switch' });
  parts.figure = h(
    'div',
    { class: 'arrows-figure' },
    h('div', { class: 'arrows-choosers' }, parts.choosers.q.label, parts.choosers.k.label),
    parts.svg,
    parts.readout,
  );
  const element = h(
    'section',
    { class: 'arrows', id: 'arrows', 'aria-labelledby': 'arrows-title' },
    parts.title,
    parts.text,
    parts.note,
    parts.switch,
    parts.figure,
  );
  parts.element = element;
  return { element, parts, update: (ctx) => update(parts, ctx) };
}

/** Fills each chooser with the rows 1…n (kept when n is unchanged) and selects the pair's. */
function updateChoosers(parts, { state, pair, t }) {
  for (const [which, row] of [
    ['q', pair.i],
    ['k', pair.j],
  ]) {
    const { select } = parts.choosers[which];
    if (select.children.length !== state.n || select.dataset.lang !== state.lang) {
      select.replaceChildren(
        ...Array.from({ length: state.n }, (_, r) => h('option', { value: String(r) }, `${which}${sub(r + 1)}`)),
      );
      select.dataset.lang = state.lang;
    }
    select.value = String(row);
    setText(parts.choosers[which].name, t(`arrows.choose.${which}`));
  }
}

/**
 * The grid lines and the two axes of a plane reaching `extent` either way: a line at every whole
 * number up to 5, beyond that at every power of ten below the extent (at most 20 lines a side).
 */
function grid(extent) {
  const lines = [];
  const step = extent <= 5 ? 1 : 10 ** Math.floor(Math.log10(extent));
  const last = Math.floor(extent / step);
  for (let index = -last; index <= last; index++) {
    const cls = index === 0 ? 'axis' : 'grid';
    const at = toDrawing(index * step, extent);
    lines.push(svg('line', { class: cls, x1: at, y1: -PLANE, x2: at, y2: PLANE }));
    lines.push(svg('line', { class: cls, x1: -PLANE, y1: at, x2: PLANE, y2: at }));
  }
  return lines;
}

/** The arc of θ from q's direction to k's, the short way round, at radius r (plane units). */
function arcPath(q, k, r) {
  const a = Math.atan2(q[1], q[0]);
  let delta = Math.atan2(k[1], k[0]) - a;
  while (delta > Math.PI) delta -= 2 * Math.PI;
  while (delta <= -Math.PI) delta += 2 * Math.PI;
  const b = a + delta;
  const point = (angle) => `${(r * Math.cos(angle)).toFixed(4)},${(r * Math.sin(angle)).toFixed(4)}`;
  return `M${point(a)} A${r},${r} 0 0 ${delta > 0 ? 1 : 0} ${point(b)}`;
}

/** The picture's numbers as the article writes them, one sentence (also what a screen reader hears). */
function readout({ state, t }, names, q, k, g) {
  const f = (v) => formatNumber(v, state.digits);
  const vec = (v) => `(${f(v[0])}, ${f(v[1])})`;
  const params = {
    q: names.q,
    k: names.k,
    qv: vec(q),
    kv: vec(k),
    lq: f(g.lengthQ),
    lk: f(g.lengthK),
    angle: g.angle === null ? '' : formatNumber(g.angle, 3),
    dot: f(g.dot),
    s: names.s,
  };
  return t(g.angle === null ? 'arrows.readoutZero' : 'arrows.readout', params);
}

function update(parts, ctx) {
  const { state, model, t, pair, mode, extent } = ctx;
  setText(parts.title, t('arrows.title'));
  setText(parts.text, t('arrows.text'));
  const notes = {
    needs2d: t('arrows.needs2d', { dk: model.q.cols }),
    readOnly: t('arrows.readOnly'),
    edit: t('arrows.edit'),
  };
  setText(parts.note, notes[mode]);
  parts.note.className = `arrows-note${mode === 'edit' ? '' : ' notice info'}`;
  parts.switch.hidden = mode !== 'readOnly';
  setText(parts.switch, t('arrows.switchMode'));
  parts.figure.hidden = mode === 'needs2d';
  parts.element.classList.toggle('read-only', mode !== 'edit');
  if (mode === 'needs2d') return;

  updateChoosers(parts, ctx);
  const q = rowOf(model.q, pair.i);
  const k = rowOf(model.k, pair.j);
  const g = geometry(q, k);
  const names = {
    q: `q${sub(pair.i + 1)}`,
    k: `k${sub(pair.j + 1)}`,
    s: `S${sub(pair.i + 1)}${state.n > 9 ? ',' : ''}${sub(pair.j + 1)}`,
  };
  if (parts.extent !== extent) {
    parts.extent = extent;
    const reach = PLANE * 1.12;
    // The plane's extent, read by whoever maps a value to the drawing (v·PLANE/extent): tests, a drag.
    set(parts.svg, { viewBox: `${-reach} ${-reach} ${2 * reach} ${2 * reach}`, 'data-extent': extent });
    parts.grid.replaceChildren(...grid(extent));
  }
  const said = readout(ctx, names, q, k, g);
  for (const [which, v] of [
    ['q', q],
    ['k', k],
  ]) {
    const { shaft, handle, label } = parts[which];
    const [x, y] = v.map((value) => toDrawing(value, extent));
    set(shaft, { x2: x, y2: y });
    set(handle, { cx: x, cy: y, r: PLANE * 0.07 });
    handle.setAttribute('tabindex', mode === 'edit' ? '0' : '-1');
    handle.setAttribute('aria-disabled', mode === 'edit' ? 'false' : 'true');
    const f = (x) => formatNumber(x, state.digits);
    handle.setAttribute('aria-label', t('arrows.handle', { name: names[which], x: f(v[0]), y: f(v[1]) }));
    handle.setAttribute('aria-describedby', 'arrows-readout');
    set(label, { x: x + PLANE * 0.08, y: -y - PLANE * 0.08, 'font-size': PLANE * 0.18 });
    setText(label, names[which]);
  }
  set(parts.arc, { d: g.angle === null ? '' : arcPath(q, k, PLANE * 0.3) });
  parts.svg.setAttribute('aria-label', said);
  setText(parts.readout, said);
}
