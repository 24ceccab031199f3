// boundary.mjs: plain(), what the bindings hand back as ordinary JS (a list is a prototype-less
// { length, 0, 1, … }; a record that happens to have a `length` field, a task's n, stays a record),
// and codedError(), the Error the API throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codedError, plain } from '../../wasm/boundary.mjs';

/** A prototype-less object with these fields, as the bindings build one (new_object). */
const bare = (fields) => Object.assign(Object.create(null), fields);

test("a list of the heads' records becomes an array of ordinary objects", () => {
  const heads = bare({ length: 2, 0: bare({ divisor: Math.SQRT2 }), 1: bare({ divisor: 2 }) });
  const out = plain(heads);
  assert.ok(Array.isArray(out));
  assert.deepEqual(out, [{ divisor: Math.SQRT2 }, { divisor: 2 }]);
  assert.equal(Object.getPrototypeOf(out[0]), Object.prototype);
});

test('a record with a `length` field and others (the trainer defaults: length 6) stays a record', () => {
  const defaults = bare({ task: 'reverse', length: 6, symbols: 6, seed: 0 });
  const out = plain(defaults);
  assert.ok(!Array.isArray(out));
  assert.deepEqual(out, { task: 'reverse', length: 6, symbols: 6, seed: 0 });
});

test('a record whose only other fields look like indices beyond its length stays a record', () => {
  assert.ok(!Array.isArray(plain(bare({ length: 1, 0: 'a', 1: 'b' }))));
  assert.ok(!Array.isArray(plain(bare({ length: 1, '01': 'a' }))));
});

test('the empty list, typed arrays and numbers pass as they are', () => {
  assert.deepEqual(plain(bare({ length: 0 })), []);
  const data = new Float32Array([0.6698, 0.3302]);
  assert.equal(plain(data), data);
  assert.equal(plain(6.698), 6.698);
});

test("an API error's code and params are its own, even with a setter on Object.prototype", () => {
  const seen = [];
  Object.defineProperty(Object.prototype, 'code', {
    configurable: true,
    set(value) {
      seen.push(value); // a careless or hostile page's setter: it must neither see nor swallow the code
    },
  });
  try {
    const error = codedError('q has 3 values but 2×2 needs 4', { code: 'shape', argument: 'q', params: { got: 3 } });
    assert.equal(error.message, 'q has 3 values but 2×2 needs 4');
    assert.ok(Object.hasOwn(error, 'code'));
    assert.deepEqual([error.code, error.argument, error.params], ['shape', 'q', { got: 3 }]);
    assert.deepEqual(seen, []);
  } finally {
    delete Object.prototype.code;
  }
});
