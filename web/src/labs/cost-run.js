// Runs the cost lab (cost-lab.js) without freezing the page: in a Web Worker started from the
// worker bundle's text (labs-worker.js), or — where a Worker cannot start, e.g. `new Worker(blob:)`
// throwing in a sandboxed embed, or a worker failing before it is ready — on the page's own
// thread, one call at a time with the page answering in between.
//
//   const run = startCostRun({ engine, workerSource });
//   for await (const event of run) { … }     // 'start', 'plan', 'measure' | 'refused' | 'skipped',
//                                            // 'progress', then 'done' (or 'stopped', 'error')
//   run.stop();                              // at any time
//
// DOM-free: the Worker constructor, the Blob URL and the way to yield to the page are defaults
// that a test (or another host) can replace.

import { COST_PLAN, runCost } from './cost-lab.js';

/** The longest single call the page's thread may make between two chances to answer the reader. */
export const SLICE_MS = 50;
/** A worker that has not said 'ready' by then is given up for the page's thread. */
export const READY_TIMEOUT_MS = 15000;

/** A Worker running `source` (the worker bundle's text), from a Blob URL. Throws where Workers cannot start. */
export function blobWorker(source) {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  try {
    const worker = new Worker(url);
    worker.revoke = () => URL.revokeObjectURL(url);
    return worker;
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
}

/** Lets the page handle input and paint before the next slice (a timer task runs after pending input). */
export const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Starts a run. Options:
 *   engine        the page's engine (engine.js): its build, its .wasm bytes for the worker, and
 *                 the calls themselves on the page's thread
 *   workerSource  the worker bundle's text; without it the run stays on the page's thread
 *   plan          COST_PLAN (cost-lab.js) unless given
 *   createWorker, yieldToPage, sliceMs, readyTimeoutMs, now — for tests and other hosts
 * Returns { [Symbol.asyncIterator], stop(), done }: one consumer iterates the events; `done`
 * resolves to the 'done' event's { build, results, slopes }, or null when stopped or failed.
 * The first event is { type: 'start', mode: 'worker' | 'main-thread', build, reason? }: `reason`
 * says why a run is on the page's thread ('no-worker-source', 'worker-threw', 'worker-failed').
 */
export function startCostRun({
  engine,
  workerSource,
  plan = COST_PLAN,
  createWorker = blobWorker,
  yieldToPage: pause = yieldToPage,
  sliceMs = SLICE_MS,
  readyTimeoutMs = READY_TIMEOUT_MS,
  now = () => performance.now(),
}) {
  const queue = []; // events not yet taken by the iterator
  let wake = null; // resolves the iterator's pending next()
  let finished = false; // no event will follow the queued ones
  let stopped = false;
  let worker = null;
  let resolveDone;
  const done = new Promise((resolve) => {
    resolveDone = resolve;
  });

  function emit(event) {
    if (finished) return;
    queue.push(event);
    if (event.type === 'done' || event.type === 'stopped' || event.type === 'error') {
      finished = true;
      resolveDone(event.type === 'done' ? { build: event.build, results: event.results, slopes: event.slopes } : null);
    }
    wake?.();
  }

  function endWorker() {
    worker?.terminate();
    worker?.revoke?.();
    worker = null;
  }

  async function onPageThread(reason) {
    emit({ type: 'start', mode: 'main-thread', build: engine.build, reason });
    try {
      for (const event of runCost(engine, { plan, sliceMs, now })) {
        if (event.type !== 'tick') emit(event);
        await pause();
        if (stopped) return; // before the generator makes its next call
      }
    } catch (error) {
      emit({ type: 'error', error: { message: String(error?.message ?? error), code: error?.code } });
    }
  }

  async function inWorker() {
    try {
      worker = createWorker(workerSource);
    } catch {
      return onPageThread('worker-threw');
    }
    let ready = false;
    let timer;
    const fallBack = () => {
      clearTimeout(timer);
      if (ready || stopped || !worker) return;
      endWorker();
      onPageThread('worker-failed');
    };
    timer = setTimeout(fallBack, readyTimeoutMs);
    worker.addEventListener('error', (e) => {
      e.preventDefault?.();
      if (ready) emit({ type: 'error', error: { message: String(e.message ?? 'the worker failed') } });
      else fallBack();
    });
    worker.addEventListener('message', ({ data }) => {
      if (stopped) return;
      if (data.type === 'ready') {
        ready = true;
        clearTimeout(timer);
        worker.revoke?.();
        emit({ type: 'start', mode: 'worker', build: data.build });
      } else if (data.type === 'error' && !ready) {
        fallBack();
      } else {
        emit(data);
        if (finished) endWorker();
      }
    });
    let wasm;
    try {
      // A copy of the bytes (never the engine's own buffer, which a transfer would detach).
      wasm = Uint8Array.from(await engine.wasmBytes());
    } catch {
      return fallBack();
    }
    worker?.postMessage({ type: 'run', build: engine.build, wasm, plan });
  }

  if (workerSource) inWorker();
  else onPageThread('no-worker-source');

  return {
    done,
    stop() {
      if (finished) return;
      stopped = true;
      endWorker();
      emit({ type: 'stopped' });
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length) {
          yield queue.shift();
          continue;
        }
        if (finished) return;
        await new Promise((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    },
  };
}
