// createTrainer through the public JS API of both builds: reverse learned within a stated number of
// steps, the same seed giving the same run, the probe's weights, the names tied to the core's
// tables, and the refusals.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadAttention, loadCore } from './load-module.mjs';
import { TASKS, POSITIONS, OPTIMIZERS } from '../../wasm/vocabulary.mjs';

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: createTrainer`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    it('learns reverse (n = 6, 6 symbols): held-out loss < 0.05 nats within 150 steps, A anti-diagonal', () => {
      const trainer = attn.createTrainer({ task: 'reverse', seed: 7 });
      const first = trainer.step();
      assert.ok(first.loss > 1, `step 1's loss ${first.loss} is near ln 6 = 1.79`);
      assert.equal(trainer.step(149).steps, 150);
      const held = trainer.evaluate({ count: 256, seed: 12345 });
      assert.ok(held.loss < 0.05, `held-out loss ${held.loss}`);
      assert.ok(held.accuracy > 0.99, `held-out accuracy ${held.accuracy}`);
      // Each query's largest weight is on its mirror key: A anti-diagonal.
      const { weights } = trainer.probe([0, 1, 2, 3, 4, 5]);
      assert.equal(weights.length, 1);
      for (let i = 0; i < 6; i++) {
        const row = Array.from(weights[0].data.slice(i * 6, i * 6 + 6));
        assert.equal(row.indexOf(Math.max(...row)), 5 - i, `query ${i}: ${row}`);
      }
      trainer.dispose();
    });

    it('the same seed gives the same run bit for bit; another seed another run', () => {
      const config = { task: 'shift', shift: 2, seed: 3, heads: 2, dHead: 8, position: 'learned' };
      const a = attn.createTrainer(config),
        b = attn.createTrainer(config),
        c = attn.createTrainer({ ...config, seed: 4 });
      for (let s = 0; s < 10; s++) {
        const [ra, rb, rc] = [a.step(), b.step(), c.step()];
        assert.deepEqual(ra, rb);
        if (s === 9) assert.notEqual(ra.loss, rc.loss);
      }
      assert.deepEqual(a.probe([0, 1, 2, 3, 4, 5]), b.probe([0, 1, 2, 3, 4, 5]));
      for (const t of [a, b, c]) t.dispose();
    });

    it('is refused with coded Errors: a range, a name, a type, a probe of the wrong length', () => {
      assert.throws(() => attn.createTrainer({ heads: 5 }), {
        code: 'out_of_range',
        argument: 'heads',
        message: 'heads must be a whole number from 1 to 4 (got 5)',
      });
      assert.throws(() => attn.createTrainer({ task: 'copy' }), { code: 'bad_option', argument: 'task' });
      assert.throws(() => attn.createTrainer({ batch: 1.5 }), { code: 'bad_option', argument: 'batch' });
      assert.throws(() => attn.createTrainer({ learningRate: 0 }), { code: 'out_of_range', argument: 'learningRate' });
      assert.throws(() => attn.createTrainer({ depth: 2 }), { code: 'unknown_option' });
      const trainer = attn.createTrainer();
      assert.throws(() => trainer.probe([0, 1]), {
        code: 'wrong_length',
        argument: 'tokens',
        params: { got: 2, need: 6 },
        message: "tokens has 2 tokens but this trainer's sequences have 6",
      });
      assert.throws(() => trainer.probe([0, 1, 2, 3, 4, 99]), {
        code: 'out_of_range',
        argument: 'tokens',
        params: { index: 5, got: 99, min: 0, max: 5 },
        message: 'tokens[5] must be a whole number from 0 to 5 (got 99)',
      });
      assert.throws(() => trainer.probe([0, 1, 2, 3, 4, '5']), {
        code: 'bad_option',
        argument: 'tokens',
        message: 'trainer.probe: tokens[5] must be a number (got "5")',
      });
      trainer.dispose();
    });

    it("probeGradient: the probe's X and ∂ℓ/∂(the heads' outputs), whose head blocks attentionBackward takes as dO", () => {
      const trainer = attn.createTrainer({ task: 'reverse', seed: 7, heads: 2, dHead: 4 });
      trainer.step(5);
      const probe = [0, 1, 2, 3, 4, 5];
      const g = trainer.probeGradient(probe);
      assert.deepEqual([g.x.rows, g.x.cols], [6, 16 + 6], 'd_model = d_token + n (one-hot positions)');
      assert.deepEqual([g.gradOutput.rows, g.gradOutput.cols], [6, 2 * 4]);
      assert.equal(g.scored, 6);
      assert.equal(g.causal, false);
      assert.ok(g.loss > 0 && g.loss < 3, `ℓ = ${g.loss}`);
      // Finite, not all 0, and the same again: probeGradient learns nothing.
      assert.ok(g.gradOutput.data.every(Number.isFinite) && g.gradOutput.data.some((x) => x !== 0));
      assert.deepEqual(trainer.probeGradient(probe), g, 'nothing learned: the same answer again');
      assert.equal(trainer.step().steps, 6, 'the step count is untouched');
      // The one-head backward pass on head 2's block runs on what the trainer gives.
      const { wQ, wK, wV } = trainer.parameters();
      const project = (w) => attn.project({ x: g.x, w });
      const block = {
        rows: 6,
        cols: 4,
        data: Float32Array.from({ length: 24 }, (_, k) => g.gradOutput.data[Math.floor(k / 4) * 8 + 4 + (k % 4)]),
      };
      const grads = attn.attentionBackward({
        q: project(wQ[1]),
        k: project(wK[1]),
        v: project(wV[1]),
        gradOutput: block,
      });
      assert.ok(grads.gradQ.data.every(Number.isFinite));
      const induction = attn.createTrainer({ task: 'induction', length: 8, symbols: 8 });
      assert.equal(induction.probeGradient([3, 6, 1, 7, 0, 4, 2, 6]).causal, true);
      induction.dispose();
      assert.throws(() => trainer.probeGradient([0, 1]), { code: 'wrong_length', argument: 'tokens' });
      assert.throws(() => trainer.probeGradient('012345'), { code: 'bad_option', argument: 'tokens' });
      trainer.dispose();
      assert.throws(() => trainer.probeGradient(probe), { code: 'disposed' });
    });

    it("a task of pairs (the training lab's own rule): refused by the core naming the pair, side and token; a table read once", () => {
      const reverse = { input: [0, 1], output: [1, 0] };
      const config = { task: 'pairs', length: 2, symbols: 2 };
      assert.throws(() => attn.createTrainer({ ...config, pairs: [reverse, { input: [0, 2], output: [1, 0] }] }), {
        code: 'out_of_range',
        argument: 'pairs',
        message: 'pairs[1].input[1] must be a whole number from 0 to 1 (got 2)',
      });
      assert.throws(() => attn.createTrainer({ ...config, pairs: [{ input: [0, 1], output: [1] }] }), {
        code: 'wrong_length',
        argument: 'pairs',
      });
      assert.throws(() => attn.createTrainer({ ...config, pairs: [] }), { code: 'out_of_range', argument: 'pairs' });
      assert.throws(() => attn.createTrainer({ ...config, pairs: [{ input: [0, '1'], output: [1, 0] }] }), {
        code: 'bad_option',
        argument: 'pairs',
      });
      const trainer = attn.createTrainer({ ...config, pairs: [reverse] });
      trainer.step(50);
      assert.equal(trainer.evaluate({ count: 16 }).accuracy, 1); // one pair, 50 steps: fitted
      trainer.dispose();
    });

    it("the defaults are the core's TrainConfig, and a config left out trains as the defaults written out", () => {
      const defaults = attn.trainerDefaults();
      assert.deepEqual(defaults, {
        task: 'reverse',
        length: 6,
        symbols: 6,
        values: 4,
        shift: 1,
        dToken: 16,
        heads: 1,
        dHead: 16,
        batch: 16,
        position: 'one_hot',
        scale: 'sqrt_dk',
        optimizer: 'adam',
        learningRate: 0.01,
        seed: 0,
        pairs: [],
      });
      assert.ok(Object.isFrozen(defaults));
      const implicit = attn.createTrainer(),
        explicit = attn.createTrainer({ ...defaults });
      assert.deepEqual(implicit.step(3), explicit.step(3));
      for (const t of [implicit, explicit]) t.dispose();
    });

    it('parameters() copies every learned number: E, P, W_Q, W_K, W_V of each head, W_out and b, which the steps change', () => {
      const trainer = attn.createTrainer({ heads: 2, dHead: 4, seed: 7 });
      const before = trainer.parameters();
      // d_model = d_token + n = 16 + 6 with one-hot positions.
      assert.equal(before.wQ.length, 2);
      assert.ok(Array.isArray(before.wK));
      assert.deepEqual([before.wQ[1].rows, before.wQ[1].cols, before.wK[0].data.length], [22, 4, 88]);
      assert.deepEqual([before.wOut.rows, before.wOut.cols], [8, 6]);
      // E (vocabulary 6 × d_token 16), no P with one-hot positions, b = 0 at initialisation.
      assert.deepEqual([before.tokenEmbedding.rows, before.tokenEmbedding.cols], [6, 16]);
      assert.deepEqual([before.positionEmbedding.rows, before.positionEmbedding.cols], [0, 0]);
      assert.deepEqual(Array.from(before.bOut.data), [0, 0, 0, 0, 0, 0]);
      trainer.step();
      const after = trainer.parameters();
      assert.notDeepEqual(after.wQ[0].data, before.wQ[0].data);
      assert.notDeepEqual(after.tokenEmbedding.data, before.tokenEmbedding.data);
      assert.notDeepEqual(after.bOut.data, before.bOut.data);
      const learned = attn.createTrainer({ position: 'learned', seed: 7 });
      const { positionEmbedding } = learned.parameters();
      assert.deepEqual([positionEmbedding.rows, positionEmbedding.cols], [6, 16]);
      learned.dispose();
      before.wK[0].data[0] = 1e6; // a copy: writing it changes nothing in the trainer
      assert.notEqual(trainer.parameters().wK[0].data[0], 1e6);
      trainer.dispose();
      assert.throws(() => trainer.parameters(), { code: 'disposed' });
    });

    it('the √d_k race (§4) at d_k = 64: unscaled, the gradient through the softmax shrinks and it does not learn', () => {
      // Reverse, seed 7. Measured: first step's softmaxGradient 0.094 scaled, 0.040 unscaled; held-out
      // loss after 150 steps 0.0001 scaled, 1.67 unscaled (chance ln 6 = 1.79).
      const scaled = attn.createTrainer({ seed: 7, dHead: 64 }),
        unscaled = attn.createTrainer({ seed: 7, dHead: 64, scale: 'none' });
      const [a, b] = [scaled.step(), unscaled.step()];
      assert.ok(
        b.softmaxGradient > 0 && b.softmaxGradient < 0.5 * a.softmaxGradient,
        `${a.softmaxGradient} vs ${b.softmaxGradient}`,
      );
      scaled.step(149);
      unscaled.step(149);
      const [heldA, heldB] = [
        scaled.evaluate({ count: 256, seed: 12345 }),
        unscaled.evaluate({ count: 256, seed: 12345 }),
      ];
      assert.ok(heldA.loss < 0.05, `scaled: ${heldA.loss}`);
      assert.ok(heldB.loss > 1, `unscaled: ${heldB.loss}`);
      assert.equal('softmaxGradient' in heldA, false); // evaluate learns nothing, measures no gradient
      for (const t of [scaled, unscaled]) t.dispose();
    });

    it("the names are the core's tables", async () => {
      const names = (await loadCore(build)).trainingVocabulary();
      assert.deepEqual(names.tasks, [...TASKS]);
      assert.deepEqual(names.positions, [...POSITIONS]);
      assert.deepEqual(names.optimizers, [...OPTIMIZERS]);
    });
  });
}

