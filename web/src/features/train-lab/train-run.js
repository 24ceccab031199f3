// Where the training lab's session runs (train-session.js): in the labs' Web Worker, started from
// the worker bundle's text as the cost lab's is (cost-run.js), or — where no Worker can start
// (a sandboxed embed), or one fails before it is ready — on the page's own thread, one slice of
// steps per call with the page answering in between.
//
//   const host = startTrainHost({ engine, workerSource });
//   const { mode, reason } = await host.ready;     // 'worker' | 'main-thread'
//   const reply = await host.call({ type: 'step', count: 10 });
//   host.destroy();                                 // ends the worker
//
// DOM-free: the Worker constructor and the way to yield to the page are defaults a test can replace.

import { blobWorker, yieldToPage, READY_TIMEOUT_MS } from '../../labs/worker-host.js';
import { createTrainSession } from './train-session.js';

const DISPOSED = Object.freeze({ type: 'disposed' });

/**
 * Sends `worker` the page's .wasm bytes and waits for it to say ready (train-worker.js). Resolves
 * to { build, call(message) → Promise<reply>, end() }, or null when it fails or stays silent
 * for readyTimeoutMs (then it has been ended).
 */
function connect(worker, engine, readyTimeoutMs) {
  const pending = new Map(); // id → resolve
  let nextId = 1;
  const end = () => {
    worker.terminate();
    worker.revoke?.();
    for (const resolve of pending.values()) resolve(DISPOSED);
    pending.clear();
  };
  const call = (message) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      worker.postMessage({ type: 'train-call', id, message });
    });
  return new Promise((resolve) => {
    let ready = false;
    const fail = () => {
      clearTimeout(timer);
      if (ready) return;
      end();
      resolve(null);
    };
    const timer = setTimeout(fail, readyTimeoutMs);
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      fail();
    });
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'train-ready') {
        ready = true;
        clearTimeout(timer);
        worker.revoke?.();
        resolve({ build: data.build, call, end });
      } else if (data.type === 'train-failed') fail();
      else if (data.type === 'train-reply') {
        pending.get(data.id)?.(data.reply);
        pending.delete(data.id);
      }
    });
    // A copy of the bytes (never the engine's own buffer, which a transfer would detach).
    engine
      .wasmBytes()
      .then(
        (bytes) => worker.postMessage({ type: 'train-init', build: engine.build, wasm: Uint8Array.from(bytes) }),
        fail,
      );
  });
}

/**
 * Options: engine (the page's: its build, its .wasm bytes, and the session on the page's thread),
 * workerSource (the worker bundle's text; without it, the page's thread), createWorker,
 * yieldToPage, readyTimeoutMs. Returns { ready, call(message), destroy() }: `ready` resolves to
 * { mode, build, reason? }, reason saying why the page's thread ('no-worker-source',
 * 'worker-threw', 'worker-failed'), or { mode: 'ended' } when destroyed before it was.
 */
export function startTrainHost({
  engine,
  workerSource,
  createWorker = blobWorker,
  yieldToPage: pause = yieldToPage,
  readyTimeoutMs = READY_TIMEOUT_MS,
}) {
  let destroyed = false;
  let route = null; // { call, end } once ready

  function onPage(reason) {
    const session = createTrainSession(engine);
    route = {
      call: async (message) => {
        await pause(); // a slice per call: the page's input and paint come first
        return destroyed ? DISPOSED : session.handle(message);
      },
      end: () => session.handle({ type: 'dispose' }), // the page's own trainers, freed in its wasm
    };
    return { mode: 'main-thread', build: engine.build, reason };
  }

  async function start() {
    if (!workerSource) return onPage('no-worker-source');
    let worker;
    try {
      worker = createWorker(workerSource);
    } catch {
      return onPage('worker-threw');
    }
    const connected = await connect(worker, engine, readyTimeoutMs);
    if (!connected) return destroyed ? { mode: 'ended' } : onPage('worker-failed');
    route = connected;
    if (destroyed) connected.end();
    return { mode: 'worker', build: connected.build };
  }

  const ready = start();
  return {
    ready,
    /** The session's answer to `message`, once ready; { type: 'disposed' } after destroy(). */
    call: async (message) => {
      await ready;
      return destroyed || !route ? DISPOSED : route.call(message);
    },
    destroy() {
      destroyed = true;
      route?.end();
    },
  };
}
