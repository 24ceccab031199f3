// The labs (state.js's VIEWS besides 'steps'). Each is created when its view opens and destroyed
// when it closes: create({ engine, setState(patch), announce(text), keep }) → { element,
// update(ctx), destroy() }, where update gets { state, t, theme, model } after every change — a lab
// keeps its own transient state (a run in progress, the typed answer) across a change of language,
// and in `keep`, a Map of its own kept while the page is open, what must outlive the lab's closing
// (the exercise's answers and score).
// A new lab is one entry in LAB_VIEWS (and its view in state.js VIEWS).

import { createScaleLabView } from '../views/scale-lab-view.js';
import { createCostLabView } from '../views/cost-lab-view.js';
import { createExerciseView } from '../views/exercise-view.js';
import { createTrainLabView } from '../views/train-lab-view.js';
import { renderViewSwitch } from '../views/view-switch.js';
import { keepingFocus } from './keep-focus.js';

export const LAB_VIEWS = Object.freeze({
  'scale-lab': createScaleLabView,
  'cost-lab': createCostLabView,
  exercise: createExerciseView,
  'train-lab': createTrainLabView,
});

export function createLabs(page, { views = LAB_VIEWS } = {}) {
  const { document, window } = page.dom;
  let lab = null; // the open lab: { view, instance }, or null on the stepper
  const kept = new Map(); // a lab's view → its `keep`

  // Emptied first, then written at the next frame: the same words twice in a row (checking the
  // same wrong answer again) are still said twice.
  function announce(text) {
    page.$('step-announce').textContent = '';
    window.requestAnimationFrame(() => {
      page.$('step-announce').textContent = text;
    });
  }

  /** Creates the lab of state.view if it is not open yet, and shows it the current state. */
  function open() {
    const { state } = page;
    if (lab?.view !== state.view) {
      close();
      if (!kept.has(state.view)) kept.set(state.view, new Map());
      const instance = views[state.view]({
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
    page.part('explain').close();
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
