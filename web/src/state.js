// The whole state of the page, and its round trip through the URL hash. Pure: no DOM.
//
// One table of fields (FIELDS) drives both directions, so every field that is parsed is also
// written, and a link restores exactly the view it was copied from. Matrices are written only
// for custom inputs; presets are rebuilt from their name (and, for random, from seed and sizes).

import {
  PRESETS,
  inputShapes,
  presetMode,
  presetHeads,
  presetSizes,
  presetMatrices,
  seededRandom,
  randomMatrix,
  randomRange,
} from './presets.js';
import { STEPS, stepsFor, stepNumber } from './steps.js';
import { MAX_HEADS } from '../../wasm/vocabulary.mjs';
import { HEAD_COLORS } from './head-colors.js';
import { parseNumber } from './parse-matrix.js';
import { OPTIONS, optionsAtDefaults, optionLooks, optionDefaults } from './options.js';
import { integer, oneOf, flag } from './fields.js';
import { FEATURES } from './features/index.js';
import { CLASSROOM_FIELDS, inClassroom, pagesSteps } from './classroom.js';
import { LOSSES, lossShape } from './backward.js';
import { isArticleUrl } from './article.js';
import { wordsLink, presetWords, stateTokens, fitWords, wordsFit } from './words.js';

/** The article's steps (steps.js), re-exported for the modules that read them with the state. */
export { STEPS };
export const LANGS = ['zh-CN', 'en'];
/**
 * The page's views (the hash field `view`): the stepper through the article's nine steps, and the
 * labs that test its claims — §4's "why divide by √d_k", §8's cost of n², exercises by hand, and
 * one attention layer trained live (§4's "学不动" measured in its √d_k race): the features of
 * features/index.js, in its order.
 */
export const VIEWS = ['steps', ...FEATURES.map((feature) => feature.view)];
export const SIZE_LIMIT = 64; // n, d, d_k, d_v
export const TABLE_LIMIT = 16; // above this, matrices are heatmaps without numbers
export const SIZE_NAMES = ['n', 'd', 'dk', 'dv'];
export const MATRIX_NAMES = ['x', 'wq', 'wk', 'wv', 'q', 'k', 'v', 'wo'];
/**
 * The most heads the page offers: the core's own limit (wasm/vocabulary.mjs MAX_HEADS), within
 * the colours it can tell the heads apart by (head-colors.js).
 */
export const HEADS_LIMIT = Math.min(MAX_HEADS, HEAD_COLORS.light.length);

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

// A number the option's own rule accepts (options.js: the core's rule, wasm/vocabulary.mjs). A
// number the rule refuses (τ = 0, 1e-46, 1e39) is not a link that cannot be read: `problem` says
// why, and the link opens with the option's default and a notice naming the reason (parseState).
const number = (validate) => ({
  parse: (s) => (NUMBER.test(s) && !validate(Number(s)) ? Number(s) : undefined),
  problem: (s) => (NUMBER.test(s) ? validate(Number(s)) : null),
  format: String,
});
// A matrix's cells obey the rule of the cells on the page (parseNumber): a link cannot carry a
// value a reader could not type, such as 1e39, which is +∞ in float32.
const matrix = {
  parse(s) {
    const rows = s.split(';').map((row) => row.split(','));
    if (
      rows.some(
        (row) => row.length !== rows[0].length || row.some((cell) => !NUMBER.test(cell) || !parseNumber(cell).ok),
      )
    )
      return undefined;
    return rows.map((row) => row.map(Number));
  },
  // −0 written as -0 (String(-0) is "0"): a link gives back the very numbers it was written from.
  format: (rows) => rows.map((row) => row.map((v) => (Object.is(v, -0) ? '-0' : String(v))).join(',')).join(';'),
};

const size = integer(1, SIZE_LIMIT);
// Where the article lives (article.js): an https: address. Any other is refused with a notice that
// names the field (notice.linkArticle), and the rest of the link is read.
const articleLink = {
  parse: (s) => (isArticleUrl(s) ? s : undefined),
  problem: (s) => (isArticleUrl(s) ? null : 'notHttps'),
  notice: 'linkArticle',
  format: String,
};

/** The theme switch's choices: follow the system's light or dark, or fix one. */
export const THEMES = ['system', 'light', 'dark'];

