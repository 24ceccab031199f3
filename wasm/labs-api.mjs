// labs-api.mjs — the JS side of the labs' entry points (issue 11), added to the public API by
// api.mjs: dotProductSamples and normalMatrix (article §4's sampler, core/samples.hpp). As in api.mjs,
// this layer checks only what C++ cannot see — JS types and unknown keys; the ranges
// (SAMPLE_LIMITS in vocabulary.mjs) are checked once, in the core, which refuses with out_of_range.

/**
 * The labs' methods over the Embind module `core`, with api.mjs's own helpers (so that every
 * Error is made in one place): { checkKeys, badOption, unwrap }.
 */
export function labMethods(core, { checkKeys, badOption, unwrap }) {
  // A number the bindings can take as a 64-bit integer exactly; its range is the core's business.
  function whole(fn, name, value) {
    if (!Number.isSafeInteger(value)) badOption(fn, name, 'a whole number', value);
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
      checkKeys(fn, args, ['dk', 'count', 'seed']);
      return unwrap(core.dotProductSamples(whole(fn, 'dk', args.dk), whole(fn, 'count', args.count),
        whole(fn, 'seed', args.seed))).data;
    },
    /**
     * A { rows, cols, data } of independent N(0, 1) values from the same seeded stream
     * (dotProductSamples' pair p is rows 2p and 2p + 1 of normalMatrix({ rows: 2·count, cols: dk, seed })).
     */
    normalMatrix(args) {
      const fn = 'normalMatrix';
      checkKeys(fn, args, ['rows', 'cols', 'seed']);
      return unwrap(core.normalMatrix(whole(fn, 'rows', args.rows), whole(fn, 'cols', args.cols), whole(fn, 'seed', args.seed)));
    },
  };
}
