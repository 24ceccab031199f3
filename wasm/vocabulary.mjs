// vocabulary.mjs — the words of the JS API in one place: the options' names, their defaults, the
// limits api.mjs enforces and the error codes it can throw. api.mjs checks against these lists,
// the page builds its controls and its URL state from them, and tests/node/vocabulary.test.mjs
// holds them to the core's own tables (core/options.hpp, core/error.hpp), so a name cannot be
// added on one side only.

/** How the scores are divided (article §4): by √d_k, by d_k, or not at all. */
export const SCALES = Object.freeze(['sqrt_dk', 'dk', 'none']);

/** Along which axis softmax runs (§5): each row, or each column (the FAQ's misconception). */
export const AXES = Object.freeze(['row', 'column']);

/** The masks that have a name; a custom mask is a { rows, cols, data } of 0/1 instead. */
export const MASKS = Object.freeze(['none', 'causal']);

/** The softmax's two forms: with the max subtracted (the API's stable: true) or naive (false). */
export const SOFTMAXES = Object.freeze(['stable', 'naive']);

/**
 * Which code computes attentionSteps and project: the SIMD loops (core/attention_steps_simd.cpp,
 * the default) or the plain reference (core/reference.cpp). They agree to float32 rounding.
 */
export const PATHS = Object.freeze(['simd', 'reference']);

/** Every option's value when it is left out. */
export const DEFAULTS = Object.freeze({
  scale: 'sqrt_dk',
  temperature: 1,
  mask: 'none',
  stable: true,
  axis: 'row',
  path: 'simd',
});

/** The largest rows or cols api.mjs accepts (the bindings read sizes as 32-bit integers). */
export const MAX_DIM = 0x7fffffff;

/** The most heads multiHeadAttentionSteps accepts: core/multi_head.hpp's kMaxHeads (tests/node/vocabulary.test.mjs holds the two equal). */
export const MAX_HEADS = 64;

/** The most input bytes one call may copy into wasm memory (2 GiB at most, and the computation needs room too). */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

/** The codes of the core's refusals (core/error.hpp's table), the same in both builds. */
export const CORE_ERROR_CODES = Object.freeze([
  'empty_matrix',
  'wrong_length',
  'not_finite',
  'dk_mismatch',
  'key_value_mismatch',
  'projection_mismatch',
  'mask_shape',
  'mask_value',
  'bad_temperature',
  'bad_option',
  'out_of_range',
  'heads_indivisible',
  'head_width_mismatch',
  'wo_mismatch',
  'projection_overflow',
  'gradient_shape',
  'gradient_not_finite',
  'kv_heads_indivisible',
  'too_much_memory',
]);

/** The codes api.mjs throws itself, for what only JS can see (types, unknown keys, sizes). */
export const API_ERROR_CODES = Object.freeze([
  'bad_arguments',
  'unknown_option',
  'missing_matrix',
  'not_a_matrix',
  'bad_dimension',
  'bad_data',
  'not_a_number',
  'detached_data',
  'bad_option',
  'inputs_too_large',
  'reentrant_call',
  'disposed',
]);

/** Every Error.code a caller can meet; docs/api.md ("Errors") gives each one's argument and params. */
export const ERROR_CODES = Object.freeze([...new Set([...CORE_ERROR_CODES, ...API_ERROR_CODES])]);

// ---- The labs (issue 11) ----------------------------------------------------------------------

/**
 * What dotProductSamples and normalMatrix accept, inclusive: core/samples.hpp's kSampleLimits,
 * repeated here for the page's controls (tests/node/labs.test.mjs holds the two equal). normalMatrix
 * takes rows within `count` and cols within `dk`.
 */
export const SAMPLE_LIMITS = Object.freeze({
  dk: Object.freeze({ min: 1, max: 1024 }),
  count: Object.freeze({ min: 1, max: 32768 }),
  seed: Object.freeze({ min: 0, max: 2 ** 32 - 1 }),
});

/**
 * The entry points workingMemory answers for, by the name their too_much_memory error carries in
 * params.operation (core/working_memory.hpp): attentionSteps (either path), attention,
 * attentionStreaming, attentionTiled.
 */
export const OPERATIONS = Object.freeze(['attention_steps', 'attention', 'attention_streaming', 'attention_tiled']);

// ---- Article 10's efficient paths (issue 30) -------------------------------------------------

