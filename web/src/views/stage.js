// The current step: title, the switches that act on this step, the formula (pre-rendered by KaTeX
// at build time, current part highlighted), the article's paragraph, notices, every matrix the
// step involves, and on the last steps the mixing and the word lines. Render only. A step's
// matrices and its detail formula are panes (views/panes.js): once shown they stay in the page,
// laid out but not drawn, and the steps ahead are built while the reader reads.

import { h } from './dom.js';
import { renderMatrix } from './matrix.js';
import { FIGURES, stepById, stepWords, atOrAfter, fieldOf, stepCount, sizeOf, stepIdAt, stepNumber } from '../steps.js';
import { HEAD_COLORS, headColor } from '../head-colors.js';
import { renderHeadsOverview, renderHeadGradsOverview, headCostNote } from './heads-overview.js';
import { showsNonFinite, nonFiniteFrom } from '../non-finite.js';
import { TABLE_LIMIT, showsArticleNumbers, choosePreset, serializeState, figureLooks } from '../state.js';
import { stepSource, articleUrl } from '../article.js';
import { matrixFormat } from '../format.js';
import { gradientCss, offColor } from '../colors.js';
import { shapeMath, symbol } from './names.js';
import { stageControls } from './controls.js';
import { renderLossChoice } from './loss-choice.js';
import { optionNotices, optionLooks, optionForms } from '../options.js';
import { variantKey } from '../../formulas/formulas.js';
import { mixView, renderWordLines } from './mixing.js';
import { capture, animateStep } from './motion.js';
import { paneSlot } from './panes.js';
import { scrollCue, cueWithin } from './scroll-cue.js';
import { math, mi, mn, mo, msub, mfrac } from './math.js';

/** For a matrix new on a step, the one it is made from (the motion between steps follows it). */
const MADE_FROM = Object.fromEntries(
  Object.entries(FIGURES)
    .filter(([, figure]) => figure.madeFrom)
    .map(([id, figure]) => [id, figure.madeFrom]),
);

/** The row max or row sum beside the rows (under the columns for a column softmax), set apart. */
function reduced([what, field], { state, model, t }) {
  const { byColumn, reduceWords } = optionForms(state);
  const values = fieldOf(model, field).data;
  const part = {
    head: what === 'Max' ? 'max' : 'Σ',
    title: t(`mat.${reduceWords}${what}`),
    values,
    // its shape as every matrix has one: a column n×1 beside the rows, a row 1×n under the columns
    name: shapeMath(`row${what}`, state, ...(byColumn ? [1, values.length] : [values.length, 1])),
  };
  return byColumn ? { foot: part } : { side: part };
}

/** The sums of A along its rows beside it, and along its columns under it for a column softmax. */
function totalsOf({ state, model, t }) {
  const foot = { head: 'Σ', title: t('mat.colTotal'), values: model.weightTotals.cols };
  return {
    side: { head: 'Σ', title: t('mat.rowTotal'), values: model.weightTotals.rows },
    foot: optionForms(state).byColumn ? foot : undefined,
  };
}

/** What views/matrix.js draws for one figure of a step description (steps.js FIGURE). */
/** A figure's heads' blocks (steps.js FIGURE `blocks`, `rowBlocks`): their width, colours and names. */
const headBlocks = (size, { state, theme, t }) => ({
  width: sizeOf(state, size),
  colors: HEAD_COLORS[theme] ?? HEAD_COLORS.light,
  label: (b) => t('heads.headN', { i: b + 1 }),
});

function figureSpec({ figure: id, labels, pick, masked, reduce, totals, caption, blocks, rowBlocks }, ctx) {
  const { state, model, t, tokens } = ctx;
  const matrix = fieldOf(model, FIGURES[id].field);
  const words = tokens ?? undefined;
  return {
    id,
    name: shapeMath(id, state, matrix.rows, matrix.cols),
    label: symbol(id, state).text,
    matrix,
    caption: t(caption ?? `mat.${id}`),
    kind: FIGURES[id].kind,
    ...(labels ? { rowLabels: words, tokenRows: true } : {}),
    ...(labels === 'pair' ? { colLabels: words } : {}),
    ...(pick ? { pick } : {}),
    // the core's mask, cell by cell
    ...(masked ? { masked: (i, j) => model.kept.data[i * model.kept.cols + j] === 0 } : {}),
    ...(reduce ? reduced(reduce, ctx) : {}),
    ...(totals ? totalsOf(ctx) : {}),
    ...(blocks ? { blocks: headBlocks(blocks, ctx) } : {}),
    ...(rowBlocks ? { rowBlocks: headBlocks(rowBlocks, ctx) } : {}),
  };
}

