// The stage: which body the page shows (the stepper's stage or a lab's), the current step drawn
// into it (views/stage.js), and the word a click on a row's label chooses everywhere.

import { renderStage } from '../views/stage.js';
import { keepingFocus } from './keep-focus.js';
import { listeners } from './listeners.js';

export function createStage(page) {
  const { document } = page.dom;
  const events = listeners();
  const stage = page.$('stage-body');

  /** Chooses the word whose row is marked everywhere (and mixed on the AV step). */
  function chooseRow(i) {
    page.view.row = i;
    page.render({ panel: false, frame: false });
  }

  events.on(stage, 'click', (event) => {
    const word = event.target.closest?.('.row-pick');
    if (word) chooseRow(Number(word.dataset.row));
  });

  return {
    render() {
      const { state } = page;
      const stepper = state.view === 'steps';
      // Written only on a change of view: a step must not restyle the whole page (body[data-view] is in styles/).
      if (document.body.dataset.view !== state.view) {
        document.body.dataset.view = state.view;
        stage.hidden = !stepper;
        page.$('lab-body').hidden = stepper;
      }
      // The stage first: a new step measures where its matrices were (for the motion) while the
      // page is still laid out as it was.
      if (!stepper) return;
      keepingFocus(document, () =>
        renderStage(stage, {
          state,
          model: page.model,
          t: page.t,
          on: page.part('editing').on,
          theme: page.theme(),
          tokens: page.tokens(),
          stale: page.errors.size > 0,
          row: page.view.row,
          onRow: chooseRow,
          chooseHead: (head) => page.part('heads').showHead(head, { open: true }),
          arrows: () => page.part('arrows')?.draw() ?? null,
        }),
      );
    },
    destroy: () => events.removeAll(),
    listeners: events,
  };
}