/**
 * Every field of the state: its key (in the state and in the hash), its type and its default; and
 * `figures: true` on a field that changes which steps there are or how their figures are named,
 * shaped and drawn (figureLooks).
 */
export const FIELDS = [
  // Written only for a lab, so that every link to the stepper reads as it always has.
  { key: 'view', type: oneOf(VIEWS), initial: 'steps', only: (s) => s.view !== 'steps' },
  { key: 'step', type: integer(1, STEPS.length), initial: 1 },
  { key: 'lang', type: oneOf(LANGS), initial: 'zh-CN' },
  { key: 'preset', type: oneOf([...PRESETS, 'custom']), initial: 'article' },
  { key: 'mode', type: oneOf(['x', 'qkv']), initial: 'qkv', figures: true },
  { key: 'n', type: size, initial: 2, figures: true },
  { key: 'd', type: size, initial: 2, figures: true },
  { key: 'dk', type: size, initial: 2, figures: true },
  { key: 'dv', type: size, initial: 2, figures: true },
  { key: 'seed', type: integer(0, 2 ** 31 - 1), initial: 1, only: (s) => s.preset === 'random' },
  // Multi-head attention: how many heads (dk and dv are then the widths h·d_k and h·d_v of W_Q and
  // W_V), and which head the article's steps show (1-based). Written only with more than one head,
  // so that every one-head link reads as it always has.
  { key: 'heads', type: integer(1, HEADS_LIMIT), initial: 1, only: (s) => s.heads > 1, figures: true },
  { key: 'head', type: integer(1, HEADS_LIMIT), initial: 1, only: (s) => s.heads > 1 },
  // The article's switches (options.js): the JS API's names and defaults.
  ...OPTIONS.map((o) => ({ key: o.key, type: o.values ? oneOf(o.values) : number(o.validate), initial: o.initial })),
  { key: 'digits', type: oneOf([2, 4, 6]), initial: 4 },
  // The colours: the system's (not written), or the one the reader chose with the theme switch.
  { key: 'theme', type: oneOf(THEMES), initial: 'system', only: (s) => s.theme !== 'system' },
  // The article's address, for a blog that hosts it (article.js); none: the build's, or no link.
  { key: 'article', type: articleLink, initial: '', only: (s) => s.article !== '' },
  // Whose words label the rows (words.js): none (numbers), a preset's ("它 是 猫", its 2-head
  // version too), or the reader's own list. Kept when a preset's numbers are edited, fitted when n
  // changes; written for custom inputs, and for a preset whose words the reader changed.
  {
    key: 'words',
    type: wordsLink,
    initial: 'none',
    only: (s) => s.preset === 'custom' || s.words !== presetWords(s.preset),
  },
  // Embedding (the public contract of blog embeds, docs/guide.md "For blog authors"): `embed=1` shows only the
  // stage of the step; `panel=1` adds the input panel and `nav=1` the step navigation.
  { key: 'embed', type: flag, initial: false, only: (s) => s.embed },
  { key: 'panel', type: flag, initial: false, only: (s) => s.embed && s.panel },
  { key: 'nav', type: flag, initial: false, only: (s) => s.embed && s.nav },
  // The classroom mode (classroom.js): `classroom=1` shows the stage, or a lab's charts, in large
  // type; `pace=8` advances the stepper.
  ...CLASSROOM_FIELDS,
  // Each feature's own fields (features/index.js), written only in its view.
  ...FEATURES.flatMap(({ view, fields }) =>
    fields.map((field) => ({ ...field, only: (s) => s.view === view && (field.only?.(s) ?? true) })),
  ),
  // One training step through the stepper (backward.js): the loss, and the matrix it needs — the
  // target Y of L = ½‖AV − Y‖², or dO = ∂L/∂(AV) given as it is (a trained model's probe). Written
  // only with a loss, so that every link without one reads as it always has.
  { key: 'loss', type: oneOf(LOSSES), initial: 'none', only: (s) => s.loss !== 'none', figures: true },
  { key: 'y', type: matrix, initial: null, only: (s) => s.loss === 'mse' },
  { key: 'dout', type: matrix, initial: null, only: (s) => s.loss === 'given' },
  ...MATRIX_NAMES.map((name) => ({
    key: name,
    type: matrix,
    matrix: true,
    only: (s) => s.preset === 'custom' && name in inputShapes(s),
  })),
];

