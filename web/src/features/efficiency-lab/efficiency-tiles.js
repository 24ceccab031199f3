// The tiles panel's numbers (FlashAttention's idea): the core's attentionTiled walks the score
// grid in B_r × B_c tiles with an online softmax, and records after each tile every row's running
// max m, running sum ℓ, rescale factor α and unnormalised output O — the trace comes from the
// code that computes the output, not from a re-enactment here. This file reads that trace: which
// cells are done, which row a tile touched, and each number's arithmetic with its terms filled in
// (the terms e^(s_ij − m) in float64 from the scaled scores of attentionSteps, which the popover
// shows summing to the core's own ℓ and O). Pure: no DOM.

import { largestDifference } from './efficiency-lab.js';

/**
 * Everything the panel shows for Q, K, V and tiles B_r × B_c, the options the page's state gives
 * (scale, temperature, mask):
 *   tiles    — the core's trace, in the order computed: { rowStart, rowEnd, colStart, colEnd, m, l, o, alpha };
 *   output   — the tiled path's O/ℓ;   full — softmax(S)·V from attentionSteps, the page's own path;
 *   scaled   — the scaled (and masked) scores s_ij;   v — V;
 *   difference — largestDifference(output, full), computed here;
 *   memory   — the working set the tiles need, against the whole score matrix (memoryOf).
 */
export function tilesLab(engine, { q, k, v }, { tileRows, tileCols, scale, temperature, mask }) {
  const options = { scale, temperature, mask };
  const tiled = engine.attentionTiled({ q, k, v, tileRows, tileCols, ...options });
  const steps = engine.attentionSteps({ q, k, v, ...options });
  return {
    n: q.rows,
    keys: k.rows,
    tileRows,
    tileCols,
    tiles: tiled.tiles,
    output: tiled.output,
    full: steps.output,
    scaled: steps.scaled,
    v,
    difference: largestDifference(tiled.output, steps.output),
    memory: memoryOf({ n: q.rows, dv: v.cols, tileCols }),
  };
}

/**
 * The memory of the scores: the tiles keep, per query row, its output accumulator (d_v numbers)
 * and one tile's row of scores (B_c numbers) — n·(d_v + B_c)·4 bytes in float32 — where the full
 * attention holds the whole n × n score matrix, n²·4 bytes.
 */
export const memoryOf = ({ n, dv, tileCols }) => ({
  tiled: n * (dv + tileCols) * 4,
  full: n * n * 4,
});

/** A value of a tile's per-row record (m, ℓ, α: n_rows × 1; O: n_rows × d_v) for query row i, column c. */
function recordAt(matrix, tile, i, c = 0) {
  // A record may hold the tile's own rows or every row of the query: both are read alike.
  const row = matrix.rows === tile.rowEnd - tile.rowStart ? i - tile.rowStart : i;
  return matrix.data[row * matrix.cols + c];
}

const touches = (tile, i) => tile.rowStart <= i && i < tile.rowEnd;

/**
 * The state of each score cell once `done` tiles are done (1 … tiles.length): 'done' for the
 * cells of the tiles before the last one, 'now' for the last one's, 'todo' for the cells of the
 * tiles to come, and 'skipped' for cells no tile covers (a causal mask skips the tiles it hides
 * whole). An n × n_k array of arrays.
 */
export function cellStates(lab, done) {
  const states = Array.from({ length: lab.n }, () => Array(lab.keys).fill('skipped'));
  lab.tiles.forEach((tile, index) => {
    const state = index < done - 1 ? 'done' : index === done - 1 ? 'now' : 'todo';
    for (let i = tile.rowStart; i < tile.rowEnd; i++)
      for (let j = tile.colStart; j < tile.colEnd; j++) states[i][j] = state;
  });
  return states;
}

/** The index of the last tile among the first `done` that touched query row i, or −1 (row not begun). */
export function lastTileOf(lab, done, i) {
  for (let index = Math.min(done, lab.tiles.length) - 1; index >= 0; index--)
    if (touches(lab.tiles[index], i)) return index;
  return -1;
}

/** Row i's running m, ℓ, α and O right after tile `index` (the core's numbers). */
export function rowAfter(lab, index, i) {
  const tile = lab.tiles[index];
  return {
    m: recordAt(tile.m, tile, i),
    l: recordAt(tile.l, tile, i),
    alpha: recordAt(tile.alpha, tile, i),
    o: Array.from({ length: tile.o.cols }, (_, c) => recordAt(tile.o, tile, i, c)),
  };
}

/** e^(s − m) as the arithmetic writes it: a masked score (−∞) adds 0 whatever m is. */
const expOf = (s, m) => (s === -Infinity ? 0 : Math.exp(s - m));

/**
 * The arithmetic of row i at tile `index`, every number filled in: the row's state before the
 * tile (m_old = −∞, ℓ_old = 0, O_old = 0 before its first tile) and after it (the core's), the
 * tile's scores s_ij and their terms e^(s_ij − m_new), and Σ_j e^(s_ij − m_new) and
 * Σ_j e^(s_ij − m_new)·v_j in float64:
 *   m_new = max(m_old, max_j s_ij),  α = e^(m_old − m_new),
 *   ℓ_new = α·ℓ_old + Σ_j e^(s_ij − m_new),  O_new = α·O_old + Σ_j e^(s_ij − m_new)·v_j.
 */
export function rowArithmetic(lab, index, i) {
  const tile = lab.tiles[index];
  let before = -1;
  for (let at = index - 1; at >= 0 && before < 0; at--) if (touches(lab.tiles[at], i)) before = at;
  const dv = lab.v.cols;
  const old = before >= 0 ? rowAfter(lab, before, i) : { m: -Infinity, l: 0, alpha: NaN, o: Array(dv).fill(0) };
  const now = rowAfter(lab, index, i);
  const terms = [];
  for (let j = tile.colStart; j < tile.colEnd; j++) {
    const s = lab.scaled.data[i * lab.scaled.cols + j];
    terms.push({ j, s, e: expOf(s, now.m) });
  }
  const sum = terms.reduce((total, { e }) => total + e, 0);
  const weighted = Array.from({ length: dv }, (_, c) =>
    terms.reduce((total, { j, e }) => total + (e && e * lab.v.data[j * dv + c]), 0),
  );
  return { tile, index, first: before < 0, old, now, terms, sum, weighted };
}
