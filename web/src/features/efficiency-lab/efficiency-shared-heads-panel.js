// Panel 4 of the efficiency lab: shared key–value heads (MQA / GQA). The reader chooses h query
// heads and g key–value heads; the panel shows the core's grouped attention beside multi-head
// attention with each group's K, V repeated (equal, as computed), the KV cache's bytes ÷ h/g, and
// how far the result is from multi-head attention with every head's own K, V. The numbers are
// efficiency-shared-heads.js's.

import { h, setText } from '../../views/dom.js';
import { num, formatBytes } from './efficiency-lab.js';
import { numberTable, agreement, subscript } from './efficiency-parts.js';
import {
  HEAD_CHOICES,
  KV_HEAD_CHOICES,
  sharesEvenly,
  groupOf,
  sharedHeadsInputs,
  sharedHeads,
} from './efficiency-shared-heads.js';

/** The outputs are listed value by value up to this many numbers; beyond, only their comparisons. */
const LISTED_CELLS = 128;

/** A labelled select of whole numbers; choose(value) on a change. */
function numberSelect({ id, values, choose }) {
  const label = h('label', { for: id });
  const select = h(
    'select',
    { id, onchange: () => choose(Number(select.value)) },
    values.map((value) => h('option', { value: String(value) }, String(value))),
  );
  return { label, select };
}

/** The groups in words: "key–value head 1 ← query heads 1, 2; …". */
function groupsText(t, heads, kvHeads) {
  const members = Array.from({ length: kvHeads }, () => []);
  for (let i = 0; i < heads; i++) members[groupOf(i, heads, kvHeads)].push(i + 1);
  return members
    .map((list, g) => t('eff.heads.group', { g: g + 1, heads: list.join(', ') }))
    .join(t('eff.heads.groupSep'));
}

/** An output of h heads side by side as a table: a column per number, headed by its head and column. */
function outputTable(t, m, heads, className) {
  const per = m.cols / heads;
  const head = [
    'O',
    ...Array.from(
      { length: m.cols },
      (_, c) => `${t('eff.heads.output.head', { i: Math.floor(c / per) + 1 })} · ${(c % per) + 1}`,
    ),
  ];
  const rows = Array.from({ length: m.rows }, (_, i) => ({
    name: `o${subscript(i + 1)}`,
    cells: Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), num),
  }));
  return numberTable({ className, head, rows });
}

/**
 * The controls: h and g, each a labelled select, and g's error when it does not divide h;
 * { el, word(t), draw(t, choice) → whether g divides h }. choose(patch) on a change.
 */
function createHeadsControls(choose) {
  const hField = numberSelect({ id: 'eff-heads-h', values: HEAD_CHOICES, choose: (heads) => choose({ heads }) });
  const gField = numberSelect({
    id: 'eff-heads-g',
    values: KV_HEAD_CHOICES,
    choose: (kvHeads) => choose({ kvHeads }),
  });
  const gError = h('span', { id: 'eff-heads-g-error', class: 'field-error eff-field-error', role: 'alert' });
  gField.select.setAttribute('aria-describedby', gError.id);
  const el = h(
    'div',
    { class: 'eff-heads-controls' },
    h('span', { class: 'eff-field' }, hField.label, hField.select),
    h('span', { class: 'eff-field' }, gField.label, gField.select, gError),
  );

  function word(t) {
    setText(hField.label, t('eff.heads.h'));
    setText(gField.label, t('eff.heads.g'));
  }

  function draw(t, { heads, kvHeads }) {
    hField.select.value = String(heads);
    gField.select.value = String(kvHeads);
    const even = sharesEvenly(heads, kvHeads);
    gField.select.setAttribute('aria-invalid', String(!even));
    const divisors = KV_HEAD_CHOICES.filter((g) => sharesEvenly(heads, g));
    setText(gError, even ? '' : t('eff.heads.indivisible', { g: kvHeads, h: heads, choices: divisors.join(', ') }));
    return even;
  }

  return { el, word, draw };
}

/** The cache's bytes for h heads and for g shared key–value heads, as a table. */
function cacheTable(t, { heads, kvHeads, bytes }) {
  return numberTable({
    className: 'eff-heads-cache',
    head: [t('eff.heads.cache.what'), t('eff.heads.cache.bytes')],
    rows: [
      {
        name: t('eff.heads.cache.full', { h: heads }),
        cells: [formatBytes(bytes.full)],
        attrs: { dataset: { bytes: bytes.full } },
      },
      {
        name: t('eff.heads.cache.shared', { g: kvHeads }),
        cells: [formatBytes(bytes.shared)],
        attrs: { dataset: { bytes: bytes.shared } },
      },
    ],
  });
}

/**
 * The result: where the inputs come from, the groups, and the body (the comparisons, the cache,
 * the outputs); { els, clear(), fail(t, error), draw(t, lab, { qkv, seed }) }.
 */
