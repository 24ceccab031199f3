// The only module that owns the wasm instance. Everything else reaches the C++ core through the
// small API returned by loadEngine(), so changing how the module is loaded (a separate .wasm file
// for hosting, inlined bytes for the single offline file) touches this file alone.

import createRelaxed from '../../wasm/attention-relaxed.mjs';
import createSimd from '../../wasm/attention.mjs';
import createScalar from '../../wasm/attention-scalar.mjs';

// The smallest module that uses a SIMD128 instruction (as in the wasm-feature-detect library):
// browsers without wasm SIMD (Safari < 16.4) reject it, and then get the scalar build.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);
// The same with f32x4.relaxed_madd (0xfd 0x85 0x02) on three i8x16.splat(0): engines without
// relaxed SIMD (Safari, Node without its flag) reject it, and then get the SIMD128 build.
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 19, 1, 17, 0, 65, 0, 253, 15, 65, 0, 253, 15, 65,
  0, 253, 15, 253, 133, 2, 11,
]);

export const simdSupported = () => WebAssembly.validate(SIMD_PROBE);
export const relaxedSimdSupported = () => WebAssembly.validate(RELAXED_PROBE);

// Each build: its module, and its .wasm file next to the bundle on the development page. The
// relaxed build multiply–adds with f32x4.relaxed_madd in its fast paths and in its backward pass
// (the training's too), which an engine may fuse or not: its numbers may differ in the last bits
// from the SIMD128 build's, and a training run's loss with them. So what the page shows — the
// steps, the backward pass, every training run — is computed by the SIMD128 build (exactBuild),
// and the relaxed build only times the cost lab (engine.timing).
const BUILDS = {
  relaxed: { create: createRelaxed, file: 'attention_core_relaxed.wasm' },
  simd: { create: createSimd, file: 'attention_core.wasm' },
  scalar: { create: createScalar, file: 'attention_core_scalar.wasm' },
};

const offeredIn = (binaries) => (build) => !binaries || build in binaries;

/**
 * The fastest build this engine runs, among those offered (`binaries`' keys; all three without it):
 * relaxed SIMD, else SIMD128, else scalar. The cost lab times this one (engine.timing).
 */
export function bestBuild(binaries) {
  const offered = offeredIn(binaries);
  if (offered('relaxed') && relaxedSimdSupported()) return 'relaxed';
  if (offered('simd') && simdSupported()) return 'simd';
  return 'scalar';
}

/**
 * The build whose numbers the page shows, among those offered: SIMD128, the same bit for bit on
 * every engine that runs it, else scalar (an engine without wasm SIMD; its sums are rounded in
 * another order, so a long training run may end elsewhere).
 */
export function exactBuild(binaries) {
  return offeredIn(binaries)('simd') && simdSupported() ? 'simd' : 'scalar';
}

/** A build's .wasm bytes: from `binaries`, or fetched from next to this bundle. */
async function bytesOf(binaries, build) {
  if (binaries) return binaries[build]();
  const response = await fetch(new URL(BUILDS[build].file, import.meta.url));
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Loads the core once. Options:
 *   binaries — { relaxed, simd, scalar }: functions returning each build's .wasm bytes, or a
 *              promise of them (the self-contained builds and Node: no network at all); without it
 *              the .wasm is loaded from next to this bundle;
 *   build    — 'relaxed' | 'simd' | 'scalar' (default: exactBuild(binaries)).
 * engine.timing is { build, wasmBytes() } of the fastest build (bestBuild), for the cost lab's
 * worker: its timings, never a number the page shows.
 */
export async function loadEngine({ binaries, build = exactBuild(binaries) } = {}) {
  const { create, file } = BUILDS[build];
  const wasmBinary = await binaries?.[build]();
  // locateFile is given even with the bytes: without it the glue resolves the .wasm's URL against
  // import.meta.url, which the self-contained (classic script) bundle does not have.
  // The glue asks for the one .wasm it loads by its own build's name (the relaxed build shares the
  // SIMD128 build's glue): each build's file is this table's.
  const moduleOptions = wasmBinary
    ? { wasmBinary, locateFile: () => file }
    : { locateFile: () => new URL(file, import.meta.url).href };
  let core = await create(moduleOptions);
  const wasmBytes = async () => wasmBinary ?? bytesOf(null, build);
  const fastest = bestBuild(binaries);
  const timing = {
    build: fastest,
    wasmBytes: fastest === build ? wasmBytes : () => bytesOf(binaries, fastest),
  };

  return {
    build,
    version: () => core.version(),
    simd: () => core.simd(),
    project: (args) => call(() => core.project(args)),
    attentionSteps: (args) => call(() => core.attentionSteps(args)),
    // Multi-head attention: every head's intermediates, and what the heads cost (issue 16).
    multiHeadAttentionSteps: (args) => call(() => core.multiHeadAttentionSteps(args)),
    multiHeadMultiplyAdds: (args) => call(() => core.multiHeadMultiplyAdds(args)),
    // The labs (issue 11): the output-only paths the cost lab times, §4's sampler, the memory figures.
    attention: (args) => call(() => core.attention(args)),
    attentionStreaming: (args) => call(() => core.attentionStreaming(args)),
    dotProductSamples: (args) => call(() => core.dotProductSamples(args)),
    normalMatrix: (args) => call(() => core.normalMatrix(args)),
    workingMemory: (args) => call(() => core.workingMemory(args)),
    // The efficiency lab (issue 30): heads sharing keys and values, linear attention's two orders.
    attentionGrouped: (args) => call(() => core.attentionGrouped(args)),
    attentionLinear: (args) => call(() => core.attentionLinear(args)),
    // One training step through the stepper (issue 17): the backward pass, given dO.
    attentionBackward: (args) => call(() => core.attentionBackward(args)),
    // …and through the whole multi-head layer, given dO for its output O = concat·W_O (issue 26).
    multiHeadAttentionBackward: (args) => call(() => core.multiHeadAttentionBackward(args)),
    // The training lab (issue 17): a trainer lives in this instance until its dispose().
    createTrainer: (args) => call(() => core.createTrainer(args)),
    // The efficiency lab (issue 30): tiles with an online softmax and their trace, decoding with a
    // KV cache, a sliding window.
    attentionTiled: (args) => call(() => core.attentionTiled(args)),
    attentionDecode: (args) => call(() => core.attentionDecode(args)),
    attentionWindow: (args) => call(() => core.attentionWindow(args)),
    /** The bytes of this build's .wasm, for a Web Worker that runs its own instance (the training lab). */
    wasmBytes,
    timing,
  };

  // An abort inside wasm (RuntimeError) leaves the instance unusable: recreate it for the next
  // call and report this one as failed. Ordinary invalid input throws an Error and needs nothing.
  function call(run) {
    try {
      return run();
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        create(moduleOptions).then((fresh) => {
          core = fresh;
        });
      }
      throw error;
    }
  }
}
