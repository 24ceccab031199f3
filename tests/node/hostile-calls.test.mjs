// What a hostile or careless caller cannot do to the module, on both builds: every JS value is read
// once into a snapshot before anything is copied into wasm memory, shapes are checked before
// values are copied, and a call cut short by a JS exception leaks nothing. Each case ends with the
// article's worked example still computing.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionWithCore, loadCore, matrix, assertClose, I2, V10, assertWorkedExample } from './load-module.mjs';

const MiB = 2 ** 20;

// Deterministic n×d inputs, large enough (256 KiB each at 256×256) that a leak of their copies shows.
const filled = (rows, cols, seed) => ({
  rows,
  cols,
  data: Float32Array.from({ length: rows * cols }, (_, t) => Math.sin(seed + t)),
});

// A Float32Array whose buffer has been transferred away (what postMessage with a transfer list does).
function detached(length) {
  const data = new Float32Array(length);
  structuredClone(data.buffer, { transfer: [data.buffer] });
  return data;
}

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
