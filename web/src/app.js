// Wiring only: read the state from the URL, make the page's store (controller/page.js) and its
// parts, each owning one concern, load the engine and show the first state. The logic lives in
// state.js, model.js and the descriptions (steps.js, options.js); rendering in views/.
// Two entry points start it: main.js (the development page, .wasm files next to the bundle) and
// main-inline.js (the offline file and the hosted site, the .wasm bytes inside the bundle).

import { parseState, LANGS } from './state.js';
import { loadEngine } from './engine.js';
import { readPreference } from './storage.js';
import { connectToHost } from './embed/frame.js';
import { registerServiceWorker, buildId, offersOfflineFile } from './offline.js';
import { renderChrome } from './views/chrome.js';
import { createPage } from './controller/page.js';
import { createParts } from './controller/wiring.js';

/** The browser's objects the parts use (tests hand in fakes). */
const browser = () => ({ document, window, location, history, matchMedia: (query) => matchMedia(query) });

/**
 * Starts the page. `binaries` ({ simd, scalar }: functions returning the .wasm bytes) is given by
 * the self-contained builds; without it the .wasm files are loaded from next to the bundle.
 * Returns the page (its destroy() removes every listener the parts added).
 */
export async function start({ binaries } = {}) {
  // The engine first: its .wasm is decoded, inflated and compiled while the page is set up below
  // (awaited before the first computation; start() does not pause before that await).
  const engine = loadEngine({ binaries });
  const { state, notice } = parseState(location.hash);
  if (!location.hash && LANGS.includes(readPreference('lang'))) state.lang = readPreference('lang');
  const page = createPage({ dom: browser(), host: connectToHost(), state, notice });
  createParts(page);

  renderChrome(document, {
    state,
    t: page.t,
    build: buildId(),
    offlineFile: offersOfflineFile(),
    fullPageUrl: page.fullPageUrl(),
  });
  page.$('loading').textContent = page.t('app.loading');
  try {
    page.engine = await engine;
  } catch (error) {
    page.$('stage-body').textContent = page.t('app.engineFailed', { message: error.message });
    throw error;
  }
  if (!page.commit(page.state, { fromUrl: true })) {
    page.notice = 'badHash';
    page.commit(parseState('').state, { fromUrl: true });
  }
  document.body.dataset.ready = 'true';
  page.host.ready();
  // After the first numbers: the worker's install fetches the site's files (the page itself three
  // times over, 1.5 MB each), which would compete with them for the network and the processor.
  registerServiceWorker({
    onUpdated: () => {
      page.notice = 'updated';
      page.render({ panel: false });
    },
  });
  return page;
}
