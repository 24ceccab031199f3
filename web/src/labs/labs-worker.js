// The labs' Web Worker: the features' tasks (features/workers.js — the cost lab's runs, the training
// lab's session) in one bundle, so that the Emscripten glue ships once. Built as a bundle of its
// own (scripts/lib/labs-worker.mjs) and handed to the page as text, which starts it from a Blob URL
// (worker-host.js): no file to fetch, so it also runs from the single offline file (whose CSP
// allows `worker-src blob:` and nothing else). Each message goes to the one task that accepts it.

import { WORKER_TASKS } from '../features/workers.js';

const tasks = WORKER_TASKS.map((task) => ({ accepts: task.accepts, serve: task.serve(self) }));

self.onmessage = ({ data }) => tasks.find((task) => task.accepts(data))?.serve(data);
