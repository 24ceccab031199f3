// attentionGrouped (MQA/GQA) and attentionLinear (φ(x) = elu(x) + 1) on the three builds and both
// paths, against float64 references computed here: the worked example, grouped heads equal bit for
// bit to the same call with each group's K and V repeated (and to multi-head attention's heads),
// the two orders of linear attention equal up to rounding (causal, n_q ≠ n_k, d = 1), a row whose
// φ sums underflow, the multiply-add counts, and every refusal with its code.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, loadCore, matrix, I2, V10, assertClose, assertEachCell, random } from './load-module.mjs';
import { LINEAR_ORDERS } from '../../wasm/vocabulary.mjs';

const near = (tol) => (a, b) => Math.abs(a - b) <= tol + tol * Math.abs(b);
const sameBits = (a, b, what) => {
  assert.equal(a.rows, b.rows, `${what}: rows`);
  assert.equal(a.cols, b.cols, `${what}: cols`);
  assert.deepEqual(
    new Uint32Array(a.data.buffer, a.data.byteOffset, a.data.length),
    new Uint32Array(b.data.buffer, b.data.byteOffset, b.data.length),
    `${what}: bits`,
  );
};
const at = (m, i, j) => m.data[i * m.cols + j];
const fromRows = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) });

// Columns c0 … c0 + width − 1 of m.
function block(m, c0, width) {
  const out = { rows: m.rows, cols: width, data: new Float32Array(m.rows * width) };
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < width; c++) out.data[r * width + c] = at(m, r, c0 + c);
  return out;
}

// m (n × g·d) with each of its g blocks repeated h/g times: (n × h·d), block i = block ⌊i·g/h⌋.
function repeatBlocks(m, g, h) {
  const d = m.cols / g;
  const out = { rows: m.rows, cols: h * d, data: new Float32Array(m.rows * h * d) };
  for (let i = 0; i < h; i++)
    for (let r = 0; r < m.rows; r++)
      for (let c = 0; c < d; c++) out.data[r * h * d + i * d + c] = at(m, r, Math.floor((i * g) / h) * d + c);
  return out;
}

// softmax(Q_i K_gᵀ/√d_k)·V_g per query head, g = ⌊i·kvHeads/heads⌋, in float64; j ≤ i when causal.
function groupedF64(q, k, v, heads, kvHeads, causal = false) {
  const dk = q.cols / heads,
    dv = v.cols / kvHeads;
  const out = Array.from({ length: q.rows }, () => new Array(heads * dv).fill(0));
  for (let h = 0; h < heads; h++) {
    const g = Math.floor((h * kvHeads) / heads);
    for (let i = 0; i < q.rows; i++) {
      const seen = causal ? Math.min(i + 1, k.rows) : k.rows;
      const s = [];
      for (let j = 0; j < seen; j++) {
        let dot = 0;
        for (let c = 0; c < dk; c++) dot += at(q, i, h * dk + c) * at(k, j, g * dk + c);
        s.push(dot / Math.sqrt(dk));
      }
      const m = Math.max(...s);
      const e = s.map((x) => Math.exp(x - m));
      const sum = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < seen; j++)
        for (let c = 0; c < dv; c++) out[i][h * dv + c] += (e[j] / sum) * at(v, j, g * dv + c);
    }
  }
  return fromRows(out);
}

// Σ_j φ(q_i)·φ(k_j) v_j / Σ_j φ(q_i)·φ(k_j), φ(x) = elu(x) + 1, in float64; the weights beside.
const phi = (x) => (x > 0 ? x + 1 : Math.exp(x));
function linearF64(q, k, v, causal = false) {
  const out = [],
    weights = [];
  for (let i = 0; i < q.rows; i++) {
    const seen = causal ? Math.min(i + 1, k.rows) : k.rows;
    const w = new Array(k.rows).fill(0);
    for (let j = 0; j < seen; j++) for (let c = 0; c < q.cols; c++) w[j] += phi(at(q, i, c)) * phi(at(k, j, c));
    const den = w.reduce((a, b) => a + b, 0);
    weights.push(w.map((x) => x / den));
    out.push(Array.from({ length: v.cols }, (_, c) => w.reduce((sum, x, j) => sum + (x / den) * at(v, j, c), 0)));
  }
  return { output: fromRows(out), weights: fromRows(weights) };
}