/** The orders attentionLinear computes (core/efficiency_shared.hpp's kLinearOrderNames): both, (φ(Q)φ(K)ᵀ)V alone, φ(Q)(φ(K)ᵀV) alone. */
export const LINEAR_ORDERS = Object.freeze(['both', 'quadratic', 'linear']);

// ---- Training (issue 17) ----------------------------------------------------------------------

/** The tasks (core/tasks.hpp): three one layer learns, two it cannot fully learn, and the reader's own table (pairs). */
export const TASKS = Object.freeze(['reverse', 'shift', 'lookup', 'sort', 'induction', 'pairs']);

/** How positions reach the model (core/model.hpp): a one-hot vector appended, or learned and added. */
export const POSITIONS = Object.freeze(['one_hot', 'learned']);

/** The optimizers (core/train.hpp). */
export const OPTIMIZERS = Object.freeze(['adam', 'sgd']);

// createTrainer's fields and their defaults are the core's (core/train.hpp's TrainConfig), read
// from the module once it has loaded: trainer.defaults() in the API (training-api.mjs).

// ---- The input rules (issue 19): one rule per input, the same in the API, the page and the hash.
// The core computes in float32, so a number is acceptable when float32 can hold it as the reader
// meant it: a finite number that does not round to ±∞ (nor, for the temperature, to 0).

/** float32's largest finite number, 2¹²⁸ − 2¹⁰⁴. Numbers up to half an ulp above it round down to it. */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** float32's smallest positive number, the subnormal 2⁻¹⁴⁹. Numbers up to half of it round to 0. */
export const FLOAT32_MIN_POSITIVE = 1.401298464324817e-45;

/**
 * Why a temperature τ (the scaled scores are divided by it) cannot be used, or null when it can:
 * { reason, value, limit } with reason 'not_a_number' (not a number, or NaN), 'not_positive'
 * (≤ 0; limit 0), 'below_float32' (> 0 but 0 in float32; limit FLOAT32_MIN_POSITIVE) or
 * 'above_float32' (∞, or ∞ in float32; limit FLOAT32_MAX). Every other number is accepted.
 */
export function temperatureProblem(value) {
  if (typeof value !== 'number' || Number.isNaN(value)) return { reason: 'not_a_number', value, limit: null };
  if (value <= 0) return { reason: 'not_positive', value, limit: 0 };
  if (underflowsFloat32(value)) return { reason: 'below_float32', value, limit: FLOAT32_MIN_POSITIVE };
  if (Math.fround(value) === Infinity) return { reason: 'above_float32', value, limit: FLOAT32_MAX };
  return null;
}

// A decimal number as a reader writes one, and ±∞ as a reader writes it.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INFINITY_WORD = /^[+-]?(inf|infinity|∞)$/i;

/**
 * Why a number a reader typed into a matrix cell cannot be used, or null when it can. `value` is
 * the number, or the text as typed (then a decimal too long for a double, such as 400 digits, is
 * too large rather than infinite, as 1e39 is). Returns { reason, value, limit } with reason
 * 'not_a_number' (text that is no number, or NaN), 'infinite' (±∞ itself; limit FLOAT32_MAX) or
 * 'above_float32' (a finite number that is ±∞ in float32; limit FLOAT32_MAX). 3.4028235e38 is
 * accepted: float32 rounds it to FLOAT32_MAX.
 */
export function cellProblem(value) {
  let number = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (INFINITY_WORD.test(text)) return { reason: 'infinite', value, limit: FLOAT32_MAX };
    if (!DECIMAL.test(text)) return { reason: 'not_a_number', value, limit: null };
    number = Number(text);
    if (!Number.isFinite(number)) return { reason: 'above_float32', value, limit: FLOAT32_MAX };
  }
  if (typeof number !== 'number' || Number.isNaN(number)) return { reason: 'not_a_number', value, limit: null };
  if (!Number.isFinite(number)) return { reason: 'infinite', value, limit: FLOAT32_MAX };
  if (!Number.isFinite(Math.fround(number))) return { reason: 'above_float32', value, limit: FLOAT32_MAX };
  return null;
}

/** True when `value` is not 0 but float32 holds it as 0 (|value| at most half of FLOAT32_MIN_POSITIVE). */
export function underflowsFloat32(value) {
  return typeof value === 'number' && value !== 0 && Math.fround(value) === 0;
}
