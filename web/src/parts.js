// The parts of the page that load when first needed, not with the stepper: the labs (scale, cost,
// exercise, training, with the labs' worker as text) and the exports (NumPy, JSON, CSV, PNG, the
// printed handout). The stepper's first number comes sooner for not parsing or running them.
//
// This file is how the development page (and Node's tests) load them: each part is a module
// loaded by import(), which esbuild splits into a file of its own (scripts/build-web.mjs). The
// self-contained builds (the offline file and the hosted site) replace this file at build time
// (scripts/lib/lazy-parts.mjs): there each part travels inside the page as text that is not run
// until it is needed, and the same two functions below take it from there.

const LOADERS = {
  labs: () => import('./features/lab-views.js'),
  exports: () => import('./views/export-files.js'),
};

const loaded = new Map(); // name → the part's module, once loaded
const loading = new Map(); // name → its promise

/** The part `name` (a key of LOADERS), loading it if it is not loaded yet: a promise of its module. */
export function loadPart(name) {
  if (!loading.has(name)) {
    const promise = LOADERS[name]().then((module) => {
      loaded.set(name, module);
      return module;
    });
    // A failed load is tried again next time (a network that came back).
    promise.catch(() => loading.delete(name));
    loading.set(name, promise);
  }
  return loading.get(name);
}

/**
 * The part `name` at once, for what cannot wait (the handout laid out in the browser's
 * `beforeprint`): its module if it is loaded, else null (and it starts loading). The
 * self-contained builds always have it at once.
 */
export function partNow(name) {
  if (!loaded.has(name)) loadPart(name).catch(() => {});
  return loaded.get(name) ?? null;
}
