// multiHeadAttentionSteps on both builds and both paths: 它 是 猫 with 2 heads against the float64
// fixture of scripts/make-multi-head-fixture.mjs (head 1 attends to the previous word, head 2 to
// the same word), h = 1 equal to attentionSteps on Q, K, V bit for bit, the multiply-adds h heads
// share, the SIMD path against the reference on random shapes, and the refusals.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadAttention, loadCore, matrix, assertEachCell, random, customMask } from './load-module.mjs';
import { MAX_HEADS } from '../../wasm/vocabulary.mjs';

const fixture = JSON.parse(fs.readFileSync(new URL('../fixtures/multi-head.json', import.meta.url), 'utf8'));
const near = (tol) => (a, b) => Math.abs(a - b) <= tol + tol * Math.abs(b);
const inputsOf = (c) => ({ x: matrix(c.x), wq: matrix(c.wq), wk: matrix(c.wk), wv: matrix(c.wv), wo: matrix(c.wo) });
const cat = inputsOf(fixture.cases[0]);
const sameBits = (a, b, what) => {
  assert.equal(a.rows, b.rows, `${what}: rows`);
  assert.equal(a.cols, b.cols, `${what}: cols`);
  assert.deepEqual(
    new Uint32Array(a.data.buffer, a.data.byteOffset, a.data.length),
    new Uint32Array(b.data.buffer, b.data.byteOffset, b.data.length),
    `${what}: bits`,
  );
};
const STEP_FIELDS = ['scores', 'kept', 'scaled', 'rowMax', 'shifted', 'exps', 'rowSum', 'weights', 'output'];

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: multiHeadAttentionSteps`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    it('它 是 猫, 2 heads: 是 and 猫 look one word back in head 1 (A ≈ 0.941), at themselves in head 2', () => {
      for (const path of ['simd', 'reference']) {
        const r = attn.multiHeadAttentionSteps({ ...cat, heads: 2, path });
        assert.equal(r.heads.length, 2);
        assert.ok(Array.isArray(r.heads));
        const [a1, a2] = r.heads.map((h) => h.weights.data);
        assert.ok(Math.abs(a1[3 * 1 + 0] - 0.941) < 1e-3, `${path}: 是 → 它 ${a1[3]}`);
        assert.ok(Math.abs(a1[3 * 2 + 1] - 0.941) < 1e-3, `${path}: 猫 → 是 ${a1[7]}`);
        for (let i = 0; i < 3; i++) assert.ok(a2[4 * i] > 0.94, `${path}: head 2, word ${i}`);
        assert.equal(r.heads[0].divisor, Math.fround(Math.SQRT2));
        assert.deepEqual(r.multiplyAdds, {
          projections: 144,
          scores: 36,
          weighting: 36,
          outputProjection: 48,
          total: 264,
        });
        assert.equal(Object.getPrototypeOf(r), Object.prototype);
      }
    });

    for (const c of fixture.cases)
      it(`the float64 fixture, every field, both paths: ${c.name}`, () => {
        const tol = fixture.tolerance;
        for (const path of ['simd', 'reference']) {
          const r = attn.multiHeadAttentionSteps({
            ...inputsOf(c),
            heads: c.heads,
            scale: c.scale,
            temperature: c.temperature,
            mask: c.mask,
            path,
          });
          const e = c.expected;
          for (const field of ['q', 'k', 'v', 'concat', 'output'])
            assertEachCell(assert, r[field], matrix(e[field]), `${path} ${field}`, near(tol));
          e.heads.forEach((want, i) => {
            const got = r.heads[i];
            for (const [field, key] of [
              ['q'],
              ['k'],
              ['v'],
              ['scores'],
              ['scaled'],
              ['rowMax', 'row_max'],
              ['exps'],
              ['rowSum', 'row_sum'],
              ['weights'],
              ['output'],
            ])
              assertEachCell(
                assert,
                got[field],
                matrix(want[key ?? field]),
                `${path} head ${i + 1} ${field}`,
                near(tol),
              );
            assert.ok(near(1e-6)(got.divisor, want.divisor), `${path} head ${i + 1} divisor ${got.divisor}`);
          });
          const m = e.multiply_adds;
          assert.deepEqual(r.multiplyAdds, {
            projections: m.projections,
            scores: m.scores,
            weighting: m.weighting,
            outputProjection: m.output_projection,
            total: m.projections + m.scores + m.weighting + m.output_projection,
          });
        }
      });

    it('h = 1: the one head is attentionSteps on Q, K, V bit for bit, on either path, with a mask and a temperature', () => {
      const x = random(5, 6, 1, -2, 2),
        wq = random(6, 3, 2),
        wk = random(6, 3, 3),
        wv = random(6, 4, 4),
        wo = random(4, 2, 5);
      for (const path of ['simd', 'reference'])
        for (const options of [
          {},
          { mask: 'causal', temperature: 0.7 },
          { mask: customMask(5, 5, 6), scale: 'dk' },
          { axis: 'column', stable: false, scale: 'none' },
        ]) {
          const r = attn.multiHeadAttentionSteps({ x, wq, wk, wv, wo, heads: 1, path, ...options });
          const [q, k, v] = [wq, wk, wv].map((w) => attn.project({ x, w, path }));
          const single = attn.attentionSteps({ q, k, v, path, ...options });
          for (const field of STEP_FIELDS) sameBits(r.heads[0][field], single[field], `${path} ${field}`);
          assert.deepEqual(r.heads[0].nonFinite, single.nonFinite);
          assert.equal(r.heads[0].divisor, single.divisor);
          sameBits(r.q, q, 'q');
          sameBits(r.concat, single.output, 'concat');
        }
    });

    it("h heads of d_k = d_model / h cost one head of d_model's multiply-adds, in the core's own counts", () => {
      const n = 3,
        d = 8;
      const one = attn.multiHeadMultiplyAdds({ n, dModel: d, heads: 1, dk: d, dv: d, dOut: d });
      assert.deepEqual(one, { projections: 576, scores: 72, weighting: 72, outputProjection: 192, total: 912 });
      const [x, wq, wk, wv, wo] = [
        [n, d],
        [d, d],
        [d, d],
        [d, d],
        [d, d],
      ].map(([r, c], s) => random(r, c, 10 + s));
      for (const heads of [2, 4, 8]) {
        assert.deepEqual(
          attn.multiHeadMultiplyAdds({ n, dModel: d, heads, dk: d / heads, dv: d / heads, dOut: d }),
          one,
        );
        assert.deepEqual(attn.multiHeadAttentionSteps({ x, wq, wk, wv, wo, heads }).multiplyAdds, one);
      }
    });

    it('the SIMD path equals the reference on random shapes: h = 1…4, masks, temperature, all three scalings', () => {
      let seed = 100;
      for (let heads = 1; heads <= 4; heads++)
        for (const n of [1, 4, 9])
          for (const dk of [1, 3, 5]) {
            const dModel = 4 + heads,
              dv = dk + 1;
            const x = random(n, dModel, ++seed, -2, 2),
              wq = random(dModel, heads * dk, ++seed),
              wk = random(dModel, heads * dk, ++seed),
              wv = random(dModel, heads * dv, ++seed),
              wo = random(heads * dv, 3, ++seed);
            for (const scale of ['sqrt_dk', 'dk', 'none'])
              for (const mask of ['none', 'causal', customMask(n, n, ++seed)])
                for (const temperature of [1, 0.5]) {
                  const args = { x, wq, wk, wv, wo, heads, scale, mask, temperature };
                  const simd = attn.multiHeadAttentionSteps({ ...args, path: 'simd' });
                  const ref = attn.multiHeadAttentionSteps({ ...args, path: 'reference' });
                  const what = `h ${heads}, n ${n}, d_k ${dk}, ${scale}, τ ${temperature}`;
                  for (let i = 0; i < heads; i++)
                    for (const field of STEP_FIELDS)
                      assertEachCell(
                        assert,
                        simd.heads[i][field],
                        ref.heads[i][field],
                        `${what}: head ${i + 1} ${field}`,
                        near(2e-5),
                      );
                  assertEachCell(assert, simd.output, ref.output, `${what}: output`, near(2e-5));
                }
          }
    });

    it('refuses with coded Errors naming the field: h, the column split, the shapes, ±∞ out of X·W', () => {
      const w6 = random(4, 6, 1);
      const cases = [
        [{ heads: 0 }, { code: 'out_of_range', argument: 'heads', params: { got: 0, min: 1, max: MAX_HEADS } }],
        [{ heads: MAX_HEADS + 1 }, { code: 'out_of_range', argument: 'heads' }],
        [{ heads: 1.5 }, { code: 'bad_option', argument: 'heads' }],
        [{ heads: '2' }, { code: 'bad_option', argument: 'heads' }],
        [{ heads: undefined }, { code: 'bad_option', argument: 'heads' }],
        [{ heads: 3 }, { code: 'heads_indivisible', argument: 'wq', params: { cols: 4, heads: 3 } }],
        [
          { heads: 2, wk: w6 },
          { code: 'head_width_mismatch', argument: 'wk', params: { got: 6, need: 4 } },
        ],
        [
          { heads: 2, wv: random(5, 4, 2) },
          { code: 'projection_mismatch', argument: 'wv' },
        ],
        [
          { heads: 2, wo: random(6, 4, 3) },
          { code: 'wo_mismatch', argument: 'wo', params: { got: 6, need: 4, rows: 3 } },
        ],
        [
          {
            heads: 2,
            mask: matrix([
              [1, 1],
              [1, 1],
            ]),
          },
          { code: 'mask_shape', argument: 'mask' },
        ],
        [
          { heads: 2, temperature: 0 },
          { code: 'bad_temperature', argument: 'temperature' },
        ],
        [
          { heads: 2, wz: 1 },
          { code: 'unknown_option', argument: 'wz' },
        ],
        [
          {
            heads: 2,
            x: matrix([
              [3e38, 3e38, 3e38, 3e38],
              [0, 0, 0, 0],
              [0, 0, 0, 0],
            ]),
            wq: matrix([
              [2, 0, 0, 0],
              [2, 0, 0, 0],
              [0, 0, 0, 0],
              [0, 0, 0, 0],
            ]),
          },
          { code: 'projection_overflow', argument: 'q', cell: { row: 0, col: 0 }, params: { value: Infinity } },
        ],
      ];
      for (const [change, want] of cases) {
        assert.throws(
          () => attn.multiHeadAttentionSteps({ ...cat, ...change }),
          (e) => {
            assert.ok(e instanceof Error);
            assert.equal(typeof e.message, 'string');
            for (const [key, value] of Object.entries(want))
              assert.deepEqual(e[key], value, `${JSON.stringify(change)}: ${key}`);
            return true;
          },
        );
      }
      assert.throws(() => attn.multiHeadMultiplyAdds({ n: 0, dModel: 1, heads: 1, dk: 1, dv: 1, dOut: 1 }), {
        code: 'bad_option',
        argument: 'n',
      });
    });

    it('multiHeadMultiplyAdds saturates end to end and takes heads up to 64, as multiHeadAttentionSteps (issue 27)', () => {
      // projections = 1·(2³¹ − 1)·64·(2·(2³¹ − 1) + 1) does not fit in 64 bits: it stays at
      // 2⁶⁴ − 1, and so does the total (which wrapped to 1.4e11)
      const counts = attn.multiHeadMultiplyAdds({
        n: 1,
        dModel: 2 ** 31 - 1,
        heads: 64,
        dk: 2 ** 31 - 1,
        dv: 1,
        dOut: 1,
      });
      assert.equal(counts.projections, 2 ** 64);
      assert.equal(counts.total, 2 ** 64);
      for (const heads of [0, 65, 2 ** 31 - 1])
        assert.throws(() => attn.multiHeadMultiplyAdds({ n: 1, dModel: 64, heads, dk: 1, dv: 1, dOut: 1 }), {
          code: heads === 0 ? 'bad_option' : 'out_of_range',
          argument: 'heads',
          ...(heads === 0 ? {} : { message: `heads must be a whole number from 1 to 64 (got ${heads})` }),
        });
    });

    it('the 1 GiB rule counts every head: n = 4096 with 8 heads is refused by its shape before any value is copied', () => {
      const x = { rows: 4096, cols: 8, data: new Float32Array(4096 * 8) },
        w = { rows: 8, cols: 8, data: new Float32Array(64) };
      // each head's steps as attentionSteps counts them, and its blocks Q_i, K_i, V_i; then Q, K, V, concat, output
      const steps = attn.workingMemory({ operation: 'attention_steps', nq: 4096, nk: 4096, d: 1, dv: 1 }).bytes;
      const numbers = 8 * (steps + 3 * 4096 * 4) + 5 * 4096 * 8 * 4;
      let refusal;
      assert.throws(
        () => attn.multiHeadAttentionSteps({ x, wq: w, wk: w, wv: w, wo: w, heads: 8 }),
        (e) => (refusal = e).code === 'too_much_memory',
      );
      const { bytes, ...rest } = refusal.params;
      assert.deepEqual(rest, {
        operation: 'multi_head_attention_steps',
        what: 'scores',
        rows: 4096,
        cols: 4096,
        limit: 2 ** 30,
      });
      // and each head's record, the core's HeadSteps (its matrices' headers, the divisor, the counts):
      // a few hundred bytes, whatever its size in this build
      const record = (bytes - numbers) / 8;
      assert.ok(Number.isInteger(record) && record > 0 && record < 1024, `per head ${record} bytes beyond the numbers`);
    });
  });
}

describe("vocabulary.mjs: MAX_HEADS is the core's kMaxHeads", () => {
  it('both builds', async () => {
    for (const build of ['simd', 'scalar']) assert.equal((await loadCore(build)).vocabulary().maxHeads, MAX_HEADS);
  });
});
