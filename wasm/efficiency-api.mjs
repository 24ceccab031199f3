// efficiency-api.mjs — the JS side of three of article 10's efficient attention paths
// (core/efficiency_paths.hpp), added to the public API by api.mjs: attentionTiled (tiles with an
// online softmax, and the state after every tile), attentionDecode (token by token through a KV
// cache) and attentionWindow (a sliding window). As in api.mjs, this layer checks only what C++
// cannot see — JS types and unknown keys; shapes, the tile sizes' and the window's ranges, values
// and memory are checked once, in the core.

const TILED_KEYS = ['q', 'k', 'v', 'tileRows', 'tileCols', 'scale', 'temperature', 'mask', 'trace'];
const DECODE_KEYS = ['q', 'k', 'v', 'scale'];
const WINDOW_KEYS = ['q', 'k', 'v', 'window', 'scale'];

// The trace as the bindings hand it over — each field of every tile laid end to end, and each
// tile's rowStart, rowEnd, colStart, colEnd in `ranges` — cut into one record per tile, whose
// matrices are views into those arrays (no copy).
function cutTiles(ranges, m, l, alpha, o, dV) {
  const tiles = [];
  for (let t = 0, row = 0; t < ranges.length / 4; t++) {
    const [rowStart, rowEnd, colStart, colEnd] = ranges.subarray(4 * t, 4 * t + 4);
    const rows = rowEnd - rowStart;
    const column = (data) => ({ rows, cols: 1, data: data.subarray(row, row + rows) });
    tiles.push({
      rowStart,
      rowEnd,
      colStart,
      colEnd,
      m: column(m),
      l: column(l),
      alpha: column(alpha),
      o: { rows, cols: dV, data: o.subarray(row * dV, (row + rows) * dV) },
    });
    row += rows;
  }
  return tiles;
}

/**
 * The efficiency methods over the Embind module `core`, with api.mjs's own helpers (so that every
 * Error is made in one place): { readArgs, readMatrix, encodeOptions, checkInputSize, badOption,
 * unwrap, callWith, viewsWithMask }.
 */
export function efficiencyMethods(core, helpers) {
  const { readArgs, readMatrix, encodeOptions, checkInputSize, badOption, unwrap, callWith, viewsWithMask } = helpers;

  // Steps 1 and 2 of api.mjs: the snapshot of the arguments, q, k, v and the options, checked.
  function readCall(fn, args, keys) {
    const snapshot = readArgs(fn, args, keys);
    const [q, k, v] = ['q', 'k', 'v'].map((name) => readMatrix(name, snapshot[name]));
    const options = encodeOptions(fn, snapshot);
    checkInputSize([q, k, v, ...(options.maskMatrix ? [options.maskMatrix] : [])]);
    return { snapshot, q, k, v, options, views: viewsWithMask({ q, k, v }, options) };
  }
  // A whole-number option, required: its range is the core's (out_of_range).
  function wholeNumber(fn, snapshot, name) {
    const value = snapshot[name];
    if (!Number.isSafeInteger(value)) badOption(fn, name, 'a whole number', value);
    return value;
  }

  return {
    /**
     * softmax(QKᵀ/√d_k)·V through tiles of tileRows query rows × tileCols keys with an online
     * softmax: { output, tiles, divisor }. tiles, in the order computed (row block by row block,
     * key tiles left to right; a causal mask skips the tiles it hides whole), are each { rowStart,
     * rowEnd, colStart, colEnd, m, l, alpha, o }: the block's running max m, running sum ℓ and
     * rescale α = exp(m_old − m_new) (each rows × 1) and unnormalised output O (rows × d_v) after
     * that tile, with m in the units of the scaled scores (attentionSteps' rowMax). A row's output
     * is O/ℓ after its last tile (0 for a fully masked row). trace: false computes the output alone
     * (tiles: []), without the trace's n_q·⌈n_k/tileCols⌉·(d_v + 3) floats: for timing large n.
     * Each field's data in every tile is a view into one array per field (m, l, alpha, o).
     */
    attentionTiled(args) {
      const fn = 'attentionTiled';
      const { snapshot, q, k, v, options, views } = readCall(fn, args, TILED_KEYS);
      const tileRows = wholeNumber(fn, snapshot, 'tileRows');
      const tileCols = wholeNumber(fn, snapshot, 'tileCols');
      const { trace = true } = snapshot;
      if (typeof trace !== 'boolean') badOption(fn, 'trace', 'true or false', trace);
      const { output, divisor, ranges, m, l, alpha, o } = unwrap(
        callWith(views, core.attentionTiled, q, k, v, tileRows, tileCols, trace, options),
      );
      return { output, tiles: cutTiles(ranges, m, l, alpha, o, output.cols), divisor };
    },
    /**
     * Causal attention token by token through a K, V cache: { output, steps }, steps[t] = {
     * cacheLength, row } — the cache's rows after token t joined it (min(t + 1, n_k)) and q_t's
     * output row (1 × d_v). output is bit for bit attentionSteps({ q, k, v, scale, mask: 'causal'
     * }).output on the same build.
     */
    attentionDecode(args) {
      const { q, k, v, options, views } = readCall('attentionDecode', args, DECODE_KEYS);
      return unwrap(callWith(views, core.attentionDecode, q, k, v, options));
    },
    /**
     * Sliding-window attention: key j visible to query i iff i − window < j ≤ i; { output }, in
     * O(n·window) time. window is a whole number ≥ 1; window ≥ n_k is causal attention.
     */
    attentionWindow(args) {
      const fn = 'attentionWindow';
      const { snapshot, q, k, v, options, views } = readCall(fn, args, WINDOW_KEYS);
      const window = wholeNumber(fn, snapshot, 'window');
      return unwrap(callWith(views, core.attentionWindow, q, k, v, window, options));
    },
  };
}
