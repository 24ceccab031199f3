// The public JS API (wasm/attention.mjs and wasm/attention-scalar.mjs) on the shared fixture,
// the numerics policy, and every kind of bad input — for both builds.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, readFixture, matrix, assertClose } from './load-module.mjs';

const fixture = readFixture();
const I2 = matrix([[1, 0], [0, 1]]);
const V10 = matrix([[10, 0], [0, 10]]);

for (const build of ['simd', 'scalar']) {
  describe(`${build} build`, () => {
    let attn;
    before(async () => { attn = await loadAttention(build); });

    it('reports its version and whether it is the SIMD build', () => {
      assert.match(attn.version(), /^\d+\.\d+\.\d+$/);
      assert.equal(attn.simd(), build === 'simd');
    });

    it("reproduces the article's worked example: A = [[0.6698, 0.3302], …], AV = [[6.698, 3.302], …]", () => {
      const st = attn.attentionSteps({ q: I2, k: I2, v: V10 });
      assertClose(assert, st.weights, [[0.6698, 0.3302], [0.3302, 0.6698]], 1e-4, 'weights');
      assertClose(assert, st.output, [[6.698, 3.302], [3.302, 6.698]], 1e-4, 'output');
      // the article's rounding: 0.67 / 0.33 and 6.7 / 3.3
      assert.deepEqual(Array.from(st.weights.data, (x) => x.toFixed(2)), ['0.67', '0.33', '0.33', '0.67']);
      assert.deepEqual(Array.from(st.output.data, (x) => x.toFixed(1)), ['6.7', '3.3', '3.3', '6.7']);
      assert.ok(st.output.data instanceof Float32Array);
      assert.deepEqual([st.rowMax.rows, st.rowMax.cols, st.rowSum.rows, st.rowSum.cols], [2, 1, 2, 1]);
    });

    for (const c of fixture.cases) {
      it(`fixture "${c.name}": every intermediate within ${fixture.tolerance}`, () => {
        const args = { q: matrix(c.q), k: matrix(c.k), v: matrix(c.v), scale: c.scale, mask: c.mask };
        const st = attn.attentionSteps(args);
        const names = { scores: 'scores', scaled: 'scaled', rowMax: 'row_max', exps: 'exps', rowSum: 'row_sum', weights: 'weights', output: 'output' };
        for (const [js, key] of Object.entries(names)) assertClose(assert, st[js], c.expected[key], fixture.tolerance, js);
        assertClose(assert, attn.attention(args), c.expected.output, fixture.tolerance, 'attention()');
        if (c.x) {
          for (const name of ['q', 'k', 'v'])
            assertClose(assert, attn.project({ x: matrix(c.x), w: matrix(c[`w_${name}`]) }), c[name], 0, `X·W_${name}`);
        }
      });
    }

    it('accepts plain arrays of numbers as data', () => {
      const out = attn.attention({ q: { rows: 2, cols: 2, data: [1, 0, 0, 1] }, k: I2, v: V10 });
      assertClose(assert, out, [[6.698, 3.302], [3.302, 6.698]], 1e-4, 'output');
    });

    it('causal mask: A[0][1] is 0 and the first word attends only to itself', () => {
      const st = attn.attentionSteps({ q: I2, k: I2, v: V10, mask: 'causal' });
      assert.equal(st.scaled.data[1], -Infinity);
      assertClose(assert, st.weights, [[1, 0], [0.3302, 0.6698]], 1e-4, 'weights');
    });

    it('a custom mask that masks a whole row gives a zero row, not NaN', () => {
      const mask = { rows: 2, cols: 2, data: new Float32Array([0, 0, 1, 1]) };
      const st = attn.attentionSteps({ q: I2, k: I2, v: V10, mask });
      assertClose(assert, st.output, [[0, 0], [3.302, 6.698]], 1e-4, 'output');
      assertClose(assert, attn.attention({ q: I2, k: I2, v: V10, mask }), [[0, 0], [3.302, 6.698]], 1e-4, 'attention()');
    });

    it('scores near 1000: stable softmax is finite, naive softmax shows Inf and NaN', () => {
      const q = matrix([[1]]), k = matrix([[1000], [999]]), v = matrix([[1], [0]]);
      const stable = attn.attentionSteps({ q, k, v, scale: 'none' });
      assertClose(assert, stable.weights, [[0.7311, 0.2689]], 1e-4, 'stable weights');
      const naive = attn.attentionSteps({ q, k, v, scale: 'none', stable: false });
      assert.equal(naive.exps.data[0], Infinity);
      assert.ok(Number.isNaN(naive.weights.data[0]));
      assert.ok(Number.isNaN(naive.output.data[0]));
    });

    it('softmax along columns makes columns, not rows, sum to 1', () => {
      const q = matrix([[1, 0], [0, 1], [1, 1]]);
      const st = attn.attentionSteps({ q, k: I2, v: V10, axis: 'column' });
      assert.deepEqual([st.rowSum.rows, st.rowSum.cols], [1, 2]);
      for (let j = 0; j < 2; j++) {
        const col = st.weights.data[j] + st.weights.data[2 + j] + st.weights.data[4 + j];
        assert.ok(Math.abs(col - 1) < 1e-6, `column ${j} sums to ${col}`);
      }
      assert.ok(Math.abs(st.weights.data[0] + st.weights.data[1] - 1) > 0.05, 'row 0 does not sum to 1');
    });

    it('÷d_k, no scaling and temperature change the scaled scores as documented', () => {
      const q = matrix([[2, 0, 0, 0]]), k = matrix([[2, 0, 0, 0], [0, 0, 0, 0]]), v = matrix([[1], [0]]);
      assert.equal(attn.attentionSteps({ q, k, v }).scaled.data[0], 2);                  // 4 / √4
      assert.equal(attn.attentionSteps({ q, k, v, scale: 'dk' }).scaled.data[0], 1);     // 4 / 4
      assert.equal(attn.attentionSteps({ q, k, v, scale: 'none' }).scaled.data[0], 4);
      assert.equal(attn.attentionSteps({ q, k, v, temperature: 4 }).scaled.data[0], 0.5); // 4 / 2 / 4
    });

    it('NaN in q propagates to exactly its row', () => {
      const q = matrix([[1, 0], [0, 1]]);
      q.data[2] = NaN;
      const st = attn.attentionSteps({ q, k: I2, v: V10 });
      assert.deepEqual(Array.from(st.output.data, Number.isNaN), [false, false, true, true]);
      assert.deepEqual(Array.from(attn.attention({ q, k: I2, v: V10 }).data, Number.isNaN), [false, false, true, true]);
    });

    describe('bad input throws a readable Error and leaves the module usable', () => {
      const cases = [
        ['wrong data length', { q: { rows: 3, cols: 4, data: new Float32Array(10) }, k: I2, v: V10 }, /^q has 10 values but 3×4 needs 12$/],
        ['+Infinity', { q: I2, k: I2, v: { rows: 2, cols: 2, data: [10, 0, Infinity, 10] } }, /^v\[1\]\[0\] is \+Infinity/],
        ['-Infinity', { q: { rows: 2, cols: 2, data: [1, -Infinity, 0, 1] }, k: I2, v: V10 }, /^q\[0\]\[1\] is -Infinity/],
        ['non-numeric data', { q: { rows: 2, cols: 2, data: [1, '0', 0, 1] }, k: I2, v: V10 }, /^q\.data\[1\] is not a number \(got "0"\)$/],
        ['data that is not an array', { q: { rows: 2, cols: 2, data: 'abcd' }, k: I2, v: V10 }, /^q\.data must be a Float32Array or an array of numbers/],
        ['missing v', { q: I2, k: I2 }, /^v is missing/],
        ['matrix given as nested arrays', { q: [[1, 0], [0, 1]], k: I2, v: V10 }, /^q must be an object \{ rows, cols, data \}/],
        ['zero rows', { q: { rows: 0, cols: 2, data: [] }, k: I2, v: V10 }, /^q\.rows must be a whole number ≥ 1 \(got 0\)$/],
        ['negative cols', { q: I2, k: { rows: 2, cols: -2, data: [1, 0, 0, 1] }, v: V10 }, /^k\.cols must be a whole number ≥ 1 \(got -2\)$/],
        ['fractional rows', { q: { rows: 1.5, cols: 2, data: [1, 0, 0, 1] }, k: I2, v: V10 }, /^q\.rows must be a whole number ≥ 1 \(got 1\.5\)$/],
        ['unknown scale', { q: I2, k: I2, v: V10, scale: 'sqrt' }, /scale must be "sqrt_dk", "dk" or "none" \(got "sqrt"\)/],
        ['unknown axis', { q: I2, k: I2, v: V10, axis: 'diagonal' }, /axis must be "row" or "column"/],
        ['unknown mask', { q: I2, k: I2, v: V10, mask: 'future' }, /mask must be "none", "causal" or/],
        ['misspelt option', { q: I2, k: I2, v: V10, sclae: 'dk' }, /unknown option "sclae"/],
        ['stable as a string', { q: I2, k: I2, v: V10, stable: 'no' }, /stable must be true or false/],
        ['temperature 0', { q: I2, k: I2, v: V10, temperature: 0 }, /^temperature must be a finite number greater than 0 \(got 0\)$/],
        ['negative temperature', { q: I2, k: I2, v: V10, temperature: -1 }, /^temperature must be a finite number greater than 0 \(got -1\)$/],
        ['temperature as a string', { q: I2, k: I2, v: V10, temperature: '2' }, /temperature must be a number \(got "2"\)/],
        ['mask of the wrong shape', { q: I2, k: I2, v: V10, mask: { rows: 3, cols: 2, data: [1, 1, 1, 1, 1, 1] } }, /^mask is 3×2 but the scores are 2×2 \(n_q×n_k\)$/],
        ['mask with a 0.5', { q: I2, k: I2, v: V10, mask: { rows: 2, cols: 2, data: [1, 0.5, 1, 1] } }, /^mask\[0\]\[1\] is 0\.5; a mask holds only 0/],
        ['d_k mismatch', { q: matrix([[1, 2, 3]]), k: I2, v: V10 }, /^q has d_k = 3 columns but k has 2/],
        ['keys without values', { q: I2, k: I2, v: matrix([[1, 2]]) }, /^k has 2 rows \(keys\) but v has 1/],
        ['no argument at all', undefined, /^attentionSteps needs one object argument/],
      ];
      for (const [what, args, message] of cases) {
        it(what, () => {
          assert.throws(() => attn.attentionSteps(args), (e) => e instanceof Error && message.test(e.message));
          // ... and the module still answers correctly
          assertClose(assert, attn.attentionSteps({ q: I2, k: I2, v: V10 }).output, [[6.698, 3.302], [3.302, 6.698]], 1e-4, 'after the error');
        });
      }

      it('attention() and project() check their input the same way', () => {
        assert.throws(() => attn.attention({ q: I2, k: I2, v: V10, temperature: 0 }), { message: /temperature must be a finite number/ });
        assert.throws(() => attn.attention({ q: I2, k: I2, v: V10, stable: false }), { message: /unknown option "stable"/ });
        assert.throws(() => attn.project({ x: matrix([[1, 2, 3]]), w: I2 }), { message: /^x is 1×3 but w is 2×2; X·W needs w to have as many rows as x has columns \(3\)$/ });
        assert.throws(() => attn.project({ x: I2 }), { message: /^w is missing/ });
      });

      it('sizes too large for memory are refused before allocating, naming the memory needed', () => {
        // 12000 × 12000 scores: 5 score matrices of 576 MB each, far over the 1 GiB working limit.
        const big = { rows: 12000, cols: 1, data: new Float32Array(12000).fill(0.5) };
        assert.throws(() => attn.attentionSteps({ q: big, k: big, v: big }),
          { message: /^attention_steps on 12000×12000 scores needs 2\.7 GiB of working memory; the limit is 1\.0 GiB$/ });
        // inputs that cannot even be copied into wasm memory
        const huge = { rows: 1, cols: 2 ** 28, data: new Float32Array(2 ** 28) };
        assert.throws(() => attn.attention({ q: huge, k: huge, v: I2 }), { message: /at most 512 MiB fit in the module's memory/ });
        assertClose(assert, attn.attention({ q: I2, k: I2, v: V10 }), [[6.698, 3.302], [3.302, 6.698]], 1e-4, 'after');
      });
    });

    it('results are JS-owned copies that survive wasm memory growth', () => {
      const first = attn.attentionSteps({ q: I2, k: I2, v: V10 });
      const n = 1500, d = 16;   // 5 × 1500² floats ≈ 45 MB of intermediates: the heap must grow
      const big = { rows: n, cols: d, data: new Float32Array(n * d).map((_, t) => Math.sin(t)) };
      const st = attn.attentionSteps({ q: big, k: big, v: big });
      assert.equal(st.weights.data.length, n * n);
      assertClose(assert, first.output, [[6.698, 3.302], [3.302, 6.698]], 1e-4, 'earlier result after growth');
      assert.equal(first.weights.data.length, 4);
    });
  });
}
