// attentionBackward through the public JS API of both builds: the worked example's gradients, both
// paths against each other and against central finite differences of a float64 forward written
// here, masks, and the refusals. The loss throughout: L = Σ_ij (A·V)_ij · G_ij for a stated G, so
// that gradOutput = ∂L/∂(A·V) = G.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  loadAttention,
  matrix,
  I2,
  V10,
  random,
  customMask,
  assertClose,
  assertWorkedExample,
} from './load-module.mjs';

// L = (A·V)₁₁, the first number of the output 6.698: G = [[1, 0], [0, 0]].
const G11 = matrix([
  [1, 0],
  [0, 0],
]);

// The float64 loss L(Q, K, V) = Σ softmax(mask(QKᵀ / divisor)) V ∘ G, along rows; a row with
// nothing kept has weights 0. q, k, v: arrays of numbers; keep(i, j) says whether (i, j) is kept.
function loss64({ q, k, v, g, nq, nk, dk, dv, divisor, keep }) {
  let loss = 0;
  for (let i = 0; i < nq; i++) {
    const z = [];
    for (let j = 0; j < nk; j++) {
      let s = 0;
      for (let c = 0; c < dk; c++) s += q[i * dk + c] * k[j * dk + c];
      z.push(keep(i, j) ? s / divisor : -Infinity);
    }
    const m = Math.max(...z);
    const e = z.map((x) => (x === -Infinity ? 0 : Math.exp(x - m)));
    const sum = e.reduce((a, b) => a + b, 0);
    for (let c = 0; c < dv; c++) {
      let out = 0;
      for (let j = 0; j < nk; j++) if (e[j] !== 0) out += (e[j] / sum) * v[j * dv + c];
      loss += out * g[i * dv + c];
    }
  }
  return loss;
}

// ∂L/∂x_t by central differences in double precision, for every t of the named input.
function differences(inputs, name) {
  const h = 1e-6;
  const x = Array.from(inputs[name]);
  return x.map((x0, t) => {
    x[t] = x0 + h;
    const up = loss64({ ...inputs, [name]: x });
    x[t] = x0 - h;
    const down = loss64({ ...inputs, [name]: x });
    x[t] = x0;
    return (up - down) / (2 * h);
  });
}

