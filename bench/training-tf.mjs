// training-tf.mjs — the entry of the TensorFlow.js bundle the training benchmark loads (bundled by
// bench/training-bundle.mjs, once for Node and once for the browser page): tfjs-core with every
// gradient registered — its packaged scripts (tf-core.min.js, tf-core.node.js) register none, and
// training needs them — and its two CPU backends, cpu (plain JS) and wasm (XNNPACK, SIMD).
export * from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-cpu';
export { setWasmPaths, setThreadsCount } from '@tensorflow/tfjs-backend-wasm';
