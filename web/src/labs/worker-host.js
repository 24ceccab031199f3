// What the labs that run in the labs' worker (labs-worker.js) share on the page's side: how a
// worker is started from the bundle's text, how long one may take to say it is ready, and how the
// page's thread runs in slices when no worker can start (the cost lab's runs, the training lab's
// sessions).

/** The longest single call the page's thread may make between two chances to answer the reader. */
export const SLICE_MS = 50;
/** A worker that has not said 'ready' by then is given up for the page's thread. */
export const READY_TIMEOUT_MS = 15000;

/** A Worker running `source` (the worker bundle's text), from a Blob URL. Throws where Workers cannot start. */
export function blobWorker(source) {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  try {
    const worker = new Worker(url);
    worker.revoke = () => URL.revokeObjectURL(url);
    return worker;
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
}

/** Lets the page handle input and paint before the next slice (a timer task runs after pending input). */
export const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));
