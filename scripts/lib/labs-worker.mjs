// The labs' Web Worker (web/src/labs/labs-worker.js: the cost lab's runs and the training lab's
// session) as one classic script, for both builds of the page (scripts/build-web.mjs,
// scripts/build-dist.mjs). The page receives it as text — the module `labs-worker-source` that
// this file's plugin provides — and starts it from a Blob URL (web/src/labs/worker-host.js's blobWorker,
// which train-run.js uses too): nothing is fetched, so it works from the single offline file too.
// The .wasm bytes are not in it: the page posts its own build's bytes to the worker.

import * as esbuild from 'esbuild';
import { at } from './page-parts.mjs';

/** The worker bundle's text: an IIFE with the Emscripten glue of both builds, no .wasm. */
export async function bundleLabsWorker({ minify = false } = {}) {
  const result = await esbuild.build({
    entryPoints: [at('web', 'src', 'labs', 'labs-worker.js')],
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

/** An esbuild plugin: `import source from 'labs-worker-source'` gives the worker bundle's text. */
export function labsWorkerPlugin({ minify = false } = {}) {
  return {
    name: 'labs-worker-source',
    setup(build) {
      build.onResolve({ filter: /^labs-worker-source$/ }, () => ({
        path: 'labs-worker-source',
        namespace: 'labs-worker-source',
      }));
      build.onLoad({ filter: /.*/, namespace: 'labs-worker-source' }, async () => ({
        loader: 'js',
        contents: `export default ${JSON.stringify(await bundleLabsWorker({ minify }))};`,
      }));
    },
  };
}
