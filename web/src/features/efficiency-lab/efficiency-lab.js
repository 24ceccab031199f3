// The efficiency lab's shared facts (view=efficiency-lab, article 10 "效率与变体", promised by §8):
// its panels, its inputs and the limits of its fields, and the reader's Q, K, V for the inputs
// chosen. Pure: no DOM; the engine is passed in, so the tests run it in Node with the wasm module.

import { presetMatrices } from '../../presets.js';
import { fromRows } from '../../matrix.js';
import { formatNumber } from '../../format.js';

/**
 * The panels, in the order of the article's paths: the tiles with an online softmax, the KV cache,
 * the sliding window, shared heads (MQA/GQA), linear attention, and the costs measured in the tab.
 * Each id is a panel of efficiency-lab-view.js's PANELS; an id without its panel yet opens the first.
 */
export const PANEL_IDS = Object.freeze(['tiles', 'cache', 'window', 'heads', 'linear', 'costs']);

/** Where the lab's Q, K, V come from: the page's own (the worked example by default), "它 是 猫", seeded random. */
export const INPUTS = Object.freeze(['page', 'cat', 'random']);

/** The largest n and tile side the lab offers: the page's own n limit (state.js SIZE_LIMIT). */
export const LAB_LIMIT = 64;

/** The width of the random inputs' Q, K and V: four numbers a row, short enough to read beside each other. */
export const RANDOM_WIDTH = 4;

/** The lab's fields' defaults (feature.js): the first panel, the page's inputs, 1×1 tiles, a window of 2. */
export const EFFICIENCY_DEFAULTS = Object.freeze({
  panel: 'tiles',
  input: 'page',
  n: 8,
  seed: 1,
  tileRows: 1,
  tileCols: 1,
  tile: 1,
  token: 1,
  window: 2,
});

/** The options of the page's state that every path takes alike: the scaling and the temperature. */
export const scaleOptions = (state) => ({ scale: state.scale, temperature: state.temperature });

/**
 * The lab's Q, K, V ({ rows, cols, data } each) for the inputs the state chooses, or null when the
 * page has no result to take them from (its inputs are being edited into something invalid):
 *   page   — the reader's current Q, K, V (model.q, .k, .v: projected from X when the page starts from X);
 *   cat    — "它 是 猫" (presets.js), X·W_Q, X·W_K, X·W_V through the core;
 *   random — seeded random Q, K, V of n rows and RANDOM_WIDTH columns (the page's random preset's rule).
 */
export function labInputs(engine, state, model) {
  if (state.effinput === 'cat') {
    const m = Object.fromEntries(
      Object.entries(presetMatrices('cat', { mode: 'x' })).map(([name, rows]) => [name, fromRows(rows)]),
    );
    const project = (w) => engine.project({ x: m.x, w });
    return { q: project(m.wq), k: project(m.wk), v: project(m.wv) };
  }
  if (state.effinput === 'random') {
    const sizes = { n: state.effn, d: RANDOM_WIDTH, dk: RANDOM_WIDTH, dv: RANDOM_WIDTH };
    const m = presetMatrices('random', { mode: 'qkv', sizes, seed: state.effseed });
    return { q: fromRows(m.q), k: fromRows(m.k), v: fromRows(m.v) };
  }
  return model ? { q: model.q, k: model.k, v: model.v } : null;
}

/**
 * How far two matrices of the same shape are apart: the largest |a − b| (float64), and how many of
 * their values differ at all (0: every float32 equal; NaN beside NaN counts as equal).
 */
export function largestDifference(a, b) {
  let largest = 0;
  let differing = 0;
  for (let i = 0; i < a.data.length; i++) {
    const [x, y] = [a.data[i], b.data[i]];
    if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
    differing += 1;
    largest = Math.max(largest, Math.abs(x - y));
  }
  return { largest, differing, count: a.data.length };
}

/** Row i of a { rows, cols, data } matrix, as a plain array. */
export const rowOf = (m, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));

/** A number of bytes in the unit that keeps it short: 16 B, 1.5 KiB, 33 MiB, 1 GiB. */
export function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 || Number.isInteger(value) ? String(value) : value.toPrecision(3).replace(/\.?0+$/, '');
  return `${text} ${units[unit]}`;
}

/** A number as the lab writes it: four significant digits (0.7071, 1.493, 6.698), −∞ for a masked score. */
export const num = (x) => formatNumber(x, 4);
