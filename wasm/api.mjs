// api.mjs — the public JS API around the Embind core (documented in README.md, "The JS API").
//
// This layer checks what C++ cannot see — JS types: a missing field, a string where a number
// belongs, a fractional size, an unknown option, a detached buffer — against the names and limits
// of vocabulary.mjs, and hands the option names on to the bindings. Everything about values and
// shapes (lengths, ±Infinity, d_k mismatch, memory) is checked once, in the core. Either way the
// call throws an Error whose message is one English sentence and whose code, argument, cell and
// params say the same for a program (README.md lists the codes). A failed call computes nothing
// and leaves the module usable.
//
// Each call runs in three steps:
//   1. read  — every value the caller passed is read exactly once, into a plain snapshot this
//              module owns: a getter runs once, a value cannot change between its check and its
//              use, and the bindings never touch the caller's objects, so nothing the caller wrote
//              can run (or throw) while wasm memory holds copies;
//   2. check — the snapshot's JS types and its total size, the mask included;
//   3. call  — the bindings, which have the core check the shapes before they copy any value.

import { SCALES, AXES, MASKS, PATHS, DEFAULTS, MAX_DIM, MAX_INPUT_BYTES, temperatureProblem } from './vocabulary.mjs';
import { labMethods } from './labs-api.mjs';
import { multiHeadMethods } from './multi-head-api.mjs';
import { codedError, guardCalls, plain } from './boundary.mjs';
import { backwardMethods } from './backward-api.mjs';
import { trainingMethods } from './training-api.mjs';

// How a value is named in a message: strings quoted (long ones cut), BigInts with their n.
function describe(x) {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  if (typeof x === 'bigint') return `${x}n`;
  if (typeof x === 'function') return 'a function';
  if (typeof x === 'object' && x !== null) return Array.isArray(x) ? 'an array' : 'an object';
  return String(x);
}

// Throws the API's Error: `message` for people; `code`, `argument` (the argument at fault, or
// undefined), `cell` ({ row, col }, 0-based, or undefined) and `params` (the message's numbers and
// names) for programs, such as the page that words it in zh-CN or en.
function fail(code, argument, message, params = {}, cell = undefined) {
  throw codedError(message, { code, argument, cell, params });
}

// The arguments object, read once: its own enumerable keys, each value read once. Options given
// as undefined take their default, as when they are left out.
function readArgs(fn, args, known) {
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    fail(
      'bad_arguments',
      undefined,
      `${fn} needs one object argument { ${known.join(', ')} } (got ${describe(args)})`,
      { function: fn, got: describe(args) },
    );
  const snapshot = Object.create(null); // no prototype: a key written here reaches no setter on Object.prototype
  for (const key of Object.keys(args)) {
    if (!known.includes(key))
      fail('unknown_option', key, `${fn}: unknown option "${key}"; the options are ${known.join(', ')}`, {
        function: fn,
        known: known.join(', '),
      });
    const value = args[key];
    if (value !== undefined) snapshot[key] = value;
  }
  return snapshot;
}

function checkDim(name, field, value) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DIM)
    fail('bad_dimension', name, `${name}.${field} must be a whole number ≥ 1 (got ${describe(value)})`, {
      field,
      got: describe(value),
    });
}

// A typed array's own facts, read through the built-in getters of %TypedArray%.prototype, so that
// a getter the caller put on the array itself never runs: its kind ('Float32Array', …, or
// undefined for anything that is not a typed array), buffer, offset and length.
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const builtIn = (key) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get;
const [kindOf, bufferOf, offsetOf, lengthOf] = [Symbol.toStringTag, 'buffer', 'byteOffset', 'length'].map(builtIn);