/** The page as it first opens: the article's worked example, step 1, in Chinese. */
/**
 * What of the state changes which steps there are and how their figures are named, shaped and
 * drawn: the fields marked `figures` (the mode, the sizes, the heads, the loss: a new dimension
 * marks its own field), then each option by its look (options.js). The map and the stage keep what
 * they built while these stay the same.
 */
export const figureLooks = (state) => [
  ...FIELDS.filter((field) => field.figures).map((field) => state[field.key]),
  ...optionLooks(state),
];

/**
 * The state in the article's own setting: every field marked `figures` but the sizes (the mode,
 * the heads, the loss, and any dimension added later) and every option at its default — Q, K, V
 * given, one head, no loss, ÷√dₖ along the rows: what the exercise's sheet is asked in.
 */
export const articleSetting = (state) => ({
  ...state,
  ...Object.fromEntries(
    FIELDS.filter((field) => field.figures && !SIZE_NAMES.includes(field.key)).map((field) => [
      field.key,
      field.initial,
    ]),
  ),
  ...optionDefaults(),
});

export function defaultState() {
  const state = { mats: {} };
  for (const field of FIELDS)
    if (!field.matrix) state[field.key] = Array.isArray(field.initial) ? [...field.initial] : field.initial;
  return resolvePreset(state);
}

/** Fills mode, sizes and matrices from the preset (custom keeps its own). */
function resolvePreset(state) {
  if (state.preset === 'custom') return state;
  if (state.preset !== 'random')
    Object.assign(
      state,
      { mode: presetMode(state.preset), heads: presetHeads(state.preset) },
      presetSizes(state.preset),
    );
  state.head = Math.min(state.head, state.heads);
  state.mats = presetMatrices(state.preset, { mode: state.mode, sizes: state, seed: state.seed, heads: state.heads });
  return state;
}

/**
 * True while the page shows the article's own numbers (§7): its example with every option at its
 * default. The article's remarks on them ("the other weight still gets 0.33") hold only then.
 */
export function showsArticleNumbers(state) {
  return state.preset === 'article' && optionsAtDefaults(state);
}

/** True when every matrix the mode needs is present with the shape the sizes say. */
export function shapesAgree(state) {
  return Object.entries(inputShapes(state)).every(([name, [r, c]]) => {
    const m = state.mats[name];
    return Array.isArray(m) && m.length === state[r] && m.every((row) => row.length === state[c]);
  });
}

/** Writes the state as a URL hash, e.g. `#step=3&lang=zh-CN&preset=article&…`. */
export function serializeState(state) {
  const parts = [];
  for (const field of FIELDS) {
    if (field.only && !field.only(state)) continue;
    const value = field.matrix ? state.mats[field.key] : state[field.key];
    const text = encodeURIComponent(field.type.format(value)).replace(/%2C/g, ',').replace(/%3B/g, ';');
    parts.push(`${field.key}=${text}`);
  }
  return '#' + parts.join('&');
}

/** The same state as a full-page link: the embed switches removed ("Open in the playground"). */
export function withoutEmbed(state) {
  return { ...state, embed: false, panel: false, nav: false };
}

/**
 * Reads a URL hash. Returns { state, notice } where notice is null, or 'badHash' when the hash
 * did not parse and the default state is returned instead (never a half-read state), or
 * { key: 'linkTemperature', problem, text } when only its temperature was refused (a number
 * vocabulary.mjs's rule refuses, written as `text`): the rest of the link is read, τ is the default;
 * likewise { key: 'linkArticle', … } for an article link that is not https: (no link is kept), and
 * { key: 'linkLoss', problem: 'missing' | 'shape', field: 'y' | 'dout', loss, rows, cols, text }
 * for a loss whose matrix is missing or not in its shape (it is fitted: cells kept, new ones 0).
 */
