// trainer.configure through the public JS API of both builds (issue 26, item 6): a fork changes the
// learning rate or the scaling for the steps to come and keeps everything else — so a fork at step
// 0 is the trainer created with the new setting, bit for bit, and a later fork goes on from the
// model and Adam's moments as they were. And its refusals, which change nothing.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from './load-module.mjs';

const PROBE = [0, 1, 2, 3, 4, 5];
/** Every learned number of a trainer, in one array. */
const flat = (trainer) => {
  const p = trainer.parameters();
  return [p.tokenEmbedding, ...p.wQ, ...p.wK, ...p.wV, p.wOut, p.bOut].flatMap((m) => Array.from(m.data));
};

for (const build of ['simd', 'scalar']) {
  describe(`${build} build: trainer.configure`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    it('a fork at step 0 is the trainer created with that learning rate or scaling, bit for bit', () => {
      for (const change of [{ learningRate: 0.1 }, { scale: 'none' }]) {
        const forked = attn.createTrainer({ task: 'reverse', seed: 7 });
        const made = attn.createTrainer({ task: 'reverse', seed: 7, ...change });
        assert.deepEqual(forked.configure(change), { learningRate: 0.01, scale: 'sqrt_dk', ...change });
        for (let s = 0; s < 15; s++)
          assert.deepEqual(forked.step(), made.step(), `${JSON.stringify(change)}, step ${s + 1}`);
        assert.deepEqual(flat(forked), flat(made));
        forked.dispose();
        made.dispose();
      }
    });

    it('a fork after 30 steps starts from the same model: the same batch and loss, then another path', () => {
      const run = attn.createTrainer({ task: 'reverse', seed: 7 });
      const fork = attn.createTrainer({ task: 'reverse', seed: 7 });
      run.step(30);
      fork.step(30);
      fork.configure({ learningRate: 0.1 });
      // Step 31 reports its batch's loss before its update: the model both start from.
      assert.deepEqual(fork.step(), run.step());
      assert.notDeepEqual(flat(fork), flat(run));
      assert.notEqual(fork.step(10).loss, run.step(10).loss);
      assert.equal(fork.step().steps, 42, 'the step count goes on');
      // A rate given alone leaves the scaling as it was.
      assert.deepEqual(fork.configure({ learningRate: 0.01 }), { learningRate: 0.01, scale: 'sqrt_dk' });
      run.dispose();
      fork.dispose();
    });

    it('unscaled from step 30 at d_k = 64: the scores grow √64 = 8 times and the softmax saturates (§4)', () => {
      const run = attn.createTrainer({ task: 'reverse', seed: 7, dHead: 64 });
      const fork = attn.createTrainer({ task: 'reverse', seed: 7, dHead: 64 });
      run.step(30);
      fork.step(30);
      fork.configure({ scale: 'none' });
      assert.deepEqual(flat(fork), flat(run), 'the same weights');
      const sharpest = (trainer) => Math.max(...trainer.probe(PROBE).weights[0].data);
      assert.ok(sharpest(fork) > sharpest(run), `${sharpest(fork)} > ${sharpest(run)}`);
      const [a, b] = [run.step(), fork.step()];
      assert.ok(b.softmaxGradient < a.softmaxGradient, `${b.softmaxGradient} < ${a.softmaxGradient}`);
      run.dispose();
      fork.dispose();
    });

    it('is refused with coded Errors naming the field, and a refusal changes nothing', () => {
      const trainer = attn.createTrainer({ task: 'reverse', seed: 7 });
      const twin = attn.createTrainer({ task: 'reverse', seed: 7 });
      assert.throws(() => trainer.configure({ learningRate: 2, scale: 'none' }), {
        code: 'out_of_range',
        argument: 'learningRate',
        message: 'learningRate must be a number greater than 0 and at most 1 (got 2)',
      });
      assert.throws(() => trainer.configure({ learningRate: '0.1' }), { code: 'bad_option', argument: 'learningRate' });
      assert.throws(() => trainer.configure({ scale: 'race' }), { code: 'bad_option', argument: 'scale' });
      assert.throws(() => trainer.configure({ momentum: 0.9 }), { code: 'unknown_option' });
      assert.throws(() => trainer.configure(0.1), { code: 'bad_arguments' });
      assert.deepEqual(trainer.configure({}), { learningRate: 0.01, scale: 'sqrt_dk' }, 'nothing changed');
      assert.deepEqual(trainer.step(5), twin.step(5));
      trainer.dispose();
      twin.dispose();
      assert.throws(() => trainer.configure({ learningRate: 0.1 }), { code: 'disposed' });
    });
  });
}
