// createTrainer through the public JS API of both builds: reverse learned within a stated number of
// steps, the same seed giving the same run, the probe's weights, the names tied to the core's
// tables, and the refusals.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
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
      assert.throws(() => trainer.probe([0, 1]), { code: 'bad_option', argument: 'tokens' });
      assert.throws(() => trainer.probe([0, 1, 2, 3, 4, 99]), { code: 'bad_option', argument: 'tokens' });
      trainer.dispose();
    });

    it("the names are the core's tables", async () => {
      const names = (await loadCore(build)).trainingVocabulary();
      assert.deepEqual(names.tasks, [...TASKS]);
      assert.deepEqual(names.positions, [...POSITIONS]);
      assert.deepEqual(names.optimizers, [...OPTIMIZERS]);
    });
  });
}
