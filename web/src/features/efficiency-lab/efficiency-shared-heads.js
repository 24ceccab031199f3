// Shared heads (MQA / GQA), the part that computes: h query heads share g key–value heads, so the
// KV cache holds g heads' K and V instead of h — h/g times fewer bytes. Pure: no DOM; every
// attention is the core's (the engine is passed in).
//
// Three outputs on the same inputs, each n × h·d_v with the heads side by side:
//   grouped  — attentionGrouped: query head i reads key–value head ⌊i·g/h⌋;
//   repeated — multi-head attention, head by head (attention on each head's columns), with each
//              group's K, V repeated for every query head of the group: the same numbers, which
//              is why the cache need not hold the copies;
//   full     — multi-head attention with every head's own K, V: what sharing gives up.
// The shared K, V of a group are the mean of its heads' K, V (as when a trained multi-head
// model is turned into a grouped one by mean-pooling, Ainslie et al. 2023): since K = X·W_K is
// linear in W_K, it is the K that the group's mean W_K makes from the same X.

import { seededRandom } from '../../presets.js';
import { largestDifference } from './efficiency-lab.js';

/** The choices of h the panel offers, and of g: every number up to the largest h (a g that does not divide h is refused beside its field). */
export const HEAD_CHOICES = Object.freeze([1, 2, 3, 4, 6, 8]);
export const KV_HEAD_CHOICES = Object.freeze([1, 2, 3, 4, 5, 6, 7, 8]);
/** A float32 is 4 bytes. */
const FLOAT_BYTES = 4;

/** Columns [from, from + count) of m, as a matrix of its own. */
export function columns(m, from, count) {
  const data = new Float32Array(m.rows * count);
  for (let i = 0; i < m.rows; i++) data.set(m.data.subarray(i * m.cols + from, i * m.cols + from + count), i * count);
  return { rows: m.rows, cols: count, data };
}

/** Matrices of the same rows side by side. */
export function sideBySide(blocks) {
  const rows = blocks[0].rows;
  const cols = blocks.reduce((sum, b) => sum + b.cols, 0);
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    let at = i * cols;
    for (const b of blocks) {
      data.set(b.data.subarray(i * b.cols, (i + 1) * b.cols), at);
      at += b.cols;
    }
  }
  return { rows, cols, data };
}

/** The `count` column blocks of m, each m.cols / count wide. */
const blocksOf = (m, count) =>
  Array.from({ length: count }, (_, i) => columns(m, (i * m.cols) / count, m.cols / count));

/** The mean of matrices of one shape, cell by cell (float64 sums, float32 result). */
function mean(ms) {
  const data = new Float32Array(ms[0].data.length);
  for (let c = 0; c < data.length; c++) data[c] = ms.reduce((sum, m) => sum + m.data[c], 0) / ms.length;
  return { rows: ms[0].rows, cols: ms[0].cols, data };
}

/** Whether g key–value heads can each serve the same number of the h query heads: g divides h. */
export const sharesEvenly = (heads, kvHeads) => Number.isInteger(heads / kvHeads);

/** The key–value head that query head `head` reads, as attentionGrouped has it: ⌊head·g/h⌋. */
export const groupOf = (head, heads, kvHeads) => Math.floor((head * kvHeads) / heads);

/**
 * The inputs the panel runs on, for h query heads: the reader's Q, K, V (`qkv`) split into h heads
 * of d_k/h and d_v/h columns when h divides both; otherwise seeded random Q, K, V of the reader's
 * n and h heads of the reader's d_k, d_v (values in [−2, 2], as the page's random preset).
 * → { source: 'reader' | 'random', q, k, v (each head's own K, V: h heads wide), dk, dv (per head) }
 */
export function sharedHeadsInputs(qkv, { heads, seed }) {
  const { q, k, v } = qkv;
  if (q.cols % heads === 0 && v.cols % heads === 0)
    return { source: 'reader', q, k, v, dk: q.cols / heads, dv: v.cols / heads };
  const next = seededRandom(seed * 7919 + heads);
  const random = (rows, cols) => ({
    rows,
    cols,
    data: Float32Array.from({ length: rows * cols }, () => Math.round((next() * 4 - 2) * 10) / 10),
  });
  return {
    source: 'random',
    q: random(q.rows, heads * q.cols),
    k: random(k.rows, heads * k.cols),
    v: random(v.rows, heads * v.cols),
    dk: q.cols,
    dv: v.cols,
  };
}

/** Each group's K (or V): the mean of its h/g heads' blocks, g blocks side by side. */
export function sharedKv(m, heads, kvHeads) {
  const blocks = blocksOf(m, heads);
  const per = heads / kvHeads;
  return sideBySide(Array.from({ length: kvHeads }, (_, g) => mean(blocks.slice(g * per, (g + 1) * per))));
}

/** Multi-head attention head by head: head i is attention on q's block i with kBlocks[i], vBlocks[i]; the heads side by side. */
function headByHead(engine, q, kBlocks, vBlocks) {
  const qBlocks = blocksOf(q, kBlocks.length);
  return sideBySide(qBlocks.map((qi, i) => engine.attention({ q: qi, k: kBlocks[i], v: vBlocks[i] })));
}

/** The KV cache of n positions with `kvHeads` heads of d_k + d_v float32 each: n·kvHeads·(d_k + d_v)·4 bytes. */
export const kvCacheBytes = ({ n, kvHeads, dk, dv }) => n * kvHeads * (dk + dv) * FLOAT_BYTES;

/**
 * The panel's numbers for h = heads query heads sharing g = kvHeads key–value heads, on the
 * inputs of sharedHeadsInputs (g dividing h: sharesEvenly). Throws the core's refusal of an input.
 * → { heads, kvHeads, inputs, kShared, vShared, grouped, repeated, full,
 *     equal: largestDifference(grouped, repeated), price: largestDifference(grouped, full),
 *     bytes: { full, shared }, ratio (full / shared: h/g) }
 */
export function sharedHeads(engine, inputs, { heads, kvHeads }) {
  const { q, k, v, dk, dv } = inputs;
  if (!sharesEvenly(heads, kvHeads)) throw new RangeError(`g = ${kvHeads} does not divide h = ${heads}`);
  const kShared = sharedKv(k, heads, kvHeads);
  const vShared = sharedKv(v, heads, kvHeads);
  const grouped = engine.attentionGrouped({ q, k: kShared, v: vShared, heads, kvHeads }).output;
  const kGroups = blocksOf(kShared, kvHeads),
    vGroups = blocksOf(vShared, kvHeads);
  const each = Array.from({ length: heads }, (_, i) => groupOf(i, heads, kvHeads));
  const repeated = headByHead(
    engine,
    q,
    each.map((g) => kGroups[g]),
    each.map((g) => vGroups[g]),
  );
  const full = headByHead(engine, q, blocksOf(k, heads), blocksOf(v, heads));
  const n = k.rows;
  const bytes = { full: kvCacheBytes({ n, kvHeads: heads, dk, dv }), shared: kvCacheBytes({ n, kvHeads, dk, dv }) };
  return {
    heads,
    kvHeads,
    inputs,
    kShared,
    vShared,
    grouped,
    repeated,
    full,
    equal: largestDifference(grouped, repeated),
    price: largestDifference(grouped, full),
    bytes,
    ratio: bytes.full / bytes.shared,
  };
}
