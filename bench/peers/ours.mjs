// peers/ours.mjs — this project's implementations, timed through the public JS API exactly as a
// page calls them (copies of Q, K, V in and of the output out included: the peers get their inputs
// uploaded once, outside the timing), and the article's NumPy code as plain JS for scale.
//
//   wasm-simd        attention(), the SIMD128 build        — the row the SIMD128 targets are about
//   wasm-simd-out    attention({ …, out }), the SIMD128 build: the output into one array, no new one per call
//   wasm-scalar      attention(), the scalar build
//   wasm-streaming   attentionStreaming(), the SIMD128 build
//   wasm-relaxed     attention(), the relaxed-SIMD build (fused multiply–add); only where the
//                    engine runs relaxed SIMD
//   wasm-relaxed-out attention({ …, out }), the relaxed-SIMD build — the relaxed targets are
//                    reported for this row and the one above
//   wasm-relaxed-streaming  attentionStreaming(), the relaxed-SIMD build
//   plain-js         a triple loop on Float32Array, n ≤ 256 only (it takes 0.35 s at n = 1024)

export const PLAIN_JS_MAX_N = 256;

export function ourImplementations({ simd, scalar, relaxed = null }) {
  const api = (id, label, mod, fn) => ({
    id,
    label,
    prepare: (q, k, v) => ({ run: () => mod[fn]({ q, k, v }).data, dispose() {} }),
  });
  // The same call writing into one `out`, made once with the inputs (as the peers' inputs are
  // uploaded once): no new output array per call. No peer has this form on the CPU: TensorFlow.js
  // has none, and onnxruntime-web's pre-allocated CPU output is copied into its wasm memory and
  // never written back (bench/NOTES.md).
  const into = (id, label, mod) => ({
    id,
    label,
    prepare: (q, k, v) => {
      const out = new Float32Array(q.rows * v.cols);
      return { run: () => mod.attention({ q, k, v, out }).data, dispose() {} };
    },
  });
  return [
    api('wasm-simd', 'this project, `attention`, wasm SIMD128', simd, 'attention'),
    into('wasm-simd-out', 'this project, `attention` into `out`, wasm SIMD128', simd),
    api('wasm-scalar', 'this project, `attention`, wasm scalar', scalar, 'attention'),
    api('wasm-streaming', 'this project, `attentionStreaming`, wasm SIMD128', simd, 'attentionStreaming'),
    ...(relaxed
      ? [
          api('wasm-relaxed', 'this project, `attention`, wasm relaxed SIMD', relaxed, 'attention'),
          into('wasm-relaxed-out', 'this project, `attention` into `out`, wasm relaxed SIMD', relaxed),
          api(
            'wasm-relaxed-streaming',
            'this project, `attentionStreaming`, wasm relaxed SIMD',
            relaxed,
            'attentionStreaming',
          ),
        ]
      : []),
    {
      id: 'plain-js',
      label: 'plain JS triple loop (the article’s NumPy code)',
      maxN: PLAIN_JS_MAX_N,
      prepare: (q, k, v) => ({
        run: () => plainJsAttention(q.data, k.data, v.data, q.rows, k.rows, q.cols, v.cols),
        dispose() {},
      }),
    },
  ];
}

// The article's NumPy code, translated: scores = Q @ K.T / sqrt(d_k); weights = softmax(scores)
// (max subtracted); output = weights @ V — plain triple loops, float32 storage.
function plainJsAttention(Q, K, V, n, nK, d, dV) {
  const scores = new Float32Array(n * nK),
    out = new Float32Array(n * dV);
  const scale = 1 / Math.sqrt(d);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < nK; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += Q[i * d + c] * K[j * d + c];
      scores[i * nK + j] = dot * scale;
    }
  for (let i = 0; i < n; i++) {
    let m = -Infinity,
      sum = 0;
    for (let j = 0; j < nK; j++) m = Math.max(m, scores[i * nK + j]);
    for (let j = 0; j < nK; j++) sum += scores[i * nK + j] = Math.exp(scores[i * nK + j] - m);
    for (let j = 0; j < nK; j++) scores[i * nK + j] /= sum;
  }
  for (let i = 0; i < n; i++)
    for (let c = 0; c < dV; c++) {
      let acc = 0;
      for (let j = 0; j < nK; j++) acc += scores[i * nK + j] * V[j * dV + c];
      out[i * dV + c] = acc;
    }
  return out;
}
