// Panel 1 of the efficiency lab: tiles with an online softmax (FlashAttention's idea). A stepper
// over the core's B_r × B_c tiles; the score grid with the tiles done, the tile now and the tiles
// to come; each query row's m, ℓ, α and running O after the tile, each number opening into its
// arithmetic; after the last tile O/ℓ beside the full softmax(S)·V with their largest difference;
// and the memory the tiles need against the whole score matrix. The numbers are efficiency-tiles.js's.

import { h, setText } from '../../views/dom.js';
import { matrixFormat } from '../../format.js';
import { LAB_LIMIT, num, scaleOptions, formatBytes, rowOf } from './efficiency-lab.js';
import { tilesLab, cellStates, lastTileOf, rowAfter, rowArithmetic, memoryOf } from './efficiency-tiles.js';
import { createNumberField } from './efficiency-fields.js';
import { createStepper, scoreGrid, numberTable, agreement, subscript } from './efficiency-parts.js';

/** The n the memory line looks ahead to: where the whole score matrix would be a gibibyte. */
const LONG_N = 16384;
/** The most terms a popover writes out before "… k terms in all". */
const TERMS_SHOWN = 4;

// x in a formula: a negative number in brackets, so that "0 − (−1.2)" reads as it should.
const term = (x) => (x < 0 ? `(${num(x)})` : num(x));

/** The terms Σ_j of one row at one tile, written out: "e^(0 − 0.7071) + …", and their values. */
function sumText(t, terms, mNew, of) {
  const shown = terms.slice(0, TERMS_SHOWN);
  const more = terms.length > TERMS_SHOWN ? ` + ${t('eff.pop.more', { count: terms.length })}` : '';
  return {
    symbolic: shown.map(({ s, j }) => of(`e^(${term(s)} − ${term(mNew)})`, j)).join(' + ') + more,
    values: shown.map(({ e, j }) => of(num(e), j)).join(' + ') + more,
  };
}

/** The popover's lines for one of row i's numbers at tile `index` (k = index + 1). */
function explain(t, lab, index, i, what, c) {
  const a = rowArithmetic(lab, index, i);
  const k = index + 1;
  const { old, now, terms } = a;
  const first = a.first ? [{ text: t('eff.pop.first') }] : [];
  const row = i + 1;
  if (what === 'm') {
    const scores = terms.map(({ s }) => term(s)).slice(0, TERMS_SHOWN);
    const more = terms.length > TERMS_SHOWN ? `, ${t('eff.pop.more', { count: terms.length })}` : '';
    return {
      heading: t('eff.pop.m', { i: row, k }),
      lines: [
        ...first,
        {
          label: 'm_new = max(m_old, maxⱼ sᵢⱼ)',
          text: `max(${term(old.m)}, ${scores.join(', ')}${more}) = ${num(now.m)}`,
        },
      ],
    };
  }
  if (what === 'alpha')
    return {
      heading: t('eff.pop.alpha', { i: row, k }),
      lines: [
        ...first,
        { label: 'α = e^(m_old − m_new)', text: `e^(${term(old.m)} − ${term(now.m)}) = ${num(now.alpha)}` },
      ],
    };
  if (what === 'l') {
    const sum = sumText(t, terms, now.m, (text) => text);
    return {
      heading: t('eff.pop.l', { i: row, k }),
      lines: [
        ...first,
        {
          label: 'ℓ_new = α·ℓ_old + Σⱼ e^(sᵢⱼ − m_new)',
          text: `${num(now.alpha)} · ${num(old.l)} + ${sum.symbolic}`,
        },
        { text: `= ${num(now.alpha)} · ${num(old.l)} + ${sum.values} = ${num(now.l)}` },
      ],
    };
  }
  // O, column c: the same terms, each times v_jc.
  const v = (j) => lab.v.data[j * lab.v.cols + c];
  const sum = sumText(t, terms, now.m, (text, j) => `${text} · ${term(v(j))}`);
  return {
    heading: t('eff.pop.o', { i: row, k, c: c + 1 }),
    lines: [
      ...first,
      {
        label: 'O_new = α·O_old + Σⱼ e^(sᵢⱼ − m_new)·vⱼ',
        text: `${num(now.alpha)} · ${num(old.o[c])} + ${sum.symbolic}`,
      },
      { text: `= ${num(now.alpha)} · ${term(old.o[c])} + ${sum.values} = ${num(now.o[c])}` },
    ],
  };
}

