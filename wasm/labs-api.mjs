// labs-api.mjs — the JS side of the labs' entry points (issue 11), added to the public API by
// api.mjs: dotProductSamples and normalMatrix (article §4's sampler, core/samples.hpp) and
// workingMemory (the bytes each entry point works in, core/working_memory.hpp). As in api.mjs,
// this layer checks only what C++ cannot see — JS types and unknown keys; the ranges
// (SAMPLE_LIMITS in vocabulary.mjs) are checked once, in the core, which refuses with out_of_range.

import { AXES, DEFAULTS, MASKS, MAX_DIM, OPERATIONS, SAMPLE_LIMITS } from './vocabulary.mjs';

/**
 * The labs' methods over the Embind module `core`, with api.mjs's own helpers (so that every
 * Error is made in one place): { readArgs, badOption, oneOf, unwrap, fail }. readArgs reads the
 * arguments object once into a snapshot (api.mjs: each value read once, getters run once).
 */
export function labMethods(core, { readArgs, badOption, oneOf, unwrap, fail }) {
  // The range each argument is held to (normalMatrix's rows are a count, its cols a d_k).
  const LIMIT_OF = { dk: 'dk', count: 'count', seed: 'seed', rows: 'count', cols: 'dk' };
  // A number the bindings can take as a 64-bit integer exactly; its range is the core's business.
  // A whole number too large for that (2⁵³ and up) is out of every range: refused here with the
  // core's own code and words, since it is a whole number, just not one within the limits.
  function whole(fn, name, value) {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      const { min, max } = SAMPLE_LIMITS[LIMIT_OF[name]];
      fail('out_of_range', name, `${name} must be a whole number from ${min} to ${max} (got ${value})`, {
        got: value,
        min,
        max,
      });
    }
    if (!Number.isSafeInteger(value)) badOption(fn, name, 'a whole number', value);
    return value;
  }
  // A size of workingMemory's shape: the bindings read sizes up to MAX_DIM, as for a matrix.
  function size(fn, name, value) {
    if (!Number.isInteger(value) || value < 1 || value > MAX_DIM)
      badOption(fn, name, `a whole number from 1 to ${MAX_DIM}`, value);
    return value;
  }

  return {
    /**
     * `count` dot products q·k (unscaled) of pairs q, k ∈ ℝ^dk with independent N(0, 1)
     * components, seeded: the same seed gives the same Float32Array in every build (to float32
     * rounding; bit for bit at dk = 1). Article §4: their mean is 0 and their variance dk.
     */
    dotProductSamples(args) {
      const fn = 'dotProductSamples';
      const { dk, count, seed } = readArgs(fn, args, ['dk', 'count', 'seed']);
      return unwrap(core.dotProductSamples(whole(fn, 'dk', dk), whole(fn, 'count', count), whole(fn, 'seed', seed)))
        .data;
    },
    /**
     * A { rows, cols, data } of independent N(0, 1) values from the same seeded stream
     * (dotProductSamples' pair p is rows 2p and 2p + 1 of normalMatrix({ rows: 2·count, cols: dk, seed })).
     */
    normalMatrix(args) {
      const fn = 'normalMatrix';
      const { rows, cols, seed } = readArgs(fn, args, ['rows', 'cols', 'seed']);
      return unwrap(core.normalMatrix(whole(fn, 'rows', rows), whole(fn, 'cols', cols), whole(fn, 'seed', seed)));
    },
    /**
     * { bytes, limit }: the working memory `operation` ('attention_steps', 'attention',
     * 'attention_streaming', 'attention_tiled') needs for q (nq×d), k (nk×d), v (nk×dv) — the
     * bytes its too_much_memory error names when bytes > limit. `axis` ('row' default, or
     * 'column') matters to attention_steps only. attention_tiled needs its tiles, tileRows ×
     * tileCols (1…nq × 1…nk, refused with out_of_range otherwise, as attentionTiled refuses them),
     * and takes trace (true default: with every tile's m, ℓ, α and O) and mask ('none' default or
     * 'causal', which keeps fewer tiles in the trace); the other operations take none of these.
     */
    workingMemory(args) {
      const fn = 'workingMemory';
      const TILED = ['tileRows', 'tileCols', 'trace', 'mask'];
      const given = readArgs(fn, args, ['operation', 'nq', 'nk', 'd', 'dv', 'axis', ...TILED]);
      const { operation, nq, nk, d, dv, axis = DEFAULTS.axis } = given;
      if (!OPERATIONS.includes(operation)) badOption(fn, 'operation', oneOf(OPERATIONS), operation);
      if (!AXES.includes(axis)) badOption(fn, 'axis', oneOf(AXES), axis);
      const { tileRows, tileCols, trace = true, mask = 'none' } = given;
      if (operation === 'attention_tiled') {
        for (const [name, value] of [
          ['tileRows', tileRows],
          ['tileCols', tileCols],
        ])
          if (!Number.isSafeInteger(value)) badOption(fn, name, 'a whole number', value);
        if (typeof trace !== 'boolean') badOption(fn, 'trace', 'true or false', trace);
        if (!MASKS.includes(mask)) badOption(fn, 'mask', oneOf(MASKS), mask);
      } else {
        const extra = TILED.find((name) => given[name] !== undefined);
        if (extra) badOption(fn, extra, "left out (it is attention_tiled's)", given[extra]);
      }
      const { bytes, limit } = unwrap(
        core.workingMemory(
          operation,
          size(fn, 'nq', nq),
          size(fn, 'nk', nk),
          size(fn, 'd', d),
          size(fn, 'dv', dv),
          axis,
          tileRows ?? 0, // (0 × 0 tiles: none, for the operations without)
          tileCols ?? 0,
          trace,
          mask,
        ),
      );
      return { bytes, limit };
    },
  };
}
