// training-bundle.mjs — what the training benchmark loads that is not in the repository as it is:
//   build/bench/tfjs-training-node.cjs, build/bench/tfjs-training-browser.mjs
//       TensorFlow.js with its gradients and both CPU backends (bench/training-tf.mjs), for Node
//       and for the page: the packaged scripts register no gradient, so they cannot train;
//   build/bench/labs-worker.js
//       the labs' Web Worker bundle, the text the page starts from a Blob URL (scripts/lib/labs-worker.mjs).
//
//   node bench/training-bundle.mjs   (bench/run.sh runs it after installing the peers)

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { bundleLabsWorker } from '../scripts/lib/labs-worker.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'build', 'bench');
fs.mkdirSync(OUT, { recursive: true });
const tfjs = (platform, format, file) =>
  esbuild.build({
    entryPoints: [path.join(ROOT, 'bench', 'training-tf.mjs')],
    bundle: true,
    platform,
    format,
    outfile: path.join(OUT, file),
    mainFields: ['module', 'main'], // the ES modules, so that the backends share tfjs-core's one copy
    logLevel: 'warning',
  });
await tfjs('node', 'cjs', 'tfjs-training-node.cjs');
await tfjs('browser', 'esm', 'tfjs-training-browser.mjs');
fs.writeFileSync(path.join(OUT, 'labs-worker.js'), await bundleLabsWorker());
console.error('[training] bundles in build/bench: tfjs-training-node.cjs, tfjs-training-browser.mjs, labs-worker.js');