/** Where row i stands once `done` tiles are done: not begun, in this tile, waiting, or finished. */
function rowStatus(lab, done, i) {
  const at = lastTileOf(lab, done, i);
  if (at < 0) return 'todo';
  if (at === done - 1) return 'now';
  return lastTileOf(lab, lab.tiles.length, i) === at ? 'done' : 'waiting';
}

/** The table of every row's m, ℓ, α and O once `done` tiles are done; a begun row's numbers open. */
function rowsTable(t, lab, done, popover) {
  const dv = lab.v.cols;
  const head = [
    t('eff.tiles.col.row'),
    t('eff.tiles.col.status'),
    'm',
    'ℓ',
    'α',
    ...Array.from({ length: dv }, (_, c) => `O${subscript(c + 1)}`),
  ];
  const rows = Array.from({ length: lab.n }, (_, i) => {
    const status = rowStatus(lab, done, i);
    const at = lastTileOf(lab, done, i);
    const name = `q${subscript(i + 1)}`;
    if (at < 0)
      return {
        name,
        cells: [t('eff.tiles.status.todo'), '', '', '', ...Array(dv).fill('')],
        attrs: { class: 'is-todo' },
      };
    const r = rowAfter(lab, at, i);
    const open = (what, c) => () => explain(t, lab, at, i, what, c);
    return {
      name,
      attrs: { class: `is-${status}`, dataset: { row: i } },
      cells: [
        t(`eff.tiles.status.${status}`),
        popover.button(num(r.m), open('m'), { class: 'eff-num eff-m' }),
        popover.button(num(r.l), open('l'), { class: 'eff-num eff-l' }),
        popover.button(num(r.alpha), open('alpha'), { class: 'eff-num eff-alpha' }),
        ...r.o.map((value, c) => popover.button(num(value), open('o', c), { class: 'eff-num eff-o' })),
      ],
    };
  });
  return numberTable({ className: 'eff-rows', head, rows });
}

/** After the last tile: O/ℓ (the tiled output) beside softmax(S)·V, and how far apart they are. */
function comparison(t, lab, popover) {
  const dv = lab.v.cols;
  const head = ['', ...Array.from({ length: dv }, (_, c) => String(c + 1))];
  const ratio = (i, c) => () => {
    const at = lastTileOf(lab, lab.tiles.length, i);
    const r = rowAfter(lab, at, i);
    return {
      heading: t('eff.pop.ratio', { i: i + 1, c: c + 1 }),
      lines: [
        { label: 'O / ℓ', text: `${num(r.o[c])} / ${num(r.l)} = ${num(lab.output.data[i * dv + c])}` },
        { label: t('eff.pop.full'), text: num(lab.full.data[i * dv + c]) },
      ],
    };
  };
  // Both sides in one writing (format.js matrixFormat), so that equal numbers read alike.
  const format = matrixFormat([...lab.output.data, ...lab.full.data], 4);
  const rows = (matrix, buttons) =>
    Array.from({ length: lab.n }, (_, i) => ({
      name: `q${subscript(i + 1)}`,
      cells: rowOf(matrix, i).map((value, c) =>
        buttons ? popover.button(format(value), ratio(i, c), { class: 'eff-num eff-ratio' }) : format(value),
      ),
    }));
  return h(
    'div',
    { class: 'eff-compare', id: 'eff-tiles-compare' },
    h(
      'figure',
      { class: 'eff-side' },
      h('figcaption', {}, t('eff.tiles.tiledOut')),
      numberTable({ className: 'eff-out-tiled', head, rows: rows(lab.output, true) }),
    ),
    h(
      'figure',
      { class: 'eff-side' },
      h('figcaption', {}, t('eff.tiles.fullOut')),
      numberTable({ className: 'eff-out-full', head, rows: rows(lab.full, false) }),
    ),
    agreement(t, lab.difference),
    lab.difference.differing ? h('p', { class: 'eff-cause' }, t('eff.tiles.cause')) : null,
  );
}

