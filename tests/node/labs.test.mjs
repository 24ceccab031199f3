// The labs' entry points (issue 11) through the public JS API of both builds: dotProductSamples
// and normalMatrix (article §4's sampler, core/samples.hpp), workingMemory (core/working_memory.hpp),
// and vocabulary.mjs's SAMPLE_LIMITS and OPERATIONS held to the core.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, loadCore } from './load-module.mjs';
import { SAMPLE_LIMITS, OPERATIONS } from '../../wasm/vocabulary.mjs';

// Mean and variance in float64.
function moments(values) {
  let mean = 0,
    variance = 0;
  for (const x of values) mean += x;
  mean /= values.length;
  for (const x of values) variance += (x - mean) ** 2;
  return { mean, variance: variance / values.length };
}

// The first four samples at d_k = 1 (one product q₀·k₀ each) for seed 42, computed independently
// in Python (SplitMix64 + Box–Muller in float64, rounded to float32): tests/core/test_samples.cpp.
const PYTHON_DK1_SEED42 = [0.2706798017024994, -1.183384656906128, -3.25754451751709, -0.9040035009384155];

const builds = {};
before(async () => {
  builds.simd = await loadAttention('simd');
  builds.scalar = await loadAttention('scalar');
});

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: dotProductSamples and normalMatrix`, () => {
    it('returns count values q·k as a Float32Array; the same seed the same values, another seed others', () => {
      const attn = builds[build];
      const a = attn.dotProductSamples({ dk: 64, count: 500, seed: 7 });
      assert.ok(a instanceof Float32Array);
      assert.equal(a.length, 500);
      assert.deepEqual(attn.dotProductSamples({ dk: 64, count: 500, seed: 7 }), a);
      const b = attn.dotProductSamples({ dk: 64, count: 500, seed: 8 });
      assert.equal(a.filter((x, p) => x === b[p]).length, 0);
    });

    it('d_k = 1 gives the products Python computes for seed 42, bit for bit', () => {
      assert.deepEqual(Array.from(builds[build].dotProductSamples({ dk: 1, count: 4, seed: 42 })), PYTHON_DK1_SEED42);
    });

    it('§4 at d_k = 256: the variance of q·k is within 10% of 256, and of q·k/√256 within 10% of 1', () => {
      const s = builds[build].dotProductSamples({ dk: 256, count: 4096, seed: 1 });
      const { mean, variance } = moments(s);
      assert.ok(Math.abs(variance / 256 - 1) < 0.1, `Var(q·k) = ${variance}`);
      assert.ok(Math.abs(moments(s.map((x) => x / 16)).variance - 1) < 0.1);
      assert.ok(Math.abs(mean) < 5 * Math.sqrt(256 / 4096), `mean ${mean}`);
    });

    it('sample p is the dot product of rows 2p and 2p + 1 of normalMatrix with the same seed', () => {
      const attn = builds[build];
      const dk = 13,
        count = 20;
      const m = attn.normalMatrix({ rows: 2 * count, cols: dk, seed: 5 });
      assert.deepEqual([m.rows, m.cols, m.data.length], [2 * count, dk, 2 * count * dk]);
      const s = attn.dotProductSamples({ dk, count, seed: 5 });
      for (let p = 0; p < count; p++) {
        let dot = 0,
          size = 0;
        for (let i = 0; i < dk; i++) {
          const term = m.data[2 * p * dk + i] * m.data[(2 * p + 1) * dk + i];
          dot += term;
          size += Math.abs(term);
        }
        assert.ok(Math.abs(s[p] - dot) <= 1e-6 * size, `sample ${p}: ${s[p]} vs ${dot}`);
      }
    });

    it("SAMPLE_LIMITS are the core's: the bounds are accepted, one past them refused with out_of_range", () => {
      const attn = builds[build];
      const { dk, count, seed } = SAMPLE_LIMITS;
      assert.equal(attn.dotProductSamples({ dk: dk.max, count: count.min, seed: seed.max }).length, 1);
      assert.equal(attn.dotProductSamples({ dk: dk.min, count: count.max, seed: seed.min }).length, count.max);
      assert.equal(attn.normalMatrix({ rows: count.max, cols: 1, seed: 0 }).rows, count.max);
      for (const [args, argument, limits] of [
        [{ dk: dk.max + 1, count: 1, seed: 0 }, 'dk', dk],
        [{ dk: dk.min - 1, count: 1, seed: 0 }, 'dk', dk],
        [{ dk: 1, count: count.max + 1, seed: 0 }, 'count', count],
        [{ dk: 1, count: 1, seed: seed.max + 1 }, 'seed', seed],
        [{ dk: 1, count: 1, seed: seed.min - 1 }, 'seed', seed],
      ]) {
        assert.throws(
          () => attn.dotProductSamples(args),
          (e) =>
            e.code === 'out_of_range' &&
            e.argument === argument &&
            e.params.min === limits.min &&
            e.params.max === limits.max &&
            e.params.got === args[argument],
          argument,
        );
      }
      assert.throws(() => attn.normalMatrix({ rows: 2, cols: dk.max + 1, seed: 0 }), {
        code: 'out_of_range',
        argument: 'cols',
        message: 'cols must be a whole number from 1 to 1024 (got 1025)',
      });
    });

    it('a value that is not a whole number is refused with bad_option before it reaches the core', () => {
      const attn = builds[build];
      assert.throws(() => attn.dotProductSamples({ dk: 2.5, count: 10, seed: 1 }), {
        code: 'bad_option',
        argument: 'dk',
        message: 'dotProductSamples: dk must be a whole number (got 2.5)',
      });
      assert.throws(() => attn.dotProductSamples({ dk: 2, count: 10 }), {
        code: 'bad_option',
        argument: 'seed',
        message: 'dotProductSamples: seed must be a whole number (got undefined)',
      });
      assert.throws(() => attn.normalMatrix({ rows: '2', cols: 2, seed: 1 }), { code: 'bad_option', argument: 'rows' });
      assert.throws(() => attn.dotProductSamples({ dk: 2, count: 10, seed: 1, n: 3 }), {
        code: 'unknown_option',
        argument: 'n',
      });
    });
  });
}

describe('both builds', () => {
  it('give the same samples to float32 rounding (bit for bit at d_k = 1)', () => {
    for (const dk of [1, 3, 64, 1024]) {
      const simd = builds.simd.dotProductSamples({ dk, count: 200, seed: 99 });
      const scalar = builds.scalar.dotProductSamples({ dk, count: 200, seed: 99 });
      if (dk === 1) assert.deepEqual(simd, scalar);
      // the sums run in another order: |Δ| within a few float32 ulps of the terms' size (≈ √d_k·… ≤ d_k)
      simd.forEach((x, p) =>
        assert.ok(Math.abs(x - scalar[p]) <= 1e-6 * dk * 4, `d_k ${dk}, sample ${p}: ${x} vs ${scalar[p]}`),
      );
    }
  });
});

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: workingMemory`, () => {
    it('the worked example: attention_steps holds 6 score matrices, 2 vectors and the output at its peak: 128 bytes', () => {
      const attn = builds[build];
      assert.deepEqual(attn.workingMemory({ operation: 'attention_steps', nq: 2, nk: 2, d: 2, dv: 2 }), {
        bytes: (6 * 4 + 2 * 2 + 4) * 4,
        limit: 2 ** 30,
      });
      // along columns, 9 score matrices and 4 vectors of n_k (transposed copies)
      assert.equal(
        attn.workingMemory({ operation: 'attention_steps', nq: 2, nk: 2, d: 2, dv: 2, axis: 'column' }).bytes,
        (9 * 4 + 4 * 2) * 4,
      );
    });

    it('is the bytes each refusal names: attentionSteps at 12000², attention and attentionStreaming with a 1 GiB output', () => {
      const attn = builds[build];
      const column = (n) => ({ rows: n, cols: 1, data: new Float32Array(n).fill(0.5) });
      const refusal = (call) => {
        try {
          call();
        } catch (e) {
          return e;
        }
        assert.fail('not refused');
      };
      const steps = refusal(() => attn.attentionSteps({ q: column(12000), k: column(12000), v: column(12000) }));
      assert.equal(steps.code, 'too_much_memory');
      assert.equal(
        steps.params.bytes,
        attn.workingMemory({ operation: 'attention_steps', nq: 12000, nk: 12000, d: 1, dv: 1 }).bytes,
      );
      const args = { q: column(32768), k: column(1), v: { rows: 1, cols: 8192, data: new Float32Array(8192) } };
      for (const [call, operation] of [
        ['attention', 'attention'],
        ['attentionStreaming', 'attention_streaming'],
      ]) {
        const e = refusal(() => attn[call](args));
        assert.equal(e.params.operation, operation);
        const need = attn.workingMemory({ operation, nq: 32768, nk: 1, d: 1, dv: 8192 });
        assert.equal(e.params.bytes, need.bytes);
        assert.equal(e.params.limit, need.limit);
      }
    });

    it('§8 at d = 64: the scores grow as n², the streaming path as n·d, and at n = 16384 only it fits', () => {
      const attn = builds[build];
      const bytes = (operation, n) => attn.workingMemory({ operation, nq: n, nk: n, d: 64, dv: 64 }).bytes;
      assert.ok(Math.abs(bytes('attention_steps', 8192) / bytes('attention_steps', 4096) - 4) < 0.01);
      assert.ok(bytes('attention_streaming', 8192) / bytes('attention_streaming', 4096) <= 2);
      const { limit } = attn.workingMemory({ operation: 'attention', nq: 1, nk: 1, d: 1, dv: 1 });
      assert.ok(bytes('attention_steps', 16384) > limit);
      assert.ok(bytes('attention_streaming', 16384) < 16 * 2 ** 20);
    });

    it("OPERATIONS are the core's: each is accepted, and the bindings' own refusal lists exactly them", async () => {
      const attn = builds[build];
      const tiles = { attention_tiled: { tileRows: 1, tileCols: 1 } };
      for (const operation of OPERATIONS)
        assert.ok(attn.workingMemory({ operation, nq: 1, nk: 1, d: 1, dv: 1, ...tiles[operation] }).bytes > 0);
      assert.throws(() => attn.workingMemory({ operation: 'project', nq: 1, nk: 1, d: 1, dv: 1 }), {
        code: 'bad_option',
        argument: 'operation',
        message:
          'workingMemory: operation must be "attention_steps", "attention", "attention_streaming" or "attention_tiled" (got "project")',
      });
      // past api.mjs, the core's table (kOperationNames) names them in its own message
      const { error } = (await loadCore(build)).workingMemory('project', 1, 1, 1, 1, 'row', 0, 0, true, 'none');
      assert.equal(error.code, 'bad_option');
      const named = [...error.message.matchAll(/"(\w+)"/g)].map((m) => m[1]);
      assert.deepEqual(named, [...OPERATIONS, 'project']);
    });

    it('attention_tiled: the bytes attentionTiled’s refusal names, with and without the trace, for its tiles', () => {
      const attn = builds[build];
      const tiled = (more) =>
        attn.workingMemory({ operation: 'attention_tiled', nq: 4096, nk: 4096, d: 64, dv: 64, ...more });
      // 1×1 tiles keep every cell's m, ℓ, α and O: 4096²·67 floats, refused with exactly these bytes.
      const column = (n) => ({ rows: n, cols: 64, data: new Float32Array(n * 64) });
      const x = { q: column(4096), k: column(4096), v: column(4096), tileRows: 1, tileCols: 1 };
      const traced = tiled({ tileRows: 1, tileCols: 1 });
      assert.throws(
        () => attn.attentionTiled(x),
        (e) => {
          assert.equal(e.code, 'too_much_memory');
          assert.equal(e.params.operation, 'attention_tiled');
          assert.equal(e.params.bytes, traced.bytes);
          return true;
        },
      );
      assert.ok(traced.bytes >= 4096 * 4096 * 67 * 4 && traced.bytes > traced.limit);
      // Without the trace the same tiles fit (O(n·d)); a causal mask keeps about half the trace.
      assert.ok(tiled({ tileRows: 1, tileCols: 1, trace: false }).bytes < 16 * 2 ** 20);
      const full = tiled({ tileRows: 64, tileCols: 64 }).bytes;
      const causal = tiled({ tileRows: 64, tileCols: 64, mask: 'causal' }).bytes;
      assert.ok(causal < 0.6 * full && causal > 0.4 * full, `${causal} / ${full}`);
    });

    it('attention_tiled needs its tiles, within n_q and n_k; the other operations take none', () => {
      const attn = builds[build];
      const shape = { nq: 8, nk: 6, d: 2, dv: 2 };
      assert.throws(() => attn.workingMemory({ operation: 'attention_tiled', ...shape, tileRows: 2 }), {
        code: 'bad_option',
        argument: 'tileCols',
      });
      assert.throws(() => attn.workingMemory({ operation: 'attention_tiled', ...shape, tileRows: 2, tileCols: 7 }), {
        code: 'out_of_range',
        argument: 'tileCols',
        message: 'tileCols must be a whole number from 1 to n_k = 6 (got 7)',
      });
      assert.throws(() => attn.workingMemory({ operation: 'attention', ...shape, tileRows: 2 }), {
        code: 'bad_option',
        argument: 'tileRows',
      });
      assert.throws(
        () => attn.workingMemory({ operation: 'attention_tiled', ...shape, tileRows: 2, tileCols: 2, mask: 'custom' }),
        { code: 'bad_option', argument: 'mask' },
      );
    });

    it('refuses sizes that are not whole numbers from 1 to 2147483647', () => {
      const attn = builds[build];
      assert.throws(() => attn.workingMemory({ operation: 'attention', nq: 0, nk: 1, d: 1, dv: 1 }), {
        code: 'bad_option',
        argument: 'nq',
        message: 'workingMemory: nq must be a whole number from 1 to 2147483647 (got 0)',
      });
      assert.throws(() => attn.workingMemory({ operation: 'attention', nq: 1, nk: 1, d: 1 }), {
        code: 'bad_option',
        argument: 'dv',
      });
    });
  });
}