// The largest |got − want| relative to max(1, the largest |want|).
function relativeError(got, want) {
  const scale = Math.max(1, ...want.map(Math.abs));
  return Math.max(...want.map((w, t) => Math.abs(got[t] - w))) / scale;
}

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: attentionBackward`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    for (const path of ['simd', 'reference']) {
      it(`worked example, path ${path}: L = (A·V)₁₁, so only query 1's row has a gradient`, () => {
        const r = attn.attentionBackward({ q: I2, k: I2, v: V10, gradOutput: G11, path });
        // The forward numbers it was computed from: A ≈ [[0.67, 0.33], [0.33, 0.67]].
        assertClose(
          assert,
          r.forward.weights,
          [
            [0.66976, 0.33024],
            [0.33024, 0.66976],
          ],
          1e-5,
          'A',
        );
        // dV = Aᵀ·G: key j gets A₁ⱼ of output 1's gradient.
        assertClose(
          assert,
          r.gradV,
          [
            [0.66976, 0],
            [0.33024, 0],
          ],
          1e-5,
          'gradV',
        );
        // dA = G·Vᵀ = [[10, 0], [0, 0]]
        assertClose(
          assert,
          r.gradWeights,
          [
            [10, 0],
            [0, 0],
          ],
          0,
          'gradWeights',
        );
        // softmax backward: dZ₁₁ = A₁₁(10 − 6.698) = 10·A₁₁·A₁₂ = 2.2118, dZ₁₂ = −2.2118
        assertClose(
          assert,
          r.gradScaled,
          [
            [2.21181, -2.21181],
            [0, 0],
          ],
          1e-5,
          'gradScaled',
        );
        // ÷√2: dS = [[1.5640, −1.5640], [0, 0]]; with K = Q = I₂, dQ = dS·K = dS, dK = dSᵀ·Q = dSᵀ
        const dS = [
          [1.56399, -1.56399],
          [0, 0],
        ];
        assertClose(assert, r.gradScores, dS, 1e-5, 'gradScores');
        assertClose(assert, r.gradQ, dS, 1e-5, 'gradQ');
        assertClose(
          assert,
          r.gradK,
          [
            [1.56399, 0],
            [-1.56399, 0],
          ],
          1e-5,
          'gradK',
        );
      });
    }

    it('against central finite differences of a float64 forward: n_q ≠ n_k, a fully masked row, τ, ÷d_k', () => {
      const [nq, nk, dk, dv] = [4, 5, 3, 2];
      const q = random(nq, dk, 1),
        k = random(nk, dk, 2),
        v = random(nk, dv, 3),
        g = random(nq, dv, 4);
      const mask = customMask(nq, nk, 5); // row 1 fully masked, column 0 masked
      const cases = [
        { scale: 'sqrt_dk', temperature: 1, divisor: Math.sqrt(dk), mask: 'none', keep: () => true },
        { scale: 'dk', temperature: 0.5, divisor: dk * 0.5, mask, keep: (i, j) => mask.data[i * nk + j] === 1 },
        { scale: 'none', temperature: 2, divisor: 2, mask: 'causal', keep: (i, j) => j <= i },
      ];
      for (const { scale, temperature, divisor, mask: m, keep } of cases) {
        const inputs = { q: q.data, k: k.data, v: v.data, g: g.data, nq, nk, dk, dv, divisor, keep };
        for (const path of ['simd', 'reference']) {
          const r = attn.attentionBackward({ q, k, v, gradOutput: g, scale, temperature, mask: m, path });
          for (const [name, grad] of [
            ['q', r.gradQ],
            ['k', r.gradK],
            ['v', r.gradV],
          ]) {
            const err = relativeError(grad.data, differences(inputs, name));
            assert.ok(err < 2e-6, `${scale}, ${path}: grad ${name} off by ${err}`);
          }
          if (typeof m === 'object')
            for (let j = 0; j < nk; j++) assert.equal(r.gradScores.data[1 * nk + j], 0, 'fully masked row: dS = 0');
        }
      }
    });

    it('the SIMD path equals the reference within float32 rounding, along rows and columns', () => {
      const q = random(7, 5, 11),
        k = random(9, 5, 12),
        v = random(9, 6, 13),
        g = random(7, 6, 14);
      for (const axis of ['row', 'column']) {
        const a = attn.attentionBackward({ q, k, v, gradOutput: g, axis, path: 'simd' });
        const b = attn.attentionBackward({ q, k, v, gradOutput: g, axis, path: 'reference' });
        for (const name of ['gradQ', 'gradK', 'gradV', 'gradWeights', 'gradScaled', 'gradScores']) {
          const scale = Math.max(1, ...Array.from(b[name].data, Math.abs));
          b[name].data.forEach((want, t) =>
            assert.ok(Math.abs(a[name].data[t] - want) <= 2e-5 * scale, `${axis} ${name}[${t}]`),
          );
        }
      }
    });

    it('is refused like the forward calls: a missing gradOutput, an unknown path, and the module still answers', () => {
      assert.throws(() => attn.attentionBackward({ q: I2, k: I2, v: V10 }), { code: 'missing_matrix' });
      assert.throws(() => attn.attentionBackward({ q: I2, k: I2, v: V10, gradOutput: G11, path: 'fast' }), {
        code: 'bad_option',
        argument: 'path',
      });
      assert.throws(() => attn.attentionBackward({ q: I2, k: I2, v: V10, gradOutput: G11, dropout: 0.1 }), {
        code: 'unknown_option',
      });
      assert.throws(
        () =>
          attn.attentionBackward({ q: I2, k: I2, v: V10, gradOutput: { rows: 2, cols: 2, data: [1, Infinity, 0, 0] } }),
        { code: 'gradient_not_finite', argument: 'gradOutput', cell: { row: 0, col: 1 } },
      );
      assertWorkedExample(assert, attn, 'after the refusals');
    });
  });
}
