// Issue 27, item 8: a refusal quotes the number as given. Every numeric option of every entry
// point is tried with 1 + 1e−7, 1e−50, NaN and ∞; each is either accepted (where the rules of
// docs/api.md "Input policy and limits" take it) or refused with a coded Error whose message holds the value as JS
// writes it (String(x): "1.0000001", "1e-50", "NaN", "Infinity"; a matrix cell's ∞ as "+Infinity").
// createTrainer's learning rate said "(got 1.000000)", "(got 0.000000)" and "(got nan)".
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, I2, V10 } from './load-module.mjs';

const VALUES = [1 + 1e-7, 1e-50, NaN, Infinity];
const NONE = new Set();

// A 2×2 matrix of I₂ with `x` in cell (0, 1).
const withCell = (x) => ({ rows: 2, cols: 2, data: [1, x, 0, 1] });
const qkv = { q: I2, k: I2, v: V10 };

// [what, call(x), the values it accepts]: every other value must be refused, quoting x.
function cases(attn) {
  const list = [];
  const add = (what, call, accepted = NONE) => list.push([what, call, accepted]);
  const single = ['attentionSteps', 'attention', 'attentionStreaming'];
  const backward = { ...qkv, gradOutput: I2 };
  for (const [fn, base] of [...single.map((fn) => [fn, qkv]), ['attentionBackward', backward]]) {
    add(`${fn} temperature`, (x) => attn[fn]({ ...base, temperature: x }), new Set([1 + 1e-7]));
    add(`${fn} q.rows`, (x) => attn[fn]({ ...base, q: { ...I2, rows: x } }));
    add(`${fn} v.cols`, (x) => attn[fn]({ ...base, v: { ...V10, cols: x } }));
    // v's cells: anything float32 holds (NaN propagates, 1e−50 is 0); ±∞ is refused
    add(`${fn} a cell of v`, (x) => attn[fn]({ ...base, v: withCell(x) }), new Set([1 + 1e-7, 1e-50, NaN]));
    // a mask cell is 0 or 1 in float32: 1e−50 is 0 there
    add(
      `${fn} a mask cell`,
      (x) => attn[fn]({ ...base, mask: { rows: 2, cols: 2, data: [1, 1, x, 1] } }),
      new Set([1e-50]),
    );
  }
  for (const fn of ['attentionSteps', 'attentionBackward'])
    add(`${fn} stable`, (x) => attn[fn]({ ...(fn === 'attentionSteps' ? qkv : backward), stable: x }));
  add(
    'attentionBackward a cell of gradOutput',
    (x) => attn.attentionBackward({ ...qkv, gradOutput: withCell(x) }),
    new Set([1 + 1e-7, 1e-50]),
  );
  add('project x.cols', (x) => attn.project({ x: { ...I2, cols: x }, w: I2 }));
  add('project a cell of w', (x) => attn.project({ x: I2, w: withCell(x) }), new Set([1 + 1e-7, 1e-50, NaN]));

  const heads = { x: I2, wq: I2, wk: I2, wv: I2, wo: I2, heads: 1 };
  add('multiHeadAttentionSteps heads', (x) => attn.multiHeadAttentionSteps({ ...heads, heads: x }));
  add(
    'multiHeadAttentionSteps temperature',
    (x) => attn.multiHeadAttentionSteps({ ...heads, temperature: x }),
    new Set([1 + 1e-7]),
  );
  const layer = { ...heads, gradOutput: I2 };
  add('multiHeadAttentionBackward heads', (x) => attn.multiHeadAttentionBackward({ ...layer, heads: x }));
  add(
    'multiHeadAttentionBackward temperature',
    (x) => attn.multiHeadAttentionBackward({ ...layer, temperature: x }),
    new Set([1 + 1e-7]),
  );
  add(
    'multiHeadAttentionBackward a cell of gradOutput',
    (x) => attn.multiHeadAttentionBackward({ ...layer, gradOutput: withCell(x) }),
    new Set([1 + 1e-7, 1e-50]),
  );
  const grouped = { ...qkv, heads: 1, kvHeads: 1 };
  for (const key of ['heads', 'kvHeads'])
    add(`attentionGrouped ${key}`, (x) => attn.attentionGrouped({ ...grouped, [key]: x }));
  add(
    'attentionGrouped temperature',
    (x) => attn.attentionGrouped({ ...grouped, temperature: x }),
    new Set([1 + 1e-7]),
  );
  add(
    'attentionGrouped a cell of v',
    (x) => attn.attentionGrouped({ ...grouped, v: withCell(x) }),
    new Set([1 + 1e-7, 1e-50, NaN]),
  );
  const linearShape = { nq: 2, nk: 2, dk: 2, dv: 2 };
  for (const key of Object.keys(linearShape))
    add(`linearMultiplyAdds ${key}`, (x) => attn.linearMultiplyAdds({ ...linearShape, [key]: x }));
  add(
    'attentionLinear a cell of v',
    (x) => attn.attentionLinear({ ...qkv, v: withCell(x) }),
    new Set([1 + 1e-7, 1e-50, NaN]),
  );
  const shape = { n: 2, dModel: 2, heads: 1, dk: 2, dv: 2, dOut: 2 };
  for (const key of Object.keys(shape))
    add(`multiHeadMultiplyAdds ${key}`, (x) => attn.multiHeadMultiplyAdds({ ...shape, [key]: x }));

  const samples = { dk: 2, count: 4, seed: 1 };
  for (const key of Object.keys(samples))
    add(`dotProductSamples ${key}`, (x) => attn.dotProductSamples({ ...samples, [key]: x }));
  const normal = { rows: 2, cols: 2, seed: 1 };
  for (const key of Object.keys(normal)) add(`normalMatrix ${key}`, (x) => attn.normalMatrix({ ...normal, [key]: x }));
  const memory = { operation: 'attention', nq: 2, nk: 2, d: 2, dv: 2 };
  for (const key of ['nq', 'nk', 'd', 'dv'])
    add(`workingMemory ${key}`, (x) => attn.workingMemory({ ...memory, [key]: x }));

  for (const [key, value] of Object.entries(attn.trainerDefaults()))
    if (typeof value === 'number') add(`createTrainer ${key}`, (x) => attn.createTrainer({ [key]: x }).dispose());
  const withTrainer = (use) => (x) => {
    const trainer = attn.createTrainer();
    try {
      return use(trainer, x);
    } finally {
      trainer.dispose();
    }
  };
  add(
    'trainer.step n',
    withTrainer((t, x) => t.step(x)),
  );
  add(
    'trainer.evaluate count',
    withTrainer((t, x) => t.evaluate({ count: x })),
  );
  add(
    'trainer.evaluate seed',
    withTrainer((t, x) => t.evaluate({ seed: x })),
  );
  add(
    'trainer.probe a token',
    withTrainer((t, x) => t.probe([0, 1, 2, 3, 4, x])),
  );
  add(
    'trainer.probeGradient a token',
    withTrainer((t, x) => t.probeGradient([x, 1, 2, 3, 4, 5])),
  );
  return list;
}

