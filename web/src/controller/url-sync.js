// The URL follows the state, and the state follows the URL: after every commit the hash is
// written (a moment later while a reader types into cells), the host page is told (embeds), and a
// hash changed by hand or by the back button is read and committed.

import { parseState, serializeState } from '../state.js';
import { listeners } from './listeners.js';

// Writing the URL is slow in Chromium (history.replaceState costs tens of ms with a long hash),
// so while a reader types into cells the URL follows a moment later; everything else writes it at once.
const TYPING_DELAY = 250; // ms

export function createUrlSync(page) {
  const { window, location, history } = page.dom;
  const events = listeners();
  let timer = 0;
  let postedHash = null;

  function write({ soon = false } = {}) {
    window.clearTimeout(timer);
    const now = () => {
      const hash = serializeState(page.state);
      // The URL is a convenience: in an unusual sandboxed frame where history throws, the page works on.
      try {
        if (location.hash !== hash) history.replaceState(null, '', hash);
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

  events.on(window, 'hashchange', () => {
    if (location.hash === serializeState(page.state)) return;
    const parsed = parseState(location.hash);
    page.notice = parsed.notice;
    page.errors.clear();
    page.commit(parsed.state, { fromUrl: true });
  });
  events.on(window, 'pagehide', () => write());

  return {
    write,
    committed: (next, previous, { edit }) => write({ soon: edit }),
    destroy() {
      window.clearTimeout(timer);
      events.removeAll();
    },
    listeners: events,
  };
}
