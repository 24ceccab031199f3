// The 1 GiB rule counts every buffer a call allocates, and a large call gives its working memory
// back: after the largest call the limits allow, a call well under them still works. On the SIMD
// build only (the scalar build runs the same C++), in a module of its own: these calls fill most of
// its 2 GiB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionWithCore, assertWorkedExample } from './load-module.mjs';

const GiB = 2 ** 30;

test('n_q = 1, n_k = 65, d = 2,030,000: attention counts its workspace, frees it, and attentionSteps works after', async () => {
  const { attn, memoryBytes } = await loadAttentionWithCore('simd');
  // 511 MiB of inputs, just under the input limit; 65 keys take the streaming kernel, whose packed
  // keys (550 MB) and packed query group (65 MB) are its working memory.
  const d = 2_030_000;
  const q = { rows: 1, cols: d, data: new Float32Array(d).fill(0.001) };
  const k = { rows: 65, cols: d, data: new Float32Array(65 * d).fill(0.001) };
  k.data.fill(0.002, 0, d); // key 0 scores 2·10⁻⁶·d/√d ≈ 2.85 against 1.42 for the others
  const v = { rows: 65, cols: 1, data: Float32Array.from({ length: 65 }, (_, j) => (j === 0 ? 65 : 0)) };
  const out = attn.attention({ q, k, v });
  const e = Math.exp((0.002 * 0.001 * d) / Math.sqrt(d) - (0.001 * 0.001 * d) / Math.sqrt(d));
  assert.ok(Math.abs(out.data[0] - (65 * e) / (e + 64)) < 1e-3 * 65, `attention gave ${out.data[0]}`);
  assert.ok(memoryBytes() <= 2 * GiB);
  // 6 score matrices of 4400² floats at the peak: 465 MB of working memory, well under the limit.
  const n = 4400;
  const big = { rows: n, cols: 1, data: new Float32Array(n).fill(0.5) };
  const st = attn.attentionSteps({ q: big, k: big, v: big });
  assert.equal(st.weights.data.length, n * n);
  assert.ok(Math.abs(st.weights.data[0] - 1 / n) < 1e-9);
  // The same kernel, the same count of its buffers: attentionStreaming accepts the call too.
  const streamed = attn.attentionStreaming({ q, k, v });
  assert.ok(Math.abs(streamed.data[0] - out.data[0]) < 1e-4 * 65, 'attentionStreaming agrees');
  assertWorkedExample(assert, attn, 'the worked example after it all');
});
