// The page's one store: the state in the URL, the last good model, the errors shown, the notice,
// and what the reader looks at beyond the URL (`view`: the word chosen everywhere). The parts of
// the controller (controller/wiring.js) read it and change it only through commit() and render().
// Created by start(): nothing here lives at module level.
//
// A part is { render?(opts), committed?(next, previous, opts), destroy() } plus what it offers the
// others, which are handed it when they are created (controller/wiring.js); it is registered with
// page.use(name, part). render(opts) calls every part's render in the order they were registered;
// commit(next) computes through `compute` (the engine part's, set by the wiring) and, on success,
// tells every part (committed) before rendering.

import { serializeState, withoutEmbed, adopt } from '../state.js';
import { engineErrorField, describeEngineError } from '../engine-errors.js';
import { translator } from '../i18n/index.js';
import { stateTokens } from '../words.js';
import { option } from '../options.js';

/**
 * dom: { document, window, location, history, matchMedia } (the real ones on the page, fakes in
 * tests); host: embed/frame.js's connection to a host page; state, notice: parseState's.
 */
export function createPage({ dom, host, state, notice }) {
  const parts = new Map();
  const dark = dom.matchMedia('(prefers-color-scheme: dark)');
  const page = {
    dom,
    host,
    dark,
    state,
    notice,
    model: null, // the last good result: stays on screen while an input is invalid
    engine: null,
    /** The model of a state (the engine part's compute, controller/engine-calls.js); throws the core's Error. */
    compute: null,
    t: translator(state.lang),
    errors: new Map(), // field key → message (views/panel.js showErrors)
    view: { row: null }, // the word (row) chosen everywhere, or null
    $: (id) => dom.document.getElementById(id),
    /** The colours in use: the reader's choice, or the system's. */
    theme: () => (page.state.theme === 'system' ? (dark.matches ? 'dark' : 'light') : page.state.theme),
    /** The words beside the rows (words.js): every view and export reads these. */
    tokens: () => stateTokens(page.state),
    /** The full page (no embed switches) for this state, e.g. for "Open in the playground". */
    fullPageUrl: () => `${dom.location.href.replace(/#.*$/, '')}${serializeState(withoutEmbed(page.state))}`,
    use(name, part) {
      parts.set(name, part);
      return part;
    },
    /** Shows everything; `frame: false` skips the parts a value edit cannot change (header, steps). */
    render({ panel = true, frame = true } = {}) {
      for (const part of parts.values()) part.render?.({ panel, frame });
    },
    commit: (next, options) => commit(page, parts, next, options),
    destroy() {
      for (const part of [...parts.values()].reverse()) part.destroy();
      parts.clear();
    },
  };
  return page;
}

/**
 * Computes `next`; on success it becomes the state and everything is shown. A notice about the
 * link (it did not parse) stays until the reader changes something (`fromUrl` is false). `edit`
 * is a value typed into a cell: the URL follows a moment later and the frame is not redrawn;
 * `gesture` names a run of edits that undo takes as one (an arrow's drag, controller/arrows.js).
 */
function commit(page, parts, next, { panel = true, edit = false, fromUrl = false, gesture } = {}) {
  // The loss's matrix follows AV's shape (n, d_v, the heads), and the reader stays on the same step.
  next = adopt(page.state, next, { fromUrl });
  for (const key of page.errors.keys()) if (key.startsWith('engine')) page.errors.delete(key);
  try {
    page.model = page.compute(next);
  } catch (error) {
    // Worded from the Error's code and numbers, in the reader's language, at the field it is about
    // (and at its cell, for a matrix).
    const field = engineErrorField(error);
    const cell = error.cell && !option(field) ? `:${error.cell.row}:${error.cell.col}` : '';
    page.errors.set(
      field ? `engine:${field}${cell}` : 'engine',
      describeEngineError(error, translator(next.lang), next),
    );
    if (page.model) page.render({ panel: false }); // nothing to show yet on the very first computation
    return false;
  }
  const previous = page.state;
  const langChanged = next.lang !== previous.lang;
  const noticeGone = page.notice && !fromUrl;
  if (noticeGone) page.notice = null;
  page.state = next;
  page.t = translator(next.lang);
  if (page.view.row !== null && page.view.row >= next.n) page.view.row = null;
  for (const part of parts.values()) part.committed?.(next, previous, { edit, fromUrl, gesture });
  page.render({ panel: panel || langChanged, frame: !edit || langChanged || noticeGone });
  return true;
}