/**
 * The list of things the step shows: matrix specs and operators between them, in rows (the
 * step's `figures`, steps.js). A figure whose field the model does not have (the article's exp,
 * computed only with the stable softmax) is left out.
 */
function stepContent(stepId, ctx) {
  return stepById(stepId)
    .figures(ctx.state)
    .map((items) =>
      items
        .filter((item) => typeof item === 'string' || fieldOf(ctx.model, FIGURES[item.figure].field))
        .map((item) => (typeof item === 'string' ? item : figureSpec(item, ctx))),
    );
}

/** Notices that the current options call for, most important first. */
function notices(stepId, { state, model, t }) {
  const step = stepById(stepId);
  const out = [];
  const from = (than) => atOrAfter(stepId, than);
  // The article's own remarks on its worked example (§7), while the numbers are still its own.
  if (step.remark && showsArticleNumbers(state)) out.push(['info', t(step.remark)]);
  // ∞ or NaN that float32 produced on the way (the core counts them), unless they start where an
  // option's own notice below explains them (the naive softmax's eˣ: options.js forms).
  const start = nonFiniteFrom(model);
  const explained = optionForms(state).explainsNonFiniteFrom;
  if (showsNonFinite(model, stepId) && !(explained && atOrAfter(start, explained)))
    out.push(['warn', t('notice.nonFinite', { step: stepNumber(state, start) })]);
  for (const notice of step.notices) if (notice.when(state)) out.push([notice.kind, t(notice.words)]);
  // With heads, the steps from the scores to AV are one head's: which one.
  if (state.heads > 1 && from('scores') && !from('concat'))
    out.push(['info', t('heads.showing', { i: state.head, h: state.heads })]);
  for (const [kind, key, params] of optionNotices(state, model, from)) out.push([kind, t(key, params)]);
  return out;
}

// The templates of each document, found once: a search of the whole document costs tenths of a
// millisecond once the stage keeps every step's matrices, and the templates never change.
const templatesOf = new WeakMap();

/** The formula pre-rendered for these options (and this step: detail only), a <template> in index.html. */
export function formulaTemplate(kind, stepId, state) {
  if (!templatesOf.has(document)) templatesOf.set(document, [...document.querySelectorAll('template[data-formula]')]);
  const formulaTemplates = templatesOf.get(document);
  const variant = variantKey(state);
  return (
    formulaTemplates.find(
      ({ dataset }) =>
        dataset.formula === kind &&
        (!stepId || dataset.step === stepId) &&
        dataset.variants.split(' ').includes(variant),
    ) ?? null
  );
}

/**
 * The article's hand numbers beside the page's (§7): it computes e^0.7071 ≈ 2.03 and the sum 3.03
 * directly, the stable softmax 1 and 1.493 — and both give the same weight, A₁₁ = 0.6698.
 */
function sameWeight({ state, model, t }) {
  if (!model.article) return null;
  const f = (m) => matrixFormat(m.data, state.digits);
  const [fe, fs, fae, fas, fa] = [
    model.exps,
    model.rowSum,
    model.article.exps,
    model.article.rowSum,
    model.weights,
  ].map(f);
  const A = msub(mi('A'), '11');
  return h(
    'p',
    { class: 'same-weight' },
    h('span', { class: 'label' }, t('article.sameWeight')),
    ' ',
    math(
      [
        A,
        mo('='),
        mfrac(mn(fae(model.article.exps.data[0])), mn(fas(model.article.rowSum.data[0]))),
        mo('='),
        mfrac(mn(fe(model.exps.data[0])), mn(fs(model.rowSum.data[0]))),
        mo('='),
        mn(fa(model.weights.data[0])),
      ],
      {
        label: `A11 = ${fae(model.article.exps.data[0])}/${fas(model.article.rowSum.data[0])} = ${fe(model.exps.data[0])}/${fs(model.rowSum.data[0])} = ${fa(model.weights.data[0])}`,
      },
    ),
    h('span', { class: 'why' }, ' ', t('article.sameWhy')),
  );
}

/**
 * Which text the step follows, under its title: the article's section (a link when the page knows
 * where the article lives), or the series' next article for the heads' steps.
 */
