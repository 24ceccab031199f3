// The labs (state.js's VIEWS besides 'steps'). Each is created when its view opens and destroyed
// when it closes: create({ engine, setState(patch), announce(text), keep }) → { element,
// update(ctx), destroy() }, where update gets { state, t, theme, model } after every change — a lab
// keeps its own transient state (a run in progress, the typed answer) across a change of language,
// and in `keep`, a Map of its own kept while the page is open, what must outlive the lab's closing
// (the exercise's answers and score).
// The labs' code is a part of the page that loads when a lab first opens (parts.js, lab-views.js).

import { loadPart } from '../parts.js';
import { renderViewSwitch } from '../views/view-switch.js';
import { keepingFocus } from './keep-focus.js';

/**
 * explain: the popover's part (choosing a view closes it); views: the labs' views by name (tests
 * hand in their own); by default lab-views.js's, loaded when first needed.
 */
export function createLabs(page, { explain, views }) {
  const { document, window } = page.dom;
  let lab = null; // the open lab: { view, instance }, or null on the stepper
  let failed = null; // the error of a failed load of the labs' code, shown in the lab's place
  const kept = new Map(); // a lab's view → its `keep`

  // Emptied first, then written at the next frame: the same words twice in a row (checking the
  // same wrong answer again) are still said twice.
  function announce(text) {
    page.$('step-announce').textContent = '';
    window.requestAnimationFrame(() => {
      page.$('step-announce').textContent = text;
    });
  }

  /**
   * The labs' views, at once when they are loaded; otherwise null, and the page renders again
   * once they are (or once the load failed: the lab's place says why, until the reader chooses a
   * view again). The reader may have left the lab by then: render decides anew.
   */
  let loading = false;
  function labViews() {
    if (views || loading || failed) return views ?? null;
    loading = true;
    loadPart('labs')
      .then(
        (part) => {
          views = part.LAB_VIEWS;
        },
        (error) => {
          failed = error;
        },
      )
      .finally(() => {
        loading = false;
        page.render({ panel: false });
      });
    return null;
  }

  /** Creates the lab of state.view if it is not open yet, and shows it the current state. */
  function open() {
    const { state } = page;
    if (lab?.view !== state.view) {
      const loaded = labViews();
      if (!loaded) {
        close();
        if (failed) page.$('lab-body').textContent = page.t('app.partFailed', { message: failed.message });
        return;
      }
      close();
      if (!kept.has(state.view)) kept.set(state.view, new Map());
      const instance = loaded[state.view]({
        engine: page.engine,
        setState: (patch) => page.commit({ ...page.state, ...patch }, { panel: false }),
        // A whole new state on the stepper (the training lab's hand-off): the panel shows its inputs.
        openStepper: (next) => page.commit(next),
        announce,
        keep: kept.get(state.view),
      });
      lab = { view: state.view, instance };
      page.$('lab-body').replaceChildren(instance.element);
    }
    keepingFocus(document, () => lab.instance.update({ state, t: page.t, theme: page.theme(), model: page.model }));
  }

  function close() {
    if (!lab) return;
    lab.instance.destroy();
    lab = null;
    page.$('lab-body').replaceChildren();
  }

  function choose(view) {
    if (view === page.state.view) return;
    failed = null; // a load that failed is tried again
    explain.close();
    if (page.commit({ ...page.state, view }, { panel: false }))
      page.$('step-announce').textContent = page.t(`view.${view}`);
  }

  return {
    render({ frame }) {
      if (page.state.view === 'steps') close();
      else open();
      if (frame) renderViewSwitch(page.$('views'), { state: page.state, t: page.t, onView: choose });
    },
    destroy: close,
  };
}
