// Multi-head attention at a glance (on the concat step): every head's attention weights A side by
// side as a small heatmap, each with its mean entropy and largest weight and a button that opens
// the article's steps for that head; under them, each head's word-to-word lines in its colour, and
// the note on what heads cost, with the core's own multiply-add counts. With a loss, after d(concat)
// is split, every head's gradient dS_i side by side (renderHeadGradsOverview). Render only: the
// numbers come from the model (the core) and heads.js.

import { h } from './dom.js';
import { matrixFormat, formatNumber } from '../format.js';
import { cellStyle, scaleFor } from '../colors.js';
import { headColor } from '../head-colors.js';
import { headSummary } from '../heads.js';
import { TABLE_LIMIT } from '../state.js';
import { optionForms } from '../options.js';

const SVG = 'http://www.w3.org/2000/svg';
const GAP = 34; // px between two words of the lines, as the one-head word lines (mixing.js)
const LINES = 130; // px the lines span, from the left words towards the right ones
const LABEL = 10; // px for each head's number beside the right words: one column per head

const svg = (tag, attrs) => {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
};

const wordsOf = (tokens, n) => tokens ?? Array.from({ length: n }, (_, i) => String(i + 1));

/**
 * One head's A (or another n × n matrix of it) as a small table: its numbers (2 decimals) on the
 * same colours as the stage's, `kind` its colour scale, `label` its name for screen readers.
 */
function smallTable(weights, { theme, t, index, words, kind = 'seq', label = t('heads.table', { i: index + 1 }) }) {
  const scale = scaleFor(weights.data, kind);
  const format = matrixFormat(weights.data, 2);
  const cells = (i) =>
    Array.from({ length: weights.cols }, (_, j) => {
      const value = weights.data[i * weights.cols + j];
      const { bg, fg } = cellStyle(value, scale, theme);
      return h('td', { style: { backgroundColor: bg, color: fg } }, format(value));
    });
  return h(
    'table',
    { class: 'head-a', 'aria-label': label },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('td', {}),
        words.map((word) => h('th', { scope: 'col' }, word)),
      ),
    ),
    h(
      'tbody',
      {},
      words.map((word, i) => h('tr', {}, h('th', { scope: 'row' }, word), cells(i))),
    ),
  );
}

/** A head's card: its name in its colour, its A, its entropy and largest weight, and its button. */
function headCard(head, index, ctx) {
  const { state, t, theme, chooseHead } = ctx;
  const summary = headSummary(head.weights);
  const color = headColor(index, theme);
  const words = wordsOf(ctx.tokens, head.weights.rows);
  const current = state.head === index + 1;
  return h(
    'figure',
    { class: `head-card${current ? ' current' : ''}`, style: { borderColor: color } },
    h('figcaption', { style: { color } }, t('heads.headN', { i: index + 1 })),
    head.weights.rows <= TABLE_LIMIT ? smallTable(head.weights, { ...ctx, index, words }) : null,
    h(
      'p',
      { class: 'head-stats' },
      t('heads.entropy', { value: formatNumber(summary.entropy, 3) }),
      h('br'),
      t('heads.largest', { value: formatNumber(summary.largest, 4) }),
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'head-open',
        id: `head-open-${index + 1}`,
        'aria-pressed': String(current),
        onclick: () => chooseHead(index + 1),
      },
      t('heads.open', { i: index + 1 }),
    ),
  );
}

/**
 * Each head's lines: from every word to the word it weighs most, in the head's colour, as thick
 * as the weight, each marked with its head's number — in a column of its own beside the right
 * words, so that two heads that point at the same word show "1 2", not one number over the other;
 * the weight shows on hover and focus, and each line is a text for screen readers
 * ("头 1:是 → 它,权重 0.94").
 */
function headLines({ model, t, theme, tokens, state }) {
  const n = model.weights.rows;
  const words = wordsOf(tokens, n);
  const count = model.heads.length;
  const span = LINES + count * LABEL;
  const picture = svg('svg', { width: span, height: n * GAP, viewBox: `0 0 ${span} ${n * GAP}`, class: 'head-lines' });
  const said = [];
  model.heads.forEach((head, b) => {
    const color = headColor(b, theme);
    const offset = (b - (count - 1) / 2) * 4; // the heads' lines side by side, not on top of each other
    const format = matrixFormat(head.weights.data, state.digits);
    for (const { i, j, weight } of headSummary(head.weights).strongest) {
      if (!(weight > 0)) continue;
      const text = t('heads.line', { i: b + 1, from: words[i], to: words[j], weight: format(weight) });
      said.push(text);
      const [y1, y2] = [(i + 0.5) * GAP + offset, (j + 0.5) * GAP + offset];
      const group = svg('g', { class: 'head-line', tabindex: 0, role: 'img', 'aria-label': text });
      const line = svg('line', { x1: 4, y1, x2: LINES - 4, y2, 'stroke-width': 1 + weight * 5 });
      // The colour as a style, not an attribute: the word lines' stylesheet colours every line (a
      // rule beats a presentation attribute), and these are coloured by head.
      line.style.stroke = color;
      const number = svg('text', { x: LINES + (b + 0.5) * LABEL, y: (j + 0.5) * GAP + 4, class: 'head-no' });
      const label = svg('text', { x: LINES / 2, y: (y1 + y2) / 2 - 4, class: 'head-weight' });
      for (const text of [number, label]) text.style.fill = color;
      group.append(svg('title', {}), line, number, label);
      group.children[0].textContent = text;
      group.children[2].textContent = String(b + 1);
      group.children[3].textContent = format(weight);
      picture.append(group);
    }
  });
  const column = (side) =>
    h(
      'div',
      { class: `wl-words ${side}`, 'aria-hidden': 'true' },
      words.map((word) => h('span', { class: 'word' }, word)),
    );
  return h(
    'figure',
    { class: 'word-lines heads-lines' },
    h('figcaption', {}, t('heads.linesCaption')),
    h('div', { class: 'wl-grid' }, column('left'), picture, column('right')),
    h(
      'ul',
      { class: 'sr-only' },
      said.map((text) => h('li', {}, text)),
    ),
  );
}