function stepCite(stepId, { state, t }) {
  const source = stepSource(stepById(stepId));
  if (!source) return null;
  const text = t(source.key, { ...source.params, article: t('article.short') });
  const url = source.key === 'article.next' ? null : articleUrl(state);
  return url ? h('a', { href: url, target: '_blank', rel: 'noopener' }, text) : text;
}

/**
 * On the stepper's last step of a one-head page, the series' next article: a link that opens the
 * same words with two heads at the step where the heads' outputs meet (concat, with every head's A).
 */
function nextArticle({ state, t }) {
  const heads = choosePreset(state, 'heads');
  const href = serializeState({ ...heads, step: stepNumber(heads, 'concat'), loss: 'none' });
  // The same element while its words and link stay the same: the extras are placed on every render.
  const key = JSON.stringify([state.lang, href]);
  if (shownNext.key !== key) Object.assign(shownNext, { key, el: nextArticleLink(t, href) });
  return shownNext.el;
}
const shownNext = { key: null, el: null };

function nextArticleLink(t, href) {
  return h(
    'p',
    { class: 'next-article' },
    h('strong', {}, t('article.next')),
    ' ',
    t('article.nextOffer'),
    ' ',
    h('a', { href, class: 'next-article-link' }, t('article.nextOpen')),
  );
}

/** What a step's `extras` (steps.js) name: (ctx, mix) → an element or null. */
const EXTRAS = {
  sameWeight: (ctx) => sameWeight(ctx),
  mix: (ctx, mix) => mix(ctx),
  // The word lines read one row of A: they need words, and rows that sum to 1.
  lines: (ctx) => (ctx.tokens && optionForms(ctx.state).rowsSumToOne ? renderWordLines(ctx) : null),
  heads: (ctx) => renderHeadsOverview(ctx),
  headGrads: (ctx) => renderHeadGradsOverview(ctx),
  headCost: (ctx) => headCostNote(ctx),
  loss: (ctx) => renderLossChoice(ctx),
  // §3's two arrows (controller/arrows.js keeps the picture from render to render).
  arrows: (ctx) => ctx.arrows?.() ?? null,
};

/**
 * The extras under the matrices: the article's hand numbers, the mix and the word lines; on the
 * last step of one head, the next article.
 */
function extras(stepId, ctx, mix) {
  const last = stepId === stepIdAt(ctx.state, stepCount(ctx.state)) && ctx.state.heads === 1;
  return [
    ...(stepById(stepId).extras ?? []).map((name) => EXTRAS[name](ctx, mix)),
    last ? nextArticle(ctx) : null,
  ].filter(Boolean);
}

/**
 * Puts `parts` in `box`, in that order, moving only what is not already in its place: an element
 * that stays (the AV step's mix, hundreds of cells at n = 64) is not taken out and put back beside
 * a new one (the loss choice is made anew on every render), which would style and lay it out anew.
 */
function place(box, parts) {
  parts.forEach((el, k) => {
    if (box.children[k] !== el) box.insertBefore(el, box.children[k] ?? null);
  });
  while (box.children.length > parts.length) box.lastElementChild.remove();
}

/** The colour keys of this step, drawn from the same colours as the cells (true in both themes). */
function legend(stepId, specs, { t, theme }) {
  const kinds = new Set(specs.map((x) => x.kind));
  const sides = specs.some((x) => (x.side || x.foot) && x.matrix.rows <= TABLE_LIMIT && x.matrix.cols <= TABLE_LIMIT);
  const swatch = (background) => {
    const el = h('span', { class: 'swatch', 'aria-hidden': 'true' });
    el.style.background = background;
    return el;
  };
  return h(
    'ul',
    { class: 'legend' },
    kinds.has('seq') ? h('li', {}, swatch(gradientCss('seq', theme)), t('legend.seqScale')) : null,
    kinds.has('div') ? h('li', {}, swatch(gradientCss('div', theme)), t('legend.divScale')) : null,
    specs.some((x) => x.masked)
      ? h(
          'li',
          {},
          swatch(`repeating-linear-gradient(135deg, ${offColor(theme)} 0 4px, transparent 4px 8px)`),
          t('legend.masked'),
        )
      : null,
    sides
      ? h('li', {}, h('span', { class: 'swatch side-swatch', 'aria-hidden': 'true' }, 'Σ'), t('legend.side'))
      : null,
  );
}

// What is on screen in each stage root: its parts, which stay from step to step (a step replaces
// only what differs: the title, the switches; it shows another pane of matrices and of detail
// formula; the main formula stays and its mark moves), and keys of what shaped each part.
const mounted = new WeakMap();

