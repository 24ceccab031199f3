// The cost lab's side of the labs' worker (web/src/labs/labs-worker.js): its own wasm instance, so
// that timing attention at n = 4096 never freezes the page.
//
// Protocol (cost-run.js is the other side):
//   page → worker  { type: 'run', build: 'relaxed' | 'simd' | 'scalar', wasm: Uint8Array, plan }
//                  the .wasm bytes of the page's own build travel in the message: nothing is fetched
//   worker → page  { type: 'ready', build }, then every event of runCost (cost-lab.js) but its
//                  ticks, ending with 'done'; or { type: 'error', error: { message, code } }
// Stopping is the page's worker.terminate(): it ends even a call in the middle of a second.

import { loadEngine } from '../../engine.js';
import { runCost } from './cost-lab.js';

/** The messages it takes, and how it answers them through `port` (the worker's global). */
export const costWorker = {
  accepts: (data) => data?.type === 'run',
  serve: (port) => async (data) => {
    try {
      const engine = await loadEngine({ binaries: { [data.build]: () => data.wasm }, build: data.build });
      port.postMessage({ type: 'ready', build: engine.build });
      for (const event of runCost(engine, { plan: data.plan })) if (event.type !== 'tick') port.postMessage(event);
    } catch (error) {
      port.postMessage({ type: 'error', error: { message: String(error?.message ?? error), code: error?.code } });
    }
  },
};