// A transferred (detached) buffer cannot be viewed again: constructing even an empty view throws.
function isDetached(buffer) {
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}
// Whether a typed array's buffer is detached (its views then have length 0, so a view with values
// needs no further test).
const isDetachedView = (array) => lengthOf.call(array) === 0 && isDetached(bufferOf.call(array));
// A new Float32Array over the same memory as the Float32Array `array`: no copy, and none of the
// caller's own properties on it.
const viewOf = (array) => new Float32Array(bufferOf.call(array), offsetOf.call(array), lengthOf.call(array));

// A matrix argument, read once: { rows, cols, data } with data a typed array or an array of
// numbers. Returns the snapshot the bindings read: { rows, cols, data: a Float32Array made here }.
// A Float32Array is not copied: the snapshot is a new view of the same buffer.
function readMatrix(name, m) {
  if (m === undefined) fail('missing_matrix', name, `${name} is missing; pass { rows, cols, data }`);
  if (typeof m !== 'object' || m === null || Array.isArray(m))
    fail('not_a_matrix', name, `${name} must be an object { rows, cols, data } (got ${describe(m)})`, {
      got: describe(m),
    });
  const { rows, cols, data } = m; // each read once, in this order
  checkDim(name, 'rows', rows);
  checkDim(name, 'cols', cols);
  const kind = ArrayBuffer.isView(data) ? kindOf.call(data) : undefined;
  if (kind === 'BigInt64Array' || kind === 'BigUint64Array')
    fail('bad_data', name, `${name}.data must hold numbers, not BigInts`, { got: kind });
  if (kind !== undefined) {
    if (isDetachedView(data))
      fail(
        'detached_data',
        name,
        `${name}.data's buffer has been detached (transferred or freed); ` +
          'pass a Float32Array that still holds its values',
      );
    // (new Float32Array(data) converts from the other typed arrays through their internal slots)
    const values = kind === 'Float32Array' ? viewOf(data) : new Float32Array(data);
    return Object.freeze({ rows, cols, data: values });
  }
  if (Array.isArray(data)) {
    // The bindings' bulk copy would turn anything that is not a number into NaN silently.
    const length = data.length;
    const values = new Float32Array(length);
    for (let i = 0; i < length; i++) {
      const x = data[i];
      if (typeof x !== 'number')
        fail(
          'not_a_number',
          name,
          `${name}.data[${i}] is not a number (got ${describe(x)})`,
          { index: i, got: describe(x) },
          { row: Math.floor(i / cols), col: i % cols },
        );
      values[i] = x;
    }
    return Object.freeze({ rows, cols, data: values });
  }
  fail('bad_data', name, `${name}.data must be a Float32Array or an array of numbers (got ${describe(data)})`, {
    got: describe(data),
  });
}

// The values every matrix of one call holds, the mask included, against what fits in the module.
function checkInputSize(matrices) {
  const values = matrices.reduce((sum, m) => sum + m.data.length, 0);
  const bytes = values * 4;
  if (bytes > MAX_INPUT_BYTES)
    fail(
      'inputs_too_large',
      undefined,
      `the inputs hold ${values} values (${(bytes / 2 ** 20).toFixed(1)} MiB); ` +
        `at most ${MAX_INPUT_BYTES / 2 ** 20} MiB fit in the module's memory`,
      { values, bytes, limit: MAX_INPUT_BYTES },
    );
}

// An option value of the wrong kind: bad_option, naming the option.
function badOption(fn, option, expected, value) {
  fail('bad_option', option, `${fn}: ${option} must be ${expected} (got ${describe(value)})`, { got: describe(value) });
}

// A temperature float32 cannot hold as given (vocabulary.mjs's rule, the page's too) is refused
// here, where its own value is still known: the core sees it rounded, as 0 or ∞.
const TEMPERATURE_RULES = {
  not_a_number: () => 'must be a finite number greater than 0',
  not_positive: () => 'must be a finite number greater than 0',
  below_float32: (limit) => `rounds to 0 in float32, whose smallest positive number is ${limit}`,
  above_float32: (limit) => `must be finite in float32, whose largest number is ${limit}`,
};
function checkTemperature(temperature) {
  const problem = temperatureProblem(temperature);
  if (problem)
    fail(
      'bad_temperature',
      'temperature',
      `temperature ${TEMPERATURE_RULES[problem.reason](problem.limit)} (got ${describe(temperature)})`,
      { value: temperature, reason: problem.reason, limit: problem.limit },
    );
}

