// attentionTiled, attentionDecode and attentionWindow (issue 30) on the three builds: the worked
// example through 1×1 tiles, a float64 reference computed here on random shapes (n_q ≠ n_k, d = 1,
// tiles that do not divide n, every mask, a fully masked row), the tile trace's invariants, decode
// and window (up to 64 keys, the page's sizes) bit for bit equal to the full attention the lab
// shows them beside, the window above 64 keys within rounding, and every refusal.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadAttention,
  loadAttentionWithCore,
  assertClose,
  assertEachCell,
  assertWorkedExample,
  random,
  customMask,
  I2,
  V10,
} from './load-module.mjs';

const near = (a, b) => Math.abs(a - b) <= 1e-5 + 1e-4 * Math.abs(b);
const bits = (m) => new Uint32Array(m.data.buffer, m.data.byteOffset, m.data.length);
const sameBits = (a, b, what) => {
  assert.equal(a.rows, b.rows, `${what}: rows`);
  assert.equal(a.cols, b.cols, `${what}: cols`);
  assert.deepEqual(bits(a), bits(b), `${what}: bits`);
};

// softmax(QKᵀ/divisor)·V in float64 over the keys `visible(i, j)` lets query i see; a row that
// sees none is 0 (docs/api.md's policy for a fully masked row).
function float64Attention(q, k, v, divisor, visible) {
  const out = new Float32Array(q.rows * v.cols);
  for (let i = 0; i < q.rows; i++) {
    const s = [];
    for (let j = 0; j < k.rows; j++) {
      if (!visible(i, j)) continue;
      let dot = 0;
      for (let c = 0; c < q.cols; c++) dot += q.data[i * q.cols + c] * k.data[j * k.cols + c];
      s.push([j, dot / divisor]);
    }
    if (s.length === 0) continue;
    const m = Math.max(...s.map(([, x]) => x));
    const e = s.map(([j, x]) => [j, Math.exp(x - m)]);
    const sum = e.reduce((acc, [, x]) => acc + x, 0);
    for (let c = 0; c < v.cols; c++)
      out[i * v.cols + c] = e.reduce((acc, [j, x]) => acc + (x / sum) * v.data[j * v.cols + c], 0);
  }
  return { rows: q.rows, cols: v.cols, data: out };
}
const everyKey = () => true;
const causal = (i, j) => j <= i;
const ofMask = (mask) => (i, j) => mask.data[i * mask.cols + j] === 1;
const band = (w) => (i, j) => j <= i && i < j + w;
// The band i − w < j ≤ i as a custom mask, for attentionSteps to compare with attentionWindow.
function bandMask(nQ, nK, w) {
  const data = new Float32Array(nQ * nK);
  for (let i = 0; i < nQ; i++) for (let j = 0; j < nK; j++) data[i * nK + j] = band(w)(i, j) ? 1 : 0;
  return { rows: nQ, cols: nK, data };
}

// n_q × n_k × d_k × d_v: n_q ≠ n_k both ways, d = 1, primes, sizes around 4 and 8 lanes.
const SHAPES = [
  [1, 1, 1, 1],
  [3, 5, 1, 2],
  [5, 3, 2, 1],
  [7, 7, 3, 4],
  [9, 13, 4, 5],
  [17, 17, 8, 3],
  [13, 29, 5, 9],
  [33, 20, 16, 16],
];
const inputs = ([nQ, nK, dK, dV], seed) => ({
  q: random(nQ, dK, seed),
  k: random(nK, dK, seed + 1),
  v: random(nK, dV, seed + 2, -5, 5),
});

