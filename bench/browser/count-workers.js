// count-workers.js — runs before any runtime loads and counts the Workers the page creates: a wasm
// runtime that runs threads in a browser does so in Web Workers, so 0 workers means no threads.
(() => {
  const Native = globalThis.Worker;
  globalThis.benchWorkersCreated = [];
  globalThis.Worker = class extends Native {
    constructor(url, options) {
      globalThis.benchWorkersCreated.push(String(url));
      super(url, options);
    }
  };
})();
