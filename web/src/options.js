// The article's switches, one description each. Everything the page does with an option derives
// from its entry in OPTIONS: the state and its URL field (state.js FIELDS), the options handed to
// the core (model.js stepOptions), the input panel and the stage's copies (views/controls.js), the
// notices on the stage (views/stage.js), the exports' file names and the tie test
// (tests/web/descriptions.test.mjs). The names and defaults are the JS API's (wasm/vocabulary.mjs).
// Pure: no DOM.
//
// An entry:
//   key      the field in the state and in the URL hash (its position in OPTIONS is its position
//            in the hash and in the panel);
//   values   the values it takes (a choice), or absent for a number;
//   initial  its default, the API's;
//   validate (number only) value → null, or the problem the core would refuse it for;
//   message  (number only) (problem, t, typed text) → the sentence the field shows for it;
//   api      value → the options of attentionSteps it sets ({ stable: true } for 'stable');
//   look     value → what of it changes how the figures are named and drawn (default: the value);
//   inFormula the pre-rendered formulas differ by its value (one KaTeX template per combination);
//   control  'radios' | 'checkbox' ({ on, off } values) | 'number', with words: its label, each
//            value's words (`opt.<key>.<value>`), and optional hint and faq keys;
//   forms    value → what it does to the names, formulas and words the views write (optionForms):
//            the one place those read it, so that no view compares an option's value;
//   notice   { from, rank, say(value, model) → [kind, i18n key, params] | null }: the stage's
//            notice about it, on every step from `from` on, in the order of rank;
//   fileTag  value → the word the exported files' names carry when it is not the default, or null;
//   summary  (value, t) → how the printed handout's header lists it, or null to leave it out.

import { SCALES, MASKS, SOFTMAXES, AXES, DEFAULTS, temperatureProblem } from '../../wasm/vocabulary.mjs';
import { temperatureMessage } from './input-rules.js';
import { normalizeText } from './parse-matrix.js';

/**
 * The scaling rule (article §4), in the one place the page writes it: what each scale divides the
 * scores by (the core's score divisor at temperature 1), and how each medium writes that divisor —
 * TeX for the pre-rendered formulas, plain text for labels, Python for the NumPy export, and
 * `root` for the MathML the views build (√ around d_k, or d_k alone). The temperature τ multiplies
 * it (x_ij = S_ij / (divisor · τ)).
 */
export const SCALE_RULES = Object.freeze({
  sqrt_dk: {
    divisor: (dk) => Math.sqrt(dk),
    tex: '\\sqrt{d_k}',
    text: '√dₖ',
    py: 'np.sqrt(np.float32(d_k))',
    root: true,
  },
  dk: { divisor: (dk) => dk, tex: 'd_k', text: 'dₖ', py: 'np.float32(d_k)', root: false },
  none: { divisor: () => 1, tex: null, text: '', py: '', root: false },
});

/** The whole divisor of x_ij = S_ij / divisor for these options at this d_k: the scale's, times τ. */
export const scoreDivisor = ({ scale, temperature }, dk) => SCALE_RULES[scale].divisor(dk) * temperature;

/** The temperature rule: wasm/vocabulary.mjs's temperatureProblem, the one the API checks by. */
const temperatureRule = (value) => temperatureProblem(value);

/**
 * What the temperature does to the names and formulas: at τ = 1 nothing; otherwise the scaled
 * scores are named S/√dₖ/τ and every division by the scale's divisor is also by τ.
 */
const temperatureForms = (temperature) => ({ tau: temperature !== DEFAULTS.temperature });

/**
 * What each softmax does to the names, formulas and words: the stable one subtracts each row's
 * max before eˣ (E = exp(x − max), the popover's "subtract the max" line); the naive one does not,
 * and its own notice explains the ∞ and NaN from its eˣ on (the stage says nothing more of them).
 */
const SOFTMAX_FORMS = Object.freeze({
  stable: { shiftsMax: true, explainsNonFiniteFrom: null },
  naive: { shiftsMax: false, explainsNonFiniteFrom: 'exp' },
});

/**
 * What each axis does to the figures and words: along the rows, the max and sum stand beside the
 * rows (`mat.rowMax`), the popover's lines say "row" (`explain.sum`), each row of A is a
 * distribution the word lines can read, and NumPy reduces along axis −1; along the columns, they
 * stand under the columns (`mat.colMax`), the lines say "column" (`explain.sumColumn`), no row of
 * A need sum to 1, and NumPy reduces along axis 0.
 */
