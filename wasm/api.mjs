// api.mjs — the public JS API around the Embind core (documented in docs/api.md).
//
// This layer checks what C++ cannot see — JS types: a missing field, a string where a number
// belongs, a fractional size, an unknown option, a detached buffer — against the names and limits
// of vocabulary.mjs, and hands the option names on to the bindings. Everything about values and
// shapes (lengths, ±Infinity, d_k mismatch, memory) is checked once, in the core. Either way the
// call throws an Error whose message is one English sentence and whose code, argument, cell and
// params say the same for a program (docs/api.md lists the codes). A failed call computes nothing
// and leaves the module usable.
//
// Each call runs in three steps:
//   1. read  — every value the caller passed is read exactly once, into records this module owns:
//              a getter runs once, a value cannot change between its check and its use, and the
//              bindings never touch the caller's objects, so nothing the caller wrote can run (or
//              throw) while wasm memory holds copies. The records have no prototype, so a key
//              left out (`out`, say) is absent, not whatever a getter on Object.prototype answers;
//   2. check — the records' JS types and their total size, the mask included;
//   3. call  — the bindings, which have the core check the shapes before they copy any value.

import { SCALES, AXES, MASKS, PATHS, DEFAULTS, MAX_DIM, MAX_INPUT_BYTES, temperatureProblem } from './vocabulary.mjs';
import { labMethods } from './labs-api.mjs';
import { multiHeadMethods } from './multi-head-api.mjs';
import { codedError, guardCalls, plain } from './boundary.mjs';
import { backwardMethods } from './backward-api.mjs';
import { trainingMethods } from './training-api.mjs';
import { efficiencySharedMethods } from './efficiency-shared-api.mjs';
import { efficiencyMethods } from './efficiency-api.mjs';

// How a value is named in a message: strings quoted (long ones cut), BigInts with their n.
function describe(x) {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  if (typeof x === 'bigint') return `${x}n`;
  if (typeof x === 'function') return 'a function';
  if (typeof x === 'object' && x !== null) return Array.isArray(x) ? 'an array' : 'an object';
  return String(x);
}

// A frozen record of `fields` without a prototype: reading a key it lacks finds nothing, whatever
// a caller put on Object.prototype. (Object.assign onto a prototype-less object defines each key.)
const record = (fields) => Object.freeze(Object.assign(Object.create(null), fields));

// object[key] when object has it as its own property, else undefined (never Object.prototype's).
const own = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);

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

// The refusal of a detached buffer: `name` is a matrix's (its data) or 'out'.
function failDetached(name) {
  if (name === 'out')
    fail(
      'detached_data',
      'out',
      "out's buffer has been detached (transferred or freed); pass a Float32Array that can hold the output",
    );
  fail(
    'detached_data',
    name,
    `${name}.data's buffer has been detached (transferred or freed); pass a Float32Array that still holds its values`,
  );
}

/**
 * The module's own memory, as a test of buffers: memory.holds(buffer) is true when `buffer` is the
 * buffer of the module's wasm memory now. A view over it is the module's working space: written by
 * the call itself, and detached when the call grows the memory. (A caller can reach it through
 * Emscripten's instantiateWasm.) The buffer is asked of the bindings again once the memory has
 * grown, which detaches the old one.
 */
function moduleMemory(core) {
  let buffer = null;
  return Object.freeze({
    holds(candidate) {
      if (buffer === null || isDetached(buffer)) buffer = bufferOf.call(core.memoryView());
      return candidate === buffer;
    },
  });
}

/**
 * binding(...args), for a call handed the typed arrays `views` ([name, array] pairs: the matrices'
 * data and `out`). Should one of them be detached while the call runs (only a built-in the caller
 * replaced, such as %TypedArray%.prototype.set, can run then), the engine's raw TypeError becomes
 * the API's detached_data Error naming it; the bindings free what the call left on their next call.
 */
function callWith(views, binding, ...args) {
  try {
    return binding(...args);
  } catch (error) {
    for (const [name, array] of views) if (isDetachedView(array)) failDetached(name);
    throw error;
  }
}
// A new Float32Array over the same memory as the Float32Array `array`: no copy, and none of the
// caller's own properties on it.
const viewOf = (array) => new Float32Array(bufferOf.call(array), offsetOf.call(array), lengthOf.call(array));

