// The lab "why divide by √d_k" (web/src/features/scale-lab/scale-lab.js) on the real wasm core: article §4's
// claims, measured — Var(q·k) = d_k, Var(q·k/√d_k) = 1, Var(q·k/d_k) = 1/d_k, and unscaled
// softmax saturating with a vanishing gradient as d_k grows.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine } from '../../web/src/engine.js';
import { describeEngineError } from '../../web/src/engine-errors.js';
import { translator } from '../../web/src/i18n/index.js';
import {
  scaleLab,
  DK_STEPS,
  SCALE_LAB_DEFAULTS,
  DIVISOR,
  theoryVariance,
  histogram,
  commonEdges,
  entropy,
  softmaxJacobian,
  jacobianLargest,
  niceTicks,
  normalCurve,
  formatWeight,
  formatGradient,
} from '../../web/src/features/scale-lab/scale-lab.js';

let engine;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes }, scalar: false });
});

const within = (measured, theory, fraction) => Math.abs(measured / theory - 1) < fraction;

test('the d_k control runs 1, 2, 4, … 1024; the theory is d_k, 1 and 1/d_k', () => {
  assert.deepEqual(DK_STEPS, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
  assert.deepEqual(
    ['none', 'sqrt_dk', 'dk'].map((s) => theoryVariance(s, 256)),
    [256, 1, 1 / 256],
  );
});

test("the article's worked row: softmax([0.7071, 0]) = [0.6698, 0.3302], its Jacobian's largest entry 0.6698·0.3302", () => {
  const a = [0.6698, 0.3302];
  assert.ok(Math.abs(jacobianLargest(a).value - 0.6698 * 0.3302) < 1e-12);
  assert.deepEqual(
    Array.from(softmaxJacobian(a), (x) => x.toFixed(4)),
    ['0.2212', '-0.2212', '-0.2212', '0.2212'],
  );
  assert.ok(Math.abs(entropy(a) - 0.6343) < 1e-4); // nats; ln 2 = 0.6931 would be an even split
  // §7's warning: scores blown up to [100, 0] give ≈ [1, 0] — the gradient is gone
  const saturated = [1 / (1 + Math.exp(-100)), Math.exp(-100) / (1 + Math.exp(-100))];
  assert.ok(jacobianLargest(saturated).value < 1e-40);
  assert.equal(entropy([1, 0]), 0);
});

test('§4 at d_k = 256: measured variances within 10% of 256, 1 and 1/256', () => {
  const lab = scaleLab(engine, { dk: 256, seed: 1 });
  assert.equal(lab.count, SCALE_LAB_DEFAULTS.count);
  for (const scale of ['none', 'sqrt_dk', 'dk']) {
    const s = lab.series[scale];
    assert.ok(within(s.variance, s.theory, 0.1), `${scale}: ${s.variance} vs ${s.theory}`);
    assert.ok(Math.abs(s.mean) < 5 * Math.sqrt(s.theory / lab.count), `${scale}: mean ${s.mean}`);
  }
  assert.equal(lab.series.sqrt_dk.divisor, 16);
});

test('on the common bins, q·k outgrows the axis at d_k = 1024 while q·k/√d_k stays on it and q·k/d_k is a spike', () => {
  const lab = scaleLab(engine, { dk: 1024, seed: 3 });
  const { none, sqrt_dk: sqrt, dk } = lab.series;
  const total = (h) => h.counts.reduce((a, c) => a + c, 0) + h.below + h.above;
  for (const s of [none, sqrt, dk]) assert.equal(total(s.histogram), lab.count);
  // |q·k| > 6 when its σ is 32: P ≈ 0.85
  assert.ok(none.histogram.below + none.histogram.above > 0.8 * lab.count);
  assert.equal(sqrt.histogram.below + sqrt.histogram.above, 0);
  // σ = 1/32: everything in the two bins beside 0
  const zero = (lab.edges.length - 1) / 2; // the edge at 0
  assert.equal(lab.edges[zero], 0);
  assert.equal(dk.histogram.counts[zero - 1] + dk.histogram.counts[zero], lab.count);
});

test('one query against 8 keys: unscaled, softmax saturates as d_k grows — larger top weight, lower entropy, smaller gradient', () => {
  const small = scaleLab(engine, { dk: 1, seed: 2 });
  // at d_k = 1 every divisor is 1: the three rows are the same
  assert.deepEqual(small.row.byScale.none.weights, small.row.byScale.sqrt_dk.weights);
  for (const dk of [256, 1024]) {
    const { none, sqrt_dk: sqrt } = scaleLab(engine, { dk, seed: 2 }).row.byScale;
    assert.ok(none.largest > 0.99, `d_k ${dk}: unscaled top weight ${none.largest}`);
    assert.ok(sqrt.largest < 0.9, `d_k ${dk}: scaled top weight ${sqrt.largest}`);
    assert.ok(none.entropy < 0.1 && sqrt.entropy > 0.5, `d_k ${dk}: entropies ${none.entropy}, ${sqrt.entropy}`);
    assert.ok(
      none.jacobian.value < 0.01 && sqrt.jacobian.value > 0.05,
      `d_k ${dk}: ${none.jacobian.value}, ${sqrt.jacobian.value}`,
    );
    assert.ok(Math.abs(sqrt.maxEntropy - Math.log(8)) < 1e-12);
  }
});

test("the divisors are the core's: its scaled scores are the scores ÷ √d_k, ÷ d_k, ÷ 1", () => {
  const lab = scaleLab(engine, { dk: 64, seed: 4 });
  for (const [scale, row] of Object.entries(lab.row.byScale))
    row.scaled.forEach((x, j) =>
      assert.ok(Math.abs(x - lab.row.scores[j] / DIVISOR[scale](64)) <= 1e-6 * Math.abs(x) + 1e-7, scale),
    );
});

test('the same seed gives the same lab, another seed another; a d_k the core refuses throws its Error', () => {
  const a = scaleLab(engine, { dk: 16, seed: 9, count: 500 }),
    b = scaleLab(engine, { dk: 16, seed: 9, count: 500 });
  assert.deepEqual(a, b);
  assert.notDeepEqual(
    scaleLab(engine, { dk: 16, seed: 10, count: 500 }).series.none.histogram,
    a.series.none.histogram,
  );
  assert.throws(() => scaleLab(engine, { dk: 2048 }), { code: 'out_of_range', argument: 'dk' });
});

test("a d_k the core refuses is worded in the reader's language from the error's numbers", () => {
  let error;
  try {
    scaleLab(engine, { dk: 2048 });
  } catch (e) {
    error = e;
  }
  assert.equal(
    describeEngineError(error, translator('zh-CN')),
    '计算核心拒绝了这个输入:dk 必须是 1 到 1024 之间的整数(收到的是 2048)。',
  );
  assert.equal(
    describeEngineError(error, translator('en')),
    'The computing core rejected this input: dk must be a whole number from 1 to 1024 (it is 2048).',
  );
});

test('histogram: bins are [left, right); what is off the axis is counted apart', () => {
  const edges = commonEdges(2, 4);
  assert.deepEqual(Array.from(edges), [-2, -1, 0, 1, 2]);
  const h = histogram([-3, -2, -0.5, 0, 0.99, 1, 2, 5], edges);
  assert.deepEqual([Array.from(h.counts), h.below, h.above], [[1, 1, 2, 1], 1, 2]);
});

test("the drawings' axes: ticks of 1, 2 or 5 × 10ⁿ from 0 up to the first at or above the maximum", () => {
  assert.deepEqual(niceTicks(470), { step: 100, top: 500, ticks: [0, 100, 200, 300, 400, 500] });
  assert.deepEqual(niceTicks(786), { step: 200, top: 800, ticks: [0, 200, 400, 600, 800] });
  assert.deepEqual(niceTicks(0.25), { step: 0.05, top: 0.25, ticks: [0, 0.05, 0.1, 0.15, 0.2, 0.25] });
  assert.deepEqual(niceTicks(13), { step: 5, top: 15, ticks: [0, 5, 10, 15] });
  for (const max of [1, 7, 41, 99.5, 2070, 0.0039]) {
    const { top, ticks } = niceTicks(max);
    assert.ok(top >= max && ticks.length <= 6 && ticks[0] === 0, `${max}: ${ticks}`);
  }
  assert.deepEqual(niceTicks(0).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1], 'an empty chart still gets an axis');
});

