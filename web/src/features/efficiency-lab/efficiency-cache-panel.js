// Panel 2 of the efficiency lab: the KV cache in decoding. A stepper over the words; the cached K
// and V, one row more with each word; the new query's scores and weights against the cache; the
// new output row, decoded with the cache by the core, beside the same row of the full causal
// attention, equal or with their difference; the cache's bytes. The numbers are efficiency-cache.js's.

import { h, setText } from '../../views/dom.js';
import { matrixFormat } from '../../format.js';
import { num, scaleOptions, formatBytes, rowOf } from './efficiency-lab.js';
import { cacheLab, cacheBytes, outputArithmetic } from './efficiency-cache.js';
import { createStepper, numberTable, agreement, agreementText, subscript } from './efficiency-parts.js';

const STATES = ['done', 'now', 'todo'];
/** Word j's place in the cache at token t (0-based both): cached before, just added, or to come. */
const stateOf = (j, t) => STATES[j < t ? 0 : j === t ? 1 : 2];

/** K or V as the cache holds it at token t: the rows so far, the newest marked, the rest to come. */
function cacheTable(t, lab, matrix, at, className) {
  const head = [
    t('eff.cache.col.row'),
    t('eff.cache.col.state'),
    ...Array.from({ length: matrix.cols }, (_, c) => String(c + 1)),
  ];
  const format = matrixFormat(matrix.data, 4);
  const rows = Array.from({ length: lab.n }, (_, j) => {
    const state = stateOf(j, at);
    return {
      name: String(j + 1),
      attrs: { class: `is-${state}`, dataset: { state } },
      cells: [
        t(`eff.cache.state.${state}`),
        ...rowOf(matrix, j).map((value) => (state === 'todo' ? '' : format(value))),
      ],
    };
  });
  return numberTable({ className: `eff-cache-table ${className}`, head, rows });
}

/** Query t's scores and weights against the t + 1 cached keys (the full causal attention's row t). */
function scoresTable(t, lab, at) {
  const head = [t('eff.cache.col.key'), t('eff.cache.col.score'), t('eff.cache.col.weight')];
  const rows = Array.from({ length: at + 1 }, (_, j) => ({
    name: `k${subscript(j + 1)}`,
    cells: [num(lab.scaled.data[at * lab.n + j]), num(lab.weights.data[at * lab.n + j])],
  }));
  return numberTable({ className: 'eff-cache-scores', head, rows });
}

/** The new output row (decoded, its numbers opening into Σ a·v) beside the full causal row. */
function outputPart(t, lab, at, popover) {
  const head = ['', ...Array.from({ length: lab.dv }, (_, c) => String(c + 1))];
  const decoded = lab.steps[at].row;
  // The two rows in one writing (both rows' numbers decide it), so that equal numbers read alike.
  const format = matrixFormat([...decoded.data, ...rowOf(lab.full, at)], 4);
  const explain = (c) => () => {
    const { terms, sum } = outputArithmetic(lab, at, c);
    const shown = terms.map(({ a, v }) => `${num(a)} · ${v < 0 ? `(${num(v)})` : num(v)}`).join(' + ');
    return {
      heading: t('eff.cache.pop', { t: at + 1, c: c + 1 }),
      lines: [
        { label: t('eff.cache.popRule'), text: `${shown} = ${num(sum)}` },
        { label: t('eff.cache.popCore'), text: num(decoded.data[c]) },
      ],
    };
  };
  const rows = [
    {
      name: t('eff.cache.decoded'),
      attrs: { class: 'eff-out-decoded' },
      cells: Array.from(decoded.data, (value, c) => popover.button(format(value), explain(c))),
    },
    { name: t('eff.cache.full'), attrs: { class: 'eff-out-full' }, cells: rowOf(lab.full, at).map(format) },
  ];
  return h(
    'div',
    { class: 'eff-compare', id: 'eff-cache-compare' },
    numberTable({ className: 'eff-cache-out', head, rows }),
    agreement(t, lab.rows[at]),
  );
}

/** The cache's numbers for the page's Q, K, V and scale, computed again only when those change. */
function createNumbers(engine) {
  // key: what the numbers were computed from; lab or error: what computing them gave.
  const memo = { key: null, lab: null, error: null };
  function labFor(state, qkv) {
    const key = [qkv, state.scale];
    if (!memo.key || key.some((part, i) => part !== memo.key[i])) {
      memo.key = key;
      try {
        memo.lab = cacheLab(engine, qkv, { scale: scaleOptions(state).scale });
        memo.error = null;
      } catch (error) {
        memo.lab = null;
        memo.error = error;
      }
    }
    return memo.lab;
  }
  // clear(): the panel is left, its numbers let go.
  return { labFor, error: () => memo.error, clear: () => (memo.lab = null) };
}