// A matrix argument, read once: { rows, cols, data } with data a typed array or an array of
// numbers. Returns the record the bindings read: { rows, cols, data: a Float32Array made here }.
// A Float32Array is not copied, the record holds a new view of the same buffer — unless that buffer
// is the module's own memory (moduleMemory), which the call itself may overwrite or detach.
function readMatrix(name, m, memory) {
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
    if (isDetachedView(data)) failDetached(name);
    // (new Float32Array(data) converts from, or copies, any typed array through its internal slots)
    const shared = kind === 'Float32Array' && !memory.holds(bufferOf.call(data));
    return record({ rows, cols, data: shared ? viewOf(data) : new Float32Array(data) });
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
    return record({ rows, cols, data: values });
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

// The options as the bindings read them, a record: names, with a custom mask as mask 'custom' +
// maskMatrix (already read by readMatrix). Names are looked up in vocabulary.mjs's arrays, never
// with `in`, which would find 'toString' or '__proto__' on every object's prototype.
function encodeOptions(fn, args, memory) {
  const { scale, temperature, mask, stable, axis } = { ...DEFAULTS, ...args };
  if (!SCALES.includes(scale)) badOption(fn, 'scale', oneOf(SCALES), scale);
  if (typeof temperature !== 'number') badOption(fn, 'temperature', 'a number', temperature);
  checkTemperature(temperature);
  if (typeof stable !== 'boolean') badOption(fn, 'stable', 'true or false', stable);
  if (!AXES.includes(axis)) badOption(fn, 'axis', oneOf(AXES), axis);
  if (typeof mask === 'object' && mask !== null)
    return record({ scale, temperature, stable, axis, mask: 'custom', maskMatrix: readMatrix('mask', mask, memory) });
  if (!MASKS.includes(mask)) badOption(fn, 'mask', `${quoted(MASKS)} or a { rows, cols, data } of 0/1`, mask);
  return record({ scale, temperature, stable, axis, mask });
}

// The core answers either a result or { error: { code, message, argument?, cell?, params } };
// the latter becomes the thrown Error. Both are the bindings' prototype-less objects (or
// boundary.mjs's refusal), read by their own keys only and copied into plain ones now that the
// call has returned (boundary.mjs).
function unwrap(result) {
  const error = own(result, 'error');
  if (error) {
    const [code, argument, message, params, cell] = ['code', 'argument', 'message', 'params', 'cell'].map((key) =>
      own(error, key),
    );
    fail(code, argument, message, plain(params ?? {}), plain(cell));
  }
  return plain(result);
}

// The typed arrays a call hands the bindings, by the argument they belong to: callWith's `views`.
const viewsOf = (named) => Object.entries(named).map(([name, m]) => [name, m.data]);

const ATTENTION_KEYS = ['q', 'k', 'v', 'scale', 'temperature', 'mask'];
const STEPS_KEYS = [...ATTENTION_KEYS, 'stable', 'axis', 'path'];
// The output-only functions also take `out`, a Float32Array of n_q × d_v values the output is
// written into and returned as its data: no new array per call (see readOutput).
const OUTPUT_KEYS = [...ATTENTION_KEYS, 'out'];

// `out`, read once: a new view of the caller's Float32Array for the bindings to write into (the
// bindings never touch the caller's object; its length is checked by the core, against q's rows
// and v's columns). Why it exists: every new Float32Array needs fresh memory, and where first
// touching a page is slow (Chromium on this project's VM: ≈ 65 µs for the 64×64 output, 1 ms for
// 1024×64 — bench/NOTES.md) a caller that calls again and again can skip it. A view over the
// module's own memory is refused: the output would overwrite the module's data, and the call
// could detach it by growing the memory.
function readOutput(fn, out, memory) {
  if (!ArrayBuffer.isView(out) || kindOf.call(out) !== 'Float32Array')
    badOption(fn, 'out', 'a Float32Array of n_q × d_v values', out);
  if (isDetachedView(out)) failDetached('out');
  if (memory.holds(bufferOf.call(out)))
    fail(
      'bad_option',
      'out',
      `${fn}: out must not be a view of the module's own memory, which the call works in; pass a Float32Array of your own`,
      { got: "a view of the module's memory" },
    );
  return viewOf(out);
}

// attention or attentionStreaming: the bindings' result, its data the caller's own `out` when one
// was given (result.data === out). Whether it was given is whether the arguments had it as their
// own key, with a value other than undefined (readArgs).
function outputCall(binding, fn, args, memory) {
  const { inputs, snapshot } = qkv(fn, args, OUTPUT_KEYS, memory);
  const given = Object.hasOwn(snapshot, 'out');
  const into = given ? readOutput(fn, snapshot.out, memory) : undefined;
  const [q, k, v, options] = inputs;
  const views = [...viewsOf({ q, k, v }), ...(given ? [['out', into]] : [])];
  const result = unwrap(callWith(views, binding, q, k, v, given ? record({ ...options, out: into }) : options));
  return given ? { ...result, data: snapshot.out } : result;
}

// The binding of `fn` that computes on args.path: 'simd' → core.attentionStepsSimd or
// core.projectSimd, 'reference' → core.attentionSteps or core.project.
function onPath(core, fn, { path = DEFAULTS.path }) {
  if (!PATHS.includes(path)) badOption(fn, 'path', oneOf(PATHS), path);
  return path === 'simd' ? core[`${fn}Simd`] : core[fn];
}

// Steps 1 and 2 for the functions of Q, K, V: the snapshot of the arguments, the three matrices
// and the options, checked; returns the arguments of the binding and the snapshot.
function qkv(fn, args, keys, memory) {
  const snapshot = readArgs(fn, args, keys);
  const q = readMatrix('q', snapshot.q, memory),
    k = readMatrix('k', snapshot.k, memory),
    v = readMatrix('v', snapshot.v, memory);
  const options = encodeOptions(fn, snapshot, memory);
  checkInputSize([q, k, v, ...(options.maskMatrix ? [options.maskMatrix] : [])]);
  return { inputs: [q, k, v, options], snapshot };
}

// The typed arrays of a call's matrices, the custom mask's included (callWith's `views`).
const viewsWithMask = (named, options) => viewsOf(options.maskMatrix ? { ...named, mask: options.maskMatrix } : named);

/**
 * Wraps an Emscripten factory (attention_core.mjs) into the public API.
 * @param {(options?: object) => Promise<object>} createCore
 * @param {object} [moduleOptions] passed to Emscripten: { wasmBinary } or { locateFile }
 */
export async function wrapCore(createCore, moduleOptions = {}) {
  // Every binding refuses to start while another runs (boundary.mjs).
  const core = guardCalls(await createCore({ ...moduleOptions }));
  const memory = moduleMemory(core);
  // readMatrix and encodeOptions with this module's memory, for the other entry points' files.
  const readMatrixHere = (name, m) => readMatrix(name, m, memory);
  const encodeOptionsHere = (fn, args) => encodeOptions(fn, args, memory);
  return Object.freeze({
    /**
     * Every intermediate: { scores, kept, scaled, rowMax, shifted, exps, rowSum, weights, output,
     * nonFinite, divisor }, on path 'simd' (default) or 'reference'. divisor is what the scores
     * were divided by: √d_k·temperature, d_k·temperature or temperature, by `scale`.
     */
    attentionSteps(args) {
      const { inputs, snapshot } = qkv('attentionSteps', args, STEPS_KEYS, memory);
      const [q, k, v, options] = inputs;
      const binding = onPath(core, 'attentionSteps', snapshot);
      return unwrap(callWith(viewsWithMask({ q, k, v }, options), binding, ...inputs));
    },
    /** softmax(QKᵀ/√d_k)·V, output only, through the fast path; into `out` when one is given. */
    attention(args) {
      return outputCall(core.attention, 'attention', args, memory);
    },
    /** The same output through the online softmax: O(n·d) memory, no n×n scores. */
    attentionStreaming(args) {
      return outputCall(core.attentionStreaming, 'attentionStreaming', args, memory);
    },
    /** X·W, on path 'simd' (default) or 'reference' (equal bit for bit). */
    project(args) {
      const snapshot = readArgs('project', args, ['x', 'w', 'path']);
      const x = readMatrixHere('x', snapshot.x),
        w = readMatrixHere('w', snapshot.w);
      checkInputSize([x, w]);
      return unwrap(callWith(viewsOf({ x, w }), onPath(core, 'project', snapshot), x, w));
    },
    version: () => core.version(),
    simd: () => core.simd(),
    relaxedSimd: () => core.relaxedSimd(),
    // The labs (issue 11): dotProductSamples, normalMatrix, workingMemory.
    ...labMethods(core, { readArgs, badOption, oneOf, unwrap, fail }),
    // Multi-head attention (the series' next article): multiHeadAttentionSteps, multiHeadMultiplyAdds.
    ...multiHeadMethods(core, {
      readArgs,
      readMatrix: readMatrixHere,
      encodeOptions: encodeOptionsHere,
      checkInputSize,
      badOption,
      onPath,
      unwrap,
      callWith,
      viewsWithMask,
    }),
    // The backward pass (issue 17): attentionBackward.
    ...backwardMethods(core, {
      readArgs,
      readMatrix: readMatrixHere,
      encodeOptions: encodeOptionsHere,
      checkInputSize,
      badOption,
      oneOf,
      unwrap,
      callWith,
      viewsWithMask,
    }),
    // Training (issue 17): createTrainer.
    ...trainingMethods(core, { readArgs, badOption, oneOf, unwrap, record, describe, fail }),
    // Article 10's shared heads and linear attention: attentionGrouped, attentionLinear.
    ...efficiencySharedMethods(core, {
      readArgs,
      readMatrix: readMatrixHere,
      encodeOptions: encodeOptionsHere,
      checkInputSize,
      badOption,
      oneOf,
      onPath,
      unwrap,
      callWith,
      viewsWithMask,
    }),
    // Efficiency paths (issue 30): attentionTiled, attentionDecode, attentionWindow.
    ...efficiencyMethods(core, {
      readArgs,
      readMatrix: readMatrixHere,
      encodeOptions: encodeOptionsHere,
      checkInputSize,
      badOption,
      unwrap,
      callWith,
      viewsWithMask,
    }),
  });
}
