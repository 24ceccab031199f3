// Issue 27, item 1: nothing a caller installed on Object.prototype runs during a call, for every
// entry point. Each call below runs with a getter and a setter on Object.prototype for every option
// and result key of every entry point (the getter answers an object with a `set` method, as the
// caller who was handed the module's whole memory had); afterwards, with the prototype clean again,
// its result must be the article's numbers (Q = K = I₂, V = 10·I₂ → A ≈ [[0.67, 0.33], [0.33, 0.67]],
// AV ≈ [[6.7, 3.3], [3.3, 6.7]]), complete (every field its own), distinct from another call's, and
// no getter or setter may have run. Before this, attention read a getter on Object.prototype.out as
// the caller's out, and attentionBackward's setters swallowed every gradient (it returned {}).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, matrix, assertClose, I2, V10, assertWorkedExample } from './load-module.mjs';

// The arguments' keys of every entry point (the bindings' own maskMatrix included), and every key
// of a result, an error or a trainer's report.
const OPTION_KEYS = [
  ...['q', 'k', 'v', 'scale', 'temperature', 'mask', 'maskMatrix', 'stable', 'axis', 'path', 'out'],
  ...['x', 'w', 'wq', 'wk', 'wv', 'wo', 'heads', 'gradOutput'],
  ...['n', 'dModel', 'dk', 'dv', 'dOut', 'count', 'seed', 'rows', 'cols', 'data'],
  ...['operation', 'nq', 'nk', 'd'],
  ...['task', 'length', 'symbols', 'values', 'shift', 'dToken', 'dHead', 'position', 'optimizer'],
  ...['learningRate', 'batch', 'tokens'],
  ...['kvHeads', 'order'],
];
const RESULT_KEYS = [
  ...['scores', 'kept', 'scaled', 'rowMax', 'shifted', 'exps', 'rowSum', 'weights', 'output', 'nonFinite', 'divisor'],
  ...['concat', 'multiplyAdds', 'projections', 'weighting', 'outputProjection', 'total'],
  ...['forward', 'gradV', 'gradWeights', 'gradScaled', 'gradScores', 'gradQ', 'gradK', 'bytes', 'limit'],
  ...['gradWo', 'gradConcat', 'gradWq', 'gradWk', 'gradWv', 'gradX'],
  ...['id', 'loss', 'accuracy', 'steps', 'softmaxGradient', 'logits', 'scored', 'causal'],
  ...['tokenEmbedding', 'positionEmbedding', 'wQ', 'wK', 'wV', 'wOut', 'bOut'],
  ...['error', 'code', 'message', 'argument', 'cell', 'params', 'row', 'col', 'got', 'need', 'index'],
  ...['min', 'max', 'value', 'reason', 'function', 'running', 'known'],
  ...['quadratic', 'linear'],
];
const KEYS = [...new Set([...OPTION_KEYS, ...RESULT_KEYS])];

// Runs `call` with a getter and a setter on Object.prototype for every key of KEYS; returns what it
// returned (or threw) and the keys whose getter or setter ran. The prototype is clean again on return.
function polluted(call) {
  const ran = [];
  const handed = { set: () => ran.push('handed.set') }; // what a getter answers: a would-be `out`
  // (descriptors without a prototype: defineProperty reads `value`, `get` and `set` through it)
  const descriptor = (key) =>
    Object.assign(Object.create(null), {
      get() {
        ran.push(`get ${key}`);
        return handed;
      },
      set() {
        ran.push(`set ${key}`);
      },
      configurable: true,
    });
  for (const key of KEYS) Object.defineProperty(Object.prototype, key, descriptor(key));
  try {
    try {
      return { result: call(), ran };
    } catch (error) {
      return { error, ran };
    }
  } finally {
    for (const key of KEYS) delete Object.prototype[key];
  }
}

// `value` is an ordinary object whose own keys are exactly `keys`.
function assertComplete(value, keys, what) {
  assert.equal(Object.getPrototypeOf(value), Object.prototype, `${what}: an ordinary object`);
  assert.deepEqual(Object.keys(value).sort(), [...keys].sort(), `${what}: its fields`);
}

