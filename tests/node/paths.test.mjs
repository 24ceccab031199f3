// attentionSteps and project on both paths — 'simd' (the default: core/attention_steps_simd.cpp)
// and 'reference' (core/reference.cpp) — through the public JS API of both builds: the worked
// example on each, every field of the two equal at shapes around the vector width across every
// option, NaN in the same cells, and an unknown path refused.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, assertClose, assertEachCell, random, customMask, I2, V10 } from './load-module.mjs';
import { SCALES, AXES, MASKS, PATHS } from '../../wasm/vocabulary.mjs';

const FIELDS = ['scores', 'kept', 'scaled', 'rowMax', 'shifted', 'exps', 'rowSum', 'weights', 'output'];

// Every cell within tol × (the field's largest finite magnitude, at least 1): the dot products
// and row sums add in another order on the SIMD path, and the exp is xsimd's (the reasoning and
// the measured differences are in tests/core/test_steps_simd.cpp, which uses the same 2e-5).
// NaN only against NaN, ±∞ only against itself.
function assertSameField(actual, expected, what, tol = 2e-5) {
  let scale = 1;
  for (const x of expected.data) if (Number.isFinite(x)) scale = Math.max(scale, Math.abs(x));
  assertEachCell(assert, actual, expected, what, (a, b) => Math.abs(a - b) <= tol * scale);
}

// Lengths to 17, around 32 and around 64, rotated so that n_q, n_k, d_k and d_v each take every
// one and n_q ≠ n_k.
const SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 32, 33, 63, 64, 65];
const SHAPES = SIZES.map((_, s) => [0, 1, 2, 3].map((o) => SIZES[(s + o) % SIZES.length]));

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: attentionSteps and project on the 'simd' and 'reference' paths`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    for (const path of PATHS) {
      it(`path '${path}': the article's worked example, A ≈ [[0.6698, 0.3302], …], AV ≈ [[6.698, 3.302], …]`, () => {
        const st = attn.attentionSteps({ q: I2, k: I2, v: V10, path });
        assertClose(
          assert,
          st.scaled,
          [
            [0.7071, 0],
            [0, 0.7071],
          ],
          1e-4,
          'scaled',
        );
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
          st.exps,
          [
            [1, 0.4931],
            [0.4931, 1],
          ],
          1e-4,
          'exps',
        );
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
    }

    it("the default path is 'simd'", () => {
      const args = { q: random(5, 33, 1, -2, 2), k: random(7, 33, 2, -2, 2), v: random(7, 3, 3) };
      const byDefault = attn.attentionSteps(args),
        simd = attn.attentionSteps({ ...args, path: 'simd' });
      for (const f of FIELDS) assert.deepEqual(byDefault[f], simd[f], f);
      assert.deepEqual(
        attn.project({ x: args.q, w: random(33, 4, 4) }),
        attn.project({ x: args.q, w: random(33, 4, 4), path: 'simd' }),
      );
      const reference = attn.attentionSteps({ ...args, path: 'reference' });
      if (build === 'simd') {
        // 33-term dot products in 4 lanes: some score must round differently, or the switch did nothing
        assert.ok(
          simd.scores.data.some((x, t) => x !== reference.scores.data[t]),
          'the SIMD path computed the scores',
        );
      } else {
        // without SIMD every loop of the SIMD path runs in the reference's order, with std::exp
        for (const f of FIELDS) assert.deepEqual(simd[f], reference[f], `scalar build, ${f}: the same bits`);
      }
    });

    for (const [nQ, nK, dK, dV] of SHAPES) {
      it(`q ${nQ}×${dK}, k ${nK}×${dK}, v ${nK}×${dV}: every field equal on both paths, for every option`, () => {
        const seed = nQ * 1000 + nK;
        const q = random(nQ, dK, seed, -2, 2),
          k = random(nK, dK, seed + 1, -2, 2),
          v = random(nK, dV, seed + 2, -3, 3);
        const masks = [...MASKS, customMask(nQ, nK, seed + 3)];
        const runs = [{ temperature: 0.25 }, { temperature: 4, mask: 'causal' }];
        for (const scale of SCALES)
          for (const mask of masks)
            for (const stable of [true, false]) for (const axis of AXES) runs.push({ scale, mask, stable, axis });
        for (const options of runs) {
          const what = JSON.stringify({ ...options, mask: typeof options.mask === 'object' ? 'custom' : options.mask });
          const simd = attn.attentionSteps({ q, k, v, ...options, path: 'simd' });
          const reference = attn.attentionSteps({ q, k, v, ...options, path: 'reference' });
          for (const f of FIELDS) assertSameField(simd[f], reference[f], `${what} ${f}`, f === 'kept' ? 0 : undefined);
        }
      });
    }

    it('NaN in q, k or v: NaN in the same cells on both paths', () => {
      const q = random(6, 9, 11, -2, 2),
        k = random(11, 9, 12, -2, 2),
        v = random(11, 5, 13);
      q.data[2 * 9 + 3] = NaN;
      k.data[7 * 9 + 8] = NaN;
      v.data[4 * 5 + 1] = NaN;
      for (const axis of AXES) {
        const simd = attn.attentionSteps({ q, k, v, axis, mask: 'causal' });
        const reference = attn.attentionSteps({ q, k, v, axis, mask: 'causal', path: 'reference' });
        for (const f of FIELDS) assertSameField(simd[f], reference[f], `${axis} ${f}`);
        // by row, only the keys query 2 sees are NaN: key 7 is masked from all 6 queries, and a
        // masked weight is exactly 0 even in a NaN row
        if (axis === 'row')
          assert.deepEqual(
            Array.from(simd.weights.data, Number.isNaN),
            Array.from(simd.weights.data, (_, t) => Math.floor(t / 11) === 2 && t % 11 <= 2),
          );
      }
    });

    // Issue 19, item 1: exp(−100) is a denormal in std::exp and 0 in the SIMD exp; the SIMD steps
    // skipped the weight of 0 and never read key 3's NaN. Only the mask leaves a key out.
    it('a NaN value behind a kept key whose weight underflowed: NaN on every path and entry point', () => {
      const q = { rows: 1, cols: 1, data: [1] };
      const k = { rows: 4, cols: 1, data: [0, -100, -100, -100] };
      const v = { rows: 4, cols: 1, data: [1, 2, 3, NaN] };
      for (const path of PATHS) {
        const steps = attn.attentionSteps({ q, k, v, scale: 'none', path });
        assert.ok(Number.isNaN(steps.output.data[0]), `${path}: output ${steps.output.data[0]}`);
        assert.equal(steps.nonFinite.output, 1, path);
        assert.equal(steps.weights.data[0], 1, path);
        for (const w of steps.weights.data.slice(1)) assert.ok(w >= 0 && w < 2 ** -126, `${path}: weight ${w}`);
      }
      assert.ok(Number.isNaN(attn.attention({ q, k, v, scale: 'none' }).data[0]));
      assert.ok(Number.isNaN(attn.attentionStreaming({ q, k, v, scale: 'none' }).data[0]));
      // masked, key 3 is left out: output 1 everywhere
      const mask = { rows: 1, cols: 4, data: [1, 1, 1, 0] };
      for (const path of PATHS) {
        const steps = attn.attentionSteps({ q, k, v, scale: 'none', mask, path });
        assert.equal(steps.output.data[0], 1, path);
        assert.equal(steps.nonFinite.output, 0, path);
      }
      assert.equal(attn.attention({ q, k, v, scale: 'none', mask }).data[0], 1);
      assert.equal(attn.attentionStreaming({ q, k, v, scale: 'none', mask }).data[0], 1);
    });

    it('project: X·W equal bit for bit on both paths, at lengths around the vector width', () => {
      for (const [n, d, dOut] of SHAPES) {
        const x = random(n, d, n + 7, -2, 2),
          w = random(d, dOut, d + 8, -2, 2);
        assert.deepEqual(
          attn.project({ x, w, path: 'simd' }),
          attn.project({ x, w, path: 'reference' }),
          `${n}×${d} · ${d}×${dOut}`,
        );
      }
    });

    it('an unknown path is refused with bad_option, on both calls', () => {
      for (const call of [
        () => attn.attentionSteps({ q: I2, k: I2, v: V10, path: 'fast' }),
        () => attn.project({ x: I2, w: I2, path: 'fast' }),
      ])
        assert.throws(
          call,
          (e) =>
            e.code === 'bad_option' &&
            e.argument === 'path' &&
            e.params.got === '"fast"' &&
            /path must be "simd" or "reference" \(got "fast"\)$/.test(e.message),
        );
    });
  });
}

