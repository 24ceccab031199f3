// api.mjs — the public JS API around the Embind core (documented in README.md, "The JS API").
//
// This layer checks what C++ cannot see — JS types: a missing field, a string where a number
// belongs, a fractional size, an unknown option — against the names and limits of
// vocabulary.mjs, and hands the option names on to the bindings. Everything about values and
// shapes (lengths, ±Infinity, d_k mismatch, memory) is checked once, in the core. Either way the
// call throws an Error whose message is one English sentence and whose code, argument, cell and
// params say the same for a program (README.md lists the codes). A failed call computes nothing
// and leaves the module usable.

import { SCALES, AXES, MASKS, PATHS, DEFAULTS, MAX_DIM, MAX_INPUT_BYTES } from './vocabulary.mjs';
import { labMethods } from './labs-api.mjs';

const describe = (x) => (typeof x === 'string' ? JSON.stringify(x) : typeof x === 'object' && x !== null
  ? (Array.isArray(x) ? 'an array' : 'an object') : String(x));

// Throws the API's Error: `message` for people; `code`, `argument` (the argument at fault, or
// undefined), `cell` ({ row, col }, 0-based, or undefined) and `params` (the message's numbers and
// names) for programs, such as the page that words it in zh-CN or en.
function fail(code, argument, message, params = {}, cell = undefined) {
  throw Object.assign(new Error(message), { code, argument, cell, params });
}

function checkKeys(fn, args, known) {
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    fail('bad_arguments', undefined, `${fn} needs one object argument { ${known.join(', ')} } (got ${describe(args)})`,
      { function: fn, got: describe(args) });
  for (const key of Object.keys(args))
    if (!known.includes(key))
      fail('unknown_option', key, `${fn}: unknown option "${key}"; the options are ${known.join(', ')}`,
        { function: fn, known: known.join(', ') });
}

function checkDim(name, field, value) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DIM)
    fail('bad_dimension', name, `${name}.${field} must be a whole number ≥ 1 (got ${describe(value)})`,
      { field, got: describe(value) });
}

// A matrix argument: { rows, cols, data } with data a typed array or an array of numbers.
function checkMatrix(name, m) {
  if (m === undefined) fail('missing_matrix', name, `${name} is missing; pass { rows, cols, data }`);
  if (typeof m !== 'object' || m === null || Array.isArray(m))
    fail('not_a_matrix', name, `${name} must be an object { rows, cols, data } (got ${describe(m)})`, { got: describe(m) });
  checkDim(name, 'rows', m.rows);
  checkDim(name, 'cols', m.cols);
  const { data } = m;
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) {
    if (data instanceof BigInt64Array || data instanceof BigUint64Array)
      fail('bad_data', name, `${name}.data must hold numbers, not BigInts`, { got: data.constructor.name });
  } else if (Array.isArray(data)) {
    // The bindings' bulk copy would turn anything that is not a number into NaN silently.
    for (let i = 0; i < data.length; i++)
      if (typeof data[i] !== 'number')
        fail('not_a_number', name, `${name}.data[${i}] is not a number (got ${describe(data[i])})`,
          { index: i, got: describe(data[i]) }, { row: Math.floor(i / m.cols), col: i % m.cols });
  } else {
    fail('bad_data', name, `${name}.data must be a Float32Array or an array of numbers (got ${describe(data)})`,
      { got: describe(data) });
  }
  return data.length;
}

function checkInputSize(values) {
  const bytes = values * 4;
  if (bytes > MAX_INPUT_BYTES)
    fail('inputs_too_large', undefined, `the inputs hold ${values} values (${(bytes / 2 ** 20).toFixed(1)} MiB); ` +
      `at most ${MAX_INPUT_BYTES / 2 ** 20} MiB fit in the module's memory`, { values, bytes, limit: MAX_INPUT_BYTES });
}

// An option value of the wrong kind: bad_option, naming the option.
function badOption(fn, option, expected, value) {
  fail('bad_option', option, `${fn}: ${option} must be ${expected} (got ${describe(value)})`, { got: describe(value) });
}

