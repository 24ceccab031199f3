// Panel 3 of the efficiency lab: the sliding window. The reader's w; the band on the score grid
// (key j visible to query i iff i − w < j ≤ i); the core's windowed output beside the full
// attention masked to the same band, their equality computed; and what the window changes against
// the full causal attention. The numbers are efficiency-window.js's.

import { h, setText } from '../../views/dom.js';
import { matrixFormat } from '../../format.js';
import { scaleOptions, rowOf } from './efficiency-lab.js';
import { windowLab, inWindow } from './efficiency-window.js';
import { createNumberField } from './efficiency-fields.js';
import { scoreGrid, numberTable, agreement, agreementText, subscript } from './efficiency-parts.js';

/** Where cell (i, j) stands for a window w: in the band, earlier but out of it, or later (causal). */
const bandState = (i, j, w) => (inWindow(i, j, w) ? 'in' : j < i ? 'out' : 'future');

/** The three outputs side by side: windowed, banded full attention, causal without a window. */
function outputs(t, lab) {
  const head = ['', ...Array.from({ length: lab.output.cols }, (_, c) => String(c + 1))];
  // The three in one writing (format.js matrixFormat), so that equal numbers read alike.
  const format = matrixFormat([...lab.output.data, ...lab.banded.data, ...lab.causal.data], 4);
  const side = (key, matrix, className) =>
    h(
      'figure',
      { class: 'eff-side' },
      h('figcaption', {}, t(key)),
      numberTable({
        className,
        head,
        rows: Array.from({ length: lab.n }, (_, i) => ({
          name: `q${subscript(i + 1)}`,
          cells: rowOf(matrix, i).map(format),
        })),
      }),
    );
  return h(
    'div',
    { class: 'eff-compare', id: 'eff-window-compare' },
    side('eff.window.windowed', lab.output, 'eff-out-window'),
    side('eff.window.banded', lab.banded, 'eff-out-banded'),
    agreement(t, lab.difference),
    side('eff.window.causal', lab.causal, 'eff-out-causal'),
    h(
      'p',
      { class: 'eff-from-causal' },
      lab.window >= lab.n
        ? t('eff.window.sameAsCausal', { w: lab.window })
        : t('eff.window.fromCausal', { agree: agreementText(t, lab.fromCausal) }),
    ),
  );
}

/** The score grid for a window w: the band, the earlier keys out of it and the later ones, with its legend. */
function gridFigure(t, lab, w) {
  const scores = lab.scaled;
  return h(
    'figure',
    { class: 'eff-chart eff-grid-figure' },
    scoreGrid({
      id: 'eff-window-grid',
      caption: t('eff.window.gridCaption', { w }),
      rows: lab.n,
      cols: lab.n,
      cell: (i, j) => {
        const cellState = bandState(i, j, w);
        return { value: cellState === 'in' ? scores.data[i * scores.cols + j] : null, state: cellState };
      },
    }),
    h(
      'figcaption',
      { class: 'eff-legend' },
      ['in', 'out', 'future'].map((s) => h('span', { class: `eff-key is-${s}` }, t(`eff.window.legend.${s}`))),
      h('span', { class: 'eff-tally' }, t('eff.window.count', lab.scores)),
    ),
  );
}

/** The panel's body: { el, draw(t, lab, w), fail(t, error) } — the band and the outputs, or why there are none. */
function createWindowBody() {
  const el = h('div', { class: 'eff-body' });

  function draw(t, lab, w) {
    el.replaceChildren(gridFigure(t, lab, w), h('h4', {}, t('eff.window.outH')), outputs(t, lab));
  }

  function fail(t, error) {
    el.replaceChildren(
      error ? h('p', { class: 'notice warn', role: 'alert' }, t('eff.error', { message: error.message })) : '',
    );
  }

  return { el, draw, fail };
}

export default {
  id: 'window',
  titleKey: 'eff.window.title',
  create({ engine, setState, announce }) {
    // key: what the numbers were computed from; shown: what is drawn; speak: say the result of a new w.
    const view = { key: null, lab: null, error: null, shown: null, speak: false };
    const field = createNumberField({
      id: 'eff-w',
      labelKey: 'eff.window.w',
      min: 1,
      choose: (effw) => {
        view.speak = true;
        setState({ effw });
      },
    });
    const heading = h('h3', { id: 'eff-window-h' });
    const text = h('p', { class: 'explain' });
    const body = createWindowBody();
    // The page's τ, which this path's entry point does not take: said, not silently dropped.
    const tau = h('p', { class: 'notice info eff-tau', hidden: true });
    const element = h(
      'section',
      { class: 'eff-panel eff-window', 'aria-labelledby': heading.id },
      heading,
      text,
      tau,
      h('div', { class: 'eff-controls' }, field.el),
      body.el,
    );

    function labFor(state, qkv, w) {
      const key = [qkv, w, state.scale];
      if (!view.key || key.some((part, i) => part !== view.key[i])) {
        view.key = key;
        try {
          view.lab = windowLab(engine, qkv, { window: w, scale: scaleOptions(state).scale });
          view.error = null;
        } catch (error) {
          view.lab = null;
          view.error = error;
        }
      }
      return view.lab;
    }

    return {
      element,
      update({ state, t, qkv }) {
        setText(heading, t('eff.window.h'));
        setText(text, t('eff.window.text'));
        const n = qkv?.q.rows ?? 1;
        const w = Math.max(1, Math.min(n, state.effw));
        field.draw(t, { value: w, max: n });
        const lab = qkv && labFor(state, qkv, w);
        if (!lab) {
          view.shown = null;
          body.fail(t, view.error);
          return;
        }
        tau.hidden = state.temperature === 1;
        setText(tau, t('eff.tauOne', { tau: state.temperature }));
        if (view.shown?.lab === lab && view.shown.lang === state.lang) return;
        view.shown = { lab, lang: state.lang };
        element.dataset.window = String(w);
        body.draw(t, lab, w);
        if (view.speak) announce(t('eff.window.announce', { w, agree: agreementText(t, lab.difference) }));
        view.speak = false;
      },
      destroy() {
        view.lab = null;
      },
    };
  },
};
