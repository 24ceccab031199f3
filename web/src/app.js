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
import { createStage } from './controller/stage.js';
import { createLabs } from './controller/labs.js';
import { createExports } from './controller/exports.js';
import { createFrame } from './controller/frame.js';
import { createStepNav } from './controller/step-nav.js';
import { createEngineCalls } from './controller/engine-calls.js';
import { createExplain } from './controller/explain.js';
import { createFilledFormula } from './controller/filled-formula.js';
import { createArrowsPart } from './controller/arrows.js';
import { createEditing } from './controller/editing.js';
import { createUndo } from './controller/undo.js';
import { createUrlSync } from './controller/url-sync.js';
import { createEmbedding } from './controller/embedding.js';
import { createHeads } from './controller/heads.js';
import { createClassroom } from './controller/classroom.js';

/**
 * The parts, in the order they render (each part's render(opts) runs after every change): the
 * stage first — a new step measures where its matrices were, for the motion, while the page is
 * still laid out as it was — and the popover after everything it may point into. New behaviour
 * (a head selector, a play/pause loop) is a new part here.
 */
const PARTS = [
  ['stage', createStage],
  ['labs', createLabs],
  ['exports', createExports],
  ['frame', createFrame],
  ['nav', createStepNav],
  ['engine', createEngineCalls],
  ['explain', createExplain],
  ['filled', createFilledFormula],
  ['arrows', createArrowsPart],
  ['editing', createEditing],
  ['undo', createUndo],
  ['url', createUrlSync],
  ['embedding', createEmbedding],
  ['heads', createHeads],
  ['classroom', createClassroom], // after the stage: it sizes the type to the step on screen
];

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
  for (const [name, create] of PARTS) page.use(name, create(page));

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