// The overview last built for each result (model.heads), with what else shaped it: a render
// that changes neither (a word chosen, the popover moved) keeps the same elements.
const built = new WeakMap();

/** The heads overview: ctx { state, model, t, theme, tokens, chooseHead(head) }. */
export function renderHeadsOverview(ctx) {
  const { model, state, theme, tokens } = ctx;
  if (!model.heads) return null;
  const key = JSON.stringify([state.lang, state.head, state.digits, state.axis, theme, tokens]);
  const last = built.get(model.heads);
  if (last?.key === key) return last.el;
  const el = overview(ctx);
  built.set(model.heads, { key, el });
  return el;
}

function overview(ctx) {
  const { model, t } = ctx;
  return h(
    'section',
    { class: 'heads-overview', 'aria-labelledby': 'heads-overview-title' },
    h('h3', { id: 'heads-overview-title' }, t('heads.overview')),
    h('p', { class: 'note' }, t('heads.overviewText')),
    h(
      'div',
      { class: 'head-cards' },
      model.heads.map((head, index) => headCard(head, index, ctx)),
    ),
    optionForms(ctx.state).rowsSumToOne ? headLines(ctx) : null,
  );
}

/**
 * h heads of d_k = d/h cost what one head of d_k = d costs: the core's counts of both
 * (model.multiplyAdds and model.oneHeadMultiplyAdds, multiHeadMultiplyAdds), stage by stage.
 */
export function headCostNote({ state, model, t }) {
  if (!model.multiplyAdds) return null;
  const many = model.multiplyAdds;
  const one = model.oneHeadMultiplyAdds;
  // One formatter for the ten numbers (toLocaleString would make one for each, slowly).
  const format = new Intl.NumberFormat(state.lang);
  const n = (value) => format.format(value);
  return h(
    'p',
    { class: 'notice info head-cost' },
    t('heads.cost', {
      h: state.heads,
      dk: state.dk / state.heads,
      dv: state.dv / state.heads,
      widthK: state.dk,
      widthV: state.dv,
      total: n(many.total),
      single: n(one.total),
      projections: n(many.projections),
      outputProjection: n(many.outputProjection),
      scores: n(many.scores),
      weighting: n(many.weighting),
    }),
  );
}

/**
 * A head's card of gradients: its name in its colour, its dS_i, its largest |dS_i| and its button,
 * which shows that head here (on.head: the step stays, its block of d(concat) is the one drawn).
 */
function headGradCard(grads, index, ctx) {
  const { state, t, theme, on } = ctx;
  const color = headColor(index, theme);
  const scores = grads.gradScores;
  const words = wordsOf(ctx.tokens, scores.rows);
  const largest = scores.data.reduce((most, x) => Math.max(most, Math.abs(x)), 0);
  const current = state.head === index + 1;
  const label = t('headGrads.table', { i: index + 1 });
  return h(
    'figure',
    { class: `head-card${current ? ' current' : ''}`, style: { borderColor: color } },
    h('figcaption', { style: { color } }, t('heads.headN', { i: index + 1 })),
    scores.rows <= TABLE_LIMIT ? smallTable(scores, { ...ctx, index, words, kind: 'div', label }) : null,
    h('p', { class: 'head-stats' }, t('headGrads.largest', { value: formatNumber(largest, 4) })),
    h(
      'button',
      {
        type: 'button',
        class: 'head-open',
        id: `head-grads-open-${index + 1}`,
        'aria-pressed': String(current),
        onclick: () => on.head(index + 1),
      },
      t('headGrads.open', { i: index + 1 }),
    ),
  );
}

/**
 * After d(concat) is split (the dsplit step): every head's gradient of its scores dS_i, each from
 * its own block of d(concat), with a button that shows that head's block and backward steps. ctx as
 * renderHeadsOverview's, with on (the panel's requests); null without the heads' gradients.
 */
export function renderHeadGradsOverview(ctx) {
  const { model, t } = ctx;
  if (!model.headGrads) return null;
  return h(
    'section',
    { class: 'heads-overview head-grads', 'aria-labelledby': 'head-grads-title' },
    h('h3', { id: 'head-grads-title' }, t('headGrads.title')),
    h('p', { class: 'note' }, t('headGrads.text')),
    h(
      'div',
      { class: 'head-cards' },
      model.headGrads.map((grads, index) => headGradCard(grads, index, ctx)),
    ),
  );
}
