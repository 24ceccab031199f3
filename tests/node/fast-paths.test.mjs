// The fast paths through the public JS API, for each build (relaxed SIMD, SIMD128, scalar):
// attention() and attentionStreaming() equal the reference's output (attentionSteps with path 'reference') across shapes (1 to 300,
// odd and prime, n_q ≠ n_k), masks (none, causal, custom with fully masked rows), scalings and
// temperatures; NaN cells as the reference's; bad input refused with the reference's message.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, assertEachCell, random, customMask } from './load-module.mjs';

// |a − b| ≤ 1e-5 + 1e-4·|b| (float32, another summation order, a polynomial exp); NaN only
// against NaN, ±∞ only against itself.
function assertSame(actual, expected, what) {
  assertEachCell(assert, actual, expected, what, (a, b) => Math.abs(a - b) <= 1e-5 + 1e-4 * Math.abs(b));
}

// [n_q, n_k, d_k, d_v]: around the block sizes (8-row groups, 4-key panels, 256-key tiles),
// primes, n_q ≠ n_k both ways, d up to 300.
const SHAPES = [
  [1, 1, 1, 1],
  [2, 3, 4, 5],
  [5, 1, 2, 3],
  [7, 13, 8, 7],
  [16, 16, 16, 16],
  [17, 9, 11, 19],
  [33, 65, 17, 8],
  [61, 37, 64, 33],
  [97, 101, 7, 13],
  [64, 257, 64, 64],
  [131, 300, 65, 31],
  [300, 100, 1, 2],
  [4, 260, 300, 5],
];

for (const build of ['relaxed', 'simd', 'scalar']) {
  describe(`${build} build: attention() and attentionStreaming() equal the reference's output`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    function check(args, what) {
      const want = attn.attentionSteps({ ...args, path: 'reference' }).output;
      assertSame(attn.attention(args), want, `attention, ${what}`);
      assertSame(attn.attentionStreaming(args), want, `attentionStreaming, ${what}`);
    }

    for (const [nQ, nK, dK, dV] of SHAPES) {
      it(`q ${nQ}×${dK}, k ${nK}×${dK}, v ${nK}×${dV}: every mask, scale and temperature`, () => {
        const seed = nQ * 1000 + nK;
        const q = random(nQ, dK, seed, -2, 2),
          k = random(nK, dK, seed + 1, -2, 2),
          v = random(nK, dV, seed + 2, -3, 3);
        for (const mask of ['none', 'causal', customMask(nQ, nK, seed + 3)])
          for (const scale of ['sqrt_dk', 'dk', 'none'])
            check({ q, k, v, mask, scale }, `mask ${typeof mask === 'string' ? mask : 'custom'}, scale ${scale}`);
        check({ q, k, v, temperature: 0.25 }, 'temperature 0.25');
        check({ q, k, v, temperature: 4, mask: 'causal' }, 'temperature 4, causal');
      });
    }

    it('a fully masked row gives a zero output row', () => {
      const q = random(4, 8, 1),
        k = random(6, 8, 2),
        v = random(6, 3, 3);
      const mask = { rows: 4, cols: 6, data: new Float32Array(24).fill(1) };
      mask.data.fill(0, 12, 18); // row 2
      for (const fn of ['attention', 'attentionStreaming']) {
        const out = attn[fn]({ q, k, v, mask });
        assert.deepEqual(Array.from(out.data.subarray(6, 9)), [0, 0, 0], fn);
        assert.notEqual(out.data[0], 0, fn);
      }
    });

    it('NaN in an input gives exactly the reference NaN cells', () => {
      const q = random(6, 5, 11),
        k = random(7, 5, 12),
        v = random(7, 4, 13);
      const qNaN = { ...q, data: q.data.slice() };
      qNaN.data[2 * 5 + 3] = NaN;
      check({ q: qNaN, k, v }, 'NaN in q');
      const vNaN = { ...v, data: v.data.slice() };
      vNaN.data[4 * 4 + 1] = NaN;
      check({ q, k, v: vNaN }, 'NaN in v');
    });

    it('scores far beyond exp range are handled by the max subtraction', () => {
      check({ q: random(19, 4, 21, -10, 10), k: random(23, 4, 22, -10, 10), v: random(23, 5, 23) }, 'scores ±200');
    });

    it("extreme temperatures give the reference's numbers, not NaN: 3e38 and 1e-40", () => {
      const I2 = { rows: 2, cols: 2, data: [1, 0, 0, 1] },
        V = { rows: 2, cols: 2, data: [10, 0, 0, 10] };
      assert.deepEqual(
        Array.from(attn.attentionStreaming({ q: I2, k: I2, v: V, temperature: 3e38 }).data),
        [5, 5, 5, 5],
      );
      assert.deepEqual(
        Array.from(attn.attention({ q: I2, k: I2, v: V, temperature: 3e38, mask: 'causal' }).data),
        [10, 0, 5, 5],
      );
      const tiny = {
        q: { rows: 1, cols: 1, data: [1e-20] },
        k: { rows: 2, cols: 1, data: [1e-20, 0] },
        v: { rows: 2, cols: 1, data: [1, 3] },
        temperature: 1e-40,
        scale: 'none',
      };
      for (const fn of ['attention', 'attentionStreaming'])
        assert.ok(Math.abs(attn[fn](tiny).data[0] - 1.5379) < 1e-4, fn);
      check(tiny, 'temperature 1e-40');
    });

    it('bad input throws the same message as attentionSteps', () => {
      const args = { q: random(3, 4, 31), k: random(5, 4, 32), v: random(6, 2, 33) };
      const message = (() => {
        try {
          attn.attentionSteps(args);
        } catch (e) {
          return e.message;
        }
        return '';
      })();
      assert.match(message, /k has 5 rows/);
      assert.throws(() => attn.attention(args), { message });
      assert.throws(() => attn.attentionStreaming(args), { message });
      assert.throws(() => attn.attentionStreaming({ ...args, stable: false }), /unknown option "stable"/);
    });
  });
}