// ['none', 'causal'] → '"none", "causal"'; oneOf(['row', 'column']) → '"row" or "column"'
const quoted = (names) => names.map((name) => JSON.stringify(name)).join(', ');
const oneOf = (names) => quoted(names).replace(/, ([^,]*)$/, ' or $1');

// The options as the bindings read them: names, with a custom mask as mask 'custom' + maskMatrix
// (already read by readMatrix). Names are looked up in vocabulary.mjs's arrays, never with `in`,
// which would find 'toString' or '__proto__' on every object's prototype.
function encodeOptions(fn, args) {
  const { scale, temperature, mask, stable, axis } = { ...DEFAULTS, ...args };
  if (!SCALES.includes(scale)) badOption(fn, 'scale', oneOf(SCALES), scale);
  if (typeof temperature !== 'number') badOption(fn, 'temperature', 'a number', temperature);
  checkTemperature(temperature);
  if (typeof stable !== 'boolean') badOption(fn, 'stable', 'true or false', stable);
  if (!AXES.includes(axis)) badOption(fn, 'axis', oneOf(AXES), axis);
  // Literals, which define their keys: an assignment of maskMatrix would reach a setter on Object.prototype.
  if (typeof mask === 'object' && mask !== null)
    return Object.freeze({ scale, temperature, stable, axis, mask: 'custom', maskMatrix: readMatrix('mask', mask) });
  if (!MASKS.includes(mask)) badOption(fn, 'mask', `${quoted(MASKS)} or a { rows, cols, data } of 0/1`, mask);
  return Object.freeze({ scale, temperature, stable, axis, mask });
}

// The core answers either a result or { error: { code, message, argument?, cell?, params } };
// the latter becomes the thrown Error. Both are the bindings' prototype-less objects, copied into
// plain ones now that the call has returned (boundary.mjs).
function unwrap(result) {
  const { error } = result;
  if (error) fail(error.code, error.argument, error.message, plain(error.params), plain(error.cell));
  return plain(result);
}

const ATTENTION_KEYS = ['q', 'k', 'v', 'scale', 'temperature', 'mask'];
const STEPS_KEYS = [...ATTENTION_KEYS, 'stable', 'axis', 'path'];
// The output-only functions also take `out`, a Float32Array of n_q × d_v values the output is
// written into and returned as its data: no new array per call (see readOutput).
const OUTPUT_KEYS = [...ATTENTION_KEYS, 'out'];

// `out`, read once: undefined, or a new view of the caller's Float32Array for the bindings to write
// into (the bindings never touch the caller's object; its length is checked by the core, against
// q's rows and v's columns). Why it exists: every new Float32Array needs fresh memory, and where
// first touching a page is slow (Chromium on this project's VM: ≈ 65 µs for the 64×64 output,
// 1 ms for 1024×64 — bench/NOTES.md) a caller that calls again and again can skip it.
function readOutput(fn, out) {
  if (out === undefined) return undefined;
  if (!ArrayBuffer.isView(out) || kindOf.call(out) !== 'Float32Array')
    badOption(fn, 'out', 'a Float32Array of n_q × d_v values', out);
  if (isDetachedView(out))
    fail(
      'detached_data',
      'out',
      "out's buffer has been detached (transferred or freed); pass a Float32Array that can hold the output",
    );
  return viewOf(out);
}

// attention or attentionStreaming: the bindings' result, its data the caller's own `out` when one
// was given (result.data === out).
function outputCall(binding, fn, args) {
  const { inputs, snapshot } = qkv(fn, args, OUTPUT_KEYS);
  const into = readOutput(fn, snapshot.out);
  const [q, k, v, options] = inputs;
  const result = unwrap(binding(q, k, v, into ? Object.freeze({ ...options, out: into }) : options));
  return into ? { ...result, data: snapshot.out } : result;
}

