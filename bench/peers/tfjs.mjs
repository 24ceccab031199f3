// peers/tfjs.mjs — TensorFlow.js (wasm backend: XNNPACK, SIMD, 1 thread) in each form the benchmark
// times; the report counts the fastest. `tf` is @tensorflow/tfjs-core with the wasm backend ready
// (the Node harness and the browser page load it each their own way).
//
//   tfjs-scores-scaled   softmax(matMul(Q, transpose(K)) · s) · V   — the scale on n² scores
//   tfjs-q-scaled        softmax(matMul(Q · s, transpose(K))) · V   — the scale on n·d values
// with s = 1/√d. Inputs are uploaded once, outside the timing; the output is read back
// (dataSync) inside it, as a caller would.
//
// Q·Kᵀ as matMul(Q, K, false, true) (transposeB) runs a loop outside XNNPACK in this backend and
// measured ≈ 6× slower at n = 1024 (bench/NOTES.md); those two forms run only with --all-forms, so
// that the claim can be re-measured.

const FORMS = [
  [
    'tfjs-scores-scaled',
    'TensorFlow.js wasm: transpose + matMul, scale on the n² scores',
    (tf, Q, K, V, s) => tf.matMul(tf.softmax(tf.mul(tf.matMul(Q, tf.transpose(K)), s)), V),
  ],
  [
    'tfjs-q-scaled',
    'TensorFlow.js wasm: transpose + matMul, scale folded into Q',
    (tf, Q, K, V, s) => tf.matMul(tf.softmax(tf.matMul(tf.mul(Q, s), tf.transpose(K))), V),
  ],
];
const SLOW_FORMS = [
  [
    'tfjs-scores-scaled-transposeB',
    'TensorFlow.js wasm: matMul(transposeB), scale on the scores',
    (tf, Q, K, V, s) => tf.matMul(tf.softmax(tf.mul(tf.matMul(Q, K, false, true), s)), V),
  ],
  [
    'tfjs-q-scaled-transposeB',
    'TensorFlow.js wasm: matMul(transposeB), scale folded into Q',
    (tf, Q, K, V, s) => tf.matMul(tf.softmax(tf.matMul(tf.mul(Q, s), K, false, true)), V),
  ],
];

export function tfjsImplementations(tf, { allForms = false } = {}) {
  return [...FORMS, ...(allForms ? SLOW_FORMS : [])].map(([id, label, forward]) => ({
    id,
    label,
    peer: 'tfjs',
    prepare(q, k, v) {
      const Q = tf.tensor2d(q.data, [q.rows, q.cols]),
        K = tf.tensor2d(k.data, [k.rows, k.cols]);
      const V = tf.tensor2d(v.data, [v.rows, v.cols]),
        scale = tf.scalar(1 / Math.sqrt(q.cols));
      return {
        run() {
          const out = tf.tidy(() => forward(tf, Q, K, V, scale));
          const data = out.dataSync();
          out.dispose();
          return data;
        },
        dispose: () => tf.dispose([Q, K, V, scale]),
      };
    },
  }));
}