// ['none', 'causal'] → '"none", "causal"'; oneOf(['row', 'column']) → '"row" or "column"'
const quoted = (names) => names.map((name) => JSON.stringify(name)).join(', ');
const oneOf = (names) => quoted(names).replace(/, ([^,]*)$/, ' or $1');

// Options given as undefined take their default, as when they are left out.
const definedOnly = (args) => Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));

// The options as the bindings read them: names, with a custom mask as mask 'custom' + maskMatrix.
function encodeOptions(fn, args) {
  const { scale, temperature, mask, stable, axis } = { ...DEFAULTS, ...definedOnly(args) };
  if (!SCALES.includes(scale)) badOption(fn, 'scale', oneOf(SCALES), scale);
  if (typeof temperature !== 'number') badOption(fn, 'temperature', 'a number', temperature);
  if (typeof stable !== 'boolean') badOption(fn, 'stable', 'true or false', stable);
  if (!AXES.includes(axis)) badOption(fn, 'axis', oneOf(AXES), axis);
  const out = { scale, temperature, stable, axis, mask };
  if (typeof mask === 'object' && mask !== null) {
    checkMatrix('mask', mask);
    out.mask = 'custom';
    out.maskMatrix = mask;
  } else if (!MASKS.includes(mask)) badOption(fn, 'mask', `${quoted(MASKS)} or a { rows, cols, data } of 0/1`, mask);
  return out;
}

// The core answers either a result or { error: { code, message, argument?, cell?, params } };
// the latter becomes the thrown Error.
function unwrap(result) {
  const { error } = result;
  if (error) fail(error.code, error.argument, error.message, error.params, error.cell);
  return result;
}

const ATTENTION_KEYS = ['q', 'k', 'v', 'scale', 'temperature', 'mask'];
const STEPS_KEYS = [...ATTENTION_KEYS, 'stable', 'axis', 'path'];

// The binding of `fn` that computes on args.path: 'simd' → core.attentionStepsSimd or
// core.projectSimd, 'reference' → core.attentionSteps or core.project.
function onPath(core, fn, { path = DEFAULTS.path }) {
  if (!PATHS.includes(path)) badOption(fn, 'path', oneOf(PATHS), path);
  return path === 'simd' ? core[`${fn}Simd`] : core[fn];
}

function qkv(fn, args, keys) {
  checkKeys(fn, args, keys);
  checkInputSize(checkMatrix('q', args.q) + checkMatrix('k', args.k) + checkMatrix('v', args.v));
  return [args.q, args.k, args.v, encodeOptions(fn, args)];
}

/**
 * Wraps an Emscripten factory (attention_core.mjs) into the public API.
 * @param {(options?: object) => Promise<object>} createCore
 * @param {object} [moduleOptions] passed to Emscripten: { wasmBinary } or { locateFile }
 */
export async function wrapCore(createCore, moduleOptions = {}) {
  const core = await createCore({ ...moduleOptions });
  return Object.freeze({
    /**
     * Every intermediate: { scores, kept, scaled, rowMax, shifted, exps, rowSum, weights, output },
     * on path 'simd' (default) or 'reference'.
     */
    attentionSteps(args) {
      const inputs = qkv('attentionSteps', args, STEPS_KEYS);
      return unwrap(onPath(core, 'attentionSteps', args)(...inputs));
    },
    /** softmax(QKᵀ/√d_k)·V, output only, through the fast path. */
    attention(args) {
      return unwrap(core.attention(...qkv('attention', args, ATTENTION_KEYS)));
    },
    /** The same output through the online softmax: O(n·d) memory, no n×n scores. */
    attentionStreaming(args) {
      return unwrap(core.attentionStreaming(...qkv('attentionStreaming', args, ATTENTION_KEYS)));
    },
    /** X·W, on path 'simd' (default) or 'reference' (equal bit for bit). */
    project(args) {
      checkKeys('project', args, ['x', 'w', 'path']);
      checkInputSize(checkMatrix('x', args.x) + checkMatrix('w', args.w));
      return unwrap(onPath(core, 'project', args)(args.x, args.w));
    },
    version: () => core.version(),
    simd: () => core.simd(),
    // The labs (issue 11): dotProductSamples, normalMatrix, workingMemory.
    ...labMethods(core, { checkKeys, badOption, oneOf, unwrap }),
  });
}
