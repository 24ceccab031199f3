// The mixing made visible (§6, "按比例调鸡尾酒"): output row i as the weighted mix of the rows of
// V — the recipe (row i of A as one bar cut into the words' shares), then each word's weight
// beside its row of V, then the output row they add up to. And, for examples with words, the
// BertViz-style lines from each word to every word, as thick as the weight. Clicking a word
// selects its row everywhere (onRow). Render only: every number is the model's.

import { h, setText } from './dom.js';
import { scrollCue } from './scroll-cue.js';
import { matrixFormat, matrixForm } from '../format.js';
import { cellStyle, scaleFor, KIND_OF } from '../colors.js';
import { at } from '../matrix.js';

const LISTED = 8; // rows of V listed in the mix; the rest are named only
const WIDE = 12; // V rows longer than this are drawn as strips without numbers
const LINE_GAP = 40; // px between two words of the word lines
const LINE_SPAN = 240; // px between the two columns of words
// px at the right of that span where the chosen word's weights are written, each beside the end of
// its line (level with the word it goes to): no line crosses them, as one would a weight written
// on a line ("0.09003" struck through reads "0:09003").
const WEIGHTS = 72;
export const LINE_WIDTH = 14; // px: the stroke of a weight of 1; a weight w is drawn w·LINE_WIDTH wide

const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
const wordOf = (tokens, i) => tokens?.[i] ?? String(i + 1);

/**
 * A row of values as coloured cells (filled by fillValues): numbers, or a strip when long. It
 * remembers what each cell shows, so that a fill writes only the cells whose value looks different.
 */
function valueRow(count) {
  const wide = count > WIDE;
  const el = h(
    'span',
    { class: `mix-values${wide ? ' strip' : ''}` },
    Array.from({ length: count }, () => h('span', { class: 'mix-cell' })),
  );
  return { el, wide, looks: null, values: [] };
}

/**
 * How the cells of one matrix look: one colour scale and one number form for all of them, and a
 * key that is the same exactly when two looks write and colour every value the same.
 */
function looksOf(whole, kind, { digits, theme }) {
  const scale = scaleFor(whole.data, kind);
  return {
    scale,
    format: matrixFormat(whole.data, digits),
    theme,
    key: [scale.kind, scale.max, matrixForm(whole.data), digits, theme].join(' '),
  };
}

/**
 * Writes values into a valueRow's cells, as `looks` (looksOf the whole matrix they come from). An
 * edit from X changes one row of V: while V's scale and form stay, the other rows' cells already
 * show their values and are left alone (neither formatted nor written again).
 */
function fillValues(row, values, looks) {
  const same = row.looks === looks.key;
  row.looks = looks.key;
  values.forEach((value, k) => {
    if (same && Object.is(row.values[k], value)) return;
    row.values[k] = value;
    const text = looks.format(value);
    const { bg, fg } = cellStyle(value, looks.scale, looks.theme);
    const cell = row.el.children[k];
    if (row.wide) cell.title = text;
    else setText(cell, text);
    cell.style.backgroundColor = bg;
    cell.style.color = fg;
  });
}

/** The words (or row numbers) as buttons that choose the row shown; the chosen one is pressed. */
function rowPicker({ n, tokens, row, onRow, t, idPrefix }) {
  if (n > 16) {
    return h(
      'label',
      { class: 'mix-pick' },
      t('mix.pickRow'),
      ' ',
      h('input', {
        type: 'number',
        id: `${idPrefix}row`,
        min: 1,
        max: n,
        value: String(row + 1),
        onchange: (e) => {
          const i = Number(e.target.value) - 1;
          if (Number.isInteger(i) && i >= 0 && i < n) onRow(i);
        },
      }),
    );
  }
  return h(
    'div',
    { class: 'mix-pick', role: 'group', 'aria-label': t('mix.pickRow') },
    Array.from({ length: n }, (_, i) =>
      h(
        'button',
        {
          type: 'button',
          class: 'word',
          id: `${idPrefix}row-${i}`,
          'aria-pressed': String(i === row),
          onclick: () => onRow(i),
        },
        wordOf(tokens, i),
      ),
    ),
  );
}

/** Which rows of V the mix of row i lists: all of them up to LISTED, else the heaviest, in sentence order. */
function listedRows(weights) {
  const order = weights.map((w, j) => j);
  return weights.length <= LISTED
    ? order
    : [...order]
        .sort((a, b) => weights[b] - weights[a])
        .slice(0, LISTED)
        .sort((a, b) => a - b);
}

