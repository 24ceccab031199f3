// Every way a call can be refused, through the public JS API of each build: an Error whose
// message is one English sentence, and whose code, argument, cell and params say the same for a
// program (the page words them in zh-CN and en). After each refusal the module still computes
// the article's worked example.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention, loadCore, matrix, I2, V10, assertWorkedExample } from './load-module.mjs';
import { ERROR_CODES } from '../../wasm/vocabulary.mjs';

const big = { rows: 12000, cols: 1, data: new Float32Array(12000).fill(0.5) };
const huge = { rows: 1, cols: 2 ** 28, data: new Float32Array(2 ** 28) };

// [what, call(attn), { code, argument, cell, params, message }]: message is the exact sentence.
const catInputs = {
  x: matrix([
    [1, 0, 0, 1],
    [0, 1, 0, 1],
    [0, 0, 1, 1],
  ]),
  wq: matrix([
    [0, 0, 2, 0],
    [2, 0, 0, 2],
    [0, 2, -2, -2],
    [0, 0, 0, 0],
  ]),
  wk: matrix([
    [2, 0, 2, 0],
    [0, 2, 0, 2],
    [-2, -2, -2, -2],
    [0, 0, 0, 0],
  ]),
  wv: matrix([
    [1, 0, 1, 0],
    [0, 1, 0, 1],
    [1, 1, 1, 1],
    [0, 0, 0, 0],
  ]),
  wo: matrix([
    [0.5, 0, 0.5, 0],
    [0, 0.5, 0, 0.5],
    [0.5, 0, -0.5, 0],
    [0, 0.5, 0, -0.5],
  ]),
};