// Issue 27, item 4: a dot product whose partial sums leave float32's range. In order,
// 3e38 − 3e38 + 3e38 − 3e38 = 0 and 3e38 + 3e38 − 3e38 − 3e38 = ∞; the SIMD128 steps added
// in 4 lanes and gave NaN and 0. Key 1 = [0.5, 0.5, 0.5, 0.5] scores 2, scaled 1; V = 10·I₂.
const NEAR_THE_LIMIT = [
  { key0: [3e38, -3e38, 3e38, -3e38], score: 0, output: [2.689, 7.311] },
  { key0: [3e38, 3e38, -3e38, -3e38], score: Infinity, output: [NaN, NaN] },
];

for (const build of ['simd', 'scalar', 'relaxed']) {
  describe(`${build} build: a score whose partial sums overflow float32`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    for (const { key0, score, output } of NEAR_THE_LIMIT)
      it(`k₀ = [${key0.join(', ')}]: score ${score}, output [${output.join(', ')}] on every path and entry point`, () => {
        const q = { rows: 1, cols: 4, data: [1, 1, 1, 1] };
        const k = { rows: 2, cols: 4, data: [...key0, 0.5, 0.5, 0.5, 0.5] };
        for (const path of PATHS) {
          const steps = attn.attentionSteps({ q, k, v: V10, path });
          assert.equal(steps.scores.data[0], score, `${path}: score`);
          assertClose(assert, steps.output, [output], 1e-3, `${path}: output`);
          assert.equal(steps.nonFinite.output, Number.isFinite(score) ? 0 : 2, `${path}: nonFinite.output`);
        }
        assertClose(assert, attn.attention({ q, k, v: V10 }), [output], 1e-3, 'attention');
        assertClose(assert, attn.attentionStreaming({ q, k, v: V10 }), [output], 1e-3, 'attentionStreaming');
      });
  });
}