function noticeNodes(stepId, ctx) {
  return [
    ctx.stale ? h('p', { class: 'notice warn' }, ctx.t('notice.lastGood')) : null,
    ...notices(stepId, ctx).map(([kind, text]) => h('p', { class: `notice ${kind}` }, text)),
  ].filter(Boolean);
}

/** A copy of a pre-rendered formula (or an empty pane where the step has none), for a pane slot. */
const formulaPane = (template) => ({ el: h('div', {}, template ? template.content.cloneNode(true) : null) });

/** The parts of a stage, built once per root. */
function skeleton(root) {
  const parts = {
    title: h('h2', { id: 'step-title', tabindex: '-1' }),
    // Beside the title when there is room (it costs the first screen no line), under it otherwise.
    source: h('p', { class: 'step-source' }),
    controls: h('div', { class: 'controls-slot' }),
    main: h('div', { class: 'formula main' }),
    detail: h('div', { class: 'formula detail' }),
    // The step's formula with a cell's numbers, in the detail formula's place (views/filled-formula.js).
    filled: scrollCue(h('div', { class: 'formula filled', 'aria-hidden': 'true' }), { content: true }),
    filledCaption: h('p', { class: 'filled-caption' }),
    text: h('p', { class: 'explain' }),
    notices: h('div', { class: 'notices' }),
    // A pane shown again marks its boxes again (scroll-cue.js).
    matrices: cueWithin(h('div', { class: 'matrices' })),
    extras: cueWithin(h('div', { class: 'extras empty' })),
    legend: h('div', { class: 'legend-slot' }),
    keys: {},
    prepared: 0,
  };
  parts.panes = matrixPanes(parts.matrices);
  parts.extraPanes = paneSlot(parts.extras, { hide: keepIds, reveal: restoreIds });
  parts.detailPanes = paneSlot(parts.detail);
  // Focusable, so that keyboard users can scroll a formula wider than a phone screen; its edge
  // fades while more of it lies beyond (scroll-cue.js), as the step's formula changes.
  parts.formulas = scrollCue(
    h(
      'div',
      { class: 'formulas', tabindex: '0', role: 'group' },
      parts.main,
      h('div', { class: 'formula-step' }, parts.detail, parts.filled),
    ),
    { content: true },
  );
  // The numbers come before the article's paragraph: on a 1280×900 screen the example's matrices
  // are on the first screen, under the formula, and the paragraph explains them just below.
  root.replaceChildren(
    h('div', { class: 'stage-head' }, parts.title, parts.source, parts.controls),
    parts.formulas,
    h('div', { class: 'filled-note' }, parts.filledCaption),
    parts.notices,
    parts.matrices,
    parts.text,
    parts.extras,
    parts.legend,
  );
  return parts;
}

/** Replaces `slot`'s content with make() when `key` differs from the last one; true if it did. */
function refresh(parts, slot, key, make) {
  if (parts.keys[slot] === key) return false;
  parts.keys[slot] = key;
  parts[slot].replaceChildren(...[make()].flat().filter(Boolean));
  return true;
}

/**
 * What a step's matrices are drawn for, their values and the step aside: a pane kept for one
 * family is useless to another (another language, size, option…) and is removed.
 */
function familyOf(ctx) {
  const { state, model } = ctx;
  return JSON.stringify([
    ...figureLooks(state),
    state.lang,
    state.digits,
    ctx.theme,
    ctx.tokens,
    [model.x, model.q, model.k, model.v].filter(Boolean).map((m) => [m.rows, m.cols]),
  ]);
}

/** A pane's key in its family: the step, and which matrices it shows (the article's exp or not). */
const paneKey = (stepId, specs) => JSON.stringify([stepId, specs.map((x) => x.id)]);

/** The matrices of one step, as specs (what they show) and content (their rows, with operators). */
function stepSpecs(stepId, ctx) {
  const content = stepContent(stepId, ctx);
  return { content, specs: content.flat().filter((x) => typeof x === 'object') };
}

