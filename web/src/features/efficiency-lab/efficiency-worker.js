// The efficiency lab's side of the labs' worker (web/src/labs/labs-worker.js): its own wasm
// instance, so that timing the paths up to n = 16,384 never freezes the page.
//
// Protocol (labs/lab-run.js is the other side):
//   page → worker  { type: 'efficiency-run', build, wasm: Uint8Array, plan }: the .wasm bytes of
//                  the page's own build travel in the message, nothing is fetched
//   worker → page  { type: 'ready', build }, then every event of runEfficiencyCosts
//                  (efficiency-costs.js) but its ticks, ending with 'done'; or
//                  { type: 'error', error: { message, code } }
// Stopping is the page's worker.terminate(): it ends even a call in the middle of a second.

import { loadEngine } from '../../engine.js';
import { runEfficiencyCosts } from './efficiency-costs.js';

/** The messages it takes (features/workers.js), and how it answers them through `port` (the worker's global). */
export const efficiencyWorker = {
  accepts: (data) => data?.type === 'efficiency-run',
  serve: (port) => async (data) => {
    try {
      const engine = await loadEngine({ binaries: { [data.build]: () => data.wasm }, build: data.build });
      port.postMessage({ type: 'ready', build: engine.build });
      for (const event of runEfficiencyCosts(engine, { plan: data.plan }))
        if (event.type !== 'tick') port.postMessage(event);
    } catch (error) {
      port.postMessage({ type: 'error', error: { message: String(error?.message ?? error), code: error?.code } });
    }
  },
};
