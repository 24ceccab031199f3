// The URL follows the state, and the state follows the URL: after every commit the hash is
// written (a moment later while a reader types into cells), the host page is told (embeds), and a
// hash changed by hand is read and committed. A new step or view is a new history entry, so that
// Back returns to the step before (keeping the inputs as they are: Back is not undo); an edit
// replaces the entry, so that Back is not flooded with every keystroke. An embed never adds
// entries: its host's Back belongs to the host's page.

import { parseState, serializeState } from '../state.js';
import { listeners } from './listeners.js';

// Writing the URL is slow in Chromium (history.replaceState costs tens of ms with a long hash),
// so while a reader types into cells the URL follows a moment later; everything else writes it at once.
const TYPING_DELAY = 250; // ms
// What a reader navigates (a history entry each), as opposed to what they edit.
const HISTORY_KEYS = ['step', 'view'];
// The history state of every entry the page writes, so that Back and Forward know its entries.
const MARK_KEY = 'attentionPlayground';
const MARK = Object.freeze({ [MARK_KEY]: true });

export function createUrlSync(page) {
  const { window, location, history } = page.dom;
  const events = listeners();
  let timer = 0;
  let postedHash = null;
  try {
    history.replaceState(MARK, '', location.href); // the entry the page opened in is the page's too
  } catch {
    /* a sandboxed frame where history throws: Back and Forward are the host's */
  }

  function write({ soon = false, entry = false } = {}) {
    window.clearTimeout(timer);
    const now = () => {
      const hash = serializeState(page.state);
      // The URL is a convenience: in an unusual sandboxed frame where history throws, the page works on.
      try {
        if (location.hash !== hash) history[entry ? 'pushState' : 'replaceState'](MARK, '', hash);
      } catch {
        /* keep going */
      }
      if (hash !== postedHash) {
        postedHash = hash;
        page.host.state(hash);
      }
    };
    if (soon) timer = window.setTimeout(now, TYPING_DELAY);
    else now();
  }

  // A hash typed by hand (hashchange) is the whole state.
  events.on(window, 'hashchange', () => {
    if (location.hash === serializeState(page.state)) return;
    const parsed = parseState(location.hash);
    page.notice = parsed.notice;
    page.errors.clear();
    page.commit(parsed.state, { fromUrl: true });
  });
  // Back and Forward (popstate, to an entry the page wrote) move between steps and views only:
  // the inputs stay as the reader last edited them, and the entry is rewritten with them. A hash
  // typed by hand fires popstate too, for an entry the page did not write: hashchange reads it.
  events.on(window, 'popstate', (event) => {
    if (!event.state?.[MARK_KEY] || location.hash === serializeState(page.state)) return;
    const { state } = parseState(location.hash);
    const moved = Object.fromEntries(HISTORY_KEYS.map((key) => [key, state[key]]));
    page.part('explain')?.close();
    page.commit({ ...page.state, ...moved }, { fromUrl: true, panel: false });
  });
  events.on(window, 'pagehide', () => write());

  return {
    write,
    committed: (next, previous, { edit, fromUrl }) =>
      write({ soon: edit, entry: !fromUrl && !next.embed && HISTORY_KEYS.some((key) => next[key] !== previous[key]) }),
    destroy() {
      window.clearTimeout(timer);
      events.removeAll();
    },
    listeners: events,
  };
}
