// Runs the cost lab (cost-lab.js) without freezing the page: in the labs' Web Worker started from
// the worker bundle's text (labs-worker.js, through worker-host.js), or — where a Worker cannot
// start, e.g. `new Worker(blob:)` throwing in a sandboxed embed, or a worker failing before it is
// ready — on the page's own thread, one call at a time with the page answering in between.
//
//   const run = startCostRun({ engine, workerSource });
//   for await (const event of run) { … }     // 'start', 'plan', 'measure' | 'refused' | 'skipped',
//                                            // 'progress', then 'done' (or 'stopped', 'error')
//   run.stop();                              // at any time
//
// DOM-free: the Worker constructor, the Blob URL and the way to yield to the page are defaults
// that a test (or another host) can replace.

import { COST_PLAN, runCost } from './cost-lab.js';
import { SLICE_MS, READY_TIMEOUT_MS, blobWorker, yieldToPage } from './worker-host.js';

/** The events after which no other follows. */
const ENDS = new Set(['done', 'stopped', 'error']);

/**
 * A run's events for its one consumer: emit(event) queues one, none after an end ('done',
 * 'stopped', 'error'); iterating takes them in order and waits for the next; `done` resolves to
 * the 'done' event's { build, results, slopes }, or null when the run stopped or failed.
 */
function eventStream() {
  const queue = []; // events not yet taken by the iterator
  let wake = null; // resolves the iterator's pending next()
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
    emit(event) {
      if (finished) return;
      queue.push(event);
      if (ENDS.has(event.type)) {
        finished = true;
        resolveDone(
          event.type === 'done' ? { build: event.build, results: event.results, slopes: event.slopes } : null,
        );
      }
      wake?.();
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

/** Ends the run's worker, if it has one, and frees its Blob URL. */
function endWorker(run) {
  run.worker?.terminate();
  run.worker?.revoke?.();
  run.worker = null;
}

/** The run on the page's thread: one call of the generator, then the page answers, and so on. */
async function onPageThread(run, reason) {
  const { engine, plan, sliceMs, now, pause, events } = run;
  events.emit({ type: 'start', mode: 'main-thread', build: engine.build, reason });
  try {
    for (const event of runCost(engine, { plan, sliceMs, now })) {
      if (event.type !== 'tick') events.emit(event);
      await pause();
      if (run.stopped) return; // before the generator makes its next call
    }
  } catch (error) {
    events.emit({ type: 'error', error: { message: String(error?.message ?? error), code: error?.code } });
  }
}

/**
 * Listens to the run's worker: its 'ready' starts the run's events, what follows is passed on.
 * Before 'ready', an error or READY_TIMEOUT_MS of silence moves the run to the page's thread.
 * Returns fallBack(), which does that move (at most once, and never after 'ready' or a stop).
 */
function listen(run) {
  const { worker, events } = run;
  let ready = false;
  let timer;
  const fallBack = () => {
    clearTimeout(timer);
    if (ready || run.stopped || !run.worker) return;
    endWorker(run);
    onPageThread(run, 'worker-failed');
  };
  timer = setTimeout(fallBack, run.readyTimeoutMs);
  worker.addEventListener('error', (e) => {
    e.preventDefault?.();
    if (ready) events.emit({ type: 'error', error: { message: String(e.message ?? 'the worker failed') } });
    else fallBack();
  });
  worker.addEventListener('message', ({ data }) => {
    if (run.stopped) return;
    if (data.type === 'ready') {
      ready = true;
      clearTimeout(timer);
      worker.revoke?.();
      events.emit({ type: 'start', mode: 'worker', build: data.build });
    } else if (data.type === 'error' && !ready) {
      fallBack();
    } else {
      events.emit(data);
      if (events.finished) endWorker(run);
    }
  });
  return fallBack;
}

/** The run in a worker: started, listened to, then posted the page's .wasm bytes and the plan. */
async function inWorker(run) {
  try {
    run.worker = run.createWorker(run.workerSource);
  } catch {
    return onPageThread(run, 'worker-threw');
  }
  const fallBack = listen(run);
  let wasm;
  try {
    // A copy of the bytes (never the engine's own buffer, which a transfer would detach).
    wasm = Uint8Array.from(await run.engine.wasmBytes());
  } catch {
    return fallBack();
  }
  run.worker?.postMessage({ type: 'run', build: run.engine.build, wasm, plan: run.plan });
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
  const events = eventStream();
  const run = { engine, workerSource, plan, createWorker, pause, sliceMs, readyTimeoutMs, now, events };
  Object.assign(run, { worker: null, stopped: false });
  if (workerSource) inWorker(run);
  else onPageThread(run, 'no-worker-source');

  return {
    done: events.done,
    stop() {
      if (events.finished) return;
      run.stopped = true;
      endWorker(run);
      events.emit({ type: 'stopped' });
    },
    [Symbol.asyncIterator]: () => events[Symbol.asyncIterator](),
  };
}
