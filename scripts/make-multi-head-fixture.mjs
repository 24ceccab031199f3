// Writes tests/fixtures/multi-head.json: multi-head attention on "它 是 猫" with 2 heads (and the
// same weights split into 1 and 4 heads), every intermediate of the forward pass and of one
// backward pass from a stated dO (expected.backward) computed here in float64 —
// independently of the C++ core — so that the doctest and node suites check both of the core's
// paths against the same numbers.
//   node scripts/make-multi-head-fixture.mjs      (rewrites the file; commit the result)
//
// The example: n = 3 words, d_model = 4, h = 2 heads of d_k = d_v = 2. Each word's embedding is
// its own one-hot column plus a shared 1 (x_它 = [1, 0, 0, 1], …), and the weights' last row is 0,
// so row i of Q = X·W_Q is row i of W_Q: the weights are the heads' queries and keys, written so
// that they can be read. Both heads' keys give the words the vectors 它 (2, 0), 是 (0, 2) and
// 猫 (−2, −2). Head 1's queries are the *previous* word's key (它 has none and asks (0, 0), which
// attends evenly), so 是 attends to 它 and 猫 to 是; head 2's queries are the word's own key, so
// each word attends to itself. W_O mixes the two heads: the first two outputs are their average,
// the last two half their difference.
import fs from 'node:fs';

const matmul = (a, b) => a.map((row) => b[0].map((_, c) => row.reduce((s, x, t) => s + x * b[t][c], 0)));
const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));
const block = (m, i, width) => m.map((row) => row.slice(i * width, (i + 1) * width));

// One head, as the article writes it, in float64.
function head({ q, k, v, scale, temperature, mask }) {
  const dk = q[0].length;
  const divisor = { sqrt_dk: Math.sqrt(dk), dk, none: 1 }[scale] * temperature;
  const scores = matmul(q, transpose(k));
  const scaled = scores.map((row, i) => row.map((s, j) => (mask === 'causal' && j > i ? -Infinity : s / divisor)));
  const rowMax = scaled.map((row) => [Math.max(...row)]);
  const exps = scaled.map((row, i) => row.map((x) => Math.exp(x - rowMax[i][0])));
  const rowSum = exps.map((row) => [row.reduce((s, x) => s + x, 0)]);
  const weights = exps.map((row, i) => row.map((e) => e / rowSum[i][0]));
  const output = matmul(weights, v);
  return { q, k, v, scores, scaled, row_max: rowMax, exps, row_sum: rowSum, weights, output, divisor };
}

// One head's backward pass (core/backward.hpp's formulas), in float64: from dO_i = ∂L/∂head_i,
// dV = Aᵀ·dO, dA = dO·Vᵀ, dZ_ij = A_ij·(dA_ij − Σ_t A_it·dA_it), dS = dZ ÷ divisor, dQ = dS·K, dK = dSᵀ·Q.
// A masked pair has A_ij = 0, so its dZ is 0 with no test of its own.
function headBackward({ q, k, v, weights, divisor }, dOut) {
  const dV = matmul(transpose(weights), dOut);
  const dA = matmul(dOut, transpose(v));
  const dZ = weights.map((row, i) => {
    const average = row.reduce((s, a, t) => s + a * dA[i][t], 0);
    return row.map((a, j) => a * (dA[i][j] - average));
  });
  const dS = dZ.map((row) => row.map((z) => z / divisor));
  return {
    d_output: dOut,
    d_v: dV,
    d_weights: dA,
    d_scaled: dZ,
    d_scores: dS,
    d_q: matmul(dS, k),
    d_k: matmul(transpose(dS), q),
  };
}

// The whole layer's backward (core/multi_head_backward.hpp) from dO = ∂L/∂O, in float64: dW_O =
// concatᵀ·dO, d(concat) = dO·W_Oᵀ split into the heads' blocks, each head's backward, the heads'
// dQ, dK, dV side by side, dW = Xᵀ·d(projection), dX = dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ.
function multiHeadBackward({ x, wq, wk, wv, wo }, forward, gradOutput) {
  const dConcat = matmul(gradOutput, transpose(wo));
  const dv = forward.heads[0].v[0].length;
  const heads = forward.heads.map((head, i) => headBackward(head, block(dConcat, i, dv)));
  const join = (name) => x.map((_, r) => heads.flatMap((g) => g[name][r]));
  const [dQ, dK, dV] = ['d_q', 'd_k', 'd_v'].map(join);
  const back = (d, w) => matmul(d, transpose(w));
  const [fromQ, fromK, fromV] = [back(dQ, wq), back(dK, wk), back(dV, wv)];
  return {
    d_w_o: matmul(transpose(forward.concat), gradOutput),
    d_concat: dConcat,
    heads,
    d_q: dQ,
    d_k: dK,
    d_v: dV,
    d_w_q: matmul(transpose(x), dQ),
    d_w_k: matmul(transpose(x), dK),
    d_w_v: matmul(transpose(x), dV),
    d_x: fromQ.map((row, i) => row.map((value, t) => value + fromK[i][t] + fromV[i][t])),
  };
}

