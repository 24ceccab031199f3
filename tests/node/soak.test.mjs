// Soak: 5,000 calls per build, valid, invalid and cut short mid-call by the caller's own code, in a
// seeded random order. The module's wasm memory and the JS heap level off — within 10% of what
// they were after the first 500 calls — and the article's worked example still computes at the end.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { loadAttentionWithCore, matrix, I2, V10, assertWorkedExample, detached } from './load-module.mjs';

const CALLS = 5000;
const SETTLED_AFTER = 500;
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

// Deterministic randomness (mulberry32), so that a failure replays.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// The kinds of call, each a function of the random source and the module.
function kinds(rand) {
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  const mat = (rows, cols) => ({ rows, cols, data: Float32Array.from({ length: rows * cols }, () => rand() * 4 - 2) });
  const qkv = () => {
    const nQ = int(1, 64),
      nK = int(1, 64),
      dK = int(1, 32),
      dV = int(1, 16);
    return { q: mat(nQ, dK), k: mat(nK, dK), v: mat(nK, dV), nQ, nK };
  };
  const options = (nQ, nK) => ({
    scale: pick(['sqrt_dk', 'dk', 'none']),
    temperature: pick([1, 0.25, 4, 1e-40, 3e38]),
    mask: pick([
      'none',
      'causal',
      { rows: nQ, cols: nK, data: Float32Array.from({ length: nQ * nK }, () => (rand() < 0.3 ? 0 : 1)) },
    ]),
  });
  return {
    valid: [
      () => {
        const { q, k, v, nQ, nK } = qkv();
        return (a) =>
          a.attentionSteps({
            q,
            k,
            v,
            ...options(nQ, nK),
            stable: rand() < 0.8,
            axis: pick(['row', 'column']),
            path: pick(['simd', 'reference']),
          });
      },
      () => {
        const { q, k, v, nQ, nK } = qkv();
        return (a) => a.attention({ q, k, v, ...options(nQ, nK) });
      },
      () => {
        const { q, k, v, nQ, nK } = qkv();
        return (a) => a.attentionStreaming({ q, k, v, ...options(nQ, nK) });
      },
      () => {
        const d = int(1, 32);
        const x = mat(int(1, 64), d),
          w = mat(d, int(1, 32));
        return (a) => a.project({ x, w });
      },
      () => {
        const q = mat(3, 2);
        q.data[int(0, 5)] = NaN;
        return (a) => a.attentionSteps({ q, k: I2, v: V10, mask: 'causal' });
      },
      () => {
        const dk = int(1, 64),
          count = int(1, 256),
          seed = int(0, 1000);
        return (a) => a.dotProductSamples({ dk, count, seed });
      },
      () => {
        const nq = int(1, 1e6),
          nk = int(1, 1e6);
        return (a) =>
          a.workingMemory({
            operation: pick(['attention_steps', 'attention', 'attention_streaming']),
            nq,
            nk,
            d: int(1, 512),
            dv: int(1, 512),
          });
      },
    ],
    invalid: [
      () => (a) => a.attentionSteps({ q: { rows: 3, cols: 4, data: new Float32Array(10) }, k: I2, v: V10 }),
      () => (a) => a.attention({ q: I2, k: I2, v: { rows: 2, cols: 2, data: [10, 0, Infinity, 10] } }),
      () => (a) => a.attentionSteps({ q: I2, k: I2, v: V10, scale: pick(['sqrt', 'toString', '__proto__']) }),
      () => (a) => a.attentionStreaming({ q: I2, k: I2, v: V10, mask: { rows: 1, cols: 3, data: [1, 1, 1] } }),
      () => (a) => a.attentionSteps({ q: I2, k: I2, v: V10, temperature: pick([0, -1, NaN]) }),
      () => (a) => a.attention({ q: I2, k: I2 }),
      () => (a) => a.project({ x: matrix([[1, 2, 3]]), w: I2 }),
      () => (a) => a.attentionSteps({ q: I2, k: I2, v: { rows: 2, cols: 2, data: [1n, 0, 0, 1] } }),
      () => (a) => a.dotProductSamples({ dk: pick([0, -1, 2 ** 40, 1.5]), count: 10, seed: 1 }),
    ],
    throwing: [
      // a detached buffer after q and k (refused before anything is copied)
      () => {
        const { q, k, nK } = qkv();
        return (a) => a.attention({ q, k, v: { rows: nK, cols: 4, data: detached(nK * 4) } });
      },
      // a getter that throws on its second read (read once: the call computes)
      () => {
        const { q, k, v } = qkv();
        let n = 0;
        const rows = v.rows;
        return (a) =>
          a.attention({
            q,
            k,
            v: {
              cols: v.cols,
              data: v.data,
              get rows() {
                if (n++) throw new Error('2nd');
                return rows;
              },
            },
          });
      },
      // the caller's own getter throws at once
      () => (a) =>
        a.attentionSteps({
          q: I2,
          k: I2,
          v: {
            rows: 2,
            cols: 2,
            get data() {
              throw new Error('caller');
            },
          },
        }),
      // arguments whose keys cannot be listed
      () => (a) =>
        a.attentionSteps(
          new Proxy(
            {},
            {
              ownKeys() {
                throw new Error('no keys');
              },
            },
          ),
        ),
      // the bindings called directly with a detached buffer: cut short inside wasm, freed by the next call
      () => {
        const { q, k, nK } = qkv();
        return (a, core) =>
          core.attention(
            q,
            k,
            { rows: nK, cols: 4, data: detached(nK * 4) },
            { scale: 'sqrt_dk', temperature: 1, mask: 'none', stable: true, axis: 'row' },
          );
      },
    ],
  };
}

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: soak`, () => {
    it(`${CALLS} mixed calls: wasm memory and the JS heap level off, and the worked example still computes`, async () => {
      const { attn, core, memoryBytes, heapBytes } = await loadAttentionWithCore(build);
      const rand = random(build === 'simd' ? 9 : 10);
      const { valid, invalid, throwing } = kinds(rand);
      // The largest valid calls first, so that the settled memory is the high-water mark of valid
      // use: the step path's intermediates, and the fast paths' workspace, which keeps its buffers
      // (up to 16 MiB) for the next call.
      const big = { rows: 64, cols: 32, data: new Float32Array(64 * 32).fill(0.5) };
      attn.attentionSteps({ q: big, k: big, v: big, axis: 'column' });
      attn.attention({ q: big, k: big, v: big });
      attn.attentionStreaming({ q: big, k: big, v: big });
      const counts = { valid: 0, refused: 0, thrown: 0 };
      let settled;
      for (let i = 0; i < CALLS; i++) {
        const r = rand();
        const make =
          r < 0.5
            ? valid[Math.floor(rand() * valid.length)]
            : r < 0.8
              ? invalid[Math.floor(rand() * invalid.length)]
              : throwing[Math.floor(rand() * throwing.length)];
        try {
          make()(attn, core);
          counts.valid++;
        } catch (error) {
          if (typeof error.code === 'string') counts.refused++;
          else counts.thrown++;
        }
        if (i + 1 === SETTLED_AFTER) {
          gc();
          settled = { memory: memoryBytes(), inUse: heapBytes(), heap: process.memoryUsage().heapUsed };
        }
      }
      gc();
      const end = { memory: memoryBytes(), inUse: heapBytes(), heap: process.memoryUsage().heapUsed };
      const MiB = (x) => `${(x / 2 ** 20).toFixed(2)} MiB`;
      const at = (m) => `wasm ${MiB(m.memory)} (${m.inUse} bytes in use), JS heap ${MiB(m.heap)}`;
      const report = `after ${SETTLED_AFTER} calls: ${at(settled)}; after ${CALLS}: ${at(end)} (${JSON.stringify(counts)})`;
      console.log(report);
      assert.ok(end.memory <= 1.1 * settled.memory, `wasm memory grew: ${report}`);
      assert.ok(end.inUse <= 1.1 * settled.inUse, `wasm memory in use grew: ${report}`);
      assert.ok(end.heap <= 1.1 * settled.heap, `the JS heap grew: ${report}`);
      assert.ok(counts.valid > 1000 && counts.refused > 1000 && counts.thrown > 100, `a mix of calls: ${report}`);
      assertWorkedExample(assert, attn, 'the worked example at the end');
    });
  });
}
