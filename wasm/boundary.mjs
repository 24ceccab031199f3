// boundary.mjs — what crosses between api.mjs and the Embind module, made safe in both directions.
//
// The bindings keep one call's copies and results in one CallMemory, which the next call frees
// first (wasm/bindings.cpp). A call made while another is still running would free the outer
// call's memory under it, so:
//   - guardCalls refuses such a call with reentrant_call. Nothing a caller wrote runs during a call
//     (the bindings build prototype-less objects and read only api.mjs's frozen snapshots), so this
//     is the second line of defence: against a caller who has replaced a built-in the bindings use,
//     such as %TypedArray%.prototype.set;
//   - plain copies a result, once its call has returned, from the bindings' prototype-less objects
//     into ordinary objects and arrays made by literals and Object.fromEntries, which define their
//     properties rather than set them, so no setter on Object.prototype intercepts a field.

const apply = Reflect.apply;

/**
 * The Embind module `core` with every function refusing to start while another is running: the
 * nested call answers { error: { code: 'reentrant_call', … } }, which api.mjs throws as an Error,
 * and the outer call goes on unharmed. A call cut short by an exception frees the guard too.
 */
export function guardCalls(core) {
  let running = null; // the name of the function running, or null
  const wrapped = new Map();
  const guard = (name, fn) =>
    function guarded() {
      if (running !== null)
        return {
          error: {
            code: 'reentrant_call',
            message: `${name} was called while ${running} was still running; call the module again once it has returned`,
            params: { function: name, running },
          },
        };
      running = name;
      try {
        return apply(fn, core, arguments);
      } finally {
        running = null;
      }
    };
  return new Proxy(core, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      if (!wrapped.has(key)) wrapped.set(key, guard(key, value));
      return wrapped.get(key);
    },
  });
}

/**
 * A value handed back by the bindings as plain JS: prototype-less objects become ordinary objects,
 * a prototype-less { length, 0, 1, … } (how the bindings hand back a list) an array, typed arrays
 * and other values stay as they are.
 */
export function plain(value) {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  if (isList(value)) return Array.from({ length: value.length }, (_, i) => plain(value[i]));
  return Object.fromEntries(Object.keys(value).map((key) => [key, plain(value[key])]));
}

/**
 * Whether a prototype-less object is a list as the bindings make one (wasm/bindings.cpp
 * list_to_js): its keys are `length` and the indices 0 … length − 1, nothing else. A record that
 * merely has a `length` field (a task's n, in trainerDefaults) has other keys too, and stays a record.
 */
function isList(value) {
  if (Object.getPrototypeOf(value) !== null || !Object.hasOwn(value, 'length')) return false;
  const { length } = value;
  const keys = Object.keys(value);
  return (
    Number.isInteger(length) &&
    keys.length === length + 1 &&
    keys.every((key) => key === 'length' || (String(Number(key)) === key && Number(key) < length))
  );
}

// A data property's descriptor, without a prototype: defineProperty reads `get` and `set` too,
// which would otherwise come from Object.prototype.
const descriptor = (value) =>
  Object.assign(Object.create(null), { value, writable: true, enumerable: true, configurable: true });

/**
 * The Error the API throws: `message`, with the machine-readable `fields` ({ code, argument, cell,
 * params }) as its own properties. Defined, not assigned (as Object.assign would), so that no setter
 * a caller put on Error.prototype or Object.prototype sees or swallows them.
 */
export function codedError(message, fields) {
  const error = new Error(message);
  for (const [key, value] of Object.entries(fields)) Object.defineProperty(error, key, descriptor(value));
  return error;
}
