// The step's formula filled in with the numbers of the cell the popover describes (hovered,
// focused or chosen: controller/explain.js), drawn by views/filled-formula.js; and what a screen
// reader hears of it, in the page's one live region (#step-announce), written at most every
// SAY_EVERY ms (a pointer crossing a table must not queue a sentence per cell: the last cell
// reached is said).

import { renderFilled } from '../views/filled-formula.js';
import { filledSlots } from '../views/stage.js';

const SAY_EVERY = 600;

/** explain: the popover's part (the cell it describes). */
export function createFilledFormula(page, { explain }) {
  const { window } = page.dom;
  const stage = page.$('stage-body');
  const said = { timer: null, text: '' };

  function say(text) {
    const live = page.$('step-announce');
    said.text = text;
    if (said.timer !== null) return;
    said.timer = window.setTimeout(() => {
      said.timer = null;
      if (live.textContent !== said.text) live.textContent = said.text;
    }, SAY_EVERY);
  }

  function render() {
    const slots = filledSlots(stage);
    if (!slots || !page.model || page.state.view !== 'steps') return;
    const { state, model, t } = page;
    const cell = explain.cell();
    const text = renderFilled(slots, { state, model, t, cell, tokens: page.tokens() });
    if (text) say(text);
  }

  // The popover's cell changed (a hover, a focus, a tap, or it closed).
  explain.follow(render);

  return {
    render,
    destroy() {
      if (said.timer !== null) window.clearTimeout(said.timer);
      said.timer = null;
    },
  };
}
