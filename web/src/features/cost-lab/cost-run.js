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
import { SLICE_MS, READY_TIMEOUT_MS, blobWorker, yieldToPage } from '../../labs/worker-host.js';

const ENDS = new Set(['done', 'stopped', 'error']);

/**
 * A run's events in order, for one consumer: emit(event) queues one, and after 'done', 'stopped'
 * or 'error' nothing more; take() gives the oldest not yet taken, and arrival() a promise of the
 * next emit; `done` resolves to the 'done' event's { build, results, slopes }, or null.
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
        resolveDone(
          event.type === 'done' ? { build: event.build, results: event.results, slopes: event.slopes } : null,
        );
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

/** The run on the page's thread: runCost's calls one at a time, `pause()` between them. */
async function runOnPage(engine, { plan, sliceMs, now, pause, emit, stopped }) {
  try {
    for (const event of runCost(engine, { plan, sliceMs, now })) {
      if (event.type !== 'tick') emit(event);
      await pause();
      if (stopped()) return; // before the generator makes its next call
    }
  } catch (error) {
    emit({ type: 'error', error: { message: String(error?.message ?? error), code: error?.code } });
  }
}

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
  const events = eventQueue();
  const { emit } = events;
  let stopped = false;
  let worker = null;
  function endWorker() {
    worker?.terminate();
    worker?.revoke?.();
    worker = null;
  }
  function onPageThread(reason) {
    emit({ type: 'start', mode: 'main-thread', build: engine.build, reason });
    return runOnPage(engine, { plan, sliceMs, now, pause, emit, stopped: () => stopped });
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
    worker?.postMessage({ type: 'run', build: timing.build, wasm, plan });
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
