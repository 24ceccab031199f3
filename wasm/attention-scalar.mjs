// The same API as attention.mjs, built without -msimd128: for comparison, and for browsers
// without wasm SIMD (Safari < 16.4).
//
// Emscripten writes the same JS glue for this build as for the SIMD128 one (the two modules have
// the same imports and exports; tests/node/relaxed-simd.test.mjs checks it), so this module uses
// that glue and only points it at the scalar .wasm: a page then carries the glue once.
import createCore from '../build/wasm/attention_core.mjs';
import { wrapCore } from './api.mjs';

export const WASM_FILE = 'attention_core_scalar.wasm';

export default function createAttention(moduleOptions = {}) {
  const locate = moduleOptions.locateFile ?? ((file, directory) => directory + file);
  return wrapCore(createCore, {
    ...moduleOptions,
    locateFile: (file, directory) => locate(file === 'attention_core.wasm' ? WASM_FILE : file, directory),
  });
}