/** One step's matrices in a pane of their own: its rows of figures, their renderers, its mix. */
function buildPane(stepId, content, view) {
  const rendered = [];
  // An operator travels with the matrix after it ("= S"), so a row that wraps never leaves a
  // dangling "=" at the end of a line.
  // A row that does not wrap (X · W_Q = Q) scrolls in its box, its far edge faded (scroll-cue.js).
  const rows = content.map((items) =>
    scrollCue(
      h(
        'div',
        { class: 'matrix-row' },
        items.map((item, index) => {
          if (typeof item === 'string') return null;
          const matrix = renderMatrix(item, view);
          rendered.push(matrix);
          const op = items[index - 1];
          return typeof op === 'string'
            ? h('div', { class: 'op-group' }, h('span', { class: 'op', 'aria-hidden': 'true' }, op), matrix.el)
            : matrix.el;
        }),
      ),
    ),
  );
  const figures = rendered.map(({ el }) => ({ el, id: el.id, name: el.dataset.name }));
  return { el: h('div', { class: `step-pane step-${stepId}` }, rows), rendered, figures, mix: mixView() };
}

// Only the shown step's figures have their id and data-name: look-ups (the page's and a test's)
// find the matrices on screen, never a kept copy.
const matrixPanes = (box) =>
  paneSlot(box, {
    hide: (pane) =>
      pane.figures.forEach(({ el }) => {
        el.removeAttribute('id');
        delete el.dataset.name;
      }),
    reveal: (pane) =>
      pane.figures.forEach(({ el, id, name }) => {
        el.id = id;
        el.dataset.name = name;
      }),
  });

// A kept step's extras keep their ids aside (data-kept-id), so that only the shown step's overview
// buttons, word buttons and titles answer to them; their labels' `for` (data-kept-for), so that
// a hidden label does not name the shown step's field of the same id (the loss box, under AV and on
// dO); and their radio buttons' `name` (data-kept-name), so that the document holds one group per
// choice: a hidden group of the same name would take the check from the one on screen.
const ASIDE = [
  { attribute: 'id', key: 'keptId', data: 'data-kept-id' },
  { attribute: 'for', key: 'keptFor', data: 'data-kept-for' },
  { attribute: 'name', key: 'keptName', data: 'data-kept-name' },
];
const keepIds = (pane) => {
  for (const { attribute, key } of ASIDE)
    pane.el.querySelectorAll(`[${attribute}]`).forEach((el) => {
      el.dataset[key] = el.getAttribute(attribute);
      el.removeAttribute(attribute);
    });
};
const restoreIds = (pane) => {
  for (const { attribute, key, data } of ASIDE)
    pane.el.querySelectorAll(`[${data}]`).forEach((el) => {
      el.setAttribute(attribute, el.dataset[key]);
      delete el.dataset[key];
    });
};

/** A step's extras (the mix, the word lines, the heads overview, …) in a pane of their own. */
const extrasPane = () => ({ el: h('div', {}) });

/** The pane of the step on screen in a stage root (its matrices), or null before the first step. */
export function shownPane(root) {
  return mounted.get(root)?.panes.shown?.el ?? null;
}

/** Where a stage root shows the step's formula filled in with a cell's numbers, or null before the first step. */
export function filledSlots(root) {
  const parts = mounted.get(root);
  return parts ? { formulas: parts.formulas, filled: parts.filled, caption: parts.filledCaption } : null;
}

const whenIdle = (fn) =>
  window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 1000 }) : setTimeout(fn, 200);

/**
 * While the reader reads, makes the panes of the steps after this one ready, one step per idle
 * moment: its formula, its matrices and its extras (the mix, the heads overview…) built and laid
 * out. The next step's are also brought up to date with today's numbers; a later step's, once
 * built, are updated when the reader gets there.
 */
function prepareAhead(parts, ctx) {
  const view = { digits: ctx.state.digits, theme: ctx.theme, t: ctx.t };
  const next = ctx.state.step + 1;
  const asked = ++parts.prepared;
  const prepare = (step) => {
    // Done; or the page has changed since; or the stage is hidden (a lab is open): nothing to read ahead for.
    if (step > stepCount(ctx.state) || asked !== parts.prepared || parts.matrices.closest('[hidden]')) return;
    const stepId = stepIdAt(ctx.state, step);
    const stepCtx = { ...ctx, state: { ...ctx.state, step } };
    const detail = formulaTemplate('detail', stepId, stepCtx.state);
    parts.detailPanes.prepare(detail, () => formulaPane(detail));
    const { content, specs } = stepSpecs(stepId, stepCtx);
    const key = paneKey(stepId, specs);
    if (step === next || !parts.panes.has(key)) {
      const pane = parts.panes.prepare(
        key,
        () => buildPane(stepId, content, view),
        (pane) => {
          specs.forEach((spec, index) => pane.rendered[index].update(spec, view));
          pane.legend ??= legend(stepId, specs, stepCtx);
        },
      );
      parts.extraPanes.prepare(stepId, extrasPane, (box) => {
        // Set aside before they join the page: a checked radio button joining it would uncheck its group.
        const made = { el: h('div', {}, extras(stepId, stepCtx, pane.mix)) };
        keepIds(made);
        place(box.el, [...made.el.children]);
      });
    }
    whenIdle(() => prepare(step + 1));
  };
  whenIdle(() => prepare(next));
}

