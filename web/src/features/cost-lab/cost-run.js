// Runs the cost lab (cost-lab.js) without freezing the page, as every lab's measuring run goes
// (labs/lab-run.js): in a Web Worker started from the worker bundle's text (labs-worker.js, whose
// cost-worker.js runs runCost), or — where a Worker cannot start — on the page's own thread, one
// call at a time with the page answering in between.
//
//   const run = startCostRun({ engine, workerSource });
//   for await (const event of run) { … }     // 'start', 'plan', 'measure' | 'refused' | 'skipped',
//                                            // 'progress', then 'done' (or 'stopped', 'error')
//   run.stop();                              // at any time

import { COST_PLAN, runCost } from './cost-lab.js';
import { startLabRun } from '../../labs/lab-run.js';

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
export function startCostRun({ plan = COST_PLAN, ...options }) {
  return startLabRun({
    ...options,
    request: { type: 'run', plan },
    generate: (engine, { sliceMs, now }) => runCost(engine, { plan, sliceMs, now }),
  });
}
