// The efficiency lab's tiles, KV cache and sliding window (web/src/features/efficiency-lab/:
// efficiency-tiles.js, efficiency-cache.js, efficiency-window.js) on the real wasm core, read like
// the article's worked example Q = K = I₂, V = 10·I₂ (AV ≈ [[6.7, 3.3], [3.3, 6.7]]): the core's
// tile trace walked by hand, each popover's arithmetic adding up to the core's own ℓ and O, and
// every equality the panels show computed from the two paths' outputs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadEngine } from '../../web/src/engine.js';
import { fromRows, toRows } from '../../web/src/matrix.js';
import { presetMatrices } from '../../web/src/presets.js';
import {
  PANEL_IDS,
  INPUTS,
  RANDOM_WIDTH,
  labInputs,
  largestDifference,
  formatBytes,
} from '../../web/src/features/efficiency-lab/efficiency-lab.js';
import {
  tilesLab,
  memoryOf,
  cellStates,
  lastTileOf,
  rowAfter,
  rowArithmetic,
} from '../../web/src/features/efficiency-lab/efficiency-tiles.js';
import { cacheLab, cacheBytes, outputArithmetic } from '../../web/src/features/efficiency-lab/efficiency-cache.js';
import { windowLab, bandMask, bandCount, inWindow } from '../../web/src/features/efficiency-lab/efficiency-window.js';
import feature from '../../web/src/features/efficiency-lab/feature.js';
import shellWords from '../../web/src/features/efficiency-lab/efficiency-lab-words.js';
import tilesWords from '../../web/src/features/efficiency-lab/efficiency-tiles-words.js';
import cacheWords from '../../web/src/features/efficiency-lab/efficiency-cache-words.js';
import windowWords from '../../web/src/features/efficiency-lab/efficiency-window-words.js';

let engine;
before(async () => {
  const bytes = fs.readFileSync(new URL('../../build/wasm/attention_core.wasm', import.meta.url));
  engine = await loadEngine({ binaries: { simd: () => bytes } });
});

