// The current step: title, formula (pre-rendered by KaTeX at build time, current part highlighted),
// the article's paragraph, notices, and every matrix the step involves. Render only.

import { h, sym } from './dom.js';
import { renderMatrix } from './matrix.js';
import { STEPS } from '../steps.js';
import { showsNonFinite, nonFiniteFrom } from '../non-finite.js';
import { showsArticleNumbers } from '../state.js';

const SCALE_TEXT = { sqrt_dk: '/√dₖ', dk: '/dₖ', none: '' };

/** The names of the intermediates, as symbols; the scaled one follows the scaling option. */
function names(state) {
  const tau = state.temperature !== 1 ? '/τ' : '';
  const scaled = `S${SCALE_TEXT[state.scale]}${tau}`;
  return {
    x: [sym('X'), 'X'], wq: [sym('W', 'Q'), 'W_Q'], wk: [sym('W', 'K'), 'W_K'], wv: [sym('W', 'V'), 'W_V'],
    q: [sym('Q'), 'Q'], k: [sym('K'), 'K'], v: [sym('V'), 'V'],
    scores: [h('span', {}, sym('S'), ' = ', sym('Q'), sym('K'), 'ᵀ'), 'S = QKᵀ'],
    scaled: [h('span', { class: 'sym' }, scaled), scaled],
    shifted: [h('span', { class: 'sym' }, `${scaled} − max`), `${scaled} − max`],
    exps: [h('span', { class: 'sym' }, 'E = exp(…)'), 'E'],
    weights: [sym('A'), 'A'],
    output: [h('span', {}, sym('A'), sym('V')), 'AV'],
  };
}

/** Row totals of a matrix (shown beside the weights: each row of A sums to 1). */
function totals(m, byColumn) {
  const out = new Float64Array(byColumn ? m.cols : m.rows);
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) out[byColumn ? j : i] += m.data[i * m.cols + j];
  return out;
}

/** The list of things the step shows: matrix specs and operators between them, in rows. */
function stepContent(stepId, { state, model, t, tokens }) {
  const n = names(state);
  const byColumn = state.axis === 'column';
  const masked = (i, j) => model.kept.data[i * model.kept.cols + j] === 0;  // the core's mask, cell by cell
  const words = tokens ?? undefined;
  // Names are cloned: one DOM node cannot stand under two matrices.
  const spec = (id, extra = {}) => ({ id, name: n[id][0].cloneNode(true), label: n[id][1], matrix: model[id], caption: t(`mat.${id}`), ...extra });
  const token = { rowLabels: words };
  const pair = { rowLabels: words, colLabels: words };
  const reduced = (values, key) => {
    const part = { label: t(`mat.${byColumn ? 'col' : 'row'}${key}`), values, kind: key === 'Max' ? 'div' : 'seq' };
    return byColumn ? { foot: part } : { side: part };
  };

  switch (stepId) {
    case 'x':
      return state.mode === 'x'
        ? [[spec('x', { kind: 'div', ...token })]]
        : [[spec('q', { kind: 'div', ...token }), spec('k', { kind: 'div', ...token }), spec('v', { kind: 'div', ...token })]];
    case 'project':
      if (state.mode !== 'x') return [[spec('q', { kind: 'div', ...token }), spec('k', { kind: 'div', ...token }), spec('v', { kind: 'div', ...token })]];
      // X once, then each projection as "X ×" W = result, so that two matrices fit on a line.
      return [[spec('x', { kind: 'div', ...token })],
        ...['q', 'k', 'v'].map((out) => ['X ×', spec(`w${out}`, { kind: 'div' }), '=', spec(out, { kind: 'div', ...token })])];
    case 'scores':
      return [[spec('q', { kind: 'div', ...token }), '·', spec('k', { kind: 'div', ...token, caption: `${t('mat.k')} (Kᵀ)` }), '=',
        spec('scores', { kind: 'div', ...pair, pick: 'score' })]];
    case 'scale':
      return [[spec('scores', { kind: 'div', ...pair, pick: 'score' }), '→', spec('scaled', { kind: 'div', ...pair, pick: 'score', masked })]];
    case 'max':
      return [[spec('scaled', { kind: 'div', ...pair, pick: 'score', masked, ...reduced(model.rowMax.data, 'Max') }), '→',
        { id: 'shifted', name: n.shifted[0], label: n.shifted[1], caption: t('mat.shifted'), kind: 'div', ...pair, pick: 'score', masked,
          matrix: model.shifted }]];
    case 'exp':
      return [[spec('exps', { kind: 'seq', ...pair, pick: 'score', masked })]];
    case 'sum':
      return [[spec('exps', { kind: 'seq', ...pair, pick: 'score', masked, ...reduced(model.rowSum.data, 'Sum') })]];
    case 'weights':
      return [[spec('weights', {
        kind: 'seq', ...pair, pick: 'score', masked, caption: t(byColumn ? 'mat.weightsColumn' : 'mat.weights'),
        side: { label: t('mat.rowTotal'), values: totals(model.weights, false) },
        foot: byColumn ? { label: t('mat.colTotal'), values: totals(model.weights, true) } : undefined,
      })]];
    case 'output':
      return [[spec('weights', { kind: 'seq', ...pair, pick: 'score', masked }), '×', spec('v', { kind: 'div', ...token }), '=',
        spec('output', { kind: 'div', ...token, pick: 'output' })]];
    default:
      return [];
  }
}

