// The cost lab worker's bundle as text, for startCostRun({ workerSource }) (cost-run.js). The
// module 'cost-worker-source' exists only inside the page's bundles: scripts/lib/cost-worker.mjs
// builds web/src/labs/cost-worker.js and hands it over as a string, in both scripts/build-web.mjs
// and scripts/build-dist.mjs. (Node's tests bundle it themselves with bundleCostWorker.)
export { default } from 'cost-worker-source';
