// The same API as attention.mjs, built without -msimd128: for comparison, and for browsers
// without wasm SIMD (Safari < 16.4).
import createCore from '../build/wasm/attention_core_scalar.mjs';
import { wrapCore } from './api.mjs';

export default function createAttention(moduleOptions) {
  return wrapCore(createCore, moduleOptions);
}
