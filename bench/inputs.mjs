// inputs.mjs — the benchmark's inputs and its correctness gate, shared by the Node harness and the
// browser page (no Node imports here), and reproduced bit for bit by bench/native/bench_native.cpp.
//
// Why these inputs: with Q and K uniform in [−1, 1) (what the benchmark used before) the scaled
// scores have a standard deviation of 1/3, every softmax row is nearly uniform, and the output is
// close to the mean of V whatever the scores were — a wrong scale or a wrong softmax axis could
// pass the gate. Attention in trained models has score standard deviations of about 2–3, so Q and
// K are drawn here with σ = √2.5: a score q·k/√d then has a standard deviation of σ_q·σ_k = 2.5
// (measured per run, see scoreStats), and each row's softmax is dominated by a few keys.

// Q and K entries: σ² = 2.5 gives scores with a standard deviation of 2.5.
export const QK_SIGMA = Math.sqrt(2.5);
export const V_SIGMA = 1;
// The gate: ‖got − want‖∞ / ‖want‖∞ against a float64 computation.
export const MAX_REL_ERR = 1e-4;

// Approximately normal numbers, exactly reproducible in C++: each is the sum of four xorshift32
// uniforms in [−1, 1) (Irwin–Hall; variance 4/3), times σ·√(3/4), rounded once to float32. Every
// step is exact or a single IEEE double operation, so the C++ port gives the same bits.
export function fill(rows, cols, seed, sigma) {
  const data = new Float32Array(rows * cols);
  const factor = sigma * Math.sqrt(0.75);
  let x = seed >>> 0;
  const uniform = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return -1 + 2 * ((x >>> 8) / 2 ** 24);
  };
  for (let i = 0; i < data.length; i++) {
    const sum = uniform() + uniform() + uniform() + uniform();
    data[i] = factor * sum;
  }
  return { rows, cols, data };
}

// The three inputs of one size: seeds 1, 2, 3, as bench_native.cpp.
export function inputs(n, d) {
  return { q: fill(n, d, 1, QK_SIGMA), k: fill(n, d, 2, QK_SIGMA), v: fill(n, d, 3, V_SIGMA) };
}

// softmax(QKᵀ/√d)·V in float64 (max subtracted), independent of every implementation timed, and
// what its softmax looks like: the standard deviation of the scaled scores (within each row,
// averaged over rows), the largest weight of a row (averaged) and the effective number of keys a
// row attends to, exp(entropy) (averaged; a uniform row would give n).
export function reference({ q, k, v }) {
  const n = q.rows,
    nK = k.rows,
    d = q.cols,
    dV = v.cols;
  const out = new Float64Array(n * dV),
    s = new Float64Array(nK);
  const scale = 1 / Math.sqrt(d);
  let stdSum = 0,
    maxWeightSum = 0,
    effectiveSum = 0;
  for (let i = 0; i < n; i++) {
    let m = -Infinity,
      mean = 0;
    for (let j = 0; j < nK; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q.data[i * d + c] * k.data[j * d + c];
      s[j] = dot * scale;
      m = Math.max(m, s[j]);
      mean += s[j];
    }
    mean /= nK;
    let variance = 0,
      sum = 0;
    for (let j = 0; j < nK; j++) {
      variance += (s[j] - mean) ** 2;
      sum += s[j] = Math.exp(s[j] - m);
    }
    stdSum += Math.sqrt(variance / nK);
    let entropy = 0,
      maxWeight = 0;
    const row = out.subarray(i * dV, (i + 1) * dV);
    for (let j = 0; j < nK; j++) {
      const w = s[j] / sum;
      maxWeight = Math.max(maxWeight, w);
      if (w > 0) entropy -= w * Math.log(w);
      for (let c = 0; c < dV; c++) row[c] += w * v.data[j * dV + c];
    }
    maxWeightSum += maxWeight;
    effectiveSum += Math.exp(entropy);
  }
  return {
    output: out,
    stats: { score_std: stdSum / n, max_weight: maxWeightSum / n, effective_keys: effectiveSum / n },
  };
}

// ‖got − want‖∞ / ‖want‖∞; a NaN anywhere or a wrong length counts as Infinity.
export function relError(got, want) {
  if (!got || got.length !== want.length) return Infinity;
  let num = 0,
    den = 0;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i] - want[i]);
    num = Number.isNaN(e) ? Infinity : Math.max(num, e);
    den = Math.max(den, Math.abs(want[i]));
  }
  return num / den;
}

// Throws unless `got` passes the gate; returns the relative error.
export function checkOutput(got, want, what) {
  const err = relError(got, want);
  if (!(err <= MAX_REL_ERR))
    throw new Error(
      `${what}: output differs from the float64 reference (relative error ${err.toExponential(2)} > ${MAX_REL_ERR})`,
    );
  return err;
}
