// The same API as attention.mjs, built with relaxed SIMD: its fast paths (`attention`,
// `attentionStreaming`) multiply–add with f32x4.relaxed_madd, which an engine may fuse. Only for
// engines that validate relaxed SIMD (Chromium ≥ 114; Node 20 with --experimental-wasm-relaxed-simd):
// web/src/engine.js detects it. `attentionSteps` runs the same SIMD128 loops as attention.mjs.
import createCore from '../build/wasm/attention_core_relaxed.mjs';
import { wrapCore } from './api.mjs';

export default function createAttention(moduleOptions) {
  return wrapCore(createCore, moduleOptions);
}
