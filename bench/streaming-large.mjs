// streaming-large.mjs — attentionStreaming at n = 16384, d = 64 in a fresh SIMD module (Node): the
// wasm memory before and after the call (it only grows, so after = peak), the time, and rows
// 0, 1, n/2, n − 1 checked against float64. The n×n scores alone would be 1 GiB; the claim is that
// the call fits in < 64 MiB.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inputs, relError, MAX_REL_ERR } from './inputs.mjs';

export const STREAMING_N = 16384,
  STREAMING_D = 64,
  STREAMING_LIMIT = 64 * 2 ** 20;

export async function streamingLarge(root) {
  const { default: create } = await import(pathToFileURL(path.join(root, 'wasm', 'attention.mjs')));
  const binary = fs.readFileSync(path.join(root, 'build', 'wasm', 'attention_core.wasm'));
  let memory = null;
  const attn = await create({
    wasmBinary: binary,
    // the module's own instantiation, kept so that its memory can be read
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(binary, imports).then(({ instance, module }) => {
        memory = Object.values(instance.exports).find((x) => x instanceof WebAssembly.Memory);
        done(instance, module);
      });
      return {};
    },
  });
  const n = STREAMING_N,
    d = STREAMING_D;
  const x = inputs(n, d);
  const before = memory.buffer.byteLength;
  const t0 = performance.now();
  const out = attn.attentionStreaming(x);
  const ms = performance.now() - t0;
  const after = memory.buffer.byteLength;
  let worst = 0;
  for (const i of [0, 1, n / 2, n - 1])
    worst = Math.max(worst, relError(out.data.subarray(i * d, i * d + d), referenceRow(x, i)));
  return {
    n,
    d,
    ms,
    memory_before_bytes: before,
    memory_after_bytes: after,
    rel_error_rows: worst,
    limit_bytes: STREAMING_LIMIT,
    ok: after < STREAMING_LIMIT && worst <= MAX_REL_ERR,
  };
}

// One output row of softmax(QKᵀ/√d)·V in float64.
function referenceRow({ q, k, v }, i) {
  const n = k.rows,
    d = q.cols,
    dV = v.cols,
    s = new Float64Array(n);
  let m = -Infinity,
    sum = 0;
  for (let j = 0; j < n; j++) {
    let dot = 0;
    for (let c = 0; c < d; c++) dot += q.data[i * d + c] * k.data[j * d + c];
    m = Math.max(m, (s[j] = dot / Math.sqrt(d)));
  }
  for (let j = 0; j < n; j++) sum += s[j] = Math.exp(s[j] - m);
  const row = new Float64Array(dV);
  for (let j = 0; j < n; j++) for (let c = 0; c < dV; c++) row[c] += (s[j] / sum) * v.data[j * dV + c];
  return row;
}