const AV = [
  [6.698, 3.302],
  [3.302, 6.698],
];
const A = [
  [0.6698, 0.3302],
  [0.3302, 0.6698],
];
const STEPS_KEYS = ['scores', 'kept', 'scaled', 'rowMax', 'shifted', 'exps', 'rowSum', 'weights', 'output'];
const STEP_RESULT_KEYS = [...STEPS_KEYS, 'nonFinite', 'divisor'];
const MATRIX_KEYS = ['rows', 'cols', 'data'];

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: nothing installed on Object.prototype runs during a call`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    // Runs `call` polluted, asserts that nothing ran and that it returned; returns its result.
    function clean(call, what) {
      const { result, error, ran } = polluted(call);
      assert.deepEqual(ran, [], `${what}: what ran during the call`);
      assert.equal(error, undefined, `${what} threw ${error}`);
      return result;
    }

    it('attentionSteps, on both paths: every intermediate, its own fields, the article’s numbers', () => {
      for (const path of ['simd', 'reference']) {
        const st = clean(() => attn.attentionSteps({ q: I2, k: I2, v: V10, path }), path);
        assertComplete(st, STEP_RESULT_KEYS, path);
        for (const key of STEPS_KEYS) assertComplete(st[key], MATRIX_KEYS, `${path}: ${key}`);
        assertClose(assert, st.weights, A, 1e-4, `${path}: weights`);
        assertClose(assert, st.output, AV, 1e-4, `${path}: output`);
        assert.equal(st.divisor, Math.fround(Math.SQRT2));
        assert.equal(st.nonFinite.output, 0);
      }
    });

    it('attention and attentionStreaming without out: a new array each call, not a getter’s out', () => {
      for (const fn of ['attention', 'attentionStreaming']) {
        const a = clean(() => attn[fn]({ q: I2, k: I2, v: V10 }), fn);
        const b = clean(() => attn[fn]({ q: I2, k: I2, v: V10 }), fn);
        assertComplete(a, MATRIX_KEYS, fn);
        assert.ok(a.data instanceof Float32Array && a.data.length === 4, `${fn}: a Float32Array of 4`);
        assert.notEqual(a.data, b.data, `${fn}: two calls, two arrays`);
        assertClose(assert, a, AV, 1e-4, fn);
        assertClose(assert, b, AV, 1e-4, fn);
      }
    });

    it('attention and attentionStreaming with out: written into out, returned as data', () => {
      for (const fn of ['attention', 'attentionStreaming']) {
        const out = new Float32Array(4);
        const result = clean(() => attn[fn]({ q: I2, k: I2, v: V10, out }), fn);
        assert.equal(result.data, out);
        assertClose(assert, result, AV, 1e-4, fn);
      }
    });

    it('a custom mask and a temperature reach the core: causal as a matrix, τ = 0.5', () => {
      const mask = matrix([
        [1, 0],
        [1, 1],
      ]);
      const st = clean(() => attn.attentionSteps({ q: I2, k: I2, v: V10, mask, temperature: 0.5 }), 'masked');
      assertClose(
        assert,
        st.weights,
        [
          [1, 0],
          [1 / (1 + Math.exp(Math.SQRT2)), 1 / (1 + Math.exp(-Math.SQRT2))],
        ],
        1e-4,
        'weights',
      );
      assert.equal(st.divisor, Math.fround(Math.SQRT2 * 0.5));
    });

    it('project, on both paths: I₂·10·I₂ = 10·I₂', () => {
      for (const path of ['simd', 'reference']) {
        const p = clean(() => attn.project({ x: I2, w: V10, path }), path);
        assertComplete(p, MATRIX_KEYS, path);
        assert.deepEqual([...p.data], [10, 0, 0, 10]);
      }
    });

    it('multiHeadAttentionSteps with one head is the article’s attention; multiHeadMultiplyAdds counts', () => {
      const mh = clean(() => attn.multiHeadAttentionSteps({ x: I2, wq: I2, wk: I2, wv: V10, wo: I2, heads: 1 }), 'mh');
      assertComplete(mh, ['q', 'k', 'v', 'heads', 'concat', 'output', 'multiplyAdds', 'nonFinite'], 'multi-head');
      assert.ok(Array.isArray(mh.heads) && mh.heads.length === 1, 'one head, in an array');
      assertComplete(mh.heads[0], [...STEP_RESULT_KEYS, 'q', 'k', 'v'], 'head 1');
      assertClose(assert, mh.heads[0].weights, A, 1e-4, 'head 1: weights');
      assertClose(assert, mh.output, AV, 1e-4, 'output');
      const counts = clean(
        () => attn.multiHeadMultiplyAdds({ n: 2, dModel: 2, heads: 1, dk: 2, dv: 2, dOut: 2 }),
        'multiHeadMultiplyAdds',
      );
      // n·d_model·h·(2d_k + d_v) = 24, h·n²·d_k = 8, h·n²·d_v = 8, n·h·d_v·d_out = 8
      assert.deepEqual(counts, { projections: 24, scores: 8, weighting: 8, outputProjection: 8, total: 48 });
      assert.deepEqual(mh.multiplyAdds, counts);
    });

    it('attentionGrouped and attentionLinear: their own fields, the article’s numbers', () => {
      for (const path of ['simd', 'reference']) {
        const g = clean(() => attn.attentionGrouped({ q: I2, k: I2, v: V10, heads: 1, kvHeads: 1, path }), path);
        assertComplete(g, ['output'], `grouped ${path}`);
        assertClose(assert, g.output, AV, 1e-4, `grouped ${path}`);
        const l = clean(() => attn.attentionLinear({ q: I2, k: I2, v: V10, weights: true, path }), path);
        const linearKeys = ['output', 'quadratic', 'linear', 'weights', 'multiplyAdds', 'nonFinite'];
        assertComplete(l, linearKeys, `linear ${path}`);
        for (const key of ['output', 'quadratic', 'linear', 'weights'])
          assertComplete(l[key], MATRIX_KEYS, `linear ${path}: ${key}`);
        // φ(I₂) = [[2, 1], [1, 2]], W = [[5, 4], [4, 5]]: AV = [[50, 40], [40, 50]] / 9
        assertClose(
          assert,
          l.output,
          [
            [50 / 9, 40 / 9],
            [40 / 9, 50 / 9],
          ],
          1e-5,
          `linear ${path}`,
        );
        assert.deepEqual(l.multiplyAdds, { quadratic: 20, linear: 24 });
      }
    });

    it('attentionBackward: every gradient (a setter on Object.prototype swallowed them all: {})', () => {
      const gradOutput = matrix([
        [1, 0],
        [0, 0],
      ]); // L = (AV)₁₁
      for (const path of ['simd', 'reference']) {
        const b = clean(() => attn.attentionBackward({ q: I2, k: I2, v: V10, gradOutput, path }), path);
        assertComplete(b, ['forward', 'gradV', 'gradWeights', 'gradScaled', 'gradScores', 'gradQ', 'gradK'], path);
        assertComplete(b.forward, STEP_RESULT_KEYS, `${path}: forward`);
        assertClose(assert, b.forward.output, AV, 1e-4, `${path}: forward output`);
        // dV = Aᵀ·dO: A's first row as a column; dA = dO·Vᵀ: 10 in its first cell
        assertClose(
          assert,
          b.gradV,
          [
            [0.6698, 0],
            [0.3302, 0],
          ],
          1e-4,
          `${path}: gradV`,
        );
        assertClose(
          assert,
          b.gradWeights,
          [
            [10, 0],
            [0, 0],
          ],
          1e-6,
          `${path}: gradWeights`,
        );
      }
    });

    it('multiHeadAttentionBackward with one head: the layer’s gradients, and the head’s as attentionBackward’s', () => {
      const gradOutput = matrix([
        [1, 0],
        [0, 0],
      ]); // L = O₁₁, O = concat·W_O = A·V with W_O = I₂
      for (const path of ['simd', 'reference']) {
        const b = clean(
          () => attn.multiHeadAttentionBackward({ x: I2, wq: I2, wk: I2, wv: V10, wo: I2, heads: 1, gradOutput, path }),
          path,
        );
        const layer = ['forward', 'gradWo', 'gradConcat', 'heads', 'gradQ', 'gradK', 'gradV', 'gradWq', 'gradWk'];
        assertComplete(b, [...layer, 'gradWv', 'gradX'], path);
        assertClose(assert, b.forward.output, AV, 1e-4, `${path}: forward output`);
        // dW_O = concatᵀ·dO: AV's first row as a column
        assertClose(
          assert,
          b.gradWo,
          [
            [6.698, 0],
            [3.302, 0],
          ],
          1e-4,
          `${path}: gradWo`,
        );
        assert.ok(Array.isArray(b.heads) && b.heads.length === 1, 'one head, in an array');
        const head = ['gradOutput', 'gradV', 'gradWeights', 'gradScaled', 'gradScores', 'gradQ', 'gradK'];
        assertComplete(b.heads[0], head, `${path}: head 1`);
        assertClose(
          assert,
          b.heads[0].gradV,
          [
            [0.6698, 0],
            [0.3302, 0],
          ],
          1e-4,
          `${path}: head 1's gradV`,
        );
      }
    });

    it('the labs: dotProductSamples, normalMatrix, workingMemory answer as without the pollution', () => {
      const calls = {
        dotProductSamples: () => attn.dotProductSamples({ dk: 2, count: 4, seed: 1 }),
        normalMatrix: () => attn.normalMatrix({ rows: 2, cols: 2, seed: 1 }),
        workingMemory: () => attn.workingMemory({ operation: 'attention', nq: 2, nk: 2, d: 2, dv: 2 }),
      };
      for (const [name, call] of Object.entries(calls)) assert.deepEqual(clean(call, name), call(), name);
      assertComplete(clean(calls.workingMemory, 'workingMemory'), ['bytes', 'limit'], 'workingMemory');
    });

    it('a trainer: every method gives the unpolluted run’s numbers, and dispose frees it', () => {
      // Two trainers of the same seed run the same steps bit for bit: one polluted, one not.
      const run = (wrap) => {
        const trainer = wrap(() => attn.createTrainer({ seed: 7, learningRate: 0.05 }), 'createTrainer');
        const results = {
          defaults: wrap(() => attn.trainerDefaults(), 'trainerDefaults'),
          step: wrap(() => trainer.step(3), 'step'),
          evaluate: wrap(() => trainer.evaluate({ count: 8, seed: 2 }), 'evaluate'),
          probe: wrap(() => trainer.probe([0, 1, 2, 3, 4, 5]), 'probe'),
          probeGradient: wrap(() => trainer.probeGradient([5, 4, 3, 2, 1, 0]), 'probeGradient'),
          parameters: wrap(() => trainer.parameters(), 'parameters'),
        };
        wrap(() => trainer.dispose(), 'dispose');
        assert.throws(() => trainer.step(), { code: 'disposed' });
        return results;
      };
      const dirty = run(clean);
      const plain = run((call) => call());
      assert.deepEqual(dirty, plain);
      assertComplete(dirty.step, ['loss', 'accuracy', 'steps', 'softmaxGradient'], 'step');
      assert.equal(dirty.step.steps, 3);
      assertComplete(dirty.probeGradient, ['x', 'gradOutput', 'loss', 'scored', 'causal'], 'probeGradient');
      assert.ok(Array.isArray(dirty.parameters.wQ), 'wQ: an array of heads');
    });

    it('a refusal keeps its fields: code, argument, params and message, core’s and JS’s', () => {
      const core = polluted(() => attn.attentionSteps({ q: I2, k: matrix([[1, 0, 0]]), v: V10 }));
      assert.deepEqual(core.ran, []);
      assert.equal(core.error.code, 'dk_mismatch');
      assert.equal(core.error.argument, 'k');
      assert.deepEqual(core.error.params, { got: 3, need: 2 });
      const js = polluted(() => attn.attention({ q: I2, k: I2, v: V10, temperature: 'hot' }));
      assert.deepEqual(js.ran, []);
      assert.equal(js.error.code, 'bad_option');
      assert.equal(js.error.argument, 'temperature');
      assert.equal(js.error.message, 'attention: temperature must be a number (got "hot")');
      const trainer = polluted(() => attn.createTrainer({ learningRate: 2 }));
      assert.deepEqual(trainer.ran, []);
      assert.equal(trainer.error.message, 'learningRate must be a number greater than 0 and at most 1 (got 2)');
      assert.deepEqual(trainer.error.params, { got: 2, min: 0, max: 1 });
    });

    it('afterwards the module still computes the worked example', () => {
      assertWorkedExample(assert, attn, 'after the pollution');
    });
  });
}