export function parseState(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (text === '') return { state: defaultState(), notice: null };
  const fallback = { state: defaultState(), notice: 'badHash' };
  const raw = new Map();
  for (const part of text.split('&')) {
    const at = part.indexOf('=');
    if (at <= 0) return fallback;
    try {
      raw.set(part.slice(0, at), decodeURIComponent(part.slice(at + 1)));
    } catch {
      return fallback;
    }
  }
  const state = defaultState();
  state.mats = {};
  let notice = null;
  // A link without `words` has its preset's (none for custom inputs), read after the preset.
  if (!raw.has('words')) raw.set('words', presetWords(raw.get('preset') ?? state.preset));
  for (const field of FIELDS) {
    if (!raw.has(field.key)) continue;
    const value = field.type.parse(raw.get(field.key));
    const problem = value === undefined && field.type.problem?.(raw.get(field.key));
    if (problem) {
      notice = { key: field.type.notice ?? 'linkTemperature', problem, text: raw.get(field.key) };
      continue;
    }
    if (value === undefined) return fallback;
    if (field.matrix) state.mats[field.key] = value;
    else state[field.key] = value;
  }
  if (!state.embed) Object.assign(state, { panel: false, nav: false }); // they only refine an embed
  if (!inClassroom(state)) state.classroom = false; // a whole screen's
  if (!pagesSteps(state)) state.pace = 0; // the stepper's: a lab has no steps to advance
  if (!FEATURES.every((feature) => feature.accepts?.(state) ?? true)) return fallback; // e.g. a question beyond the exercise's series
  // A feature's field that its other fields leave no place for (a hand-written link; e.g. the
  // training lab's fork in its race): dropped by the feature's change, the rest kept, and named.
  for (const fitted of FEATURES.map((feature) => feature.fit?.(state)).filter(Boolean)) {
    Object.assign(state, fitted.change);
    notice = fitted.notice;
  }
  if (state.head > state.heads) return fallback;
  resolvePreset(state);
  if (state.heads > 1 && state.mode !== 'x') return fallback; // heads are computed from X
  if (!shapesAgree(state)) return fallback;
  // The loss's matrix missing, or not in the shape its loss needs (lossShape; a hand-written link): the rest is read,
  // the matrix fitted (its cells that fit kept, the others 0), and the notice names the field.
  if (!lossAgrees(state)) {
    const field = LOSS_MATRIX[state.loss];
    const [rows, cols] = lossShape(state);
    const problem = raw.has(field) ? 'shape' : 'missing';
    notice = { key: 'linkLoss', problem, field, loss: state.loss, rows, cols, text: raw.get(field) ?? '' };
    Object.assign(state, fitLoss(state));
  }
  if (state.step > stepsFor(state).length) return fallback; // concat and ·W_O: with heads only
  // Words not one per row (a hand-written link): the rest is read, the words fitted to n as an n
  // change fits them (each row that has none gets its number), and the notice names the field.
  if (!wordsFit(state)) {
    const count = stateTokens(state).length;
    notice = { key: 'linkWords', problem: 'count', count, n: state.n, text: raw.get('words') ?? state.words };
    state.words = fitWords(state, state.n);
  }
  for (const name of Object.keys(state.mats)) if (!(name in inputShapes(state))) delete state.mats[name];
  return { state, notice };
}

// ---- Changes. Each returns a new state (or { error }) and never changes its argument. ----------

// Matrices are copied one by one so that no two names ever share an array (editing Q must not edit K).
const copyRows = (rows) => rows.map((row) => [...row]);
const copy = (state) => ({
  ...state,
  mats: Object.fromEntries(Object.entries(state.mats).map(([name, rows]) => [name, copyRows(rows)])),
});

/** A preset with its own words; the same preset again (a new seed) keeps the reader's. */
export function choosePreset(state, preset) {
  const words = preset === state.preset ? state.words : presetWords(preset);
  return keepStep(state, resolvePreset({ ...copy(state), preset, words }));
}

/**
 * The words that label the rows (words.js): 'none', a preset's name, or one word per row — the
 * caller checks the count against n (readWords). The inputs stay as they are.
 */
export function setWords(state, words) {
  return { ...copy(state), words: Array.isArray(words) ? [...words] : words };
}

/**
 * The step of `next`, a change of `previous` that may change which steps there are (a preset, the
 * heads, the mode, the loss): the reader stays on the same step by its identity where `next` still
 * has it (dO stays dO when the heads change, though its number moves), else on the nearest step
 * before it that `next` has (from concat to one head: AV). A change that moved the step itself
 * (`next.step` is not `previous.step`: a step chosen, Back) or came from another view (a lab's
 * hand-off names its step) keeps its number, within next's steps.
 */
