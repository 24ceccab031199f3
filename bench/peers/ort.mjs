// peers/ort.mjs — onnxruntime-web (wasm execution provider, 1 thread) in each form the benchmark
// times; the report counts the fastest. `ort` is the onnxruntime-web module with env.wasm set
// (the Node harness and the browser page load it each their own way). The graphs are built in
// code by ../onnx.mjs; graphOptimizationLevel 'all' lets ORT fuse what it can (e.g. the scale
// into its MatMul). Inputs are wrapped once, outside the timing; each run returns a fresh output.

import { attentionGraph, mhaGraph, attention23Graph } from '../onnx.mjs';

const FORMS = [
  [
    'ort-matmul',
    'onnxruntime-web wasm: MatMul/Softmax/MatMul graph, scale on the scores',
    2,
    (n, nK, d, dV) => attentionGraph(n, nK, d, dV, 'matmul'),
  ],
  [
    'ort-q-scaled',
    'onnxruntime-web wasm: MatMul/Softmax/MatMul graph, scale folded into Q',
    2,
    (n, nK, d, dV) => attentionGraph(n, nK, d, dV, 'qscaled'),
  ],
  [
    'ort-gemm',
    'onnxruntime-web wasm: Gemm(alpha, transB)/Softmax/MatMul graph',
    2,
    (n, nK, d, dV) => attentionGraph(n, nK, d, dV, 'gemm'),
  ],
  ['ort-mha', 'onnxruntime-web wasm: fused com.microsoft.MultiHeadAttention', 3, mhaGraph],
  ['ort-attention23', 'onnxruntime-web wasm: ONNX Attention op (opset 23)', 4, attention23Graph],
];

export function ortImplementations(ort) {
  return FORMS.map(([id, label, rank, graph]) => ({
    id,
    label,
    peer: 'ort',
    async: true,
    async prepare(q, k, v) {
      const session = await ort.InferenceSession.create(graph(q.rows, k.rows, q.cols, v.cols), {
        executionProviders: ['wasm'],
        graphOptimizationLevel: 'all',
      });
      // the graphs take 2-D matrices, MultiHeadAttention (batch, sequence, hidden), Attention-23
      // (batch, heads, sequence, head size)
      const dims = (m) => [...Array(rank - 2).fill(1), m.rows, m.cols];
      const feeds = {
        Q: new ort.Tensor('float32', q.data, dims(q)),
        K: new ort.Tensor('float32', k.data, dims(k)),
        V: new ort.Tensor('float32', v.data, dims(v)),
      };
      return { run: async () => (await session.run(feeds)).O.data, dispose: () => session.release() };
    },
  }));
}
