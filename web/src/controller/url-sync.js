// The URL follows the state, and the state follows the URL: after every commit the hash is
// written (a moment later while a reader types into cells), the host page is told (embeds), and a
// hash changed by hand is read and committed. A new step or view is a new history entry, so that
// Back returns to the step before (keeping the inputs as they are: Back is not undo); an edit
// replaces the entry, so that Back is not flooded with every keystroke. An embed never adds
// entries: its host's Back belongs to the host's page.

import { parseState, serializeState } from '../state.js';
import { listeners } from './listeners.js';

// Writing the URL is slow in Chromium: history.pushState or replaceState costs milliseconds with a
// long hash, and a new document URL makes the next style and layout slower too (at h = 4, n = 16,
// 6 of a step's 21 ms, bench/ui-latency.mjs). So the URL follows once the frame that shows a change
// is painted (a task queued from requestAnimationFrame runs after that frame), and a moment later
// while a reader types into cells. Where no frame comes (a hidden tab, a frame off screen) it
// follows within FRAME_WAIT.
const TYPING_DELAY = 250; // ms
const FRAME_WAIT = 100; // ms
// What a reader navigates (a history entry each), as opposed to what they edit.
const HISTORY_KEYS = ['step', 'view'];
// The history state of every entry the page writes, so that Back and Forward know its entries.
const MARK_KEY = 'attentionPlayground';
const MARK = Object.freeze({ [MARK_KEY]: true });

/**
 * The writer of the page's state into the URL (and to the host page, in an embed): write()
 * schedules, now() writes what waits, cancel() drops it, read(hash) says the page has read the
 * URL's hash.
 */
function urlWriter(page) {
  const { window, location, history } = page.dom;
  let timer = 0;
  let frame = 0;
  let entryWaiting = false; // a new step or view waits to be written: its entry is kept
  let postedHash = null;
  // The hash the page last wrote or read. A URL that holds another one was changed by someone
  // else (a hash typed or set by a script, Back) whose hashchange or popstate is still on its way:
  // a write waiting from before must not overwrite it, or that event would find the old hash and
  // the reader's change would be lost. The event reads it, and the write after it goes ahead.
  let knownHash = location.hash;

  function cancel() {
    window.clearTimeout(timer);
    window.cancelAnimationFrame(frame);
  }

  function now() {
    cancel();
    if (location.hash !== knownHash) return;
    const hash = serializeState(page.state);
    // The URL is a convenience: in an unusual sandboxed frame where history throws, the page works on.
    try {
      if (location.hash !== hash) history[entryWaiting ? 'pushState' : 'replaceState'](MARK, '', hash);
    } catch {
      /* keep going */
    }
    knownHash = location.hash;
    entryWaiting = false;
    if (hash !== postedHash) {
      postedHash = hash;
      page.host.state(hash);
    }
  }

  /**
   * Writes the state into the URL after the next painted frame, or `soon` (as a reader types).
   * `entry`: a new history entry (a step or view); one still waiting is kept by the writes after
   * it (a step, then an edit within the frame), dropped by a commit `fromUrl` (Back, Forward).
   */
  function write({ soon = false, entry = false, fromUrl = false } = {}) {
    cancel();
    entryWaiting = !fromUrl && (entryWaiting || entry);
    if (soon) {
      timer = window.setTimeout(now, TYPING_DELAY);
      return;
    }
    timer = window.setTimeout(now, FRAME_WAIT);
    frame = window.requestAnimationFrame(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(now, 0);
    });
  }

  function read(hash) {
    knownHash = hash;
  }

  return { write, now, cancel, read };
}

/** explain: the popover's part (Back and Forward close it). */
export function createUrlSync(page, { explain }) {
  const { window, location, history } = page.dom;
  const events = listeners();
  try {
    history.replaceState(MARK, '', location.href); // the entry the page opened in is the page's too
  } catch {
    /* a sandboxed frame where history throws: Back and Forward are the host's */
  }
  const { write, now, cancel, read } = urlWriter(page);

  // A hash typed by hand (hashchange) is the whole state.
  events.on(window, 'hashchange', () => {
    read(location.hash);
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
    if (!event.state?.[MARK_KEY]) return;
    read(location.hash);
    if (location.hash === serializeState(page.state)) return;
    const { state } = parseState(location.hash);
    const moved = Object.fromEntries(HISTORY_KEYS.map((key) => [key, state[key]]));
    explain.close();
    page.commit({ ...page.state, ...moved }, { fromUrl: true, panel: false });
    // The entry is rewritten with the inputs at once: the hashchange that follows a popstate
    // would otherwise read the entry's old inputs as a hash typed by hand.
    now();
  });
  events.on(window, 'pagehide', now);

  return {
    /** Writes what is waiting now (as the page is left, or a link to it is copied). */
    flush: now,
    committed: (next, previous, { edit, fromUrl }) =>
      write({
        soon: edit,
        fromUrl,
        entry: !fromUrl && !next.embed && HISTORY_KEYS.some((key) => next[key] !== previous[key]),
      }),
    destroy() {
      cancel();
      events.removeAll();
    },
    listeners: events,
  };
}
