// A Web Worker stand-in for Node's tests: runs a classic worker script (such as the cost lab's
// worker bundle) in a worker_threads thread, with `self`, `self.onmessage` and `self.postMessage`
// as in a browser, and offers the page's side of the Worker interface that cost-run.js uses
// (postMessage, terminate, addEventListener for 'message' and 'error').
import { Worker } from 'node:worker_threads';

const PRELUDE = `const { parentPort } = require('node:worker_threads');
globalThis.self = globalThis;
globalThis.postMessage = (data) => parentPort.postMessage(data);
parentPort.on('message', (data) => globalThis.onmessage?.({ data }));
`;

export function nodeWorker(source) {
  const thread = new Worker(PRELUDE + source, { eval: true });
  const listeners = { message: [], error: [] };
  thread.on('message', (data) => listeners.message.forEach((f) => f({ data })));
  thread.on('error', (error) => listeners.error.forEach((f) => f({ message: error.message, preventDefault() {} })));
  let terminated = false;
  return {
    postMessage: (message) => thread.postMessage(message),
    terminate: () => {
      terminated = true;
      thread.terminate();
    },
    addEventListener: (type, listener) => listeners[type].push(listener),
    get terminated() {
      return terminated;
    },
  };
}