export function keepStep(previous, next) {
  const count = stepsFor(next).length;
  if (next.step !== previous.step || next.view !== previous.view)
    return next.step <= count ? next : { ...next, step: count };
  const before = stepsFor(previous).map((step) => step.id);
  for (let k = Math.min(previous.step, before.length); k >= 1; k--) {
    const step = stepNumber(next, before[k - 1]);
    if (step) return step === next.step ? next : { ...next, step };
  }
  return { ...next, step: 1 };
}

/**
 * What the page makes of a change as it adopts it (controller/page.js commit): the loss's matrix in
 * AV's shape (fitLoss), and the step kept by its identity (keepStep) — or, for a state read from a
 * link or from Back (`fromUrl`), its number, within the state's steps.
 */
export function adopt(previous, next, { fromUrl = false } = {}) {
  const fitted = fitLoss(next);
  if (!fromUrl) return keepStep(previous, fitted);
  const count = stepsFor(fitted).length;
  return fitted.step <= count ? fitted : { ...fitted, step: count };
}

export function setOption(state, key, value) {
  return { ...copy(state), [key]: value };
}

/** One cell of one input matrix; the inputs become custom. */
export function setCell(state, name, i, j, value) {
  const next = { ...copy(state), preset: 'custom' };
  next.mats[name][i][j] = value;
  return next;
}

/** New sizes: existing values are kept, new cells get seeded random values. */
export function resize(state, sizes) {
  for (const key of SIZE_NAMES) {
    const value = sizes[key] ?? state[key];
    if (!Number.isInteger(value) || value < 1 || value > SIZE_LIMIT)
      return { error: { key: 'size', field: key, max: SIZE_LIMIT } };
  }
  const next = { ...copy(state), ...sizes };
  if (next.n !== state.n) next.words = fitWords(state, next.n); // the words that still fit
  if (state.preset === 'random') return resolvePreset(next);
  next.preset = 'custom';
  const fill = seededRandom(next.seed + 7919);
  for (const [name, [r, c]] of Object.entries(inputShapes(next))) {
    const old = next.mats[name] ?? [];
    const fresh = randomMatrix(fill, next[r], next[c]);
    next.mats[name] = fresh.map((row, i) => row.map((v, j) => old[i]?.[j] ?? v));
  }
  return next;
}

/** A whole pasted matrix; its shape may change the sizes, and the other matrices follow. */
export function setMatrix(state, name, rows) {
  const [r, c] = inputShapes(state)[name];
  const sized = resize(state, { [r]: rows.length, [c]: rows[0].length });
  if (sized.error) return sized;
  const next = { ...sized, preset: 'custom' };
  next.mats[name] = copyRows(rows);
  return next;
}

/**
 * Switches between "from X" and "Q, K, V directly" without changing any result:
 * to qkv, Q, K, V are the projections already computed; to x, X = I_n and W_Q, W_K, W_V = Q, K, V.
 * Heads are computed from X only: to qkv, the head on screen (its Q, K, V) becomes the one head.
 */
export function switchMode(state, mode, projections) {
  if (mode === state.mode) return state;
  const next = { ...copy(state), mode, preset: 'custom', heads: 1, head: 1 };
  if (mode === 'qkv') {
    next.mats = { q: copyRows(projections.q), k: copyRows(projections.k), v: copyRows(projections.v) };
    // One head's Q, K, V are narrower than W_Q and W_V were (d_k = h·d_k / h).
    Object.assign(next, { dk: projections.q[0].length, dv: projections.v[0].length });
  } else {
    const identity = Array.from({ length: state.n }, (_, i) =>
      Array.from({ length: state.n }, (_, j) => (i === j ? 1 : 0)),
    );
    next.d = state.n;
    next.mats = { x: identity, wq: next.mats.q, wk: next.mats.k, wv: next.mats.v };
  }
  return keepStep(state, next);
}

/**
 * `heads` heads (multi-head attention), computed from X: from "Q, K, V directly" the inputs first
 * become X = I_n and W = Q, K, V (switchMode). A new W_O is seeded random, like a grown matrix;
 * the shown head stays if it still exists, and the step by its identity (keepStep). The core refuses a count that
 * does not divide d_k and d_v (heads_indivisible), in the reader's words at the field.
 */
