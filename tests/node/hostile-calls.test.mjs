// What a hostile or careless caller cannot do to the module, on both builds: every JS value is read
// once into a snapshot before anything is copied into wasm memory, shapes are checked before
// values are copied, and a call cut short by a JS exception leaks nothing. Each case ends with the
// article's worked example still computing.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadAttentionWithCore,
  loadCore,
  matrix,
  assertClose,
  I2,
  V10,
  assertWorkedExample,
  detached,
  loadAttentionWithMemory,
} from './load-module.mjs';

const MiB = 2 ** 20;

// Deterministic n×d inputs, large enough (256 KiB each at 256×256) that a leak of their copies shows.
const filled = (rows, cols, seed) => ({
  rows,
  cols,
  data: Float32Array.from({ length: rows * cols }, (_, t) => Math.sin(seed + t)),
});

// Runs `call` `times` times (each may throw) and returns how much the wasm memory grew, in bytes.
function growth({ memoryBytes }, call, times) {
  for (let i = 0; i < 20; i++)
    try {
      call();
    } catch {
      /* warm up: the allocator's first growth */
    }
  const before = memoryBytes();
  for (let i = 0; i < times; i++)
    try {
      call();
    } catch {
      /* refusals are the point */
    }
  return memoryBytes() - before;
}

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: hostile calls`, () => {
    let module;
    before(async () => {
      module = await loadAttentionWithCore(build);
    });

    it('a detached Float32Array is refused with detached_data, and 200 such calls leak nothing', () => {
      const { attn } = module;
      assert.throws(() => attn.attentionSteps({ q: I2, k: I2, v: { rows: 2, cols: 2, data: detached(4) } }), {
        code: 'detached_data',
        argument: 'v',
        params: {},
        message:
          "v.data's buffer has been detached (transferred or freed); pass a Float32Array that still holds its values",
      });
      const q = filled(256, 256, 1),
        k = filled(256, 256, 2);
      const grew = growth(module, () => attn.attention({ q, k, v: { rows: 256, cols: 4, data: detached(1024) } }), 200);
      assert.ok(grew < 4 * MiB, `wasm memory grew by ${(grew / MiB).toFixed(1)} MiB`);
      assertWorkedExample(assert, attn, 'worked example');
    });

    it('a getter is read once: v.rows that throws on its second read cannot cut a call short', () => {
      const { attn } = module;
      const q = filled(256, 256, 1),
        k = filled(256, 256, 2),
        data = new Float32Array(1024).fill(1);
      let reads = 0;
      const v = {
        cols: 4,
        data,
        get rows() {
          if (reads++ > 0) throw new Error('second read');
          return 256;
        },
      };
      assert.equal(attn.attention({ q, k, v }).rows, 256);
      assert.equal(reads, 1);
      const grew = growth(
        module,
        () => {
          let n = 0;
          attn.attention({
            q,
            k,
            v: {
              cols: 4,
              data,
              get rows() {
                if (n++ > 0) throw new Error('second read');
                return 256;
              },
            },
          });
        },
        200,
      );
      assert.ok(grew < 4 * MiB, `wasm memory grew by ${(grew / MiB).toFixed(1)} MiB`);
    });

    it('a data getter that answers numbers, then strings, is read once: the numbers are computed', () => {
      let reads = 0;
      const v = {
        rows: 2,
        cols: 2,
        get data() {
          return reads++ === 0 ? [10, 0, 0, 10] : ['a', 'b', 'c', 'd'];
        },
      };
      assertClose(
        assert,
        module.attn.attentionSteps({ q: I2, k: I2, v }).output,
        [
          [6.698, 3.302],
          [3.302, 6.698],
        ],
        1e-4,
        'output',
      );
      assert.equal(reads, 1);
    });

    it("an exception thrown by the caller's own getter passes through unchanged, before anything is copied", () => {
      const boom = new Error("the caller's own error");
      assert.throws(
        () =>
          module.attn.attentionSteps({
            q: I2,
            k: I2,
            v: {
              rows: 2,
              cols: 2,
              get data() {
                throw boom;
              },
            },
          }),
        (e) => e === boom,
      );
      assertWorkedExample(assert, module.attn, 'worked example');
    });

    it('prototype names are not option names: toString, constructor, __proto__, valueOf, hasOwnProperty', () => {
      const { attn } = module;
      for (const name of ['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty', 'isPrototypeOf']) {
        for (const option of ['scale', 'axis', 'mask', 'path'])
          assert.throws(
            () => attn.attentionSteps({ q: I2, k: I2, v: V10, [option]: name }),
            { code: 'bad_option', argument: option },
            `attentionSteps ${option}: ${name}`,
          );
        for (const fn of ['attention', 'attentionStreaming'])
          for (const option of ['scale', 'mask'])
            assert.throws(
              () => attn[fn]({ q: I2, k: I2, v: V10, [option]: name }),
              { code: 'bad_option' },
              `${fn} ${option}`,
            );
        assert.throws(() => attn.project({ x: I2, w: I2, path: name }), { code: 'bad_option', argument: 'path' });
        // …nor argument names: an own key "constructor" is an unknown option
        assert.throws(() => attn.attention(JSON.parse(`{"${name}": 1}`)), { code: 'unknown_option', argument: name });
      }
      assertWorkedExample(assert, attn, 'worked example');
    });

    it('a BigInt element is named as a BigInt: "(got 1n)"', () => {
      assert.throws(() => module.attn.attentionSteps({ q: I2, k: I2, v: { rows: 2, cols: 2, data: [1n, 0, 0, 1] } }), {
        code: 'not_a_number',
        message: 'v.data[0] is not a number (got 1n)',
        params: { index: 0, got: '1n' },
      });
    });

    it('an oversized mask is refused by its shape before it is copied: q, k, v 1×1, mask 1×100,000,000', () => {
      const one = matrix([[1]]);
      const mask = { rows: 1, cols: 1e8, data: new Float32Array(1e8).fill(1) }; // 400 MB, under the input limit
      const before = module.memoryBytes();
      assert.throws(() => module.attn.attentionSteps({ q: one, k: one, v: one, mask }), {
        code: 'mask_shape',
        message: 'mask is 1×100000000 but the scores are 1×1 (n_q×n_k)',
      });
      const grew = module.memoryBytes() - before;
      assert.ok(grew < MiB, `wasm memory grew by ${(grew / MiB).toFixed(1)} MiB`);
      assertWorkedExample(assert, module.attn, 'worked example');
    });

    it('the mask counts toward the input limit: 1×2^28 is refused before it is copied', () => {
      const one = matrix([[1]]);
      const mask = { rows: 1, cols: 2 ** 28, data: new Float32Array(2 ** 28) };
      assert.throws(() => module.attn.attention({ q: one, k: one, v: one, mask }), {
        code: 'inputs_too_large',
        params: { values: 2 ** 28 + 3, bytes: (2 ** 28 + 3) * 4, limit: 512 * MiB },
      });
      assertWorkedExample(assert, module.attn, 'worked example');
    });
  });

  describe(`${build} build: the bindings free a call cut short by a JS exception`, () => {
    it('the copies of q and k made before v threw are freed when the next call begins', async () => {
      const core = await loadCore(build);
      const options = { scale: 'sqrt_dk', temperature: 1, mask: 'none', stable: true, axis: 'row' };
      const q = filled(256, 256, 1),
        k = filled(256, 256, 2);
      const grew = growth(
        { memoryBytes: () => core.HEAP8.length },
        () => core.attention(q, k, { rows: 256, cols: 4, data: detached(1024) }, options),
        200,
      );
      assert.ok(grew < 4 * MiB, `wasm memory grew by ${(grew / MiB).toFixed(1)} MiB`);
    });
  });
}

// Issue 19, item 4: re-entry through the bindings. The bindings used to build their results with
// val::object().set(...), which runs a setter the caller put on Object.prototype; such a setter
// could call the module mid-call, and begin_call() then freed the outer call's memory under it.
for (const build of ['simd', 'scalar']) {
  describe(`${build} build: nothing the caller installed runs during a call`, () => {
    let attn;
    before(async () => {
      attn = (await loadAttentionWithCore(build)).attn;
    });

    // Runs `call` with a setter named `key` on Object.prototype that calls attention({ I₂, I₂, 10·I₂ });
    // returns what `call` returned and how many times the setter ran.
    function withPrototypeSetter(key, call) {
      let ran = 0;
      Object.defineProperty(Object.prototype, key, {
        set() {
          ran++;
          attn.attention({ q: I2, k: I2, v: V10 });
        },
        configurable: true,
      });
      try {
        return { result: call(), ran };
      } finally {
        delete Object.prototype[key];
      }
    }

    it('a setter on Object.prototype.kept that calls attention cannot empty attentionSteps (it returned 0×0)', () => {
      const { result, ran } = withPrototypeSetter('kept', () => attn.attentionSteps({ q: I2, k: I2, v: V10 }));
      assert.equal(ran, 0);
      assert.ok(Object.hasOwn(result, 'kept'));
      assertClose(
        assert,
        result.kept,
        [
          [1, 1],
          [1, 1],
        ],
        0,
        'kept',
      );
      assertClose(
        assert,
        result.weights,
        [
          [0.67, 0.33],
          [0.33, 0.67],
        ],
        0.01,
        'weights',
      );
      assertClose(
        assert,
        result.output,
        [
          [6.698, 3.302],
          [3.302, 6.698],
        ],
        1e-4,
        'output',
      );
      assert.equal(result.divisor, Math.fround(Math.SQRT2));
    });

    it('a setter on Object.prototype.what during a too_much_memory refusal: the Error keeps its fields (it threw a raw number)', () => {
      const big = { rows: 20000, cols: 1, data: new Float32Array(20000) };
      const { result: thrown, ran } = withPrototypeSetter('what', () => {
        try {
          attn.attentionSteps({ q: big, k: big, v: big });
        } catch (e) {
          return e;
        }
      });
      assert.equal(ran, 0);
      assert.ok(thrown instanceof Error, `threw ${thrown}`);
      assert.equal(thrown.code, 'too_much_memory');
      assert.equal(thrown.params.operation, 'attention_steps');
      assert.ok(Object.hasOwn(thrown.params, 'what'));
      assert.equal(thrown.params.what, 'scores');
      assertWorkedExample(assert, attn, 'after the refusal');
    });

    it('every result is an ordinary object with own fields, the multi-head one and its list of heads too', () => {
      const x = matrix([
        [1, 0, 0, 1],
        [0, 1, 0, 1],
        [0, 0, 1, 1],
      ]);
      const w = matrix([
        [1, 0, 0, 1],
        [0, 1, 1, 0],
        [1, 1, 0, 0],
        [0, 0, 1, 1],
      ]);
      const { result, ran } = withPrototypeSetter('heads', () =>
        attn.multiHeadAttentionSteps({ x, wq: w, wk: w, wv: w, wo: w, heads: 2 }),
      );
      assert.equal(ran, 0);
      assert.ok(Array.isArray(result.heads) && result.heads.length === 2);
      for (const value of [result, result.q, result.heads[1], result.heads[1].nonFinite, result.multiplyAdds])
        assert.equal(Object.getPrototypeOf(value), Object.prototype);
    });

    it('a setter on Object.prototype named after an option cannot swallow it: temperature, maskMatrix', () => {
      const mask = matrix([
        [1, 0],
        [1, 1],
      ]);
      for (const key of ['temperature', 'maskMatrix', 'mask']) {
        const { result, ran } = withPrototypeSetter(key, () =>
          attn.attentionSteps({ q: I2, k: I2, v: V10, mask, temperature: 0.5 }),
        );
        assert.equal(ran, 0, key);
        assertClose(
          assert,
          result.kept,
          [
            [1, 0],
            [1, 1],
          ],
          0,
          `${key}: kept`,
        );
        assert.equal(result.divisor, Math.fround(Math.SQRT2 * 0.5), `${key}: divisor`);
      }
    });

    // The second line of defence: a built-in the bindings call, replaced by the caller, does run
    // mid-call; a module call from there is refused with reentrant_call and the outer call is unharmed.
    it('a call made while another runs is refused with reentrant_call, and the outer call completes', () => {
      const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
      const set = TypedArrayPrototype.set;
      const nested = [];
      TypedArrayPrototype.set = function (...args) {
        if (nested.length < 3)
          try {
            nested.push(attn.attention({ q: I2, k: I2, v: V10 }));
          } catch (e) {
            nested.push(e);
          }
        return Reflect.apply(set, this, args);
      };
      let result;
      try {
        result = attn.attentionSteps({ q: I2, k: I2, v: V10 });
      } finally {
        TypedArrayPrototype.set = set;
      }
      assert.ok(nested.length > 0, 'the replaced set ran during the call');
      for (const e of nested) {
        assert.ok(e instanceof Error, `the nested call returned ${e}`);
        assert.equal(e.code, 'reentrant_call');
        assert.deepEqual(e.params, { function: 'attention', running: 'attentionStepsSimd' });
        assert.equal(
          e.message,
          'attention was called while attentionStepsSimd was still running; call the module again once it has returned',
        );
      }
      assertClose(
        assert,
        result.output,
        [
          [6.698, 3.302],
          [3.302, 6.698],
        ],
        1e-4,
        'the outer call',
      );
      assertWorkedExample(assert, attn, 'after');
    });

    it('a call cut short by an exception frees the guard: the next call runs', () => {
      const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
      const set = TypedArrayPrototype.set;
      TypedArrayPrototype.set = () => {
        throw new Error('set refused');
      };
      try {
        assert.throws(() => attn.attentionSteps({ q: I2, k: I2, v: V10 }), { message: 'set refused' });
      } finally {
        TypedArrayPrototype.set = set;
      }
      assertWorkedExample(assert, attn, 'after the exception');
    });
  });
}

// Issue 27, item 2: the module's own memory as an argument. A caller reaches it through
// instantiateWasm; an `out` over it was accepted (the output overwrote the module's data and every
// later call failed with "memory access out of bounds"), and a view over it detached mid-call when
// the call grew the memory, throwing the engine's raw TypeError.
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const bufferOf = Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'buffer').get;

// Runs `call` with %TypedArray%.prototype.set replaced by `before(target, source)` followed by the
// real set: the one built-in the bindings call that a caller can replace.
function withSet(before, call) {
  const set = TypedArrayPrototype.set;
  TypedArrayPrototype.set = function (...args) {
    before(this, args[0]);
    return Reflect.apply(set, this, args);
  };
  try {
    return call();
  } finally {
    TypedArrayPrototype.set = set;
  }
}
const transfer = (buffer) => structuredClone(buffer, { transfer: [buffer] });

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: the module's own memory, and buffers detached mid-call`, () => {
    it('an out over the module’s memory is refused, nothing is written, and the module computes on', async () => {
      const { attn, memory } = await loadAttentionWithMemory(build);
      const top = memory.buffer.byteLength - 16; // above everything the allocator has handed out
      for (const fn of ['attention', 'attentionStreaming']) {
        const out = new Float32Array(memory.buffer, top, 4).fill(-7);
        assert.throws(() => attn[fn]({ q: I2, k: I2, v: V10, out }), {
          code: 'bad_option',
          argument: 'out',
          params: { got: "a view of the module's memory" },
          message: `${fn}: out must not be a view of the module's own memory, which the call works in; pass a Float32Array of your own`,
        });
        assert.deepEqual([...out], [-7, -7, -7, -7], `${fn}: out untouched`);
        const own = new Float32Array(4);
        assert.equal(attn[fn]({ q: I2, k: I2, v: V10, out: own }).data, own);
        assertClose(
          assert,
          { rows: 2, cols: 2, data: own },
          [
            [6.698, 3.302],
            [3.302, 6.698],
          ],
          1e-4,
          fn,
        );
      }
      assertWorkedExample(assert, attn, 'after the refusals');
    });

    it('an input over the module’s memory is read before the call grows the memory (it threw a raw TypeError)', async () => {
      const { attn, memory } = await loadAttentionWithMemory(build);
      // One query against 8192 keys of 512: copying k (16 MiB) grows the memory, which detaches
      // every view over the old buffer — v's among them, were it still to be copied then.
      const keys = 8192;
      const q = filled(1, 512, 1),
        k = filled(keys, 512, 2);
      const top = memory.buffer.byteLength - keys * 4;
      const values = new Float32Array(memory.buffer, top, keys);
      values.set(filled(keys, 1, 3).data);
      const copy = Float32Array.from(values);
      const before = memory.buffer.byteLength;
      const result = attn.attention({ q, k, v: { rows: keys, cols: 1, data: values } });
      assert.ok(memory.buffer.byteLength > before, 'the call grew the memory');
      assert.deepEqual(result, attn.attention({ q, k, v: { rows: keys, cols: 1, data: copy } }));
      assertWorkedExample(assert, attn, 'after the growth');
    });

    it('out detached during the call (from a replaced built-in) is the coded detached_data Error', async () => {
      const { attn } = await loadAttentionWithCore(build);
      for (const fn of ['attention', 'attentionStreaming']) {
        const out = new Float32Array(4);
        const buffer = out.buffer;
        const detach = (target) => {
          if (bufferOf.call(target) === buffer) transfer(buffer);
        };
        assert.throws(() => withSet(detach, () => attn[fn]({ q: I2, k: I2, v: V10, out })), {
          code: 'detached_data',
          argument: 'out',
          message:
            "out's buffer has been detached (transferred or freed); pass a Float32Array that can hold the output",
        });
        assertWorkedExample(assert, attn, `${fn}: after the detach`);
      }
    });

    it('an input detached during the call is the coded detached_data Error naming it, and leaks nothing', async () => {
      const module = await loadAttentionWithCore(build);
      const { attn } = module;
      const q = filled(256, 256, 1),
        k = filled(256, 256, 2);
      // While q is copied, v's buffer is transferred away: v's copy then fails.
      const call = () => {
        const v = filled(256, 4, 3);
        const detach = (target, source) => {
          if (source === undefined || !ArrayBuffer.isView(source) || bufferOf.call(source) !== q.data.buffer) return;
          if (v.data.buffer.byteLength > 0) transfer(v.data.buffer);
        };
        return withSet(detach, () => attn.attention({ q, k, v }));
      };
      assert.throws(call, { code: 'detached_data', argument: 'v' });
      const grew = growth(module, call, 200);
      assert.ok(grew < 4 * MiB, `wasm memory grew by ${(grew / MiB).toFixed(1)} MiB`);
      assertWorkedExample(assert, attn, 'after the detach');
    });
  });

  // Issue 27, item 3: trainer.probe and probeGradient read the caller's token array twice (the API
  // checked it, the bindings read it again): a getter ran twice, the value checked (5) was not the
  // value used (5.5), and a dispose() from that getter was refused while the wrapper forgot its id,
  // leaving 9,752,248 bytes in the module for good.
  describe(`${build} build: a trainer's tokens are read once, and dispose frees it whatever happens`, () => {
    let module;
    before(async () => {
      module = await loadAttentionWithCore(build);
      module.attn.createTrainer().dispose(); // the module's first allocations, before any measure
    });

    // [0, 1, 2, 3, 4, 5] whose last token is a getter: `onRead(reads)` is what it answers.
    function tokensWithGetter(onRead) {
      const tokens = [0, 1, 2, 3, 4];
      let reads = 0;
      Object.defineProperty(tokens, 5, { get: () => onRead(++reads), enumerable: true });
      return { tokens, reads: () => reads };
    }

    it('a getter runs once, and the value it answered (5, then 5.5) is the value used', () => {
      const trainer = module.attn.createTrainer({ seed: 7 });
      for (const method of ['probe', 'probeGradient']) {
        const { tokens, reads } = tokensWithGetter((n) => (n === 1 ? 5 : 5.5));
        assert.deepEqual(trainer[method](tokens), trainer[method]([0, 1, 2, 3, 4, 5]), method);
        assert.equal(reads(), 1, `${method}: reads of tokens[5]`);
      }
      trainer.dispose();
    });

    it('a dispose() from that getter frees the trainer: the heap is back where it was', () => {
      const before = module.heapBytes();
      const trainer = module.attn.createTrainer({ seed: 7, dToken: 256, dHead: 256, heads: 4 });
      assert.ok(module.heapBytes() > before + MiB, 'the trainer holds its parameters and moments');
      const { tokens } = tokensWithGetter(() => {
        trainer.dispose();
        return 5;
      });
      assert.throws(() => trainer.probe(tokens), { code: 'disposed' });
      assert.equal(module.heapBytes(), before);
      assertWorkedExample(assert, module.attn, 'after');
    });

    it('a dispose() refused mid-call (from a replaced built-in) keeps the trainer, and a later one frees it', () => {
      const before = module.heapBytes();
      const trainer = module.attn.createTrainer({ seed: 7 });
      const refusals = [];
      const tryDispose = () => {
        try {
          trainer.dispose();
        } catch (e) {
          refusals.push(e);
        }
      };
      const probe = withSet(tryDispose, () => trainer.probe([0, 1, 2, 3, 4, 5]));
      assert.ok(refusals.length > 0, 'dispose was called during the probe');
      for (const e of refusals) assert.equal(e.code, 'reentrant_call');
      assert.deepEqual(trainer.probe([0, 1, 2, 3, 4, 5]), probe, 'the trainer is still there');
      trainer.dispose();
      assert.equal(module.heapBytes(), before);
    });
  });
}