describe('every numeric refusal quotes the value as given', () => {
  let attn;
  before(async () => {
    attn = await loadAttention('simd');
  });

  it('1 + 1e−7, 1e−50, NaN and ∞ in every numeric option of every entry point', () => {
    const all = cases(attn);
    for (const [what, call, accepted] of all)
      for (const x of VALUES) {
        const as = String(x);
        if (accepted.has(x)) {
          assert.doesNotThrow(() => call(x), `${what} = ${as} is accepted`);
          continue;
        }
        assert.throws(
          () => call(x),
          (e) => {
            assert.ok(e instanceof Error && typeof e.code === 'string', `${what} = ${as}: a coded Error (${e})`);
            assert.ok(e.message.includes(as), `${what} = ${as}: the message quotes it: ${e.message}`);
            return true;
          },
          `${what} = ${as} is refused`,
        );
      }
    // (so that the table cannot quietly lose its rows: 61 numeric options)
    assert.ok(all.length >= 61, `${all.length} options tried`);
  });

  it('the learning rate, as the issue found it: 1.0000001, 1e−50, NaN', () => {
    const message = (learningRate) => {
      try {
        attn.createTrainer({ learningRate });
      } catch (e) {
        assert.equal(e.code, 'out_of_range');
        assert.equal(e.argument, 'learningRate');
        return e.message;
      }
      assert.fail(`learningRate ${learningRate} was accepted`);
    };
    assert.equal(message(1.0000001), 'learningRate must be a number greater than 0 and at most 1 (got 1.0000001)');
    assert.equal(
      message(1e-50),
      'learningRate rounds to 0 in float32, whose smallest positive number is 1.401298464324817e-45 (got 1e-50)',
    );
    assert.equal(message(NaN), 'learningRate must be a number greater than 0 and at most 1 (got NaN)');
    // 1e−45 is float32's smallest positive number, rounded: accepted, and trains
    const tiny = attn.createTrainer({ learningRate: 1e-45 });
    assert.equal(tiny.step().steps, 1);
    tiny.dispose();
  });
});