// The worked example of §7.
const I2 = fromRows([
  [1, 0],
  [0, 1],
]);
const ARTICLE = {
  q: I2,
  k: I2,
  v: fromRows([
    [10, 0],
    [0, 10],
  ]),
};
const DEFAULT_OPTIONS = { scale: 'sqrt_dk', temperature: 1, mask: 'none' };
const close = (actual, expected, tolerance, message) =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${message}: ${actual} is not within ${tolerance} of ${expected}`,
  );
/** Each value within a relative tolerance (float32 against float64), absolute near 0. */
const closeAll = (actual, expected, tolerance, message) =>
  actual.forEach((a, i) => close(a, expected[i], tolerance * Math.max(1, Math.abs(expected[i])), `${message} [${i}]`));

/** Seeded random Q, K, V of n rows (the lab's own random inputs). */
const randomInputs = (n, seed) => labInputs(engine, { effinput: 'random', effn: n, effseed: seed }, null);

test('the worked example in 1×1 tiles: the core’s trace walked tile by tile', () => {
  const lab = tilesLab(engine, ARTICLE, { tileRows: 1, tileCols: 1, ...DEFAULT_OPTIONS });
  // Row block by row block, keys left to right: four tiles.
  assert.deepEqual(
    lab.tiles.map(({ rowStart, rowEnd, colStart, colEnd }) => [rowStart, rowEnd, colStart, colEnd]),
    [
      [0, 1, 0, 1],
      [0, 1, 1, 2],
      [1, 2, 0, 1],
      [1, 2, 1, 2],
    ],
  );
  // After key tile 1, row 1 has seen s₁₁ = 1/√2 alone: m = 1/√2, ℓ = e⁰ = 1, O = 1·v₁ = [10, 0].
  const first = rowAfter(lab, 0, 0);
  close(first.m, 1 / Math.SQRT2, 1e-6, 'm after tile 1');
  close(first.l, 1, 1e-6, 'ℓ after tile 1');
  closeAll(first.o, [10, 0], 1e-6, 'O after tile 1');
  // Key tile 2 brings s₁₂ = 0 < m: m stays, α = e⁰ = 1, ℓ = 1 + e^(0 − 1/√2) ≈ 1.4931, O = [10, 4.931].
  const second = rowAfter(lab, 1, 0);
  const e = Math.exp(-1 / Math.SQRT2);
  close(second.m, 1 / Math.SQRT2, 1e-6, 'm after tile 2');
  close(second.alpha, 1, 1e-6, 'α at tile 2');
  close(second.l, 1 + e, 1e-6, 'ℓ after tile 2');
  closeAll(second.o, [10, 10 * e], 1e-5, 'O after tile 2');
  // O/ℓ = [6.698, 3.302]: the article's [6.7, 3.3], and row 2 its mirror image.
  const out = toRows(lab.output).map((row) => row.map((x) => Math.round(x * 10) / 10));
  assert.deepEqual(out, [
    [6.7, 3.3],
    [3.3, 6.7],
  ]);
  closeAll(
    Array.from(lab.output.data),
    [10 / (1 + e), (10 * e) / (1 + e), (10 * e) / (1 + e), 10 / (1 + e)],
    1e-6,
    'O/ℓ',
  );
  // The full softmax(S)·V beside it, and their difference computed from the two outputs.
  assert.deepEqual(lab.difference, largestDifference(lab.output, lab.full));
  assert.ok(lab.difference.largest < 1e-5, `largest difference ${lab.difference.largest}`);
});

test('the grid’s cells: done, the tile now, to come — and the rows each tile touched', () => {
  const lab = tilesLab(engine, ARTICLE, { tileRows: 1, tileCols: 1, ...DEFAULT_OPTIONS });
  assert.deepEqual(cellStates(lab, 1), [
    ['now', 'todo'],
    ['todo', 'todo'],
  ]);
  assert.deepEqual(cellStates(lab, 3), [
    ['done', 'done'],
    ['now', 'todo'],
  ]);
  assert.deepEqual(cellStates(lab, 4), [
    ['done', 'done'],
    ['done', 'now'],
  ]);
  assert.equal(lastTileOf(lab, 2, 1), -1, 'row 2 not begun after two tiles');
  assert.equal(lastTileOf(lab, 3, 1), 2);
  assert.equal(lastTileOf(lab, 3, 0), 1, 'row 1 finished at tile 2');
});

test('each popover’s arithmetic adds up to the core’s ℓ and O: every tile, every row, tiles that do not divide n', () => {
  const inputs = randomInputs(7, 11);
  for (const [tileRows, tileCols] of [
    [1, 1],
    [3, 2],
    [5, 3],
    [7, 7],
    [2, 7],
  ]) {
    const lab = tilesLab(engine, inputs, { tileRows, tileCols, ...DEFAULT_OPTIONS });
    assert.equal(lab.tiles.length, Math.ceil(7 / tileRows) * Math.ceil(7 / tileCols), `${tileRows}×${tileCols}`);
    lab.tiles.forEach((tile, index) => {
      for (let i = tile.rowStart; i < tile.rowEnd; i++) {
        const a = rowArithmetic(lab, index, i);
        const where = `${tileRows}×${tileCols} tile ${index + 1} row ${i + 1}`;
        const tileMax = Math.max(...a.terms.map(({ s }) => s));
        close(a.now.m, Math.max(a.old.m, tileMax), 1e-6, `${where}: m = max(m_old, max s)`);
        if (!a.first) close(a.now.alpha, Math.exp(a.old.m - a.now.m), 1e-6, `${where}: α = e^(m_old − m_new)`);
        const alpha = a.first ? 0 : a.now.alpha;
        close(a.now.l, alpha * a.old.l + a.sum, 1e-5 * a.now.l, `${where}: ℓ = α·ℓ_old + Σ e`);
        const expected = a.old.o.map((o, c) => alpha * o + a.weighted[c]);
        closeAll(a.now.o, expected, 1e-5, `${where}: O = α·O_old + Σ e·v`);
      }
    });
    const largest = lab.difference.largest;
    assert.ok(largest < 1e-5, `${tileRows}×${tileCols}: O/ℓ within 1e-5 of softmax(S)·V (${largest})`);
  }
});

test('a causal mask: the tiles it hides whole are skipped, the rest still gives softmax(S)·V', () => {
  const inputs = randomInputs(5, 3);
  const lab = tilesLab(engine, inputs, { tileRows: 1, tileCols: 1, scale: 'sqrt_dk', temperature: 1, mask: 'causal' });
  const states = cellStates(lab, lab.tiles.length);
  states.forEach((row, i) =>
    row.forEach((state, j) => assert.equal(state === 'skipped', j > i, `cell (${i + 1}, ${j + 1}) is ${state}`)),
  );
  assert.ok(lab.difference.largest < 1e-5, `largest difference ${lab.difference.largest}`);
});

test('the memory of the tiles: n·(d_v + B_c)·4 bytes against n²·4 — at n = 16,384 8 MiB against 1 GiB', () => {
  assert.deepEqual(memoryOf({ n: 2, dv: 2, tileCols: 1 }), { tiled: 24, full: 16 });
  const long = memoryOf({ n: 16384, dv: 64, tileCols: 64 });
  assert.equal(formatBytes(long.tiled), '8 MiB');
  assert.equal(formatBytes(long.full), '1 GiB');
  assert.deepEqual(['16 B', '1.5 KiB', '33 MiB'], [16, 1536, 33 * 2 ** 20].map(formatBytes));
});

test('the KV cache on the worked example: one row more per word, each new row the full causal row', () => {
  const lab = cacheLab(engine, ARTICLE, { scale: 'sqrt_dk' });
  assert.deepEqual(
    lab.steps.map((step) => step.cacheLength),
    [1, 2],
  );
  // Word 1 sees only itself: its output is v₁. Word 2 sees both: softmax([0, 1/√2]) · V.
  closeAll(Array.from(lab.steps[0].row.data), [10, 0], 1e-6, 'word 1');
  const e = Math.exp(-1 / Math.SQRT2);
  closeAll(Array.from(lab.steps[1].row.data), [(10 * e) / (1 + e), 10 / (1 + e)], 1e-6, 'word 2');
  // The equality the panel shows, computed row by row from the two outputs (the API promises bit for bit).
  lab.steps.forEach((step, t) => {
    const fullRow = { rows: 1, cols: 2, data: lab.full.data.subarray(t * 2, t * 2 + 2) };
    assert.deepEqual(lab.rows[t], largestDifference(step.row, fullRow));
    assert.equal(lab.rows[t].differing, 0, `word ${t + 1}: decoded with the cache = full causal, bit for bit`);
  });
  // Its popover: Σ a·v over the cached words, which is the row.
  const { terms, sum } = outputArithmetic(lab, 1, 1);
  assert.equal(terms.length, 2);
  close(sum, lab.steps[1].row.data[1], 1e-5, 'Σ a·v');
  // The cache's bytes per head: K and V, t·(d_k + d_v)·4 — 2·t·d_k·4 here.
  assert.deepEqual(
    [1, 2].map((length) => cacheBytes({ length, dk: 2, dv: 2 })),
    [16, 32],
  );
});

test('the KV cache on seeded random inputs: every word’s row equal to the full causal row', () => {
  const lab = cacheLab(engine, randomInputs(9, 5), { scale: 'sqrt_dk' });
  assert.equal(lab.steps.length, 9);
  assert.deepEqual(lab.difference, largestDifference(lab.output, lab.full));
  assert.equal(lab.difference.differing, 0, `largest difference ${lab.difference.largest}`);
});

test('the sliding window: the band i − w < j ≤ i, and the core’s output equal to the full attention with that band as its mask', () => {
  assert.deepEqual(toRows(bandMask(3, 2)), [
    [1, 0, 0],
    [1, 1, 0],
    [0, 1, 1],
  ]);
  assert.equal(inWindow(4, 2, 2), false);
  assert.deepEqual(
    [1, 2, 5, 9].map((w) => bandCount(5, w)),
    [5, 9, 15, 15],
  );
  // w = 1 on the worked example: each word sees only itself, so the output is V.
  const one = windowLab(engine, ARTICLE, { window: 1, scale: 'sqrt_dk' });
  assert.deepEqual(toRows(one.output), [
    [10, 0],
    [0, 10],
  ]);
  assert.equal(one.difference.differing, 0);
  assert.ok(one.fromCausal.differing > 0, 'w = 1 changes the causal output of word 2');
  // w = n: the full causal attention.
  const two = windowLab(engine, ARTICLE, { window: 2, scale: 'sqrt_dk' });
  assert.ok(two.fromCausal.largest < 1e-6, `w = n against causal: ${two.fromCausal.largest}`);
  for (const w of [1, 3, 8, 12]) {
    const lab = windowLab(engine, randomInputs(12, 7), { window: w, scale: 'sqrt_dk' });
    assert.deepEqual(lab.difference, largestDifference(lab.output, lab.banded));
    assert.ok(lab.difference.largest < 1e-5, `w = ${w}: ${lab.difference.largest}`);
  }
});

test('the lab’s inputs: the page’s own Q, K, V, "它 是 猫" projected by the core, seeded random ones', () => {
  const model = { q: ARTICLE.q, k: ARTICLE.k, v: ARTICLE.v };
  assert.equal(labInputs(engine, { effinput: 'page' }, model).q, ARTICLE.q);
  assert.equal(labInputs(engine, { effinput: 'page' }, null), null, 'no result on the page, no inputs');
  const cat = labInputs(engine, { effinput: 'cat' }, null);
  const { x, wq } = presetMatrices('cat', { mode: 'x' });
  // Row 1 of Q = X·W_Q: "它" = [1, 0.5, 0, 0] times W_Q.
  assert.deepEqual(
    toRows(cat.q)[0],
    [0, 1, 0, 0].map((_, c) => x[0].reduce((s, xi, r) => s + xi * wq[r][c], 0)),
  );
  assert.deepEqual([cat.q.rows, cat.k.rows, cat.v.cols], [3, 3, 4]);
  const a = randomInputs(6, 9);
  assert.deepEqual([a.q.rows, a.q.cols, a.v.cols], [6, RANDOM_WIDTH, RANDOM_WIDTH]);
  assert.deepEqual(a.q.data, randomInputs(6, 9).q.data, 'the same seed, the same inputs');
  assert.notDeepEqual(a.q.data, randomInputs(6, 10).q.data);
});

test('the lab’s fields, panels and words', () => {
  assert.deepEqual(INPUTS, ['page', 'cat', 'random']);
  assert.deepEqual(PANEL_IDS.slice(0, 3), ['tiles', 'cache', 'window']);
  assert.equal(feature.view, 'efficiency-lab');
  for (const part of [shellWords, tilesWords, cacheWords, windowWords]) {
    const zh = Object.keys(part['zh-CN']).sort();
    assert.deepEqual(Object.keys(part.en).sort(), zh);
    for (const key of zh) assert.equal(feature.words['zh-CN'][key], part['zh-CN'][key], key);
  }
});

test('largestDifference: equal value for value, or the largest |Δ| and how many differ', () => {
  const m = (values) => ({ rows: 1, cols: values.length, data: Float32Array.from(values) });
  assert.deepEqual(largestDifference(m([1, 2, NaN]), m([1, 2, NaN])), { largest: 0, differing: 0, count: 3 });
  const d = largestDifference(m([1, 2, 3]), m([1, 2.5, 2]));
  assert.deepEqual([d.largest, d.differing], [1, 2]);
});
