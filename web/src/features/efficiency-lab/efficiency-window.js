// The sliding window panel's numbers: key j is visible to query i iff i − w < j ≤ i. The core's
// attentionWindow computes it; beside it, the full attention with the same band as its mask
// (attentionSteps with a custom 0/1 mask), which must give the same output, and the full causal
// attention, which the window changes once w < n. Pure: no DOM.

import { largestDifference } from './efficiency-lab.js';

/** Whether query i sees key j through a window of w (0-based): i − w < j ≤ i. */
export const inWindow = (i, j, w) => i - w < j && j <= i;

/** The band as a mask for attentionSteps: n × n, 1 where query i sees key j, else 0. */
export function bandMask(n, w) {
  const data = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) data[i * n + j] = inWindow(i, j, w) ? 1 : 0;
  return { rows: n, cols: n, data };
}

/**
 * Everything the panel shows for Q, K, V, the window w and the scaling:
 *   output — attentionWindow's;   banded — the full attention masked to the band;
 *   causal — the full causal attention (no window);   scaled — the causal scaled scores;
 *   difference — largestDifference(output, banded) (the claim: equal);
 *   fromCausal — largestDifference(output, causal) (what the window changes).
 */
export function windowLab(engine, { q, k, v }, { window, scale }) {
  const n = q.rows;
  const output = engine.attentionWindow({ q, k, v, window, scale }).output;
  const banded = engine.attentionSteps({ q, k, v, scale, mask: bandMask(n, window) }).output;
  const causal = engine.attentionSteps({ q, k, v, scale, mask: 'causal' });
  return {
    n,
    window,
    output,
    banded,
    causal: causal.output,
    scaled: causal.scaled,
    difference: largestDifference(output, banded),
    fromCausal: largestDifference(output, causal.output),
    // Each query sees min(i + 1, w) keys: n·w − w(w − 1)/2 scores in all once w ≤ n, against n(n + 1)/2.
    scores: { window: bandCount(n, window), causal: (n * (n + 1)) / 2 },
  };
}

/** How many scores the band holds: Σ_i min(i + 1, w). */
export function bandCount(n, w) {
  let count = 0;
  for (let i = 0; i < n; i++) count += Math.min(i + 1, w);
  return count;
}
