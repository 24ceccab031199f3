// The same API as attention.mjs, built with relaxed SIMD: its fast paths (`attention`,
// `attentionStreaming`) multiply–add with f32x4.relaxed_madd, which an engine may fuse. Only for
// engines that validate relaxed SIMD (Chromium ≥ 114, Firefox ESR 153; Node 20 with
// --experimental-wasm-relaxed-simd): web/src/engine.js detects it. `attentionSteps` runs the same
// SIMD128 loops as attention.mjs.
//
// Emscripten writes the same JS glue for this build as for the SIMD128 one (the two modules have
// the same imports and exports; tests/node/relaxed-simd.test.mjs checks it), so this module uses
// that glue and only points it at the relaxed .wasm: a page then carries the glue once.
import createCore from '../build/wasm/attention_core.mjs';
import { wrapCore } from './api.mjs';

export const WASM_FILE = 'attention_core_relaxed.wasm';

export default function createAttention(moduleOptions = {}) {
  const locate = moduleOptions.locateFile ?? ((file, directory) => directory + file);
  return wrapCore(createCore, {
    ...moduleOptions,
    locateFile: (file, directory) => locate(file === 'attention_core.wasm' ? WASM_FILE : file, directory),
  });
}