/** The mix's line for row j of V: its word, its weight (filled by fillMix) × its values. */
function vRow(j, tokens, cols) {
  const bar = h('span', { class: 'wbar' });
  const num = h('span', { class: 'wnum' });
  const values = valueRow(cols);
  const el = h(
    'tr',
    { dataset: { j } },
    h('th', { scope: 'row' }, wordOf(tokens, j)),
    h('td', { class: 'weight' }, h('span', { class: 'wtrack' }, bar), num),
    h('td', { class: 'op', 'aria-hidden': 'true' }, '×'),
    h('td', {}, h('span', { class: 'sr-only' }, `v${j + 1} = `), values.el),
  );
  return { el, bar, num, values };
}

/**
 * Builds the mix's elements: the recipe, the table (its rows of V are added by fillMix, which
 * writes the numbers) and the output row; `count` rows of V are listed.
 */
function buildMix({ model, t, tokens, row, onRow }, count) {
  const n = model.weights.rows;
  const i = row ?? 0;
  const recipe = {
    el: h(
      'div',
      { class: 'recipe', 'aria-hidden': 'true' },
      Array.from({ length: n }, () => h('span', { class: 'share' })),
    ),
    looks: null,
    values: [],
  };
  const output = valueRow(model.output.cols);
  const sum = h(
    'tr',
    { class: 'sum' },
    h('th', { scope: 'row' }, '='),
    h('td', { class: 'weight' }, h('span', { class: 'wnum' }, t('mix.total'))),
    h('td', {}),
    h('td', {}, h('span', { class: 'sr-only' }, `output${i + 1} = `), output.el),
  );
  const body = h('tbody', {}, sum);
  const el = h(
    'section',
    { class: 'mix', 'aria-labelledby': 'mix-title' },
    h('h3', { id: 'mix-title' }, t('mix.title', { word: tokens ? `“${tokens[i]}”` : t('mix.wordN', { i: i + 1 }) })),
    h('p', { class: 'note' }, t('mix.text')),
    rowPicker({ n, tokens, row: i, onRow, t, idPrefix: 'mix-' }),
    recipe.el,
    // Focusable: a keyboard can scroll a long row of V on a narrow screen, its edge faded (scroll-cue.js).
    scrollCue(
      h(
        'div',
        { class: 'table-scroll', tabindex: '0', role: 'group', 'aria-labelledby': 'mix-title' },
        h(
          'table',
          { class: 'mix-table', 'aria-labelledby': 'mix-title' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, t('mix.word')),
              h('th', { scope: 'col' }, t('mix.weight', { i: i + 1 })),
              h('td', {}),
              h('th', { scope: 'col' }, t('mix.value')),
            ),
          ),
          body,
        ),
      ),
    ),
    n > count ? h('p', { class: 'note' }, t('mix.more', { shown: count, count: n - count })) : null,
  );
  // rows: every row of V listed so far, by j, kept with the numbers it shows
  return { el, recipe, body, sum, rows: new Map(), output };
}

/** Cuts the recipe bar into the words' shares of row i (`weights`), written as A's `looks`. */
function fillRecipe(recipe, weights, looks, tokens) {
  const same = recipe.looks === looks.key;
  recipe.looks = looks.key;
  weights.forEach((w, j) => {
    if (same && Object.is(recipe.values[j], w)) return;
    recipe.values[j] = w;
    const share = Number.isFinite(w) ? Math.max(0, w) : 0;
    const text = looks.format(w);
    const { bg, fg } = cellStyle(w, looks.scale, looks.theme);
    const piece = recipe.el.children[j];
    Object.assign(piece.style, { backgroundColor: bg, color: fg, flexGrow: String(share) });
    setText(piece, share >= 0.12 ? `${wordOf(tokens, j)} ${text}` : ''); // most shares are too narrow for words
    piece.title = `${wordOf(tokens, j)}: ${text}`;
  });
}

/**
 * Puts the lines of the `listed` rows of V in the table, in sentence order, before the sum: each
 * row's own line, made the first time it is listed and kept, so that a row still listed after an
 * edit keeps its numbers (a new heaviest row moves the others, it does not rewrite them). Returns
 * the lines, in order.
 */
function placeRows(parts, listed, tokens, cols) {
  const lines = listed.map((j) => {
    if (!parts.rows.has(j)) parts.rows.set(j, vRow(j, tokens, cols));
    return parts.rows.get(j);
  });
  const wanted = new Set(lines.map((line) => line.el));
  for (const el of [...parts.body.children]) if (el !== parts.sum && !wanted.has(el)) el.remove();
  lines.forEach((line, slot) => {
    if (parts.body.children[slot] !== line.el) parts.body.insertBefore(line.el, parts.body.children[slot]);
  });
  return lines;
}

/**
 * Writes row i's numbers into a built mix: the recipe's shares, which rows of V are listed
 * (`listed`, one per row of the mix) with their words and weights, V's rows, the output. What
 * already shows the same is not written again.
 */
