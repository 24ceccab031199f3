// The training lab's side of the labs' Web Worker (web/src/labs/labs-worker.js is its entry: one
// bundle, one copy of the Emscripten glue, for both labs). The worker holds its own wasm instance and a
// training session (train-session.js), so that training never freezes the page.
//
// Protocol (train-run.js is the other side):
//   page → worker  { type: 'train-init', build, wasm: Uint8Array }  the page's own build's bytes
//                  { type: 'train-call', id, message }              a session message
//   worker → page  { type: 'train-ready', build } or { type: 'train-failed', error }
//                  { type: 'train-reply', id, reply }                its answer
// Ending is the page's worker.terminate().

import { loadEngine } from '../../engine.js';
import { createTrainSession } from './train-session.js';

/** The messages it takes (features/workers.js), and how it answers them through `port` (the worker's global). */
export const trainWorker = {
  accepts: (data) => typeof data?.type === 'string' && data.type.startsWith('train-'),
  serve: (port) => trainingServer(port),
};

/** A handler of the training messages for the worker `scope` (self). */
function trainingServer(scope) {
  let session = null;
  return async function serve(data) {
    if (data.type === 'train-init') {
      try {
        const engine = await loadEngine({ binaries: { [data.build]: () => data.wasm }, build: data.build });
        session = createTrainSession(engine);
        scope.postMessage({ type: 'train-ready', build: engine.build });
      } catch (error) {
        scope.postMessage({ type: 'train-failed', error: { message: String(error?.message ?? error) } });
      }
    } else if (data.type === 'train-call' && session) {
      scope.postMessage({ type: 'train-reply', id: data.id, reply: session.handle(data.message) });
    }
  };
}