const CASES = [
  // --- refused by the core (C++), the same codes on every entry point ---
  [
    'wrong_length: a data length that does not match the shape',
    (a) => a.attentionSteps({ q: { rows: 3, cols: 4, data: new Float32Array(10) }, k: I2, v: V10 }),
    {
      code: 'wrong_length',
      argument: 'q',
      params: { got: 10, need: 12, rows: 3, cols: 4 },
      message: 'q has 10 values but 3×4 needs 12',
    },
  ],
  [
    'not_finite: +Infinity in v, with its cell',
    (a) => a.attentionSteps({ q: I2, k: I2, v: { rows: 2, cols: 2, data: [10, 0, Infinity, 10] } }),
    {
      code: 'not_finite',
      argument: 'v',
      cell: { row: 1, col: 0 },
      params: { value: Infinity },
      message: 'v[1][0] is +Infinity; only finite numbers (or NaN) are allowed',
    },
  ],
  [
    'not_finite: -Infinity in q',
    (a) => a.attention({ q: { rows: 2, cols: 2, data: [1, -Infinity, 0, 1] }, k: I2, v: V10 }),
    {
      code: 'not_finite',
      argument: 'q',
      cell: { row: 0, col: 1 },
      params: { value: -Infinity },
      message: 'q[0][1] is -Infinity; only finite numbers (or NaN) are allowed',
    },
  ],
  [
    'dk_mismatch: k is charged, being checked against q',
    (a) => a.attentionSteps({ q: matrix([[1, 2, 3]]), k: I2, v: V10 }),
    {
      code: 'dk_mismatch',
      argument: 'k',
      params: { got: 2, need: 3 },
      message: 'q has d_k = 3 columns but k has 2; QKᵀ needs the same d_k in both',
    },
  ],
  [
    'key_value_mismatch: keys without values',
    (a) => a.attentionStreaming({ q: I2, k: I2, v: matrix([[1, 2]]) }),
    {
      code: 'key_value_mismatch',
      argument: 'v',
      params: { got: 1, need: 2 },
      message: 'k has 2 rows (keys) but v has 1; every key needs exactly one value row',
    },
  ],
  [
    'bad_temperature: 0',
    (a) => a.attentionSteps({ q: I2, k: I2, v: V10, temperature: 0 }),
    {
      code: 'bad_temperature',
      argument: 'temperature',
      params: { value: 0, reason: 'not_positive', limit: 0 },
      message: 'temperature must be a finite number greater than 0 (got 0)',
    },
  ],
  [
    'bad_temperature: negative',
    (a) => a.attention({ q: I2, k: I2, v: V10, temperature: -1 }),
    {
      code: 'bad_temperature',
      argument: 'temperature',
      params: { value: -1, reason: 'not_positive', limit: 0 },
      message: 'temperature must be a finite number greater than 0 (got -1)',
    },
  ],
  // Issue 19 item 8: the core sees the temperature as float32, where 1e39 is ∞ and 1e-50 is 0;
  // the message names the number the caller gave, and float32's limit it crosses.
  [
    'bad_temperature: 1e39, beyond float32, named as given (not "inf")',
    (a) => a.attentionSteps({ q: I2, k: I2, v: V10, temperature: 1e39 }),
    {
      code: 'bad_temperature',
      argument: 'temperature',
      params: { value: 1e39, reason: 'above_float32', limit: 3.4028234663852886e38 },
      message: 'temperature must be finite in float32, whose largest number is 3.4028234663852886e+38 (got 1e+39)',
    },
  ],
  [
    'bad_temperature: 1e-50, 0 in float32, named as given (not "0")',
    (a) => a.attentionStreaming({ q: I2, k: I2, v: V10, temperature: 1e-50 }),
    {
      code: 'bad_temperature',
      argument: 'temperature',
      params: { value: 1e-50, reason: 'below_float32', limit: 1.401298464324817e-45 },
      message:
        'temperature rounds to 0 in float32, whose smallest positive number is 1.401298464324817e-45 (got 1e-50)',
    },
  ],
  [
    'bad_temperature: NaN',
    (a) => a.attention({ q: I2, k: I2, v: V10, temperature: NaN }),
    {
      code: 'bad_temperature',
      argument: 'temperature',
      params: { value: NaN, reason: 'not_a_number', limit: null },
      message: 'temperature must be a finite number greater than 0 (got NaN)',
    },
  ],
  [
    'mask_shape: a mask of the wrong shape',
    (a) => a.attentionSteps({ q: I2, k: I2, v: V10, mask: { rows: 3, cols: 2, data: [1, 1, 1, 1, 1, 1] } }),
    {
      code: 'mask_shape',
      argument: 'mask',
      params: { rows: 3, cols: 2, needRows: 2, needCols: 2 },
      message: 'mask is 3×2 but the scores are 2×2 (n_q×n_k)',
    },
  ],
  [
    'mask_value: a 0.5 in the mask, with its cell',
    (a) => a.attentionSteps({ q: I2, k: I2, v: V10, mask: { rows: 2, cols: 2, data: [1, 0.5, 1, 1] } }),
    {
      code: 'mask_value',
      argument: 'mask',
      cell: { row: 0, col: 1 },
      params: { value: 0.5 },
      message: 'mask[0][1] is 0.5; a mask holds only 0 (masked) and 1 (kept)',
    },
  ],
  [
    'gradient_shape: a gradOutput of another shape than the output A·V',
    (a) => a.attentionBackward({ q: I2, k: I2, v: V10, gradOutput: matrix([[1, 0, 0]]) }),
    {
      code: 'gradient_shape',
      argument: 'gradOutput',
      params: { rows: 1, cols: 3, needRows: 2, needCols: 2 },
      message: 'gradOutput is 1×3 but the output A·V is 2×2 (n_q×d_v)',
    },
  ],
  [
    'gradient_not_finite: a NaN in gradOutput, with its cell',
    (a) => a.attentionBackward({ q: I2, k: I2, v: V10, gradOutput: { rows: 2, cols: 2, data: [1, 0, 0, NaN] } }),
    {
      code: 'gradient_not_finite',
      argument: 'gradOutput',
      cell: { row: 1, col: 1 },
      params: { value: NaN },
      message: 'gradOutput[1][1] is NaN; a gradient must be a finite number',
    },
  ],
  [
    'projection_mismatch: w is charged, being checked against x',
    (a) => a.project({ x: matrix([[1, 2, 3]]), w: I2 }),
    {
      code: 'projection_mismatch',
      argument: 'w',
      params: { got: 2, need: 3, xRows: 1, xCols: 3, wRows: 2, wCols: 2 },
      message: 'x is 1×3 but w is 2×2; X·W needs w to have as many rows as x has columns (3)',
    },
  ],
  [
    'too_much_memory: 12000×12000 scores, refused before allocating',
    (a) => a.attentionSteps({ q: big, k: big, v: big }),
    {
      code: 'too_much_memory',
      params: {
        operation: 'attention_steps',
        what: 'scores',
        rows: 12000,
        cols: 12000,
        bytes: (6 * 12000 * 12000 + 2 * 12000 + 12000) * 4,
        limit: 2 ** 30,
      },
      message: 'attention_steps on 12000×12000 scores needs 3.2 GiB of working memory; the limit is 1.0 GiB',
    },
  ],
  [
    'out_of_range: d_k = 2⁵³ is a whole number, beyond 1 … 1024 (not "must be a whole number")',
    (a) => a.dotProductSamples({ dk: 2 ** 53, count: 4, seed: 1 }),
    {
      code: 'out_of_range',
      argument: 'dk',
      params: { got: 2 ** 53, min: 1, max: 1024 },
      message: 'dk must be a whole number from 1 to 1024 (got 9007199254740992)',
    },
  ],
  [
    "out_of_range: d_k beyond the lab sampler's 1 … 1024",
    (a) => a.dotProductSamples({ dk: 2048, count: 10, seed: 1 }),
    {
      code: 'out_of_range',
      argument: 'dk',
      params: { got: 2048, min: 1, max: 1024 },
      message: 'dk must be a whole number from 1 to 1024 (got 2048)',
    },
  ],
  // --- refused by api.mjs (JS types the core cannot see) ---
  [
    'bad_arguments: no argument at all',
    (a) => a.attentionSteps(),
    {
      code: 'bad_arguments',
      params: { function: 'attentionSteps', got: 'undefined' },
      message:
        'attentionSteps needs one object argument { q, k, v, scale, temperature, mask, stable, axis, path } (got undefined)',
    },
  ],
  [
    'unknown_option: a misspelt option',
    (a) => a.attentionSteps({ q: I2, k: I2, v: V10, sclae: 'dk' }),
    {
      code: 'unknown_option',
      argument: 'sclae',
      params: { function: 'attentionSteps', known: 'q, k, v, scale, temperature, mask, stable, axis, path' },
      message:
        'attentionSteps: unknown option "sclae"; the options are q, k, v, scale, temperature, mask, stable, axis, path',
    },
  ],
  [
    'unknown_option: a teaching switch attention() does not have',
    (a) => a.attention({ q: I2, k: I2, v: V10, stable: false }),
    {
      code: 'unknown_option',
      argument: 'stable',
      params: { function: 'attention', known: 'q, k, v, scale, temperature, mask, out' },
      message: 'attention: unknown option "stable"; the options are q, k, v, scale, temperature, mask, out',
    },
  ],
  [
    'wrong_length: an out that cannot hold the 2×2 output',
    (a) => a.attention({ q: I2, k: I2, v: V10, out: new Float32Array(3) }),
    {
      code: 'wrong_length',
      argument: 'out',
      params: { got: 3, need: 4, rows: 2, cols: 2 },
      message: 'out has 3 values but 2×2 needs 4',
    },
  ],
  [
    'bad_option: an out that is not a Float32Array',
    (a) => a.attentionStreaming({ q: I2, k: I2, v: V10, out: [0, 0, 0, 0] }),
    {
      code: 'bad_option',
      argument: 'out',
      params: { got: 'an array' },
      message: 'attentionStreaming: out must be a Float32Array of n_q × d_v values (got an array)',
    },
  ],
  [
    'missing_matrix: no v',
    (a) => a.attentionSteps({ q: I2, k: I2 }),
    { code: 'missing_matrix', argument: 'v', message: 'v is missing; pass { rows, cols, data }' },
  ],
  [
    'missing_matrix: no w',
    (a) => a.project({ x: I2 }),
    { code: 'missing_matrix', argument: 'w', message: 'w is missing; pass { rows, cols, data }' },
  ],
  [
    'not_a_matrix: nested arrays',
    (a) =>
      a.attentionSteps({
        q: [
          [1, 0],
          [0, 1],
        ],
        k: I2,
        v: V10,
      }),
    {
      code: 'not_a_matrix',
      argument: 'q',
      params: { got: 'an array' },
      message: 'q must be an object { rows, cols, data } (got an array)',
    },
  ],
  [
    'bad_dimension: zero rows',
    (a) => a.attentionSteps({ q: { rows: 0, cols: 2, data: [] }, k: I2, v: V10 }),
    {
      code: 'bad_dimension',
      argument: 'q',
      params: { field: 'rows', got: '0' },
      message: 'q.rows must be a whole number ≥ 1 (got 0)',
    },
  ],
  [
    'bad_dimension: negative cols',
    (a) => a.attentionSteps({ q: I2, k: { rows: 2, cols: -2, data: [1, 0, 0, 1] }, v: V10 }),
    {
      code: 'bad_dimension',
      argument: 'k',
      params: { field: 'cols', got: '-2' },
      message: 'k.cols must be a whole number ≥ 1 (got -2)',
    },
  ],
  [
    'bad_dimension: fractional rows',
    (a) => a.attentionSteps({ q: { rows: 1.5, cols: 2, data: [1, 0, 0, 1] }, k: I2, v: V10 }),
    {
      code: 'bad_dimension',
      argument: 'q',
      params: { field: 'rows', got: '1.5' },
      message: 'q.rows must be a whole number ≥ 1 (got 1.5)',
    },
  ],
  [
    'bad_data: data that is not an array',
    (a) => a.attentionSteps({ q: { rows: 2, cols: 2, data: 'abcd' }, k: I2, v: V10 }),
    {
      code: 'bad_data',
      argument: 'q',
      params: { got: '"abcd"' },
      message: 'q.data must be a Float32Array or an array of numbers (got "abcd")',
    },
  ],
  [
    'bad_data: BigInts',
    (a) => a.project({ x: I2, w: { rows: 2, cols: 2, data: new BigInt64Array(4) } }),
    {
      code: 'bad_data',
      argument: 'w',
      params: { got: 'BigInt64Array' },
      message: 'w.data must hold numbers, not BigInts',
    },
  ],
  [
    'not_a_number: a string in the data, with its cell',
    (a) => a.attentionSteps({ q: { rows: 2, cols: 2, data: [1, 0, '0', 1] }, k: I2, v: V10 }),
    {
      code: 'not_a_number',
      argument: 'q',
      cell: { row: 1, col: 0 },
      params: { index: 2, got: '"0"' },
      message: 'q.data[2] is not a number (got "0")',
    },
  ],
  [
    'detached_data: a Float32Array whose buffer was transferred away',
    (a) => {
      const data = new Float32Array(4);
      structuredClone(data.buffer, { transfer: [data.buffer] });
      return a.attentionSteps({ q: I2, k: { rows: 2, cols: 2, data }, v: V10 });
    },
    {
      code: 'detached_data',
      argument: 'k',
      message:
        "k.data's buffer has been detached (transferred or freed); pass a Float32Array that still holds its values",
    },
  ],
  [
    'bad_option: an unknown scale',
    (a) => a.attentionSteps({ q: I2, k: I2, v: V10, scale: 'sqrt' }),
    {
      code: 'bad_option',
      argument: 'scale',
      params: { got: '"sqrt"' },
      message: 'attentionSteps: scale must be "sqrt_dk", "dk" or "none" (got "sqrt")',
    },
  ],
  [
    'bad_option: an unknown axis',
    (a) => a.attentionSteps({ q: I2, k: I2, v: V10, axis: 'diagonal' }),
    {
      code: 'bad_option',
      argument: 'axis',
      params: { got: '"diagonal"' },
      message: 'attentionSteps: axis must be "row" or "column" (got "diagonal")',
    },
  ],
  [
    'bad_option: an unknown mask',
    (a) => a.attentionStreaming({ q: I2, k: I2, v: V10, mask: 'future' }),
    {
      code: 'bad_option',
      argument: 'mask',
      params: { got: '"future"' },
      message: 'attentionStreaming: mask must be "none", "causal" or a { rows, cols, data } of 0/1 (got "future")',
    },
  ],
  [
    'bad_option: stable as a string',
    (a) => a.attentionSteps({ q: I2, k: I2, v: V10, stable: 'no' }),
    {
      code: 'bad_option',
      argument: 'stable',
      params: { got: '"no"' },
      message: 'attentionSteps: stable must be true or false (got "no")',
    },
  ],
  [
    'bad_option: temperature as a string',
    (a) => a.attention({ q: I2, k: I2, v: V10, temperature: '2' }),
    {
      code: 'bad_option',
      argument: 'temperature',
      params: { got: '"2"' },
      message: 'attention: temperature must be a number (got "2")',
    },
  ],
  [
    'bad_option: an unknown path',
    (a) => a.project({ x: I2, w: I2, path: 'fast' }),
    {
      code: 'bad_option',
      argument: 'path',
      params: { got: '"fast"' },
      message: 'project: path must be "simd" or "reference" (got "fast")',
    },
  ],
  [
    'disposed: a trainer used after dispose()',
    (a) => {
      const trainer = a.createTrainer();
      trainer.dispose();
      trainer.step();
    },
    { code: 'disposed', message: 'trainer.step: this trainer has been disposed' },
  ],
  [
    'inputs_too_large: more than fits in the module',
    (a) => a.attention({ q: huge, k: huge, v: I2 }),
    {
      code: 'inputs_too_large',
      params: { values: 2 ** 29 + 4, bytes: (2 ** 29 + 4) * 4, limit: 512 * 2 ** 20 },
      message: "the inputs hold 536870916 values (2048.0 MiB); at most 512 MiB fit in the module's memory",
    },
  ],
  // shared heads: 3 query heads cannot be split into 2 groups
  [
    'kv_heads_indivisible: 3 query heads, 2 key–value heads',
    (a) => a.attentionGrouped({ q: matrix([[1, 0, 0, 1, 0, 1]]), k: I2, v: V10, heads: 3, kvHeads: 2 }),
    {
      code: 'kv_heads_indivisible',
      argument: 'kvHeads',
      params: { heads: 3, kvHeads: 2 },
      message: '3 query heads cannot share 2 key–value heads in groups of equal size; kvHeads must divide heads',
    },
  ],
  // multi-head: x (3×4) and 4×4 weights, as 它 是 猫 with 2 heads
  [
    'heads_indivisible: 3 heads cannot split 4 columns',
    (a) => a.multiHeadAttentionSteps({ ...catInputs, heads: 3 }),
    {
      code: 'heads_indivisible',
      argument: 'wq',
      params: { cols: 4, heads: 3 },
      message:
        'wq has 4 columns, which 3 heads cannot split into blocks of equal width; give it a multiple of 3 columns',
    },
  ],
  [
    'head_width_mismatch: wk wider than wq',
    (a) =>
      a.multiHeadAttentionSteps({
        ...catInputs,
        wk: matrix([
          [1, 0, 0, 0, 0, 0],
          [0, 1, 0, 0, 0, 0],
          [0, 0, 1, 0, 0, 0],
          [0, 0, 0, 1, 0, 0],
        ]),
        heads: 2,
      }),
    {
      code: 'head_width_mismatch',
      argument: 'wk',
      params: { got: 6, need: 4 },
      message: "wq has 4 columns (h·d_k) but wk has 6; each head's Q_i·K_iᵀ needs the same d_k in Q and K",
    },
  ],
  [
    "wo_mismatch: wo with 2 rows for concat's 4 columns",
    (a) => a.multiHeadAttentionSteps({ ...catInputs, wo: I2, heads: 2 }),
    {
      code: 'wo_mismatch',
      argument: 'wo',
      params: { got: 2, need: 4, rows: 3 },
      message: 'concat is 3×4 (n × h·d_v) but wo is 2×2; concat·W_O needs wo to have 4 rows',
    },
  ],
  [
    'projection_overflow: X·W_Q rounds to +Infinity in float32',
    (a) =>
      a.multiHeadAttentionSteps({
        ...catInputs,
        x: matrix([
          [3e38, 3e38, 0, 0],
          [0, 0, 0, 0],
          [0, 0, 0, 0],
        ]),
        heads: 2,
      }),
    {
      code: 'projection_overflow',
      argument: 'q',
      cell: { row: 0, col: 0 },
      params: { value: Infinity },
      message: 'q[0][0] = (x·wq) is +Infinity: float32 overflowed; use smaller values in x or the projection',
    },
  ],
  [
    'reentrant_call: a call made from inside another (through a built-in the caller replaced)',
    (a) => {
      const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
      const set = TypedArrayPrototype.set;
      let nested;
      TypedArrayPrototype.set = function (...args) {
        if (!nested)
          try {
            a.attention({ q: I2, k: I2, v: V10 });
          } catch (e) {
            nested = e;
          }
        return Reflect.apply(set, this, args);
      };
      try {
        a.project({ x: I2, w: I2 });
      } finally {
        TypedArrayPrototype.set = set;
      }
      throw nested;
    },
    {
      code: 'reentrant_call',
      params: { function: 'attention', running: 'projectSimd' },
      message: 'attention was called while projectSimd was still running; call the module again once it has returned',
    },
  ],
];