function multiHead({ x, wq, wk, wv, wo, heads, scale = 'sqrt_dk', temperature = 1, mask = 'none' }) {
  const [q, k, v] = [wq, wk, wv].map((w) => matmul(x, w));
  const dk = wq[0].length / heads,
    dv = wv[0].length / heads;
  const steps = Array.from({ length: heads }, (_, i) =>
    head({ q: block(q, i, dk), k: block(k, i, dk), v: block(v, i, dv), scale, temperature, mask }),
  );
  const concat = x.map((_, r) => steps.flatMap((s) => s.output[r]));
  const output = matmul(concat, wo);
  const [n, dModel, dOut] = [x.length, x[0].length, wo[0].length];
  const multiplyAdds = {
    projections: n * dModel * heads * (2 * dk + dv),
    scores: heads * n * n * dk,
    weighting: heads * n * n * dv,
    output_projection: n * heads * dv * dOut,
  };
  return { q, k, v, heads: steps, concat, output, multiply_adds: multiplyAdds };
}

const x = [
  [1, 0, 0, 1], // 它
  [0, 1, 0, 1], // 是
  [0, 0, 1, 1], // 猫
];
// Columns 0–1: head 1 (the previous word's key), columns 2–3: head 2 (the word's own key).
const wq = [
  [0, 0, 2, 0],
  [2, 0, 0, 2],
  [0, 2, -2, -2],
  [0, 0, 0, 0],
];
const wk = [
  [2, 0, 2, 0],
  [0, 2, 0, 2],
  [-2, -2, -2, -2],
  [0, 0, 0, 0],
];
const wv = [
  [1, 0, 1, 0],
  [0, 1, 0, 1],
  [1, 1, 1, 1],
  [0, 0, 0, 0],
];
const wo = [
  [0.5, 0, 0.5, 0],
  [0, 0.5, 0, 0.5],
  [0.5, 0, -0.5, 0],
  [0, 0.5, 0, -0.5],
];
const cat = { x, wq, wk, wv, wo };
// dO = ∂L/∂O for the backward pass (n × d_out, O's shape): a loss L = Σ O ∘ gradOutput, written to
// be read, with every sign and a zero, so that each head's block of d(concat) is non-zero.
const gradOutput = [
  [1, 0, -1, 0.5],
  [0, 1, 0.5, -1],
  [-0.5, 0, 1, 0],
];

// JSON has no −∞: masked entries are written as the string "-Infinity".
const encode = (value) =>
  Array.isArray(value)
    ? value.map(encode)
    : value === -Infinity
      ? '-Infinity'
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]))
        : value;

const cases = [
  { name: '它 是 猫, 2 heads', heads: 2 },
  { name: '它 是 猫, 2 heads, causal mask', heads: 2, mask: 'causal' },
  { name: '它 是 猫, 2 heads, no scaling, temperature 2', heads: 2, scale: 'none', temperature: 2 },
  { name: '它 是 猫, 2 heads, ÷d_k', heads: 2, scale: 'dk' },
  { name: '它 是 猫, 1 head of d_k = 4', heads: 1 },
  { name: '它 是 猫, 4 heads of d_k = 1', heads: 4 },
].map((c) => {
  const options = { scale: 'sqrt_dk', temperature: 1, mask: 'none', ...c };
  const forward = multiHead({ ...cat, ...options });
  const backward = multiHeadBackward(cat, forward, gradOutput);
  return { ...options, ...cat, gradOutput, expected: encode({ ...forward, backward }) };
});

const fixture = {
  about:
    "Multi-head attention (the series' next article) on 它 是 猫: n = 3, d_model = 4, 2 heads of " +
    'd_k = d_v = 2; head 1 attends to the previous word, head 2 to the same word. Expected values ' +
    '(expected.backward: the gradients for dO = gradOutput) computed in float64 by ' +
    'scripts/make-multi-head-fixture.mjs.',
  tolerance: 1e-5,
  cases,
};

const out = new URL('../tests/fixtures/multi-head.json', import.meta.url);
// One matrix row per line, so the file reads like the article's matrices.
const text = JSON.stringify(fixture, null, 2).replace(
  /\[\s*([^\[\]{}]*?)\s*\]/g,
  (_, inner) => `[${inner.split(/,\s*/).join(', ')}]`,
);
fs.writeFileSync(out, text + '\n');
console.log(`wrote ${out.pathname}`);
