// The stage: which body the page shows (the stepper's stage or a lab's), the current step drawn
// into it (views/stage.js), and the word a click on a row's label chooses everywhere (chooseRow,
// the choose-word entry of controller/actions.js).

import { renderStage } from '../views/stage.js';
import { keepingFocus } from './keep-focus.js';

/**
 * editing: the panel's requests (its on.*, which the stage's switches and cells call too); heads:
 * the heads part (a head chosen in the overview); arrows: §3's arrows (the scores step's picture).
 */
export function createStage(page, { editing, heads, arrows }) {
  const { document } = page.dom;
  const stage = page.$('stage-body');

  /** Chooses the word whose row is marked everywhere (and mixed on the AV step). */
  function chooseRow(i) {
    page.view.row = i;
    page.render({ panel: false, frame: false });
  }

  return {
    chooseRow,
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
          on: editing.on,
          theme: page.theme(),
          tokens: page.tokens(),
          stale: page.errors.size > 0,
          row: page.view.row,
          onRow: chooseRow,
          chooseHead: (head) => heads.showHead(head, { open: true }),
          arrows: () => arrows.draw(),
        }),
      );
    },
    destroy() {},
  };
}