/** The memory the tiles need, at this n and at LONG_N. */
function memoryPart(t, lab) {
  const dv = lab.v.cols;
  const here = lab.memory;
  const long = memoryOf({ n: LONG_N, dv, tileCols: lab.tileCols });
  return h(
    'div',
    { class: 'eff-memory', id: 'eff-tiles-memory' },
    h('h4', {}, t('eff.tiles.memoryH')),
    h(
      'p',
      { dataset: { tiled: here.tiled, full: here.full } },
      t('eff.tiles.memory', {
        n: lab.n,
        dv,
        bc: lab.tileCols,
        tiled: formatBytes(here.tiled),
        full: formatBytes(here.full),
      }),
    ),
    h(
      'p',
      {},
      t('eff.tiles.memoryLong', {
        n: LONG_N.toLocaleString('en'),
        tiled: formatBytes(long.tiled),
        full: formatBytes(long.full),
      }),
    ),
  );
}

/** A tile's rows or columns [start, end) as the reader counts them: "3" or "3–4". */
const span = (start, end) => (end - start === 1 ? String(end) : `${start + 1}–${end}`);

/** The screen reader's words for a tile: where it is, and the m, ℓ, α of its rows (the first three). */
function tileWords(t, lab, done) {
  const tile = lab.tiles[done - 1];
  const rows = [];
  for (let i = tile.rowStart; i < Math.min(tile.rowEnd, tile.rowStart + 3); i++) {
    const r = rowAfter(lab, done - 1, i);
    rows.push(t('eff.tiles.rowSummary', { i: i + 1, m: num(r.m), l: num(r.l), alpha: num(r.alpha) }));
  }
  const count = tile.rowEnd - tile.rowStart;
  if (count > 3) rows.push(t('eff.tiles.moreRows', { count }));
  return t('eff.tiles.summary', {
    k: done,
    count: lab.tiles.length,
    rows: span(tile.rowStart, tile.rowEnd),
    cols: span(tile.colStart, tile.colEnd),
    values: rows.join(';'),
  });
}

/** The score grid once `done` tiles are done (done, now, to come, skipped by the mask), with its legend and tally. */
function gridFigure(t, lab, done) {
  const states = cellStates(lab, done);
  const tally = { done: 0, now: 0, todo: 0, skipped: 0 };
  states.flat().forEach((s) => (tally[s] += 1));
  const kinds = tally.skipped ? ['done', 'now', 'todo', 'skipped'] : ['done', 'now', 'todo'];
  const scores = lab.scaled;
  return h(
    'figure',
    { class: 'eff-chart eff-grid-figure' },
    scoreGrid({
      id: 'eff-tiles-grid',
      caption: t('eff.tiles.gridCaption'),
      rows: lab.n,
      cols: lab.keys,
      cell: (i, j) => ({ value: scores.data[i * scores.cols + j], state: states[i][j] }),
    }),
    h(
      'figcaption',
      { class: 'eff-legend' },
      kinds.map((s) => h('span', { class: `eff-key is-${s}` }, t(`eff.tiles.legend.${s}`))),
      h(
        'span',
        { class: 'eff-tally' },
        t('eff.tiles.gridState', tally),
        tally.skipped ? ` ${t('eff.tiles.gridSkipped', tally)}` : '',
      ),
    ),
  );
}

/**
 * The tile sizes B_r and B_c: { el, draw(t, state, qkv) }, draw returning the sizes drawn, each
 * at most the inputs (a link's B_r = 8 on the worked example's n = 2 is 2). A new size goes back
 * to tile 1.
 */
function createTileSizes(setState) {
  const tileRows = createNumberField({
    id: 'eff-br',
    labelKey: 'eff.tiles.br',
    min: 1,
    choose: (efftr) => setState({ efftr, efftile: 1 }),
  });
  const tileCols = createNumberField({
    id: 'eff-bc',
    labelKey: 'eff.tiles.bc',
    min: 1,
    choose: (efftc) => setState({ efftc, efftile: 1 }),
  });
  const el = h('div', { class: 'eff-controls' }, tileRows.el, tileCols.el);

  function draw(t, state, qkv) {
    const most = { rows: Math.min(LAB_LIMIT, qkv?.q.rows ?? 1), cols: Math.min(LAB_LIMIT, qkv?.k.rows ?? 1) };
    const sizes = { rows: Math.min(state.efftr, most.rows), cols: Math.min(state.efftc, most.cols) };
    tileRows.draw(t, { value: sizes.rows, max: most.rows });
    tileCols.draw(t, { value: sizes.cols, max: most.cols });
    return sizes;
  }

  return { el, draw };
}

