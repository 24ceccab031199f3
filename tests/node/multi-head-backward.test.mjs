// multiHeadAttentionBackward (core/multi_head_backward.hpp) on the three builds and both paths: one
// training step through the whole layer on 它 是 猫 against the float64 gradients of
// scripts/make-multi-head-fixture.mjs (expected.backward, dO = the case's gradOutput), h = 1 equal
// to attentionBackward from d(concat) bit for bit, and the refusals, each at the argument at fault.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadAttention, matrix, assertEachCell, random } from './load-module.mjs';

const fixture = JSON.parse(fs.readFileSync(new URL('../fixtures/multi-head.json', import.meta.url), 'utf8'));
const near = (tol) => (a, b) => Math.abs(a - b) <= tol + tol * Math.abs(b);
const inputsOf = (c) => ({ x: matrix(c.x), wq: matrix(c.wq), wk: matrix(c.wk), wv: matrix(c.wv), wo: matrix(c.wo) });
const cat = { ...inputsOf(fixture.cases[0]), heads: 2, gradOutput: matrix(fixture.cases[0].gradOutput) };
const sameBits = (a, b, what) => {
  assert.deepEqual([a.rows, a.cols], [b.rows, b.cols], `${what}: shape`);
  assert.deepEqual(
    new Uint32Array(a.data.buffer, a.data.byteOffset, a.data.length),
    new Uint32Array(b.data.buffer, b.data.byteOffset, b.data.length),
    `${what}: bits`,
  );
};
// The API's names of each head's gradients, and the fixture's.
const HEAD_FIELDS = {
  gradOutput: 'd_output',
  gradV: 'd_v',
  gradWeights: 'd_weights',
  gradScaled: 'd_scaled',
  gradScores: 'd_scores',
  gradQ: 'd_q',
  gradK: 'd_k',
};
const LAYER_FIELDS = {
  gradWo: 'd_w_o',
  gradConcat: 'd_concat',
  gradQ: 'd_q',
  gradK: 'd_k',
  gradV: 'd_v',
  gradWq: 'd_w_q',
  gradWk: 'd_w_k',
  gradWv: 'd_w_v',
  gradX: 'd_x',
};

for (const build of ['simd', 'scalar', 'relaxed']) {
  describe(`${build} build: multiHeadAttentionBackward`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    for (const c of fixture.cases)
      it(`every gradient against the float64 fixture, both paths: ${c.name}`, () => {
        const want = c.expected.backward;
        const near5 = near(fixture.tolerance);
        for (const path of ['simd', 'reference']) {
          const r = attn.multiHeadAttentionBackward({
            ...inputsOf(c),
            heads: c.heads,
            gradOutput: matrix(c.gradOutput),
            scale: c.scale,
            temperature: c.temperature,
            mask: c.mask,
            path,
          });
          assert.equal(Object.getPrototypeOf(r), Object.prototype);
          assert.ok(Array.isArray(r.heads));
          assert.equal(r.heads.length, c.heads);
          for (const [field, name] of Object.entries(LAYER_FIELDS))
            assertEachCell(assert, r[field], matrix(want[name]), `${path}: ${field}`, near5);
          r.heads.forEach((head, i) => {
            for (const [field, name] of Object.entries(HEAD_FIELDS))
              assertEachCell(
                assert,
                head[field],
                matrix(want.heads[i][name]),
                `${path}: head ${i + 1} ${field}`,
                near5,
              );
          });
          assertEachCell(assert, r.forward.output, matrix(c.expected.output), `${path}: forward output`, near5);
        }
      });

    it('h = 1: the one head is attentionBackward from d(concat) = dO·W_Oᵀ, bit for bit, on both paths', () => {
      const x = random(4, 3, 1),
        wq = random(3, 2, 2),
        wk = random(3, 2, 3),
        wv = random(3, 3, 4),
        wo = random(3, 3, 5),
        gradOutput = random(4, 3, 6);
      for (const path of ['simd', 'reference']) {
        const r = attn.multiHeadAttentionBackward({ x, wq, wk, wv, wo, heads: 1, gradOutput, path });
        const [head] = r.forward.heads;
        const single = attn.attentionBackward({ q: head.q, k: head.k, v: head.v, gradOutput: r.gradConcat, path });
        for (const field of ['gradV', 'gradWeights', 'gradScaled', 'gradScores', 'gradQ', 'gradK'])
          sameBits(r.heads[0][field], single[field], `${path}: ${field}`);
        sameBits(r.gradQ, single.gradQ, `${path}: dQ = [dQ_1]`);
      }
    });

    it("refusals name the argument at fault: gradOutput in AV's shape, not O's; a NaN in it; heads not whole", () => {
      // O = concat·W_O is 3×4 here; a head's AV is 3×2.
      assert.throws(() => attn.multiHeadAttentionBackward({ ...cat, gradOutput: random(3, 2, 7) }), {
        code: 'gradient_shape',
        argument: 'gradOutput',
        message: 'gradOutput is 3×2 but the output concat·W_O is 3×4 (n×d_out)',
      });
      const nan = matrix(fixture.cases[0].gradOutput);
      nan.data[5] = NaN;
      assert.throws(() => attn.multiHeadAttentionBackward({ ...cat, gradOutput: nan }), {
        code: 'gradient_not_finite',
        argument: 'gradOutput',
      });
      assert.throws(() => attn.multiHeadAttentionBackward({ ...cat, heads: 1.5 }), {
        code: 'bad_option',
        argument: 'heads',
      });
      assert.throws(() => attn.multiHeadAttentionBackward({ ...cat, heads: 3 }), { code: 'heads_indivisible' });
      const { gradOutput, ...withoutGradient } = cat;
      assert.ok(gradOutput);
      assert.throws(() => attn.multiHeadAttentionBackward(withoutGradient), { code: 'missing_matrix' });
      assert.throws(() => attn.multiHeadAttentionBackward({ ...cat, dropout: 0.1 }), { code: 'unknown_option' });
    });
  });
}
