// The labs' Web Worker — the cost lab's runs, and the training lab's session (train-worker.js):
// one bundle, so that the Emscripten glue ships once. The cost lab's part: its own wasm instance,
// so that timing attention at n = 4096 never freezes the page. Built as a bundle of its own
// (scripts/lib/labs-worker.mjs) and handed to the page as text, which starts it from a Blob URL
// (cost-run.js): no file to fetch, so it also runs from the single offline file (whose CSP
// allows `worker-src blob:` and nothing else).
//
// Protocol (cost-run.js is the other side):
//   page → worker  { type: 'run', build: 'relaxed' | 'simd' | 'scalar', wasm: Uint8Array, plan }
//                  the .wasm bytes of the page's own build travel in the message: nothing is fetched
//   worker → page  { type: 'ready', build }, then every event of runCost (cost-lab.js) but its
//                  ticks, ending with 'done'; or { type: 'error', error: { message, code } }
// Stopping is the page's worker.terminate(): it ends even a call in the middle of a second.

import { loadEngine } from '../engine.js';
import { runCost } from './cost-lab.js';
import { trainingServer } from './train-worker.js';

const serveTraining = trainingServer(self);

self.onmessage = async ({ data }) => {
  if (typeof data?.type === 'string' && data.type.startsWith('train-')) return serveTraining(data);
  if (data?.type !== 'run') return;
  try {
    const engine = await loadEngine({ binaries: { [data.build]: () => data.wasm }, build: data.build });
    self.postMessage({ type: 'ready', build: engine.build });
    for (const event of runCost(engine, { plan: data.plan })) if (event.type !== 'tick') self.postMessage(event);
  } catch (error) {
    self.postMessage({ type: 'error', error: { message: String(error?.message ?? error), code: error?.code } });
  }
};