/** Notices that the current options call for, most important first. */
function notices(stepId, { state, model, t }) {
  const out = [];
  // The article's own remarks on its worked example (§7), while the numbers are still its own.
  if (showsArticleNumbers(state) && (stepId === 'weights' || stepId === 'output')) out.push(['info', t(`article.${stepId}`)]);
  // ∞ or NaN that float32 produced on the way (the core counts them), unless the naive softmax's
  // own overflow, which its notice below explains, is where they start.
  const from = nonFiniteFrom(model);
  if (showsNonFinite(model, stepId) && !(state.softmax === 'naive' && STEPS.indexOf(from) >= STEPS.indexOf('exp')))
    out.push(['warn', t('notice.nonFinite', { step: STEPS.indexOf(from) + 1 })]);
  if (stepId === 'x' && state.mode === 'qkv') out.push(['info', t('step.x.qkvMode')]);
  if (stepId === 'max' && state.softmax === 'naive') out.push(['info', t('step.max.naive')]);
  if (state.softmax === 'naive' && STEPS.indexOf(stepId) >= STEPS.indexOf('max')) {
    const overflowed = [model.exps, model.weights].some((m) => m.data.some((x) => !Number.isFinite(x)));
    out.push(overflowed ? ['warn', t('notice.naiveOverflow')] : ['info', t('notice.naive')]);
  }
  if (state.axis === 'column' && STEPS.indexOf(stepId) >= STEPS.indexOf('max')) out.push(['warn', t('notice.column')]);
  if (state.scale !== 'sqrt_dk' && STEPS.indexOf(stepId) >= STEPS.indexOf('scale')) out.push(['warn', t(`notice.scale.${state.scale}`)]);
  if (state.mask === 'causal' && STEPS.indexOf(stepId) >= STEPS.indexOf('scale')) out.push(['info', t('notice.masked')]);
  if (state.temperature !== 1 && STEPS.indexOf(stepId) >= STEPS.indexOf('scale')) out.push(['info', t('notice.temperature', { value: state.temperature })]);
  return out;
}

/** Clones the formula pre-rendered for this step and these options (templates in index.html). */
function formula(kind, stepId, { scale, softmax, axis }) {
  const template = document.querySelector(
    `template[data-formula="${kind}"][data-step="${stepId}"][data-variants~="${scale}/${softmax}/${axis}"]`);
  return template ? template.content.cloneNode(true) : null;
}

// What is on screen in each stage root: a key of everything that shapes the DOM, and the
// rendered matrices, so that an edit which changes only values updates cells in place.
const mounted = new WeakMap();

function noticeNodes(stepId, ctx) {
  return [
    ctx.stale ? h('p', { class: 'notice warn' }, ctx.t('notice.lastGood')) : null,
    ...notices(stepId, ctx).map(([kind, text]) => h('p', { class: `notice ${kind}` }, text)),
  ].filter(Boolean);
}

/**
 * Renders the step into `root`. ctx: { state, model, t, theme, tokens, stale }.
 * `stale` is true when the inputs are invalid and this is the last good result.
 */
export function renderStage(root, ctx) {
  const { state, t } = ctx;
  const stepId = STEPS[state.step - 1];
  const view = { digits: state.digits, theme: ctx.theme, t };
  const content = stepContent(stepId, ctx);
  const specs = content.flat().filter((x) => typeof x === 'object');
  const key = JSON.stringify([stepId, state.mode, state.lang, state.digits, ctx.theme, state.scale, state.temperature !== 1,
    state.mask, state.softmax, state.axis, ctx.tokens, specs.map((s) => [s.id, s.matrix.rows, s.matrix.cols])]);

  const current = mounted.get(root);
  if (current?.key === key) {
    specs.forEach((spec, index) => current.matrices[index].update(spec, view));
    current.notices.replaceChildren(...noticeNodes(stepId, ctx));
    return;
  }

  const matrices = [];
  const rows = content.map((items) => h('div', { class: 'matrix-row' }, items.map((item) => {
    if (typeof item === 'string') return h('span', { class: 'op', 'aria-hidden': 'true' }, item);
    const rendered = renderMatrix(item, view);
    matrices.push(rendered);
    return rendered.el;
  })));
  const kinds = new Set(specs.map((x) => x.kind));
  const noticesEl = h('div', { class: 'notices' }, noticeNodes(stepId, ctx));
  root.style.setProperty('--cell-width', `calc(${state.digits + 3}ch + 0.9em)`);
  root.replaceChildren(
    h('h2', { id: 'step-title', tabindex: '-1' },
      h('span', { class: 'step-no' }, t('nav.position', { step: state.step, total: STEPS.length })), ' ',
      t(`step.${stepId}.title`)),
    // Focusable, so that keyboard users can scroll a formula wider than a phone screen.
    h('div', { class: 'formulas', tabindex: '0', role: 'group', 'aria-label': t('stage.formula') },
      h('div', { class: 'formula' }, formula('main', stepId, state)),
      h('div', { class: 'formula detail' }, formula('detail', stepId, state))),
    h('p', { class: 'explain' }, t(`step.${stepId}.text`)),
    noticesEl,
    h('div', { class: 'matrices' }, rows),
    h('ul', { class: 'legend' },
      kinds.has('seq') ? h('li', { class: 'seq' }, t('legend.seq')) : null,
      kinds.has('div') ? h('li', { class: 'div' }, t('legend.div')) : null,
      STEPS.indexOf(stepId) >= STEPS.indexOf('scale') ? h('li', { class: 'masked' }, t('legend.masked')) : null),
  );
  mounted.set(root, { key, matrices, notices: noticesEl });
}
