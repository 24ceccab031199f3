// The public JS API (wasm/attention-relaxed.mjs, wasm/attention.mjs and wasm/attention-scalar.mjs)
// on the shared fixture and the numerics policy, for each build (bad input: errors.test.mjs).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, readFixture, matrix, assertClose, I2, V10 } from './load-module.mjs';

const fixture = readFixture();

for (const build of ['relaxed', 'simd', 'scalar']) {
  describe(`${build} build`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    it('reports its version, whether it is a SIMD build and whether its fast paths use relaxed SIMD', () => {
      assert.match(attn.version(), /^\d+\.\d+\.\d+$/);
      assert.equal(attn.simd(), build !== 'scalar');
      assert.equal(attn.relaxedSimd(), build === 'relaxed');
    });

    it("reproduces the article's worked example: A = [[0.6698, 0.3302], …], AV = [[6.698, 3.302], …]", () => {
      const st = attn.attentionSteps({ q: I2, k: I2, v: V10 });
      assertClose(
        assert,
        st.weights,
        [
          [0.6698, 0.3302],
          [0.3302, 0.6698],
        ],
        1e-4,
        'weights',
      );
      assertClose(
        assert,
        st.output,
        [
          [6.698, 3.302],
          [3.302, 6.698],
        ],
        1e-4,
        'output',
      );
      // the article's rounding: 0.67 / 0.33 and 6.7 / 3.3
      assert.deepEqual(
        Array.from(st.weights.data, (x) => x.toFixed(2)),
        ['0.67', '0.33', '0.33', '0.67'],
      );
      assert.deepEqual(
        Array.from(st.output.data, (x) => x.toFixed(1)),
        ['6.7', '3.3', '3.3', '6.7'],
      );
      assert.ok(st.output.data instanceof Float32Array);
      assert.deepEqual([st.rowMax.rows, st.rowMax.cols, st.rowSum.rows, st.rowSum.cols], [2, 1, 2, 1]);
      // each row minus its max, [0.7071, 0] − 0.7071; no mask, so every cell is kept
      assertClose(
        assert,
        st.shifted,
        [
          [0, -0.7071],
          [-0.7071, 0],
        ],
        1e-4,
        'shifted',
      );
      assertClose(
        assert,
        st.kept,
        [
          [1, 1],
          [1, 1],
        ],
        0,
        'kept',
      );
    });

    for (const c of fixture.cases) {
      it(`fixture "${c.name}": every intermediate within ${fixture.tolerance}`, () => {
        const args = { q: matrix(c.q), k: matrix(c.k), v: matrix(c.v), scale: c.scale, mask: c.mask };
        const st = attn.attentionSteps(args);
        const names = {
          scores: 'scores',
          scaled: 'scaled',
          rowMax: 'row_max',
          exps: 'exps',
          rowSum: 'row_sum',
          weights: 'weights',
          output: 'output',
        };
        for (const [js, key] of Object.entries(names))
          assertClose(assert, st[js], c.expected[key], fixture.tolerance, js);
        assertClose(assert, attn.attention(args), c.expected.output, fixture.tolerance, 'attention()');
        if (c.x) {
          for (const name of ['q', 'k', 'v'])
            assertClose(assert, attn.project({ x: matrix(c.x), w: matrix(c[`w_${name}`]) }), c[name], 0, `X·W_${name}`);
        }
      });
    }

    it('accepts plain arrays of numbers as data', () => {
      const out = attn.attention({ q: { rows: 2, cols: 2, data: [1, 0, 0, 1] }, k: I2, v: V10 });
      assertClose(
        assert,
        out,
        [
          [6.698, 3.302],
          [3.302, 6.698],
        ],
        1e-4,
        'output',
      );
    });

    it('causal mask: A[0][1] is 0 and the first word attends only to itself', () => {
      const st = attn.attentionSteps({ q: I2, k: I2, v: V10, mask: 'causal' });
      assert.equal(st.scaled.data[1], -Infinity);
      assertClose(
        assert,
        st.kept,
        [
          [1, 0],
          [1, 1],
        ],
        0,
        'kept',
      );
      assertClose(
        assert,
        st.shifted,
        [
          [0, '-Infinity'],
          [-0.7071, 0],
        ],
        1e-4,
        'shifted',
      );
      assertClose(
        assert,
        st.weights,
        [
          [1, 0],
          [0.3302, 0.6698],
        ],
        1e-4,
        'weights',
      );
    });

    it('a custom mask that masks a whole row gives a zero row, not NaN', () => {
      const mask = { rows: 2, cols: 2, data: new Float32Array([0, 0, 1, 1]) };
      const st = attn.attentionSteps({ q: I2, k: I2, v: V10, mask });
      assertClose(
        assert,
        st.output,
        [
          [0, 0],
          [3.302, 6.698],
        ],
        1e-4,
        'output',
      );
      assertClose(
        assert,
        st.shifted,
        [
          ['-Infinity', '-Infinity'],
          [-0.7071, 0],
        ],
        1e-4,
        'shifted',
      );
      assertClose(
        assert,
        st.kept,
        [
          [0, 0],
          [1, 1],
        ],
        0,
        'kept',
      );
      assertClose(
        assert,
        attn.attention({ q: I2, k: I2, v: V10, mask }),
        [
          [0, 0],
          [3.302, 6.698],
        ],
        1e-4,
        'attention()',
      );
    });

    it('scores near 1000: stable softmax is finite, naive softmax shows Inf and NaN', () => {
      const q = matrix([[1]]),
        k = matrix([[1000], [999]]),
        v = matrix([[1], [0]]);
      const stable = attn.attentionSteps({ q, k, v, scale: 'none' });
      assertClose(assert, stable.weights, [[0.7311, 0.2689]], 1e-4, 'stable weights');
      const naive = attn.attentionSteps({ q, k, v, scale: 'none', stable: false });
      assert.equal(naive.exps.data[0], Infinity);
      assert.ok(Number.isNaN(naive.weights.data[0]));
      assert.ok(Number.isNaN(naive.output.data[0]));
    });

    it('softmax along columns makes columns, not rows, sum to 1', () => {
      const q = matrix([
        [1, 0],
        [0, 1],
        [1, 1],
      ]);
      const st = attn.attentionSteps({ q, k: I2, v: V10, axis: 'column' });
      assert.deepEqual([st.rowSum.rows, st.rowSum.cols], [1, 2]);
      for (let j = 0; j < 2; j++) {
        const col = st.weights.data[j] + st.weights.data[2 + j] + st.weights.data[4 + j];
        assert.ok(Math.abs(col - 1) < 1e-6, `column ${j} sums to ${col}`);
      }
      assert.ok(Math.abs(st.weights.data[0] + st.weights.data[1] - 1) > 0.05, 'row 0 does not sum to 1');
    });

    it('÷d_k, no scaling and temperature change the scaled scores as documented', () => {
      const q = matrix([[2, 0, 0, 0]]),
        k = matrix([
          [2, 0, 0, 0],
          [0, 0, 0, 0],
        ]),
        v = matrix([[1], [0]]);
      assert.equal(attn.attentionSteps({ q, k, v }).scaled.data[0], 2); // 4 / √4
      assert.equal(attn.attentionSteps({ q, k, v, scale: 'dk' }).scaled.data[0], 1); // 4 / 4
      assert.equal(attn.attentionSteps({ q, k, v, scale: 'none' }).scaled.data[0], 4);
      assert.equal(attn.attentionSteps({ q, k, v, temperature: 4 }).scaled.data[0], 0.5); // 4 / 2 / 4
    });

    it('NaN in q propagates to exactly its row', () => {
      const q = matrix([
        [1, 0],
        [0, 1],
      ]);
      q.data[2] = NaN;
      const st = attn.attentionSteps({ q, k: I2, v: V10 });
      assert.deepEqual(Array.from(st.output.data, Number.isNaN), [false, false, true, true]);
      assert.deepEqual(Array.from(attn.attention({ q, k: I2, v: V10 }).data, Number.isNaN), [false, false, true, true]);
    });

    it('results are JS-owned copies that survive wasm memory growth', () => {
      const first = attn.attentionSteps({ q: I2, k: I2, v: V10 });
      const n = 1500,
        d = 16; // 5 × 1500² floats ≈ 45 MB of intermediates: the heap must grow
      const big = { rows: n, cols: d, data: new Float32Array(n * d).map((_, t) => Math.sin(t)) };
      const st = attn.attentionSteps({ q: big, k: big, v: big });
      assert.equal(st.weights.data.length, n * n);
      assertClose(
        assert,
        first.output,
        [
          [6.698, 3.302],
          [3.302, 6.698],
        ],
        1e-4,
        'earlier result after growth',
      );
      assert.equal(first.weights.data.length, 4);
    });
  });
}