// The runs recorded from the code before the training workspace (issue 31, item 4): each build's
// losses, a checksum of every step's report and of the final weights, as tests/fixtures/training-runs.json
// says; tests/core/test_train.cpp holds the native and the wasm doctest builds to the same runs.
const recorded = JSON.parse(fs.readFileSync(new URL('../fixtures/training-runs.json', import.meta.url), 'utf8'));
const FNV_START = 0x811c9dc5;

/** FNV-1a (32-bit) over bytes, from h on. */
function fnv1a(bytes, h = FNV_START) {
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}
const hex = (h) => h.toString(16).padStart(8, '0');

function recordRun(attn, config) {
  const trainer = attn.createTrainer(config);
  const losses = [];
  let trajectory = FNV_START;
  for (let s = 1; s <= recorded.steps; s++) {
    const { loss, accuracy, softmaxGradient } = trainer.step();
    trajectory = fnv1a(new Uint8Array(new Float64Array([loss, accuracy, softmaxGradient]).buffer), trajectory);
    if (s === 1 || s % recorded.every === 0) losses.push(loss);
  }
  const p = trainer.parameters();
  let weights = FNV_START;
  for (const m of [p.tokenEmbedding, p.positionEmbedding, ...p.wQ, ...p.wK, ...p.wV, p.wOut, p.bOut])
    weights = fnv1a(new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.byteLength), weights);
  trainer.dispose();
  return { losses, trajectory: hex(trajectory), weights: hex(weights) };
}

for (const build of ['simd', 'scalar', 'relaxed']) {
  describe(`${build} build: training runs as recorded before the training workspace`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });
    recorded.runs.forEach(({ name, config }, i) => {
      it(`${name}: ${recorded.steps} steps, bit for bit`, () => {
        assert.deepEqual(recordRun(attn, config), recorded.builds[build][i]);
      });
    });
  });
}
