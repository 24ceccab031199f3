// The cost lab worker's bundle as text, for startCostRun({ workerSource }) (cost-run.js). The
// module 'labs-worker-source' exists only inside the page's bundles: scripts/lib/labs-worker.mjs
// builds web/src/labs/labs-worker.js and hands it over as a string, in both scripts/build-web.mjs
// and scripts/build-dist.mjs. (Node's tests bundle it themselves with bundleLabsWorker.)
export { default } from 'labs-worker-source';
