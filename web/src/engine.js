// The only module that owns the wasm instance. Everything else reaches the C++ core through the
// small API returned by loadEngine(), so swapping how the module is loaded (a separate .wasm file
// for hosting, inlined bytes for the single offline file) touches this file alone.

import createAttention from '../../wasm/attention.mjs';

/**
 * Loads the core once. `wasmBinary` (an ArrayBuffer) skips the network entirely, as the
 * self-contained offline build will; otherwise the .wasm is found next to this bundle.
 */
export async function loadEngine({ wasmBinary } = {}) {
  const moduleOptions = wasmBinary
    ? { wasmBinary }
    : { locateFile: (file) => new URL(file, import.meta.url).href };
  let core = await createAttention(moduleOptions);

  return {
    version: () => core.version(),
    simd: () => core.simd(),
    project: (args) => call(() => core.project(args)),
    attentionSteps: (args) => call(() => core.attentionSteps(args)),
  };

  // An abort inside wasm (RuntimeError) leaves the instance unusable: recreate it for the next
  // call and report this one as failed. Ordinary invalid input throws an Error and needs nothing.
  function call(run) {
    try {
      return run();
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        createAttention(moduleOptions).then((fresh) => { core = fresh; });
      }
      throw error;
    }
  }
}
