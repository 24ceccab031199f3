// Panel 5 of the efficiency lab: linear attention with φ(x) = elu(x) + 1. The two orders the core
// computes, (φ(Q)φ(K)ᵀ)V and φ(Q)(φ(K)ᵀV), with their largest difference; their multiply-adds as
// the core counts them; and how far the weights are from softmax's on the same inputs (the KL
// divergence of each row) with the largest difference of the outputs. The numbers are
// efficiency-linear.js's.

import { h, setText } from '../../views/dom.js';
import { num } from './efficiency-lab.js';
import { numberTable, agreement, subscript } from './efficiency-parts.js';
import { linearAttentionLab } from './efficiency-linear.js';

/** The weights are listed value by value up to this many numbers; beyond, only the KL of each row. */
const LISTED_CELLS = 144;

/** A count with thousands separated: 1,234,567. */
const count = (x) => Number(x).toLocaleString('en-US');

/** A matrix of weights as a table: a row per query, a column per key. */
function weightsTable(m, className) {
  return numberTable({
    className,
    head: ['A', ...Array.from({ length: m.cols }, (_, j) => `k${subscript(j + 1)}`)],
    rows: Array.from({ length: m.rows }, (_, i) => ({
      name: `q${subscript(i + 1)}`,
      cells: Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), num),
    })),
  });
}

/** Which order does fewer multiply-adds, and how many times fewer, in words. */
function fewerText(t, { quadratic, linear }) {
  if (quadratic === linear) return t('eff.linear.counts.same');
  const winner = linear < quadratic ? 'linear' : 'quadratic';
  return t(`eff.linear.counts.fewer.${winner}`, {
    times: num(Math.max(quadratic, linear) / Math.min(quadratic, linear)),
  });
}

/** The row with the largest divergence: { row (0-based), kl }. */
function largestRow(divergence) {
  let row = 0;
  divergence.forEach((kl, i) => {
    if (kl > divergence[row] || Number.isNaN(kl)) row = i;
  });
  return { row, kl: divergence[row] };
}

/** The multiply-adds of the two orders as the core counts them, as a table. */
function countsTable(t, multiplyAdds) {
  return numberTable({
    className: 'eff-linear-counts',
    head: [t('eff.linear.order.head'), t('eff.linear.counts.head')],
    rows: ['quadratic', 'linear'].map((order) => ({
      name: t(`eff.linear.order.${order}`),
      cells: [count(multiplyAdds[order])],
      attrs: { dataset: { order, count: multiplyAdds[order] } },
    })),
  });
}

/** The KL divergence of each row's weights from softmax's, as a table. */
function divergenceTable(t, divergence) {
  return numberTable({
    className: 'eff-linear-kl',
    head: [t('eff.linear.kl.rows'), t('eff.linear.kl.head')],
    rows: Array.from(divergence, (kl, i) => ({
      name: t('eff.linear.kl.row', { i: i + 1 }),
      cells: [num(kl)],
      attrs: { dataset: { kl } },
    })),
  });
}

/** Both matrices of weights while they are small enough to list, else how large they are. */
function weightsPart(t, lab) {
  if (lab.weights.data.length > LISTED_CELLS)
    return h('p', { class: 'explain' }, t('eff.linear.tooWide', { rows: lab.weights.rows, cols: lab.weights.cols }));
  return h(
    'div',
    { class: 'eff-linear-weights' },
    h('h4', {}, t('eff.linear.weights.softmax')),
    weightsTable(lab.softmax.weights, 'eff-linear-softmax'),
    h('h4', {}, t('eff.linear.weights.linear')),
    weightsTable(lab.weights, 'eff-linear-phi'),
  );
}

/**
 * The body: the two orders, their counts, the price against softmax and the weights;
 * { el, clear(), fail(t, error), draw(t, lab, qkv) → the row with the largest divergence }.
 */
function createLinearBody() {
  const el = h('div', { class: 'eff-linear-body', id: 'eff-linear-body' });

  function fail(t, error) {
    el.replaceChildren(h('p', { class: 'notice warn', role: 'alert' }, t('eff.error', { message: error.message })));
  }

  function draw(t, lab, { q, v }) {
    const worst = largestRow(lab.divergence);
    el.replaceChildren(
      h('h4', {}, t('eff.linear.orders.title')),
      h('p', { class: 'explain' }, t('eff.linear.orders.text')),
      h('div', { id: 'eff-linear-orders' }, agreement(t, lab.orders)),
      h('h4', {}, t('eff.linear.counts.title')),
      h('p', { class: 'explain' }, t('eff.linear.counts.text', { n: q.rows, dk: q.cols, dv: v.cols })),
      countsTable(t, lab.multiplyAdds),
      h('p', { class: 'explain', id: 'eff-linear-fewer' }, fewerText(t, lab.multiplyAdds)),
      h('h4', {}, t('eff.linear.price.title')),
      h('p', { class: 'explain' }, t('eff.linear.price.text')),
      divergenceTable(t, lab.divergence),
      h(
        'p',
        { class: 'explain', id: 'eff-linear-kl-largest', dataset: { row: worst.row + 1, kl: worst.kl } },
        t('eff.linear.kl.largest', { row: worst.row + 1, kl: num(worst.kl) }),
      ),
      h('p', { class: 'explain' }, t('eff.linear.output')),
      h('div', { id: 'eff-linear-output' }, agreement(t, lab.output)),
      weightsPart(t, lab),
    );
    return worst;
  }

  return { el, clear: () => el.replaceChildren(), fail, draw };
}

export default {
  id: 'linear',
  titleKey: 'eff.linear.title',
  create({ engine, announce }) {
    // qkv: what `lab` was computed from (the shell keeps the very same matrices while they stand).
    const view = { qkv: null, lab: null, error: null, lang: null };
    const title = h('h3', {});
    const lede = h('p', { class: 'explain' });
    const body = createLinearBody();
    const element = h('section', { class: 'eff-panel eff-linear', id: 'eff-linear' }, title, lede, body.el);

    function compute(qkv) {
      if (view.qkv === qkv) return false;
      view.qkv = qkv;
      try {
        view.lab = linearAttentionLab(engine, qkv);
        view.error = null;
      } catch (error) {
        view.lab = null;
        view.error = error;
      }
      return true;
    }

    return {
      element,
      update({ state, t, qkv }) {
        setText(title, t('eff.linear.title'));
        setText(lede, t('eff.linear.lede'));
        if (!qkv) {
          body.clear();
          view.qkv = null;
          return;
        }
        const first = view.qkv === null;
        const changed = compute(qkv);
        if (!changed && view.lang === state.lang) return;
        view.lang = state.lang;
        if (view.error) {
          body.fail(t, view.error);
          return;
        }
        const worst = body.draw(t, view.lab, qkv);
        // New inputs while the panel is open (not its opening): say what they give.
        if (changed && !first)
          announce(t('eff.linear.announce', { orders: num(view.lab.orders.largest), kl: num(worst.kl) }));
      },
      destroy() {
        view.qkv = null;
      },
    };
  },
};