/**
 * The tiles' numbers: { labFor(state, qkv, sizes), numbers }, labFor computing them once for these
 * inputs and sizes and keeping them while they stay; numbers.error says why there are none.
 */
function createTilesNumbers(engine) {
  const numbers = { key: null, lab: null, error: null };

  function labFor(state, qkv, sizes) {
    const key = [qkv, sizes.rows, sizes.cols, state.scale, state.temperature, state.mask];
    if (!numbers.key || key.some((part, i) => part !== numbers.key[i])) {
      numbers.key = key;
      try {
        const options = { tileRows: sizes.rows, tileCols: sizes.cols, ...scaleOptions(state), mask: state.mask };
        numbers.lab = tilesLab(engine, qkv, options);
        numbers.error = null;
      } catch (error) {
        numbers.lab = null;
        numbers.error = error;
      }
    }
    return numbers.lab;
  }

  return { labFor, numbers };
}

/** The panel's body: { el, draw(t, lab, done), fail(t, error) } — the tiles at `done`, or why there are none. */
function createTilesBody(popover) {
  const el = h('div', { class: 'eff-body' });

  function draw(t, lab, done) {
    const count = lab.tiles.length;
    el.replaceChildren(
      gridFigure(t, lab, done),
      h('h4', {}, t('eff.tiles.rowsH', { k: done })),
      rowsTable(t, lab, done, popover),
      done === count ? comparison(t, lab, popover) : h('p', { class: 'hint' }, t('eff.tiles.notYet', { count })),
      memoryPart(t, lab),
    );
  }

  function fail(t, error) {
    el.replaceChildren(
      error ? h('p', { class: 'notice warn', role: 'alert' }, t('eff.error', { message: error.message })) : '',
    );
  }

  return { el, draw, fail };
}

export default {
  id: 'tiles',
  titleKey: 'eff.tiles.title',
  create({ engine, setState, announce, popover }) {
    // shown: what is drawn; speak: say the next tile (a step by the stepper).
    const view = { shown: null, speak: false };
    const sizes = createTileSizes(setState);
    const { labFor, numbers } = createTilesNumbers(engine);
    const stepper = createStepper({
      id: 'eff-tiles',
      go: (efftile) => {
        view.speak = true;
        setState({ efftile });
      },
    });
    const heading = h('h3', { id: 'eff-tiles-h' });
    const text = h('p', { class: 'explain' });
    const summary = h('p', { class: 'eff-summary', id: 'eff-tiles-summary' });
    const body = createTilesBody(popover);
    const element = h(
      'section',
      { class: 'eff-panel eff-tiles', 'aria-labelledby': heading.id },
      heading,
      text,
      sizes.el,
      stepper.el,
      summary,
      body.el,
    );

    return {
      element,
      update({ state, t, qkv }) {
        setText(heading, t('eff.tiles.h'));
        setText(text, t('eff.tiles.text'));
        const drawn = sizes.draw(t, state, qkv);
        const lab = qkv && labFor(state, qkv, drawn);
        stepper.el.hidden = !lab;
        if (!lab) {
          view.shown = null;
          body.fail(t, numbers.error);
          setText(summary, '');
          return;
        }
        const count = lab.tiles.length;
        const done = Math.max(1, Math.min(count, state.efftile));
        // The same numbers at the same tile in the same language: what is on screen stays (and its focus).
        if (view.shown?.lab === lab && view.shown.done === done && view.shown.lang === state.lang) return;
        view.shown = { lab, done, lang: state.lang };
        popover.close();
        element.dataset.tile = String(done);
        element.dataset.count = String(count);
        stepper.draw(t, {
          at: done,
          count,
          position: t('eff.tiles.position', { k: done, count }),
          label: t('eff.tiles.title'),
        });
        const words = tileWords(t, lab, done);
        setText(summary, words);
        body.draw(t, lab, done);
        if (view.speak) announce(words);
        view.speak = false;
      },
      destroy() {
        numbers.lab = null;
      },
    };
  },
};