for (const build of ['relaxed', 'simd', 'scalar']) {
  describe(`${build} build: attentionGrouped`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    it('the worked example with one head: AV ≈ [[6.698, 3.302], [3.302, 6.698]], equal to attention', () => {
      for (const path of ['simd', 'reference']) {
        const { output } = attn.attentionGrouped({ q: I2, k: I2, v: V10, heads: 1, kvHeads: 1, path });
        assertClose(
          assert,
          output,
          [
            [6.698, 3.302],
            [3.302, 6.698],
          ],
          1e-4,
          path,
        );
      }
      sameBits(
        attn.attentionGrouped({ q: I2, k: I2, v: V10, heads: 1, kvHeads: 1 }).output,
        attn.attention({ q: I2, k: I2, v: V10 }),
        'simd path = attention',
      );
    });

    it('GQA (h = 4, g = 2) and MQA (g = 1) equal the call with each group’s K, V repeated, bit for bit', () => {
      const h = 4,
        n = 5,
        dk = 3,
        dv = 2;
      for (const g of [2, 1]) {
        const q = random(n, h * dk, 11),
          k = random(n, g * dk, 12),
          v = random(n, g * dv, 13);
        const kRep = repeatBlocks(k, g, h),
          vRep = repeatBlocks(v, g, h);
        for (const path of ['simd', 'reference']) {
          const grouped = attn.attentionGrouped({ q, k, v, heads: h, kvHeads: g, path }).output;
          const repeated = attn.attentionGrouped({ q, k: kRep, v: vRep, heads: h, kvHeads: h, path }).output;
          sameBits(grouped, repeated, `g = ${g}, ${path}`);
          assertEachCell(assert, grouped, groupedF64(q, k, v, h, g), `g = ${g}, ${path} vs float64`, near(1e-5));
        }
        // The SIMD path: head i is attention on its blocks; the reference path: the core's multi-head
        // attention on X = I, W_Q = Q, W_K and W_V the repeated K and V (X·W is W exactly), its concat.
        const grouped = attn.attentionGrouped({ q, k, v, heads: h, kvHeads: g }).output;
        for (let i = 0; i < h; i++)
          sameBits(
            block(grouped, i * dv, dv),
            attn.attention({ q: block(q, i * dk, dk), k: block(kRep, i * dk, dk), v: block(vRep, i * dv, dv) }),
            `g = ${g}, head ${i}`,
          );
        const identity = (size) =>
          matrix(Array.from({ length: size }, (_, i) => [...Array(size)].map((_, j) => +(i === j))));
        const multi = attn.multiHeadAttentionSteps({
          x: identity(n),
          wq: q,
          wk: kRep,
          wv: vRep,
          wo: identity(h * dv),
          heads: h,
          path: 'reference',
        });
        sameBits(
          attn.attentionGrouped({ q, k, v, heads: h, kvHeads: g, path: 'reference' }).output,
          multi.concat,
          'multi-head',
        );
      }
    });

    it('n_q ≠ n_k, d = 1, more than 64 keys, a causal and a custom mask, ÷d_k: against float64', () => {
      for (const [nq, nk, h, g, dk, dv] of [
        [3, 7, 6, 3, 1, 1],
        [9, 2, 2, 1, 4, 3],
        [70, 130, 4, 2, 8, 5],
      ]) {
        const q = random(nq, h * dk, 21, -2, 2),
          k = random(nk, g * dk, 22, -2, 2),
          v = random(nk, g * dv, 23);
        for (const path of ['simd', 'reference']) {
          const what = `${nq}×${nk}, ${path}`;
          const full = attn.attentionGrouped({ q, k, v, heads: h, kvHeads: g, path }).output;
          assertEachCell(assert, full, groupedF64(q, k, v, h, g), what, near(2e-5));
          const causal = attn.attentionGrouped({ q, k, v, heads: h, kvHeads: g, mask: 'causal', path }).output;
          assertEachCell(assert, causal, groupedF64(q, k, v, h, g, true), `${what}, causal`, near(2e-5));
          // A custom mask equal to the causal one gives the causal output.
          const keep = matrix(Array.from({ length: nq }, (_, i) => Array.from({ length: nk }, (_, j) => +(j <= i))));
          const custom = attn.attentionGrouped({ q, k, v, heads: h, kvHeads: g, mask: keep, path }).output;
          assertEachCell(assert, custom, groupedF64(q, k, v, h, g, true), `${what}, custom`, near(2e-5));
        }
        // ÷ d_k = ÷ √d_k on q / √d_k.
        const qScaled = { ...q, data: q.data.map((x) => x / Math.sqrt(dk)) };
        const dkOut = attn.attentionGrouped({ q, k, v, heads: h, kvHeads: g, scale: 'dk' }).output;
        assertEachCell(assert, dkOut, groupedF64(qScaled, k, v, h, g), `${nq}×${nk}, ÷d_k`, near(2e-5));
      }
    });

    it('a NaN in one key–value head reaches exactly the query heads of its group', () => {
      const q = random(3, 8, 31),
        k = random(3, 4, 32),
        v = random(3, 4, 33);
      k.data[1 * 4 + 2] = NaN; // key–value head 1, read by query heads 2 and 3
      for (const path of ['simd', 'reference']) {
        const { output } = attn.attentionGrouped({ q, k, v, heads: 4, kvHeads: 2, path });
        output.data.forEach((x, t) => assert.equal(Number.isNaN(x), t % 8 >= 4, `${path} [${t}]`));
      }
    });
  });

  describe(`${build} build: attentionLinear`, () => {
    let attn, core;
    before(async () => {
      attn = await loadAttention(build);
      core = await loadCore(build);
    });

    it('the worked example: φ(I₂) = [[2, 1], [1, 2]], W = [[5, 4], [4, 5]], AV = [[50, 40], [40, 50]] / 9', () => {
      for (const path of ['simd', 'reference']) {
        const r = attn.attentionLinear({ q: I2, k: I2, v: V10, weights: true, path });
        const av = [
          [50 / 9, 40 / 9],
          [40 / 9, 50 / 9],
        ];
        for (const name of ['output', 'quadratic', 'linear']) assertClose(assert, r[name], av, 1e-6, `${path} ${name}`);
        assertClose(
          assert,
          r.weights,
          [
            [5 / 9, 4 / 9],
            [4 / 9, 5 / 9],
          ],
          1e-6,
          path,
        );
        // n = d = 2: quadratic 2·2·(2 + 2 + 1) = 20, linear (2 + 2)·2·(2 + 1) = 24 multiply-adds.
        assert.deepEqual(r.multiplyAdds, { quadratic: 20, linear: 24 });
        assert.deepEqual(r.nonFinite, { quadratic: 0, linear: 0, weights: 0 });
        assert.notEqual(r.output.data, r.linear.data, 'output is a copy of its own');
      }
    });

    it('both orders agree within rounding and with float64: n_q ≠ n_k, d = 1, causal; the linear order bit for bit across paths', () => {
      for (const [nq, nk, dk, dv] of [
        [1, 1, 1, 1],
        [4, 9, 1, 3],
        [7, 3, 5, 1],
        [33, 40, 17, 9],
      ]) {
        const q = random(nq, dk, 51, -3, 3),
          k = random(nk, dk, 52, -3, 3),
          v = random(nk, dv, 53, -2, 2);
        for (const causal of [false, true]) {
          const want = linearF64(q, k, v, causal);
          const results = ['simd', 'reference'].map((path) =>
            attn.attentionLinear({ q, k, v, causal, weights: true, path }),
          );
          for (const r of results) {
            const what = `${nq}×${nk}, d = ${dk}, causal ${causal}`;
            assertEachCell(assert, r.quadratic, want.output, `${what}: quadratic`, near(1e-5));
            assertEachCell(assert, r.linear, want.output, `${what}: linear`, near(1e-5));
            assertEachCell(assert, r.weights, want.weights, `${what}: weights`, near(1e-5));
          }
          sameBits(results[0].linear, results[1].linear, `${nq}×${nk}: linear order, simd = reference`);
        }
      }
    });

    it('one order alone, for timing it; the weights only when asked', () => {
      const q = random(6, 4, 61),
        k = random(6, 4, 62),
        v = random(6, 3, 63);
      const linear = attn.attentionLinear({ q, k, v, order: 'linear' });
      const quadratic = attn.attentionLinear({ q, k, v, order: 'quadratic' });
      assert.deepEqual(Object.keys(linear).sort(), ['linear', 'multiplyAdds', 'nonFinite', 'output']);
      assert.deepEqual(Object.keys(quadratic).sort(), ['multiplyAdds', 'nonFinite', 'output', 'quadratic']);
      sameBits(quadratic.output, quadratic.quadratic, 'output is the quadratic order when it ran alone');
      assertEachCell(assert, linear.output, quadratic.output, 'the two orders', near(1e-5));
      // Causal, 6·7/2 = 21 cells: 21·(4 + 3 + 1) = 168; linear (6 + 6)·4·(3 + 1) = 192.
      assert.deepEqual(attn.attentionLinear({ q, k, v, causal: true }).multiplyAdds, { quadratic: 168, linear: 192 });
    });

    it('a row whose φ sums underflow to 0 is NaN (0/0), counted; the others are untouched', () => {
      const q = random(3, 2, 71),
        k = random(4, 2, 72),
        v = random(4, 2, 73);
      q.data[0] = q.data[1] = -200; // e⁻²⁰⁰ is 0 in float32
      for (const path of ['simd', 'reference']) {
        const r = attn.attentionLinear({ q, k, v, weights: true, path });
        assert.deepEqual(r.nonFinite, { quadratic: 2, linear: 2, weights: 4 });
        assert.ok(Number.isNaN(r.output.data[0]));
        assert.ok(Number.isFinite(r.output.data[2]));
      }
      q.data[0] = q.data[1] = -30; // e⁻³⁰ ≈ 9.4e−14: tiny, but every digit kept
      assertEachCell(assert, attn.attentionLinear({ q, k, v }).output, linearF64(q, k, v).output, 'tiny', near(1e-5));
    });

    it('linearMultiplyAdds: the counts of a call, without its matrices; n²·(2d + 1) against 2n·d(d + 1)', () => {
      for (const [nq, nk, dk, dv] of [
        [5, 3, 2, 4],
        [2, 6, 1, 1],
        [64, 64, 16, 16],
      ])
        for (const causal of [false, true]) {
          const m = (rows, cols) => random(rows, cols, rows + cols);
          const { multiplyAdds } = attn.attentionLinear({ q: m(nq, dk), k: m(nk, dk), v: m(nk, dv), causal });
          assert.deepEqual(attn.linearMultiplyAdds({ nq, nk, dk, dv, causal }), multiplyAdds, `${nq}×${nk}`);
        }
      // n = 4096, d = 64: 4096²·129 against 2·4096·64·65.
      assert.deepEqual(attn.linearMultiplyAdds({ nq: 4096, nk: 4096, dk: 64, dv: 64 }), {
        quadratic: 4096 * 4096 * 129,
        linear: 2 * 4096 * 64 * 65,
      });
      assert.equal(
        attn.linearMultiplyAdds({ nq: 2 ** 31 - 1, nk: 2 ** 31 - 1, dk: 2 ** 31 - 1, dv: 1 }).quadratic,
        2 ** 64,
      );
    });

    it("LINEAR_ORDERS are the core's names", () => {
      assert.deepEqual([...core.efficiencySharedVocabulary().linearOrders], [...LINEAR_ORDERS]);
    });
  });

  describe(`${build} build: the refusals of attentionGrouped and attentionLinear`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });
    const q8 = random(2, 8, 41),
      k4 = random(2, 4, 42),
      v4 = random(2, 4, 43);
    const big = random(16384, 1, 44);
    const grouped = (args) => () => attn.attentionGrouped({ q: q8, k: k4, v: v4, heads: 4, kvHeads: 2, ...args });
    const linear = (args) => () => attn.attentionLinear({ q: I2, k: I2, v: V10, ...args });
    const cases = [
      [
        'heads not a multiple of kvHeads',
        grouped({ q: random(2, 6, 1), heads: 3, kvHeads: 2 }),
        { code: 'kv_heads_indivisible', argument: 'kvHeads', params: { heads: 3, kvHeads: 2 } },
      ],
      [
        'heads 0',
        grouped({ heads: 0 }),
        { code: 'out_of_range', argument: 'heads', params: { got: 0, min: 1, max: 64 } },
      ],
      [
        'kvHeads above heads',
        grouped({ kvHeads: 8 }),
        { code: 'out_of_range', argument: 'kvHeads', params: { got: 8, min: 1, max: 4 } },
      ],
      ['kvHeads 1.5', grouped({ kvHeads: 1.5 }), { code: 'bad_option', argument: 'kvHeads' }],
      ['heads missing', grouped({ heads: undefined }), { code: 'bad_option', argument: 'heads' }],
      [
        "q's columns not a multiple of heads",
        grouped({ q: random(2, 6, 1) }),
        { code: 'heads_indivisible', argument: 'q', params: { cols: 6, heads: 4 } },
      ],
      [
        "v's columns not a multiple of kvHeads",
        grouped({ v: random(2, 5, 1) }),
        { code: 'heads_indivisible', argument: 'v', params: { cols: 5, heads: 2 } },
      ],
      [
        "a query head's d_k other than a key–value head's",
        grouped({ k: random(2, 6, 1) }),
        { code: 'dk_mismatch', argument: 'k', params: { got: 3, need: 2 } },
      ],
      ['keys without values', grouped({ v: random(3, 4, 1) }), { code: 'key_value_mismatch', argument: 'v' }],
      ['temperature 0', grouped({ temperature: 0 }), { code: 'bad_temperature', argument: 'temperature' }],
      ['a mask of the wrong shape', grouped({ mask: random(3, 2, 1) }), { code: 'mask_shape' }],
      ['scale "sqrt"', grouped({ scale: 'sqrt' }), { code: 'bad_option', argument: 'scale' }],
      ['an unknown key', grouped({ axis: 'row' }), { code: 'unknown_option', argument: 'axis' }],
      ['q missing', grouped({ q: undefined }), { code: 'missing_matrix', argument: 'q' }],
      [
        '±Infinity in k',
        grouped({ k: { ...k4, data: k4.data.map((x, t) => (t === 5 ? -Infinity : x)) } }),
        { code: 'not_finite', argument: 'k', cell: { row: 1, col: 1 } },
      ],
      [
        'the reference path on 16384×16384 scores',
        grouped({ q: big, k: big, v: big, heads: 1, kvHeads: 1, path: 'reference' }),
        { code: 'too_much_memory', params: { operation: 'attention_grouped', rows: 16384, cols: 16384 } },
      ],
      ['linear: d_k mismatch', linear({ k: random(2, 3, 1) }), { code: 'dk_mismatch', argument: 'k' }],
      ['linear: keys without values', linear({ v: random(3, 2, 1) }), { code: 'key_value_mismatch', argument: 'v' }],
      [
        'linear: ±Infinity in q',
        linear({ q: matrix([[1, Infinity]]) }),
        { code: 'not_finite', argument: 'q', cell: { row: 0, col: 1 } },
      ],
      ['linear: order "fast"', linear({ order: 'fast' }), { code: 'bad_option', argument: 'order' }],
      ['linear: causal "yes"', linear({ causal: 'yes' }), { code: 'bad_option', argument: 'causal' }],
      [
        'linear: weights of the linear order',
        linear({ order: 'linear', weights: true }),
        { code: 'bad_option', argument: 'weights' },
      ],
      ['linear: a mask', linear({ mask: 'causal' }), { code: 'unknown_option', argument: 'mask' }],
      [
        'linear: 16384×16384 weights',
        linear({ q: big, k: big, v: big, weights: true }),
        { code: 'too_much_memory', params: { operation: 'attention_linear', rows: 16384, cols: 16384 } },
      ],
      [
        "linear: the reference path's 16384×16384 W",
        linear({ q: big, k: big, v: big, path: 'reference' }),
        { code: 'too_much_memory', params: { operation: 'attention_linear' } },
      ],
    ];
    const counts = (args) => () => attn.linearMultiplyAdds({ nq: 2, nk: 2, dk: 2, dv: 2, ...args });
    cases.push(
      ['linearMultiplyAdds: nq 0', counts({ nq: 0 }), { code: 'bad_option', argument: 'nq' }],
      ['linearMultiplyAdds: dv 1.5', counts({ dv: 1.5 }), { code: 'bad_option', argument: 'dv' }],
      ['linearMultiplyAdds: causal 1', counts({ causal: 1 }), { code: 'bad_option', argument: 'causal' }],
      ['linearMultiplyAdds: an unknown key', counts({ n: 2 }), { code: 'unknown_option', argument: 'n' }],
    );
    for (const [what, call, want] of cases)
      it(`${what}: ${want.code}`, () => {
        assert.throws(call, (e) => {
          assert.equal(e.code, want.code);
          if ('argument' in want) assert.equal(e.argument, want.argument);
          if ('cell' in want) assert.deepEqual(e.cell, want.cell);
          for (const [name, value] of Object.entries(want.params ?? {})) assert.equal(e.params[name], value, name);
          return true;
        });
        // … and the module still answers
        assertClose(
          assert,
          attn.attentionLinear({ q: I2, k: I2, v: V10 }).output,
          [
            [50 / 9, 40 / 9],
            [40 / 9, 50 / 9],
          ],
          1e-6,
          'after',
        );
      });
    it('the SIMD path runs 16384 keys without weights in a few MiB', () => {
      const r = attn.attentionLinear({ q: big, k: big, v: big, order: 'linear' });
      assert.equal(r.output.rows, 16384);
      assert.equal(r.nonFinite.linear, 0);
    });
  });
}
