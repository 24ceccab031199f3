// The cost lab's Web Worker (web/src/labs/cost-worker.js) as one classic script, for both builds
// of the page (scripts/build-web.mjs, scripts/build-dist.mjs). The page receives it as text — the
// module `cost-worker-source` that this file's plugin provides — and starts it from a Blob URL
// (web/src/labs/cost-run.js): nothing is fetched, so it works from the single offline file too.
// The .wasm bytes are not in it: the page posts its own build's bytes to the worker.

import * as esbuild from 'esbuild';
import { at } from './page-parts.mjs';

/** The worker bundle's text: an IIFE with the Emscripten glue of both builds, no .wasm. */
export async function bundleCostWorker({ minify = false } = {}) {
  const result = await esbuild.build({
    entryPoints: [at('web', 'src', 'labs', 'cost-worker.js')],
    bundle: true,
    write: false,
    format: 'iife',
    target: ['chrome91', 'firefox102', 'safari16'],
    minify,
    legalComments: 'none',
    logLevel: 'warning',
    // The glue reads import.meta.url only to find its .wasm, whose bytes the worker is given.
    define: { 'import.meta.url': '""' },
  });
  return result.outputFiles[0].text;
}

/** An esbuild plugin: `import source from 'cost-worker-source'` gives the worker bundle's text. */
export function costWorkerPlugin({ minify = false } = {}) {
  return {
    name: 'cost-worker-source',
    setup(build) {
      build.onResolve({ filter: /^cost-worker-source$/ }, () => ({
        path: 'cost-worker-source',
        namespace: 'cost-worker-source',
      }));
      build.onLoad({ filter: /.*/, namespace: 'cost-worker-source' }, async () => ({
        loader: 'js',
        contents: `export default ${JSON.stringify(await bundleCostWorker({ minify }))};`,
      }));
    },
  };
}