/**
 * Renders the step into `root`. ctx: { state, model, t, on, theme, tokens, stale, row, onRow,
 * chooseHead, arrows }.
 * `stale` is true when the inputs are invalid and this is the last good result; `row` is the
 * word chosen everywhere (or null).
 */
export function renderStage(root, ctx) {
  const { state, t } = ctx;
  const stepId = stepIdAt(state, state.step);
  const view = { digits: state.digits, theme: ctx.theme, t };
  const { content, specs } = stepSpecs(stepId, ctx);
  let parts = mounted.get(root);
  if (!parts) {
    parts = skeleton(root);
    mounted.set(root, parts);
  }
  // Where the matrices are, for the motion to the next step: read before anything is changed, so
  // that reading it does not make the browser lay the page out an extra time.
  const before = parts.step && parts.step !== stepId ? capture(root) : new Map();
  const options = optionLooks(state);
  // The shown head's colour, for the steps that are that head's own (styles/heads.css).
  if (state.heads > 1) root.style.setProperty('--head-color', headColor(state.head - 1, ctx.theme));
  root.classList.toggle('has-heads', state.heads > 1);

  const words = stepWords(stepId, state);
  refresh(parts, 'title', JSON.stringify([stepId, state.lang, words.title, stepCount(state)]), () => [
    h('span', { class: 'step-no' }, t('nav.position', { step: state.step, total: stepCount(state) })),
    ' ',
    t(words.title),
  ]);
  refresh(parts, 'text', JSON.stringify([stepId, state.lang, words.text]), () => t(words.text));
  refresh(parts, 'source', JSON.stringify([stepId, state.lang, articleUrl(state)]), () => stepCite(stepId, ctx));
  refresh(parts, 'controls', JSON.stringify([stepId, state.lang, state.temperature, ...options]), () =>
    stageControls(stepId, ctx),
  );
  parts.formulas.setAttribute('aria-label', t('stage.formula'));
  // The same template serves several variants: a formula is replaced only when its template changes.
  const main = formulaTemplate('main', null, state);
  // With heads, the main formula goes on: head_i = Attention(Q_i, K_i, V_i), MultiHead(X) = concat·W_O.
  const joined = state.heads > 1 ? formulaTemplate('heads', null, state) : null;
  const detail = formulaTemplate('detail', stepId, state);
  if (parts.mainTemplate !== main || parts.headsTemplate !== joined) {
    parts.mainTemplate = main;
    parts.headsTemplate = joined;
    parts.main.replaceChildren(...[main, joined].filter(Boolean).map((template) => template.content.cloneNode(true)));
  }
  parts.detailPanes.show(detail, () => formulaPane(detail));
  parts.formulas.dataset.part = stepById(stepId).formula.part;

  const said = noticeNodes(stepId, ctx);
  if (said.map((p) => p.outerHTML).join() !== [...parts.notices.children].map((p) => p.outerHTML).join())
    parts.notices.replaceChildren(...said);

  const family = familyOf(ctx);
  if (family !== parts.family) {
    parts.panes.clear();
    parts.extraPanes.clear();
    parts.family = family;
    root.style.setProperty('--cell-width', `calc(${state.digits + 3}ch + 0.9em)`);
  }
  const shownBefore = parts.panes.shown;
  const pane = parts.panes.show(paneKey(stepId, specs), () => buildPane(stepId, content, view));
  // Its numbers, brought up to date: only the cells whose number or colour changed are written.
  specs.forEach((spec, index) => pane.rendered[index].update(spec, view));
  const extra = parts.extraPanes.show(stepId, extrasPane);
  place(extra.el, extras(stepId, ctx, pane.mix));
  parts.extras.classList.toggle('empty', !extra.el.childElementCount);
  prepareAhead(parts, ctx);
  parts.step = stepId;
  if (pane === shownBefore) return;
  pane.legend ??= legend(stepId, specs, ctx);
  parts.legend.replaceChildren(pane.legend);
  animateStep(root, before, MADE_FROM);
}