function createHeadsResult() {
  const source = h('p', { class: 'eff-heads-source', id: 'eff-heads-source' });
  const groups = h('p', { class: 'eff-heads-groups', id: 'eff-heads-groups' });
  const body = h('div', { class: 'eff-heads-body', id: 'eff-heads-body' });

  function clear() {
    body.replaceChildren();
    setText(source, '');
    setText(groups, '');
  }

  function fail(t, error) {
    body.replaceChildren(h('p', { class: 'notice warn', role: 'alert' }, t('eff.error', { message: error.message })));
  }

  function draw(t, lab, { qkv, seed }) {
    const { heads, kvHeads, inputs, grouped, full, equal, price, ratio } = lab;
    const listed = grouped.data.length <= LISTED_CELLS;
    body.replaceChildren(
      h('h4', {}, t('eff.heads.same.title')),
      h('p', { class: 'explain' }, t('eff.heads.same.text')),
      h('div', { id: 'eff-heads-equal' }, agreement(t, equal)),
      h('h4', {}, t('eff.heads.cache.title')),
      h('p', { class: 'explain' }, t('eff.heads.cache.text')),
      cacheTable(t, lab),
      h(
        'p',
        { class: 'eff-heads-ratio', id: 'eff-heads-ratio', dataset: { ratio } },
        t('eff.heads.cache.ratio', { ratio: num(ratio), h: heads, g: kvHeads }),
      ),
      h('h4', {}, t('eff.heads.price.title')),
      h('p', { class: 'explain' }, t('eff.heads.price.text')),
      h('div', { id: 'eff-heads-price' }, agreement(t, price)),
      listed
        ? h(
            'div',
            { class: 'eff-heads-outputs' },
            h('h4', {}, t('eff.heads.output.grouped')),
            outputTable(t, grouped, heads, 'eff-heads-grouped'),
            h('h4', {}, t('eff.heads.output.full')),
            outputTable(t, full, heads, 'eff-heads-full'),
          )
        : h('p', { class: 'explain' }, t('eff.heads.tooWide', { rows: grouped.rows, cols: grouped.cols })),
    );
    setText(
      source,
      t(`eff.heads.source.${inputs.source}`, {
        dk: qkv.q.cols,
        dv: qkv.v.cols,
        h: heads,
        n: qkv.k.rows,
        seed,
        dkHead: inputs.dk,
        dvHead: inputs.dv,
      }),
    );
    setText(groups, t('eff.heads.groups', { groups: groupsText(t, heads, kvHeads) }));
  }

  return { els: [source, groups, body], clear, fail, draw };
}

/**
 * The core's grouped attention for the reader's choice, kept while its inputs and choice stand:
 * result(qkv, { heads, kvHeads }, seed) → { lab, error } (one of them null).
 */
function createHeadsCompute(engine) {
  let key = null; // what `last` was computed from
  let last = { lab: null, error: null };
  return function result(qkv, { heads, kvHeads }, seed) {
    const text = `${heads}:${kvHeads}:${seed}`;
    if (key?.qkv === qkv && key.text === text) return last;
    key = { qkv, text };
    try {
      const inputs = sharedHeadsInputs(qkv, { heads, seed });
      last = { lab: sharedHeads(engine, inputs, { heads, kvHeads }), error: null };
    } catch (error) {
      last = { lab: null, error };
    }
    return last;
  };
}

/** What a screen reader hears after the reader's choice: h, g, the cache's ratio and the price. */
function announceWords(t, lab) {
  return t('eff.heads.announce', {
    h: lab.heads,
    g: lab.kvHeads,
    ratio: num(lab.ratio),
    largest: num(lab.price.largest),
  });
}

export default {
  id: 'heads',
  titleKey: 'eff.heads.title',
  create({ engine, setState, announce }) {
    // The reader's h and g are the link's (effh, effg: efficiency-heads-fields.js). pending: a
    // choice whose g does not divide h, shown with its error but never taken into the link, and
    // the link's h, g it was made from (a change from elsewhere replaces it); speak: the next
    // drawing follows the reader's choice, say its result.
    const view = { pending: null, speak: false };
    const linked = (state) => ({ heads: state.effh, kvHeads: state.effg });
    const choice = () => view.pending?.choice ?? linked(last.state);
    const choose = (patch) => {
      if (!last) return;
      const next = { ...choice(), ...patch };
      view.speak = true;
      const current = linked(last.state);
      view.pending = sharesEvenly(next.heads, next.kvHeads) ? null : { choice: next, from: current };
      // A new h, g goes into the link, which draws the panel again; anything else is drawn here.
      if (!view.pending && (next.heads !== current.heads || next.kvHeads !== current.kvHeads))
        setState({ effh: next.heads, effg: next.kvHeads });
      else draw();
    };
    const controls = createHeadsControls(choose);
    const result = createHeadsResult();
    const compute = createHeadsCompute(engine);
    const title = h('h3', {});
    const lede = h('p', { class: 'explain' });
    const element = h(
      'section',
      { class: 'eff-panel eff-heads', id: 'eff-heads' },
      title,
      lede,
      controls.el,
      ...result.els,
    );
    let last = null; // the last update's ctx

    function draw() {
      if (!last) return;
      const { t, qkv, state } = last;
      const { heads, kvHeads } = choice();
      const even = controls.draw(t, { heads, kvHeads });
      element.dataset.heads = String(heads);
      element.dataset.kvHeads = String(kvHeads);
      const speak = view.speak;
      view.speak = false;
      // The last good result stays off the screen: a refusal shows nothing computed for it.
      if (!even || !qkv) {
        result.clear();
        return;
      }
      const { lab, error } = compute(qkv, { heads, kvHeads }, state.effseed);
      if (error) {
        result.fail(t, error);
        return;
      }
      result.draw(t, lab, { qkv, seed: state.effseed });
      if (speak) announce(announceWords(t, lab));
    }

    return {
      element,
      update(ctx) {
        last = ctx;
        const { from } = view.pending ?? {};
        if (from && (from.heads !== ctx.state.effh || from.kvHeads !== ctx.state.effg)) view.pending = null;
        const { t } = ctx;
        setText(title, t('eff.heads.title'));
        setText(lede, t('eff.heads.lede'));
        controls.word(t);
        draw();
      },
      destroy() {
        last = null;
      },
    };
  },
};