export function setHeads(state, heads, projections) {
  if (heads === state.heads) return state;
  const from = heads > 1 && state.mode !== 'x' ? switchMode(state, 'x', projections) : copy(state);
  const next = { ...from, step: state.step, heads, head: Math.min(state.head, heads) };
  if (next.preset === 'random') return keepStep(state, resolvePreset(next));
  next.preset = 'custom';
  const [r, c] = inputShapes(next).wo ?? [];
  if (!r) delete next.mats.wo;
  else if (next.mats.wo?.length !== next[r] || next.mats.wo[0].length !== next[c])
    next.mats.wo = randomMatrix(seededRandom(next.seed + 7919), next[r], next[c], randomRange('wo', next));
  return keepStep(state, next);
}

// ---- The loss of the backward steps (backward.js) ------------------------------------------------

/** The matrix the loss reads from the state: 'y' (the target) for ½‖AV − Y‖², 'dout' when dO is given. */
const LOSS_MATRIX = { mse: 'y', given: 'dout' };

/** True when the loss needs no matrix, or has its matrix in the shape of what the loss is on (lossShape). */
function lossAgrees(state) {
  const name = LOSS_MATRIX[state.loss];
  if (!name) return true;
  const [rows, cols] = lossShape(state);
  const m = state[name];
  return Array.isArray(m) && m.length === rows && m.every((r) => r.length === cols);
}

/**
 * The state with its loss's matrix in the shape AV has now (after n, d_v or the heads changed):
 * the cells that still exist are kept, new ones are 0. The same state when it already fits.
 */
export function fitLoss(state) {
  if (lossAgrees(state)) return state;
  const name = LOSS_MATRIX[state.loss];
  const [rows, cols] = lossShape(state);
  const old = state[name] ?? [];
  const fitted = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => old[i]?.[j] ?? 0));
  return { ...state, [name]: fitted };
}

/**
 * Turns the backward steps on with a loss, or off ('none'). `shown` holds the shown head's V and
 * AV as rows: the target Y of ½‖AV − Y‖² starts as V (each word keeps only its own value: on the
 * worked example Y = 10·I, and the gradient sharpens A towards I); a given dO starts as the
 * gradient of L = (AV)₁₁ (1 in its first cell), the worked example of docs/api.md. A matrix the state
 * already holds in the right shape is kept. The step stays if it still exists (keepStep).
 * With heads the loss is on the layer's output O = concat·W_O, n × d like X, and Y starts as X: the
 * layer asked to give each word back its own input.
 */
export function setLoss(state, loss, shown) {
  const next = { ...copy(state), loss };
  const [rows, cols] = lossShape(next);
  if (loss === 'mse' && !lossAgrees(next)) next.y = copyRows((next.heads ?? 1) > 1 ? next.mats.x : shown.v);
  if (loss === 'given' && !lossAgrees(next))
    next.dout = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i + j === 0 ? 1 : 0)));
  return keepStep(state, next);
}

/** One cell of the loss's matrix (Y or the given dO); the inputs stay as they are. */
export function setLossCell(state, i, j, value) {
  const name = LOSS_MATRIX[state.loss];
  const next = { ...state, [name]: copyRows(state[name]) };
  next[name][i][j] = value;
  return next;
}

/** The whole matrix of the loss (Y or the given dO), in AV's shape (the caller checks it). */
export function setLossMatrix(state, rows) {
  return { ...state, [LOSS_MATRIX[state.loss]]: copyRows(rows) };
}

/**
 * The state a trained model's probe opens the stepper with (the training lab's hand-off): X, the
 * head's W_Q, W_K, W_V (as rows), its scaling and mask, and dO the gradient the model's loss sends
 * to the head's output, given. Its first backward step is shown.
 */
export function probeState(state, { x, wq, wk, wv, dout, scale, mask, lang }) {
  const base = {
    ...defaultState(),
    lang: lang ?? state.lang,
    theme: state.theme,
    digits: state.digits,
    article: state.article ?? '',
  };
  const next = {
    ...base,
    preset: 'custom',
    mode: 'x',
    words: 'none',
    n: x.length,
    d: x[0].length,
    dk: wq[0].length,
    dv: wv[0].length,
    heads: 1,
    head: 1,
    scale,
    mask,
    mats: { x: copyRows(x), wq: copyRows(wq), wk: copyRows(wk), wv: copyRows(wv) },
    loss: 'given',
    dout: copyRows(dout),
  };
  next.step = stepsFor(next).findIndex((step) => step.id === 'dout') + 1;
  return next;
}