// Every code a caller of the JS API can meet: all of vocabulary.mjs's but empty_matrix, which
// api.mjs pre-empts with bad_dimension (tests/core/test_errors.cpp checks it; the bindings' own
// bad_option is checked in vocabulary.test.mjs).
const REACHABLE_CODES = ERROR_CODES.filter((code) => code !== 'empty_matrix');

function assertRefusal(error, want) {
  assert.ok(error instanceof Error, 'an Error');
  assert.equal(error.message, want.message);
  assert.equal(error.code, want.code);
  assert.equal(error.argument, want.argument);
  assert.deepEqual(error.cell, want.cell);
  assert.deepEqual(error.params, want.params ?? {});
  return true;
}

for (const build of ['relaxed', 'simd', 'scalar']) {
  describe(`${build} build: refused calls throw an Error with code, argument, cell and params`, () => {
    let attn;
    before(async () => {
      attn = await loadAttention(build);
    });

    for (const [what, call, want] of CASES) {
      it(what, () => {
        assert.throws(
          () => call(attn),
          (e) => assertRefusal(e, want),
        );
        // ... and the module still answers correctly
        assertWorkedExample(assert, attn, 'after the error');
      });
    }

    it('the cases above cover every code the API can throw', () => {
      assert.deepEqual([...new Set(CASES.map(([, , want]) => want.code))].sort(), [...REACHABLE_CODES].sort());
    });

    it('empty_matrix, which api.mjs pre-empts, comes through the bindings with its fields', async () => {
      const core = await loadCore(build);
      const options = { scale: 'sqrt_dk', temperature: 1, mask: 'none', stable: true, axis: 'row' };
      const { error } = core.attentionStepsSimd({ rows: 0, cols: 2, data: [] }, I2, V10, options);
      assert.deepEqual(
        { ...error, params: { ...error.params } },
        {
          code: 'empty_matrix',
          argument: 'q',
          params: { rows: 0, cols: 2 },
          message: 'q must have at least one row and one column (got 0×2)',
        },
      );
    });
  });
}