for (const build of ['relaxed', 'simd', 'scalar']) {
  describe(`${build} build: attentionTiled, attentionDecode, attentionWindow`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    it('the worked example through 1×1 tiles: AV ≈ [[6.698, 3.302], [3.302, 6.698]], four tiles', () => {
      const r = attn.attentionTiled({ q: I2, k: I2, v: V10, tileRows: 1, tileCols: 1 });
      const expected = [
        [6.698, 3.302],
        [3.302, 6.698],
      ];
      assertClose(assert, r.output, expected, 1e-4, 'output');
      assert.deepEqual(
        r.tiles.map((t) => [t.rowStart, t.rowEnd, t.colStart, t.colEnd]),
        [
          [0, 1, 0, 1],
          [0, 1, 1, 2],
          [1, 2, 0, 1],
          [1, 2, 1, 2],
        ],
      );
      // Row 1: key 0 (s = 0) first, then key 1 (s = 1/√2) raises the max: α = e^(−0.7071) ≈ 0.4931.
      assert.equal(r.tiles[2].m.data[0], 0);
      assert.ok(Math.abs(r.tiles[3].alpha.data[0] - Math.exp(-Math.SQRT1_2)) < 1e-6);
      assert.equal(r.divisor, Math.fround(Math.SQRT2));
      assert.ok(Array.isArray(r.tiles));
      assert.equal(Object.getPrototypeOf(r), Object.prototype);
    });

    it('attentionTiled equals float64 attention on random shapes, tiles that do not divide n, every mask', () => {
      SHAPES.forEach((shape, s) => {
        const [nQ, nK, dK] = shape;
        const { q, k, v } = inputs(shape, 10 * s);
        for (const [tileRows, tileCols] of [
          [1, 1],
          [2, 3],
          [5, 7],
          [64, 64],
        ]) {
          const tiles = { tileRows: Math.min(tileRows, nQ), tileCols: Math.min(tileCols, nK) };
          const custom = customMask(nQ, nK, s);
          for (const [mask, visible] of [
            ['none', everyKey],
            ['causal', causal],
            [custom, ofMask(custom)],
          ]) {
            const what = `${shape} tiles ${tiles.tileRows}×${tiles.tileCols} mask ${typeof mask === 'string' ? mask : 'custom'}`;
            const r = attn.attentionTiled({ q, k, v, ...tiles, mask });
            assertEachCell(assert, r.output, float64Attention(q, k, v, Math.sqrt(dK), visible), what, near);
          }
        }
      });
    });

    it("the trace: tiles in the order computed, m non-decreasing, α = exp(m_old − m_new), the last tile's O/ℓ is the output", () => {
      const { q, k, v } = inputs([11, 13, 6, 3], 40);
      for (const mask of ['none', 'causal', customMask(11, 13, 41)]) {
        const r = attn.attentionTiled({ q, k, v, tileRows: 4, tileCols: 5, mask });
        const steps = attn.attentionSteps({ q, k, v, mask });
        const lastKey = (rowEnd) => (mask === 'causal' ? Math.min(rowEnd, 13) : 13);
        let row = 0,
          col = 0,
          previous = null;
        for (const t of r.tiles) {
          const what = `mask ${typeof mask === 'string' ? mask : 'custom'}, tile rows ${t.rowStart}, keys ${t.colStart}`;
          assert.deepEqual([t.rowStart, t.colStart], [row, col], `${what}: order`);
          assert.equal(t.colEnd, Math.min(t.colStart + 5, 13));
          const rows = t.rowEnd - t.rowStart;
          for (const [name, cols] of [
            ['m', 1],
            ['l', 1],
            ['alpha', 1],
            ['o', 3],
          ])
            assert.deepEqual([t[name].rows, t[name].cols], [rows, cols], `${what}: ${name}'s shape`);
          for (let r_ = 0; r_ < rows; r_++) {
            const mOld = previous ? previous.m.data[r_] : -Infinity;
            const mNew = t.m.data[r_];
            assert.ok(mNew >= mOld, `${what}: m went down in row ${t.rowStart + r_}`);
            const alpha = mNew === -Infinity ? 1 : Math.exp(mOld - mNew);
            assert.ok(Math.abs(t.alpha.data[r_] - alpha) <= 1e-6 * alpha, `${what}: α ${t.alpha.data[r_]} ≠ ${alpha}`);
          }
          if (t.colEnd >= lastKey(t.rowEnd)) {
            for (let r_ = 0; r_ < rows; r_++) {
              const i = t.rowStart + r_;
              // (within rounding: the microkernels add each dot product in another order)
              const max = steps.rowMax.data[i];
              const m = t.m.data[r_]; // −∞ for a fully masked row, as rowMax
              assert.ok(m === max || Math.abs(m - max) <= 1e-6 * Math.abs(max) + 1e-7, `${what}: m is row ${i}'s max`);
              for (let c = 0; c < 3; c++) {
                const l = t.l.data[r_];
                const expected = l === 0 ? 0 : Math.fround(t.o.data[r_ * 3 + c] / l);
                assert.equal(r.output.data[i * 3 + c], expected, `${what}: output[${i}][${c}] = O/ℓ`);
              }
            }
            [row, col, previous] = [t.rowEnd, 0, null];
          } else [col, previous] = [t.colEnd, t];
        }
        assert.equal(row, 11, 'every row block done');
      }
    });

    it('trace: false gives the same output, bit for bit, and no tiles', () => {
      const { q, k, v } = inputs([37, 41, 9, 6], 45);
      for (const mask of ['none', 'causal']) {
        const kept = attn.attentionTiled({ q, k, v, tileRows: 5, tileCols: 6, mask });
        const skipped = attn.attentionTiled({ q, k, v, tileRows: 5, tileCols: 6, mask, trace: false });
        sameBits(skipped.output, kept.output, `mask ${mask}`);
        assert.deepEqual(skipped.tiles, []);
        assert.ok(kept.tiles.length > 0);
      }
    });

    it('a fully masked row: ℓ = 0 in every tile and output 0', () => {
      const { q, k, v } = inputs([4, 6, 3, 2], 50);
      const mask = customMask(4, 6, 51); // row 1 fully masked
      const r = attn.attentionTiled({ q, k, v, tileRows: 2, tileCols: 4, mask });
      for (const t of r.tiles.filter((t) => t.rowStart === 0)) assert.equal(t.l.data[1], 0);
      assert.deepEqual([...r.output.data.slice(2, 4)], [0, 0]);
    });

    it('attentionDecode: the cache grows a row per token, and each row is the full causal attention’s, bit for bit', () => {
      SHAPES.forEach((shape, s) => {
        const [nQ, nK, dK] = shape;
        const { q, k, v } = inputs(shape, 60 + s);
        for (const scale of ['sqrt_dk', 'none']) {
          const r = attn.attentionDecode({ q, k, v, scale });
          const full = attn.attentionSteps({ q, k, v, scale, mask: 'causal' });
          sameBits(r.output, full.output, `${shape} ${scale}: output`);
          assert.deepEqual(
            r.steps.map((step) => step.cacheLength),
            Array.from({ length: nQ }, (_, t) => Math.min(t + 1, nK)),
          );
          r.steps.forEach((step, t) =>
            sameBits(
              step.row,
              { rows: 1, cols: v.cols, data: full.output.data.slice(t * v.cols, (t + 1) * v.cols) },
              `step ${t}`,
            ),
          );
          const divisor = scale === 'none' ? 1 : Math.sqrt(dK);
          assertEachCell(assert, r.output, float64Attention(q, k, v, divisor, causal), `${shape}: float64`, near);
        }
      });
    });

    it('attentionWindow: the full attention masked to the band i − w < j ≤ i, bit for bit; w ≥ n is causal', () => {
      SHAPES.forEach((shape, s) => {
        const [nQ, nK, dK] = shape;
        const { q, k, v } = inputs(shape, 70 + s);
        for (const window of [1, 2, 3, 5, 8, 100]) {
          const r = attn.attentionWindow({ q, k, v, window });
          assert.deepEqual(Object.keys(r), ['output']);
          const banded = attn.attentionSteps({ q, k, v, mask: bandMask(nQ, nK, window) });
          sameBits(r.output, banded.output, `${shape} w ${window}`);
          assertEachCell(
            assert,
            r.output,
            float64Attention(q, k, v, Math.sqrt(dK), band(window)),
            `${shape} w ${window}`,
            near,
          );
          if (window >= Math.max(nQ, nK))
            sameBits(r.output, attn.attentionSteps({ q, k, v, mask: 'causal' }).output, `${shape}: w ≥ n is causal`);
        }
      });
    });

    it('attentionWindow above 64 keys (the microkernels): the banded attention within float32 rounding', () => {
      for (const shape of [
        [100, 90, 16, 8],
        [200, 200, 64, 64],
      ]) {
        const [nQ, nK, dK] = shape;
        const { q, k, v } = inputs(shape, 90);
        for (const window of [1, 7, 64, 256]) {
          const r = attn.attentionWindow({ q, k, v, window });
          const banded = attn.attentionSteps({ q, k, v, mask: bandMask(nQ, nK, window) });
          assertEachCell(assert, r.output, banded.output, `${shape} w ${window}: steps`, near);
          const float64 = float64Attention(q, k, v, Math.sqrt(dK), band(window));
          assertEachCell(assert, r.output, float64, `${shape} w ${window}: float64`, near);
        }
      }
    });

    it('every refusal has its code and argument, and the module still answers after them', () => {
      const { q, k, v } = inputs([3, 4, 2, 2], 80);
      const refusals = [
        [() => attn.attentionTiled({ q, k, v, tileRows: 0, tileCols: 1 }), 'out_of_range', 'tileRows'],
        [() => attn.attentionTiled({ q, k, v, tileRows: 4, tileCols: 1 }), 'out_of_range', 'tileRows'],
        [() => attn.attentionTiled({ q, k, v, tileRows: 1, tileCols: 5 }), 'out_of_range', 'tileCols'],
        [() => attn.attentionTiled({ q, k, v, tileRows: 1.5, tileCols: 1 }), 'bad_option', 'tileRows'],
        [() => attn.attentionTiled({ q, k, v, tileRows: 1 }), 'bad_option', 'tileCols'],
        [() => attn.attentionTiled({ q, k, v, tileRows: 1, tileCols: '2' }), 'bad_option', 'tileCols'],
        [() => attn.attentionTiled({ q, k, v, tileRows: 1, tileCols: 1, stable: false }), 'unknown_option', 'stable'],
        [() => attn.attentionTiled({ q, k, v, tileRows: 1, tileCols: 1, trace: 'no' }), 'bad_option', 'trace'],
        [
          () => attn.attentionTiled({ q, k, v, tileRows: 1, tileCols: 1, temperature: 0 }),
          'bad_temperature',
          'temperature',
        ],
        [() => attn.attentionTiled({ q, k, v, tileRows: 1, tileCols: 1, mask: 'band' }), 'bad_option', 'mask'],
        [
          () => attn.attentionTiled({ q, k, v, tileRows: 1, tileCols: 1, mask: random(3, 3, 1, 0, 0) }),
          'mask_shape',
          'mask',
        ],
        [
          () => attn.attentionTiled({ q, k, v, tileRows: 1, tileCols: 1, mask: random(3, 4, 1, 0.5, 0.6) }),
          'mask_value',
          'mask',
        ],
        [() => attn.attentionTiled({ q, k: random(4, 3, 1), v, tileRows: 1, tileCols: 1 }), 'dk_mismatch', 'k'],
        [() => attn.attentionTiled({ q, v, tileRows: 1, tileCols: 1 }), 'missing_matrix', 'k'],
        [() => attn.attentionDecode({ q, k, v: random(3, 2, 1) }), 'key_value_mismatch', 'v'],
        [() => attn.attentionDecode({ q, k, v, scale: 'sqrt' }), 'bad_option', 'scale'],
        [() => attn.attentionDecode({ q, k, v, mask: 'causal' }), 'unknown_option', 'mask'],
        [
          () => attn.attentionDecode({ q: { rows: 3, cols: 2, data: [1, 2, 3, 4, 5, Infinity] }, k, v }),
          'not_finite',
          'q',
        ],
        [() => attn.attentionWindow({ q, k, v, window: 0 }), 'out_of_range', 'window'],
        [() => attn.attentionWindow({ q, k, v, window: -1 }), 'out_of_range', 'window'],
        [() => attn.attentionWindow({ q, k, v, window: 2.5 }), 'bad_option', 'window'],
        [() => attn.attentionWindow({ q, k, v, window: NaN }), 'bad_option', 'window'],
        [() => attn.attentionWindow({ q, k, v }), 'bad_option', 'window'],
        [
          () => attn.attentionWindow({ q, k, v: random(4, 2, 1), window: 2, temperature: 2 }),
          'unknown_option',
          'temperature',
        ],
        [() => attn.attentionWindow({ q, k: random(5, 2, 1), v, window: 2 }), 'key_value_mismatch', 'v'],
      ];
      for (const [call, code, argument] of refusals)
        assert.throws(call, (e) => e.code === code && e.argument === argument, `${code} ${argument}`);
      // The trace of 1×1 tiles at n = 4096, d_v = 64 (16.8 million tiles) is refused from the shapes.
      const big = random(4096, 64, 81);
      assert.throws(
        () => attn.attentionTiled({ q: big, k: big, v: big, tileRows: 1, tileCols: 1 }),
        (e) =>
          e.code === 'too_much_memory' &&
          e.params.operation === 'attention_tiled' &&
          e.params.what === 'trace' &&
          e.params.bytes > e.params.limit,
      );
      assertWorkedExample(assert, attn, 'after the refusals');
    });
  });
}

describe('the efficiency paths free what they copy in and compute', () => {
  it('the allocator holds as much after 20 calls of each entry point as after one (simd build)', async () => {
    const { attn, heapBytes } = await loadAttentionWithCore('simd');
    const { q, k, v } = inputs([20, 24, 8, 8], 100);
    const calls = [
      () => attn.attentionTiled({ q, k, v, tileRows: 3, tileCols: 5, mask: 'causal' }),
      () => attn.attentionDecode({ q, k, v }),
      () => attn.attentionWindow({ q, k, v, window: 4 }),
      () => assert.throws(() => attn.attentionWindow({ q, k, v, window: 0 })),
    ];
    for (const call of calls) call();
    const settled = heapBytes();
    for (let round = 0; round < 20; round++) for (const call of calls) call();
    assert.equal(heapBytes(), settled);
  });
});