test("the theory's curve: count · width · φ(x), symmetric, peaking at 0, summing to about the count over its bins", () => {
  const curve = normalCurve(1, { count: 4096, width: 0.25, range: 6 });
  assert.equal(curve.length, 241);
  const [x0, peak] = curve[120];
  assert.equal(x0, 0);
  assert.ok(Math.abs(peak - (4096 * 0.25) / Math.sqrt(2 * Math.PI)) < 1e-9);
  assert.ok(Math.abs(curve[0][1] - curve[240][1]) < 1e-12);
  // Sampled every 0.05, the curve integrates (÷ bin width) to the count within ±6σ.
  const total = curve.reduce((a, [, y]) => a + y, 0) * (0.05 / 0.25);
  assert.ok(Math.abs(total / 4096 - 1) < 1e-3, String(total));
  // Narrow (÷ d_k at d_k = 1024): still peaks at 0, where the samples put 0.
  assert.ok(normalCurve(1 / 1024, { count: 4096, width: 0.25, range: 6 })[120][1] > 10000);
});

test('how the lab writes weights and gradients: a saturated weight is never a round 1.000; small gradients get an exponent', () => {
  assert.equal(formatWeight(0.9470301866531372), '0.9470');
  assert.equal(formatWeight(0.999958872795105), '0.9999589');
  assert.equal(formatWeight(1), '1');
  assert.equal(formatWeight(0), '0');
  assert.equal(formatGradient(0.2068), '0.207');
  assert.equal(formatGradient(0.00107), '0.00107');
  assert.equal(formatGradient(0.000041125513448037054), '4.11e\u22125');
  assert.equal(formatGradient(0), '0');
});