const AXIS_FORMS = Object.freeze({
  row: {
    byColumn: false,
    reduceWords: 'row',
    lineWords: '',
    rowsSumToOne: true,
    pyAxis: '-1',
    pyWords: 'export.py.rows',
    // the formulas' pieces along the row (§5): max_j′ x_ij′, Σ_i = Σ_j e_ij, Σ_j A_ij = 1
    tex: {
      max: "\\max_{j'} x_{ij'}",
      sum: '\\Sigma_i',
      sumDef: '\\Sigma_i = \\sum_{j=1}^{n} e_{ij}',
      sumsToOne: '\\sum_{j=1}^{n} A_{ij} = 1',
      gradDot: '\\sum_{t=1}^{n} A_{it}\\, dA_{it}',
    },
  },
  column: {
    byColumn: true,
    reduceWords: 'col',
    lineWords: 'Column',
    rowsSumToOne: false,
    pyAxis: '0',
    pyWords: 'export.py.columns',
    // the same down column j: max_i′ x_i′j, Σ_j = Σ_i e_ij, Σ_i A_ij = 1
    tex: {
      max: "\\max_{i'} x_{i'j}",
      sum: '\\Sigma_j',
      sumDef: '\\Sigma_j = \\sum_{i=1}^{n} e_{ij}',
      sumsToOne: '\\sum_{i=1}^{n} A_{ij} = 1',
      gradDot: '\\sum_{t=1}^{n} A_{tj}\\, dA_{tj}',
    },
  },
});

export const OPTIONS = Object.freeze([
  {
    key: 'scale',
    inFormula: true,
    values: SCALES,
    initial: DEFAULTS.scale,
    api: (scale) => ({ scale }),
    control: 'radios',
    words: { label: 'opt.scale', faq: 'opt.scale.faq', faqText: 'opt.scale.faqText' },
    notice: {
      from: 'scale',
      rank: 3,
      say: (scale) => (scale !== DEFAULTS.scale ? ['warn', `notice.scale.${scale}`] : null),
    },
    forms: (scale) => ({ divisor: SCALE_RULES[scale] }),
    fileTag: (scale) => (scale === DEFAULTS.scale ? null : scale === 'none' ? 'unscaled' : 'div-dk'),
    summary: (scale, t) => t(`opt.scale.${scale}`),
  },
  {
    key: 'temperature',
    initial: DEFAULTS.temperature,
    validate: temperatureRule,
    message: (problem, t, typed) =>
      temperatureMessage(problem, t, normalizeText(String(typed ?? problem.value)).trim()),
    api: (temperature) => ({ temperature }),
    // Only whether there is one: the figures' names gain /τ, its value is in the formulas' numbers.
    look: (temperature) => temperatureForms(temperature).tau,
    forms: temperatureForms,
    control: 'number',
    words: { label: 'opt.temperature', hint: 'opt.temperatureHint' },
    notice: {
      from: 'scale',
      rank: 5,
      say: (value) => (value !== DEFAULTS.temperature ? ['info', 'notice.temperature', { value }] : null),
    },
    fileTag: (value) => (value === DEFAULTS.temperature ? null : `t${value}`),
    summary: (value) => (value !== DEFAULTS.temperature ? `τ = ${value}` : null),
  },
  {
    key: 'mask',
    values: MASKS,
    initial: DEFAULTS.mask,
    api: (mask) => ({ mask }),
    control: 'checkbox',
    checked: 'causal',
    unchecked: 'none',
    words: { label: 'opt.mask' },
    notice: { from: 'scale', rank: 4, say: (mask) => (mask === 'causal' ? ['info', 'notice.masked'] : null) },
    fileTag: (mask) => (mask === DEFAULTS.mask ? null : mask),
    summary: (mask, t) => (mask !== DEFAULTS.mask ? t('opt.mask') : null),
  },
  {
    key: 'softmax',
    inFormula: true,
    values: SOFTMAXES,
    initial: DEFAULTS.stable ? 'stable' : 'naive',
    api: (softmax) => ({ stable: softmax === 'stable' }),
    control: 'radios',
    words: { label: 'opt.softmax', hint: 'opt.softmax.hint' },
    notice: {
      from: 'max',
      rank: 1,
      say: (softmax, model) => {
        if (softmax !== 'naive') return null;
        // What went wrong, named: an eˣ too large (∞, then ∞/∞), or every eˣ of a row (or column)
        // too small (all 0, then 0/0: scores all near −2000, say). A masked row's zeros are no NaN.
        const has = (m, test) => m.data.some(test);
        const underflowed = has(model.rowSum, (x) => x === 0) && has(model.weights, Number.isNaN);
        const overflowed = has(model.exps, (x) => x === Infinity) || has(model.rowSum, (x) => x === Infinity);
        const nonFinite = [model.exps, model.weights].some((m) => has(m, (x) => !Number.isFinite(x)));
        if (underflowed && !overflowed) return ['warn', 'notice.naiveUnderflow'];
        if (nonFinite) return ['warn', 'notice.naiveOverflow'];
        return ['info', 'notice.naive'];
      },
    },
    forms: (softmax) => SOFTMAX_FORMS[softmax],
    fileTag: (softmax) => (softmax === 'naive' ? 'naive' : null),
    summary: (softmax, t) => t(`opt.softmax.${softmax}`),
  },
  {
    key: 'axis',
    inFormula: true,
    values: AXES,
    initial: DEFAULTS.axis,
    api: (axis) => ({ axis }),
    control: 'radios',
    words: { label: 'opt.axis', faq: 'opt.axis.faq', faqText: 'opt.axis.faqText' },
    notice: {
      from: 'max',
      rank: 2,
      // On a symmetric example (the article's, Q = K) every row may sum to 1 as well: then say
      // so, rather than claim that the rows no longer do.
      say: (axis, model) => {
        if (axis !== 'column') return null;
        const rowsSumToOne = model.weightTotals.rows.every((total) => Math.abs(total - 1) < 1e-5);
        return ['warn', rowsSumToOne ? 'notice.columnAgrees' : 'notice.column'];
      },
    },
    forms: (axis) => AXIS_FORMS[axis],
    fileTag: (axis) => (axis === DEFAULTS.axis ? null : 'columns'),
    summary: (axis, t) => t(`opt.axis.${axis}`),
  },
]);