function fillMix(parts, { state, model, tokens, row, theme }, listed) {
  const i = row ?? 0;
  const view = { digits: state.digits, theme };
  const weights = rowOf(model.weights, i);
  const a = looksOf(model.weights, 'seq', view);
  const fa = a.format;
  fillRecipe(parts.recipe, weights, a, tokens);
  const v = looksOf(model.v, KIND_OF.v, view);
  placeRows(parts, listed, tokens, model.v.cols).forEach((r, slot) => {
    const j = listed[slot];
    const width = `${Math.max(0, Math.min(1, weights[j] || 0)) * 100}%`;
    if (r.bar.style.width !== width) r.bar.style.width = width;
    setText(r.num, fa(weights[j]));
    fillValues(r.values, rowOf(model.v, j), v);
  });
  fillValues(parts.output, rowOf(model.output, i), looksOf(model.output, KIND_OF.output, view));
}

/**
 * output_i = Σ_j A_ij v_j, drawn: the recipe bar, the weighted rows of V, the output row. Returns
 * a renderer that keeps its elements while only the numbers change: an edit writes the cells whose
 * numbers changed, and when it changes which rows of V weigh most (above LISTED words) the rows
 * listed are renamed in place; a new row, size, word or language rebuilds.
 */
export function mixView() {
  let key = null;
  let parts = null;
  return (ctx) => {
    const listed = listedRows(rowOf(ctx.model.weights, ctx.row ?? 0));
    const next = JSON.stringify([
      ctx.state.lang,
      ctx.state.digits,
      ctx.theme,
      ctx.tokens,
      ctx.row,
      ctx.model.weights.rows,
      ctx.model.v.cols,
    ]);
    if (next !== key) {
      key = next;
      parts = buildMix(ctx, listed.length);
    }
    fillMix(parts, ctx, listed);
    return parts.el;
  };
}

/**
 * BertViz-style lines: each word on the left to every word on the right, a line as thick as the
 * weight A_ij (weight · LINE_WIDTH px; a masked weight of 0 draws nothing). The chosen word's
 * lines (the first word's, before one is chosen) are drawn strong with their weights written
 * beside their ends (WEIGHTS), the others faint; every line gives its weight on hover; clicking a word on the left
 * chooses it. A screen reader reads every word's weights as a list.
 */
export function renderWordLines({ model, t, tokens, row, onRow }) {
  const n = model.weights.rows;
  const height = n * LINE_GAP;
  const fa = matrixFormat(model.weights.data, 4);
  const said = row ?? 0; // whose weights are written on the lines: the chosen word's, or the first's
  const svg = svgNode('svg', {
    width: LINE_SPAN,
    height,
    viewBox: `0 0 ${LINE_SPAN} ${height}`,
    'aria-hidden': 'true',
  });
  const labels = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const weight = at(model.weights, i, j);
      if (!(weight > 0)) continue;
      const [x1, y1, x2, y2] = [4, (i + 0.5) * LINE_GAP, LINE_SPAN - WEIGHTS, (j + 0.5) * LINE_GAP];
      const line = svgNode('line', {
        x1,
        y1,
        x2,
        y2,
        'stroke-width': weight * LINE_WIDTH,
        class: `wl ${i === said ? 'on' : 'off'}`, // the lines whose weights are written stand out
        'data-i': i,
        'data-j': j,
      });
      // A line's weight on hover (the pointer's tooltip), and written on the lines of `said`.
      line.append(svgNode('title', {}, `${tokens[i]} → ${tokens[j]}: ${fa(weight)}`));
      svg.append(line);
      if (i === said)
        labels.push(svgNode('text', { x: LINE_SPAN - 2, y: y2, class: 'wl-weight', 'data-j': j }, fa(weight)));
    }
  }
  svg.append(...labels);
  const words = (side) =>
    h(
      'div',
      { class: `wl-words ${side}` },
      Array.from({ length: n }, (_, i) =>
        side === 'left'
          ? h(
              'button',
              {
                type: 'button',
                class: 'word',
                id: `wl-row-${i}`,
                'aria-pressed': String(i === row),
                onclick: () => onRow(i),
              },
              tokens[i],
            )
          : h('span', { class: 'word' }, tokens[i]),
      ),
    );
  // What the lines show, as text: every word's weights, the chosen word's first.
  const order = [said, ...Array.from({ length: n }, (_, i) => i).filter((i) => i !== said)];
  const summary = (i) => tokens.map((word, j) => `${word} ${fa(at(model.weights, i, j))}`).join(', ');
  return h(
    'figure',
    { class: 'word-lines' },
    h('figcaption', {}, t('lines.caption')),
    h('div', { class: 'wl-grid' }, words('left'), svg, words('right')),
    h(
      'ul',
      { class: 'sr-only' },
      order.map((i) => h('li', {}, t('lines.summary', { word: tokens[i], weights: summary(i) }))),
    ),
  );
}

/** An SVG element with its attributes (and a text child). */
function svgNode(name, attrs, text) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}
