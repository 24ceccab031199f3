// attention({ …, out }) and attentionStreaming({ …, out }): the output written into a Float32Array
// the caller provides, for each build. The same values as a fresh output, bit for bit; the caller's
// own array comes back as data; a wrong `out` is refused before anything is written, with the other
// arguments and the module left as they were.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, loadAttentionWithCore, I2, V10, random, customMask, detached } from './load-module.mjs';

const FUNCTIONS = ['attention', 'attentionStreaming'];

for (const build of ['relaxed', 'simd', 'scalar']) {
  describe(`${build} build: the output into a given Float32Array (out)`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    for (const fn of FUNCTIONS) {
      it(`${fn}: the article's example into out — A·V ≈ [[6.7, 3.3], [3.3, 6.7]], and data is out itself`, () => {
        const out = new Float32Array(4).fill(NaN);
        const result = attn[fn]({ q: I2, k: I2, v: V10, out });
        assert.equal(result.data, out);
        assert.equal(result.rows, 2);
        assert.equal(result.cols, 2);
        // QKᵀ/√2 holds 1/√2 on its diagonal and 0 elsewhere: A₁₁ = e^{1/√2}/(e^{1/√2} + 1) = 0.6698,
        // and A·V = 10·A
        const a = 1 / (1 + Math.exp(-1 / Math.SQRT2));
        const want = [10 * a, 10 * (1 - a), 10 * (1 - a), 10 * a];
        out.forEach((x, i) => assert.ok(Math.abs(x - want[i]) < 1e-5, `out[${i}] = ${x}, want ${want[i]}`));
      });

      it(`${fn}: equal bit for bit to the fresh output, every cell written, across shapes and masks`, () => {
        for (const [nQ, nK, dK, dV] of [
          [1, 1, 1, 1],
          [7, 13, 8, 7],
          [64, 64, 64, 64],
          [33, 130, 17, 9],
        ]) {
          const q = random(nQ, dK, nQ, -2, 2),
            k = random(nK, dK, nK + 1, -2, 2),
            v = random(nK, dV, dV + 2, -3, 3);
          for (const mask of ['none', 'causal', customMask(nQ, nK, 5)]) {
            const fresh = attn[fn]({ q, k, v, mask }).data;
            const out = new Float32Array(nQ * dV).fill(NaN);
            attn[fn]({ q, k, v, mask, out });
            assert.deepEqual(
              out,
              fresh,
              `${nQ}×${dK} · ${nK}×${dV}, mask ${typeof mask === 'string' ? mask : 'custom'}`,
            );
          }
        }
      });
    }

    it('out as a view into a larger buffer: only its own values are written', () => {
      const buffer = new Float32Array(10).fill(-1);
      const out = buffer.subarray(3, 7);
      attn.attention({ q: I2, k: I2, v: V10, out });
      assert.deepEqual([...buffer.subarray(0, 3), ...buffer.subarray(7)], [-1, -1, -1, -1, -1, -1]);
      assert.deepEqual(out, attn.attention({ q: I2, k: I2, v: V10 }).data);
    });

    it('out may be the same array as an input: the inputs are copied in before the output is written', () => {
      const q = { rows: 2, cols: 2, data: new Float32Array([1, 0, 0, 1]) };
      const want = attn.attention({ q, k: I2, v: V10 }).data;
      const result = attn.attention({ q, k: I2, v: V10, out: q.data });
      assert.equal(result.data, q.data);
      assert.deepEqual(q.data, want);
    });

    it('a wrong out is refused, named, and nothing is written', () => {
      const short = new Float32Array([7, 7, 7]);
      assert.throws(() => attn.attention({ q: I2, k: I2, v: V10, out: short }), {
        code: 'wrong_length',
        argument: 'out',
        params: { got: 3, need: 4, rows: 2, cols: 2 },
      });
      assert.deepEqual([...short], [7, 7, 7]);
      for (const notFloat32 of [[0, 0, 0, 0], new Float64Array(4), null, 4, { length: 4 }])
        assert.throws(() => attn.attentionStreaming({ q: I2, k: I2, v: V10, out: notFloat32 }), {
          code: 'bad_option',
          argument: 'out',
        });
      assert.throws(() => attn.attention({ q: I2, k: I2, v: V10, out: detached(4) }), {
        code: 'detached_data',
        argument: 'out',
      });
      // the step-by-step function returns every intermediate and takes no out
      assert.throws(() => attn.attentionSteps({ q: I2, k: I2, v: V10, out: new Float32Array(4) }), {
        code: 'unknown_option',
        argument: 'out',
      });
    });

    it('a call refused for its inputs leaves out as it was', () => {
      const q = { rows: 2, cols: 2, data: new Float32Array([Infinity, 0, 0, 1]) };
      const out = new Float32Array([1, 2, 3, 4]);
      assert.throws(() => attn.attention({ q, k: I2, v: V10, out }), { code: 'not_finite' });
      assert.deepEqual([...out], [1, 2, 3, 4]);
      assert.deepEqual(
        attn.attention({ q: I2, k: I2, v: V10, out }).data,
        attn.attention({ q: I2, k: I2, v: V10 }).data,
      );
    });

    it('a set method the caller put on out does not run: the bindings write through a view of their own', () => {
      const out = new Float32Array(4);
      out.set = () => {
        throw new Error('the caller’s set ran');
      };
      attn.attention({ q: I2, k: I2, v: V10, out });
      assert.ok(out[0] > 6.69 && out[0] < 6.7);
    });
  });
}

describe('out: no memory kept from call to call', () => {
  it('10,000 calls into one out leave the module’s heap where one call left it', async () => {
    const { attn, heapBytes } = await loadAttentionWithCore('simd');
    const q = random(64, 64, 1),
      k = random(64, 64, 2),
      v = random(64, 64, 3);
    const out = new Float32Array(64 * 64);
    attn.attention({ q, k, v, out });
    const after1 = heapBytes();
    for (let i = 0; i < 10000; i++) attn.attention({ q, k, v, out });
    assert.equal(heapBytes(), after1);
  });
});