/** The description of option `key`. */
export const option = (key) => OPTIONS.find((o) => o.key === key);

/** The options' keys, in the hash's order. */
export const OPTION_KEYS = Object.freeze(OPTIONS.map((o) => o.key));

/** The words of a value of a choice: 'opt.scale.sqrt_dk'. */
export const valueWords = (o, value) => `${o.words.label}.${value}`;

/** Every i18n key the options use (the tie test checks each exists in both languages). */
export function optionWordKeys() {
  return OPTIONS.flatMap((o) => [
    ...Object.values(o.words),
    ...(o.control === 'radios' ? o.values.map((v) => valueWords(o, v)) : []),
  ]);
}

/** The options of attentionSteps that the state's switches choose (the JS API's names). */
export const apiOptions = (state) => Object.assign({}, ...OPTIONS.map((o) => o.api(state[o.key])));

/** What of the options changes how the figures are named and drawn (a key for caches). */
export const optionLooks = (state) => OPTIONS.map((o) => (o.look ? o.look(state[o.key]) : state[o.key]));

/**
 * What the state's options do to the names, formulas and words, every option's `forms` in one
 * object: { divisor, tau, shiftsMax, explainsNonFiniteFrom, byColumn, reduceWords, lineWords,
 * rowsSumToOne, pyAxis, pyWords, tex }. A view or an export reads these, never an option's value.
 */
export const optionForms = (state) => Object.assign({}, ...OPTIONS.map((o) => o.forms?.(state[o.key]) ?? {}));

/** Every option at its default: { scale: 'sqrt_dk', temperature: 1, … }. */
export const optionDefaults = () => Object.fromEntries(OPTIONS.map((o) => [o.key, o.initial]));

/** True when every option is at its default (the article's own setting). */
export const optionsAtDefaults = (state) => OPTIONS.every((o) => state[o.key] === o.initial);

/**
 * The stage's notices about the options, most important first, on a step for which
 * atOrAfter(stepId) says whether it is at or after step `stepId`: each [kind, i18n key, params].
 */
export function optionNotices(state, model, atOrAfter) {
  return [...OPTIONS]
    .sort((a, b) => a.notice.rank - b.notice.rank)
    .filter((o) => atOrAfter(o.notice.from))
    .map((o) => o.notice.say(state[o.key], model))
    .filter(Boolean);
}