/** What the panel shows at token `at`: the cached K and V, the new query's row, the output rows, the bytes. */
function cacheBody(t, lab, at, popover, bytes) {
  return [
    h(
      'figure',
      { class: 'eff-chart eff-cache-figure', dataset: { cacheLength: lab.steps[at].cacheLength } },
      h('figcaption', {}, t('eff.cache.cacheH')),
      h(
        'div',
        { class: 'eff-sides' },
        h('div', { class: 'eff-side' }, h('h4', {}, t('eff.cache.k')), cacheTable(t, lab, lab.k, at, 'eff-cache-k')),
        h('div', { class: 'eff-side' }, h('h4', {}, t('eff.cache.v')), cacheTable(t, lab, lab.v, at, 'eff-cache-v')),
      ),
    ),
    h('h4', {}, t('eff.cache.rowH', { sub: subscript(at + 1) })),
    scoresTable(t, lab, at),
    h('h4', {}, t('eff.cache.outH')),
    outputPart(t, lab, at, popover),
    h(
      'p',
      { class: 'eff-bytes', dataset: { bytes } },
      t('eff.cache.bytes', {
        t: lab.steps[at].cacheLength,
        n: lab.n,
        dk: lab.dk,
        dv: lab.dv,
        bytes: formatBytes(bytes),
        last: formatBytes(cacheBytes({ length: lab.n, dk: lab.dk, dv: lab.dv })),
        row: (lab.dk + lab.dv) * 4,
      }),
    ),
  ];
}

export default {
  id: 'cache',
  titleKey: 'eff.cache.title',
  create({ engine, setState, announce, popover }) {
    // numbers: the cache's, for the page's Q, K, V; shown: what is drawn; speak: say the next word's step.
    const numbers = createNumbers(engine);
    const view = { shown: null, speak: false };
    const stepper = createStepper({
      id: 'eff-cache',
      go: (efftoken) => {
        view.speak = true;
        setState({ efftoken });
      },
    });
    const heading = h('h3', { id: 'eff-cache-h' });
    const text = h('p', { class: 'explain' });
    const summary = h('p', { class: 'eff-summary', id: 'eff-cache-summary' });
    const body = h('div', { class: 'eff-body' });
    // The page's τ, which this path's entry point does not take: said, not silently dropped.
    const tau = h('p', { class: 'notice info eff-tau', hidden: true });
    const element = h(
      'section',
      { class: 'eff-panel eff-cache', 'aria-labelledby': heading.id },
      heading,
      text,
      tau,
      stepper.el,
      summary,
      body,
    );

    return {
      element,
      update({ state, t, qkv }) {
        setText(heading, t('eff.cache.h'));
        setText(text, t('eff.cache.text'));
        const lab = qkv && numbers.labFor(state, qkv);
        stepper.el.hidden = !lab;
        if (!lab) {
          view.shown = null;
          body.replaceChildren(
            numbers.error()
              ? h('p', { class: 'notice warn', role: 'alert' }, t('eff.error', { message: numbers.error().message }))
              : '',
          );
          setText(summary, '');
          return;
        }
        const at = Math.max(1, Math.min(lab.n, state.efftoken)) - 1;
        tau.hidden = state.temperature === 1;
        setText(tau, t('eff.tauOne', { tau: state.temperature }));
        if (view.shown?.lab === lab && view.shown.at === at && view.shown.lang === state.lang) return;
        view.shown = { lab, at, lang: state.lang };
        popover.close();
        element.dataset.token = String(at + 1);
        const position = t('eff.cache.position', { t: at + 1, n: lab.n });
        stepper.draw(t, { at: at + 1, count: lab.n, position, label: t('eff.cache.title') });
        const bytes = cacheBytes({ length: lab.steps[at].cacheLength, dk: lab.dk, dv: lab.dv });
        const agree = agreementText(t, lab.rows[at]);
        const words = t('eff.cache.summary', {
          t: at + 1,
          n: lab.n,
          sub: subscript(at + 1),
          bytes: formatBytes(bytes),
          agree,
        });
        setText(summary, words);
        body.replaceChildren(...cacheBody(t, lab, at, popover, bytes));
        if (view.speak) announce(words);
        view.speak = false;
      },
      destroy() {
        numbers.clear();
      },
    };
  },
};
