// gate-mistakes.mjs — what the correctness gate rejects: how far a few plausible wrong attention
// implementations land from the float64 reference, measured as the gate measures
// (‖got − want‖∞ / ‖want‖∞, limit 1e-4), on the benchmark's inputs (score std ≈ 2.5) and on the
// uniform [−1, 1) inputs it used before (score std ≈ 0.33, every softmax row nearly uniform, so
// the output is close to the mean of V whatever the scores were). bench/report.mjs puts the table
// in results.md; `node bench/gate-mistakes.mjs` prints it.

import { inputs, reference, relError, MAX_REL_ERR } from './inputs.mjs';

// The inputs the benchmark used before: xorshift32 from seeds 1, 2, 3, uniform in [−1, 1).
function uniformInputs(n, d) {
  const fill = (seed) => {
    const data = new Float32Array(n * d);
    let x = seed;
    for (let i = 0; i < data.length; i++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      data[i] = -1 + 2 * ((x >>> 8) / 2 ** 24);
    }
    return { rows: n, cols: d, data };
  };
  return { q: fill(1), k: fill(2), v: fill(3) };
}

// Each mistake as a change of the inputs or of the scale, then the float64 computation.
const MISTAKES = [
  ['scale 1/d instead of 1/√d', ({ q, k, v }) => attention(q, k, v, { scale: 1 / q.cols })],
  ['no scale', ({ q, k, v }) => attention(q, k, v, { scale: 1 })],
  ['softmax over columns instead of rows', ({ q, k, v }) => attention(q, k, v, { axis: 'column' })],
  ['keys off by one row', ({ q, k, v }) => attention(q, shiftRows(k), v, {})],
  ['scores ignored: every weight 1/n', ({ q, k, v }) => attention(q, k, v, { scale: 0 })],
  ['weights rounded to bfloat16', ({ q, k, v }) => attention(q, k, v, { roundWeight: bfloat16 })],
  // a fast exp whose underflow cut sits too high: exp(max(x, −8)), x = score − row max
  ['exp cut off at exp(−8)', ({ q, k, v }) => attention(q, k, v, { exp: (x) => Math.exp(Math.max(x, -8)) })],
];

const f32 = new Float32Array(1),
  u32 = new Uint32Array(f32.buffer);
function bfloat16(x) {
  // round to nearest even, keep the top 16 bits of the float32
  f32[0] = x;
  u32[0] = (u32[0] + 0x7fff + ((u32[0] >>> 16) & 1)) & 0xffff0000;
  return f32[0];
}

function shiftRows(m) {
  const data = new Float32Array(m.data.length);
  data.set(m.data.subarray(m.cols));
  data.set(m.data.subarray(0, m.cols), data.length - m.cols);
  return { ...m, data };
}

// softmax(QKᵀ·scale)·V in float64, the softmax along rows (or columns), with a given exp, each
// weight optionally rounded.
function attention(q, k, v, { scale = 1 / Math.sqrt(q.cols), axis = 'row', exp = Math.exp, roundWeight = (w) => w }) {
  const n = q.rows,
    nK = k.rows,
    d = q.cols,
    dV = v.cols;
  const w = new Float64Array(n * nK);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < nK; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q.data[i * d + c] * k.data[j * d + c];
      w[i * nK + j] = dot * scale;
    }
  const [outer, inner, stride, step] = axis === 'row' ? [n, nK, nK, 1] : [nK, n, 1, nK];
  for (let a = 0; a < outer; a++) {
    let m = -Infinity,
      sum = 0;
    for (let b = 0; b < inner; b++) m = Math.max(m, w[a * stride + b * step]);
    for (let b = 0; b < inner; b++) sum += w[a * stride + b * step] = exp(w[a * stride + b * step] - m);
    for (let b = 0; b < inner; b++) w[a * stride + b * step] = roundWeight(w[a * stride + b * step] / sum);
  }
  const out = new Float64Array(n * dV);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < nK; j++) for (let c = 0; c < dV; c++) out[i * dV + c] += w[i * nK + j] * v.data[j * dV + c];
  return out;
}

// [{ mistake, uniform, benchmark }] relative errors at n × d.
export function gateMistakes(n = 256, d = 64) {
  const sets = { uniform: uniformInputs(n, d), benchmark: inputs(n, d) };
  const wants = Object.fromEntries(Object.entries(sets).map(([name, x]) => [name, reference(x)]));
  return {
    n,
    d,
    limit: MAX_REL_ERR,
    score_std: Object.fromEntries(Object.entries(wants).map(([name, r]) => [name, r.stats.score_std])),
    effective_keys: Object.fromEntries(Object.entries(wants).map(([name, r]) => [name, r.stats.effective_keys])),
    mistakes: MISTAKES.map(([mistake, compute]) => ({
      mistake,
      ...Object.fromEntries(Object.entries(sets).map(([name, x]) => [name, relError(compute(x), wants[name].output)])),
    })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(gateMistakes(), null, 1));