// The binding of `fn` that computes on args.path: 'simd' → core.attentionStepsSimd or
// core.projectSimd, 'reference' → core.attentionSteps or core.project.
function onPath(core, fn, { path = DEFAULTS.path }) {
  if (!PATHS.includes(path)) badOption(fn, 'path', oneOf(PATHS), path);
  return path === 'simd' ? core[`${fn}Simd`] : core[fn];
}

// Steps 1 and 2 for the functions of Q, K, V: the snapshot of the arguments, the three matrices
// and the options, checked; returns the arguments of the binding and the snapshot.
function qkv(fn, args, keys) {
  const snapshot = readArgs(fn, args, keys);
  const q = readMatrix('q', snapshot.q),
    k = readMatrix('k', snapshot.k),
    v = readMatrix('v', snapshot.v);
  const options = encodeOptions(fn, snapshot);
  checkInputSize([q, k, v, ...(options.maskMatrix ? [options.maskMatrix] : [])]);
  return { inputs: [q, k, v, options], snapshot };
}

/**
 * Wraps an Emscripten factory (attention_core.mjs) into the public API.
 * @param {(options?: object) => Promise<object>} createCore
 * @param {object} [moduleOptions] passed to Emscripten: { wasmBinary } or { locateFile }
 */
export async function wrapCore(createCore, moduleOptions = {}) {
  // Every binding refuses to start while another runs (boundary.mjs).
  const core = guardCalls(await createCore({ ...moduleOptions }));
  return Object.freeze({
    /**
     * Every intermediate: { scores, kept, scaled, rowMax, shifted, exps, rowSum, weights, output,
     * nonFinite, divisor }, on path 'simd' (default) or 'reference'. divisor is what the scores
     * were divided by: √d_k·temperature, d_k·temperature or temperature, by `scale`.
     */
    attentionSteps(args) {
      const { inputs, snapshot } = qkv('attentionSteps', args, STEPS_KEYS);
      return unwrap(onPath(core, 'attentionSteps', snapshot)(...inputs));
    },
    /** softmax(QKᵀ/√d_k)·V, output only, through the fast path; into `out` when one is given. */
    attention(args) {
      return outputCall(core.attention, 'attention', args);
    },
    /** The same output through the online softmax: O(n·d) memory, no n×n scores. */
    attentionStreaming(args) {
      return outputCall(core.attentionStreaming, 'attentionStreaming', args);
    },
    /** X·W, on path 'simd' (default) or 'reference' (equal bit for bit). */
    project(args) {
      const snapshot = readArgs('project', args, ['x', 'w', 'path']);
      const x = readMatrix('x', snapshot.x),
        w = readMatrix('w', snapshot.w);
      checkInputSize([x, w]);
      return unwrap(onPath(core, 'project', snapshot)(x, w));
    },
    version: () => core.version(),
    simd: () => core.simd(),
    relaxedSimd: () => core.relaxedSimd(),
    // The labs (issue 11): dotProductSamples, normalMatrix, workingMemory.
    ...labMethods(core, { readArgs, badOption, oneOf, unwrap, fail }),
    // Multi-head attention (the series' next article): multiHeadAttentionSteps, multiHeadMultiplyAdds.
    ...multiHeadMethods(core, { readArgs, readMatrix, encodeOptions, checkInputSize, badOption, onPath, unwrap }),
    // The backward pass (issue 17): attentionBackward.
    ...backwardMethods(core, { readArgs, readMatrix, encodeOptions, checkInputSize, badOption, oneOf, unwrap }),
    // Training (issue 17): createTrainer.
    ...trainingMethods(core, { readArgs, badOption, oneOf, unwrap }),
  });
}
