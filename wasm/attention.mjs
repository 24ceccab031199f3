// The public module: `import createAttention from './wasm/attention.mjs'`, then
// `const attn = await createAttention()` (in Node: `createAttention({ wasmBinary })`).
// The SIMD128 build; attention-scalar.mjs is the same API without SIMD.
import createCore from '../build/wasm/attention_core.mjs';
import { wrapCore } from './api.mjs';

export default function createAttention(moduleOptions) {
  return wrapCore(createCore, moduleOptions);
}
