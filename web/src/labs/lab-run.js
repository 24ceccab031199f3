// A measuring run of a lab (the cost lab's, the efficiency lab's) without freezing the page: in a
// Web Worker started from the labs' worker bundle (labs-worker.js), or — where a Worker cannot
// start, e.g. `new Worker(blob:)` throwing in a sandboxed embed, or a worker failing before it is
// ready — on the page's own thread, one call at a time with the page answering in between.
//
//   const run = startLabRun({ engine, workerSource, request, generate });
//   for await (const event of run) { … }     // 'start', then the generator's events up to 'done'
//                                            // (or 'stopped', 'error')
//   run.stop();                              // at any time
//
// The worker's side answers `request` (with its build and .wasm bytes added) by { type: 'ready',
// build }, then the same events `generate` yields, its ticks left out. DOM-free: the Worker
// constructor, the Blob URL and the way to yield to the page are defaults that a test (or another
// host) can replace.

import { SLICE_MS, READY_TIMEOUT_MS, blobWorker, yieldToPage } from './worker-host.js';

const ENDS = new Set(['done', 'stopped', 'error']);

/**
 * A run's events in order, for one consumer: emit(event) queues one, and after 'done', 'stopped'
 * or 'error' nothing more; take() gives the oldest not yet taken, and arrival() a promise of the
 * next emit; `done` resolves to the 'done' event without its type, or null.
 */
function eventQueue() {
  const queue = [];
  let wake = () => {};
  let finished = false; // no event will follow the queued ones
  let resolveDone;
  const done = new Promise((resolve) => {
    resolveDone = resolve;
  });
  return {
    done,
    get finished() {
      return finished;
    },
    get waiting() {
      return queue.length;
    },
    take: () => queue.shift(),
    arrival: () =>
      new Promise((resolve) => {
        wake = resolve;
      }),
    emit(event) {
      if (finished) return;
      queue.push(event);
      if (ENDS.has(event.type)) {
        finished = true;
        const { type, ...summary } = event;
        resolveDone(type === 'done' ? summary : null);
      }
      wake();
    },
  };
}

/** A copy of the engine's .wasm bytes (never its own buffer, which a transfer would detach), or null. */
async function wasmCopy(engine) {
  try {
    return Uint8Array.from(await engine.wasmBytes());
  } catch {
    return null;
  }
}

/**
 * Starts a run. Options:
 *   engine        the page's engine (engine.js): its build, its .wasm bytes for the worker, and
 *                 the calls themselves on the page's thread
 *   workerSource  the worker bundle's text; without it the run stays on the page's thread
 *   request       what the worker is asked to run ({ type, plan }: its task's message)
 *   generate      (engine, { sliceMs, now }) → the same run as a generator of events, on the page's
 *                 thread (ticks between calls; sliceMs the longest call it may make)
 *   createWorker, yieldToPage, sliceMs, readyTimeoutMs, now — for tests and other hosts
 * Returns { [Symbol.asyncIterator], stop(), done }: one consumer iterates the events; `done`
 * resolves to the 'done' event without its type, or null when stopped or failed.
 * The first event is { type: 'start', mode: 'worker' | 'main-thread', build, reason? }: `reason`
 * says why a run is on the page's thread ('no-worker-source', 'worker-threw', 'worker-failed').
 */
export function startLabRun({
  engine,
  workerSource,
  request,
  generate,
  createWorker = blobWorker,
  yieldToPage: pause = yieldToPage,
  sliceMs = SLICE_MS,
  readyTimeoutMs = READY_TIMEOUT_MS,
  now = () => performance.now(),
}) {
  const events = eventQueue();
  const { emit } = events;
  let stopped = false;
  let worker = null;
  function endWorker() {
    worker?.terminate();
    worker?.revoke?.();
    worker = null;
  }
  async function onPageThread(reason) {
    emit({ type: 'start', mode: 'main-thread', build: engine.build, reason });
    try {
      for (const event of generate(engine, { sliceMs, now })) {
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
    const fallBack = () => {
      clearTimeout(timer);
      if (ready || stopped || !worker) return;
      endWorker();
      onPageThread('worker-failed');
    };
    const timer = setTimeout(fallBack, readyTimeoutMs); // fallBack runs only after this line
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
        if (events.finished) endWorker();
      }
    });
    // The worker times the fastest build (engine.js, engine.timing: relaxed SIMD where it runs).
    const timing = engine.timing ?? engine;
    const wasm = await wasmCopy(timing);
    if (!wasm) return fallBack();
    worker?.postMessage({ ...request, build: timing.build, wasm });
  }

  void (workerSource ? inWorker() : onPageThread('no-worker-source'));

  return {
    done: events.done,
    stop() {
      if (events.finished) return;
      stopped = true;
      endWorker();
      emit({ type: 'stopped' });
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (events.waiting) yield events.take();
        else if (events.finished) return;
        else await events.arrival();
      }
    },
  };
}
