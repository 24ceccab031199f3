// Step navigation: the map and the previous / next buttons (views/nav.js), ←/→ on the page, and
// what a screen reader is told when the step changes.

import { stepCount, stepWords, stepIdAt } from '../steps.js';
import { renderNav, updateMap } from '../views/nav.js';
import { listeners } from './listeners.js';

/** The words for step `step` (1-based) of this state: "第 3 / 9 步 打分:QKᵀ". */
export const stepTitle = (t, step, state) =>
  `${t('nav.position', { step, total: stepCount(state) })} ${t(stepWords(stepIdAt(state, step), state).title)}`;

export function createStepNav(page) {
  const { document } = page.dom;
  const events = listeners();
  const shown = () => !page.state.embed || page.state.nav; // an embed shows the map only with nav=1

  function go(step) {
    if (step < 1 || step > stepCount(page.state) || step === page.state.step) return;
    page.part('explain').close();
    // Said once to screen readers (the map and the title change silently).
    if (page.commit({ ...page.state, step }, { panel: false }))
      page.$('step-announce').textContent = stepTitle(page.t, step, page.state);
  }

  // ←/→ change the step, except while typing or moving inside a matrix, in an embed fixed to its
  // step (no nav=1), and in the labs.
  events.on(document, 'keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (page.state.view !== 'steps' || !shown()) return;
    if (event.target.closest?.('input, textarea, select, [contenteditable], td.pick, dialog')) return;
    if (event.key === 'ArrowRight') go(page.state.step + 1);
    else if (event.key === 'ArrowLeft') go(page.state.step - 1);
  });

  return {
    go,
    render({ frame }) {
      if (!shown()) return;
      if (frame) renderNav(page.$('nav'), { state: page.state, t: page.t, go });
      updateMap(page.$('nav'), { model: page.model, theme: page.theme() });
    },
    destroy: () => events.removeAll(),
    listeners: events,
  };
}
