// The registry's part in the labs' worker (web/src/labs/labs-worker.js): each feature that runs
// code there is one line, { accepts(message), serve(port) → (message) => … }. (features/index.js
// says what a feature is.)

import { costWorker } from './cost-lab/cost-worker.js';
import { trainWorker } from './train-lab/train-worker.js';
import { efficiencyWorker } from './efficiency-lab/efficiency-worker.js';

export const WORKER_TASKS = Object.freeze([costWorker, trainWorker, efficiencyWorker]);
