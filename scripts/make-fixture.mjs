// Writes tests/fixtures/worked-example.json: the article's worked example (section 7) and a few
// companions, with every intermediate computed here in float64 — independently of the C++ core —
// so that the doctest, node and browser suites all check the core against the same numbers.
//   node scripts/make-fixture.mjs            (rewrites the file; commit the result)
import fs from 'node:fs';

const matmul = (a, b) => a.map((row) => b[0].map((_, c) => row.reduce((s, x, t) => s + x * b[t][c], 0)));
const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

// The article's NumPy code, step by step, in float64.
function attentionSteps({ q, k, v, scale = 'sqrt_dk', mask = 'none' }) {
  const dk = q[0].length;
  const divisor = { sqrt_dk: Math.sqrt(dk), dk, none: 1 }[scale];
  const scores = matmul(q, transpose(k));
  const scaled = scores.map((row, i) => row.map((s, j) => (mask === 'causal' && j > i ? -Infinity : s / divisor)));
  const rowMax = scaled.map((row) => [Math.max(...row)]);
  const exps = scaled.map((row, i) => row.map((x) => Math.exp(x - rowMax[i][0])));
  const rowSum = exps.map((row) => [row.reduce((s, x) => s + x, 0)]);
  const weights = exps.map((row, i) => row.map((e) => e / rowSum[i][0]));
  const output = matmul(weights, v);
  return { scores, scaled, row_max: rowMax, exps, row_sum: rowSum, weights, output };
}

// JSON has no −∞: masked entries are written as the string "-Infinity".
const encode = (m) => m.map((row) => row.map((x) => (x === -Infinity ? '-Infinity' : x)));
const encodeAll = (steps) => Object.fromEntries(Object.entries(steps).map(([k, m]) => [k, encode(m)]));

const I2 = [
  [1, 0],
  [0, 1],
];
const worked = {
  q: I2,
  k: I2,
  v: [
    [10, 0],
    [0, 10],
  ],
};

// d_k = 4 so that √d_k = 2 and the scaling is exact; scores differ enough that the weights are
// far from uniform (near-zero scores would hide bugs).
const dk4 = {
  q: [
    [2, 0, 1, 0],
    [0, 2, 0, 1],
    [1, 0, 0, 3],
  ],
  k: [
    [2, 0, 0, 0],
    [0, 2, 0, 0],
    [1, 0, 1, 0],
  ],
  v: [
    [1, 2],
    [3, -1],
    [0, 4],
  ],
};

// "它 是 猫": three tokens, d = 4, projected to d_k = d_v = 2 (illustrative numbers, not trained).
const catX = [
  [1, 0, 1, 0],
  [0, 2, 0, 2],
  [1, 1, 1, 1],
];
const catW = {
  w_q: [
    [1, 0],
    [0, 1],
    [1, 0],
    [0, 1],
  ],
  w_k: [
    [1, 0],
    [0, 0],
    [1, 0],
    [0, 1],
  ],
  w_v: [
    [1, 1],
    [0, 1],
    [1, 0],
    [2, 0],
  ],
};
const catQKV = { q: matmul(catX, catW.w_q), k: matmul(catX, catW.w_k), v: matmul(catX, catW.w_v) };

const fixture = {
  about:
    'Transformer 由浅入深, article 3, section 7: Q = K = I₂, V = 10·I₂, d_k = 2. ' +
    'Expected values computed in float64 by scripts/make-fixture.mjs; the article rounds them to ' +
    'A ≈ [[0.67, 0.33], [0.33, 0.67]] and AV ≈ [[6.7, 3.3], [3.3, 6.7]].',
  tolerance: 1e-4,
  cases: [
    {
      name: 'worked example',
      ...worked,
      scale: 'sqrt_dk',
      mask: 'none',
      article: {
        weights: [
          [0.67, 0.33],
          [0.33, 0.67],
        ],
        output: [
          [6.7, 3.3],
          [3.3, 6.7],
        ],
      },
      expected: encodeAll(attentionSteps(worked)),
    },
    {
      name: 'd_k = 4, exact scaling',
      ...dk4,
      scale: 'sqrt_dk',
      mask: 'none',
      expected: encodeAll(attentionSteps(dk4)),
    },
    {
      name: 'd_k = 4, causal mask',
      ...dk4,
      scale: 'sqrt_dk',
      mask: 'causal',
      expected: encodeAll(attentionSteps({ ...dk4, mask: 'causal' })),
    },
    {
      name: 'worked example, no scaling',
      ...worked,
      scale: 'none',
      mask: 'none',
      expected: encodeAll(attentionSteps({ ...worked, scale: 'none' })),
    },
    {
      name: '它 是 猫 (X through W_Q, W_K, W_V)',
      x: catX,
      ...catW,
      ...catQKV,
      scale: 'sqrt_dk',
      mask: 'none',
      expected: encodeAll(attentionSteps(catQKV)),
    },
  ],
};

const out = new URL('../tests/fixtures/worked-example.json', import.meta.url);
// One matrix row per line, so the file reads like the article's matrices.
const text = JSON.stringify(fixture, null, 2).replace(
  /\[\s*([^\[\]{}]*?)\s*\]/g,
  (_, inner) => `[${inner.split(/,\s*/).join(', ')}]`,
);
fs.writeFileSync(out, text + '\n');
console.log(`wrote ${out.pathname}`);
