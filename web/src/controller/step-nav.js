// Step navigation: go(step), which the map and the previous / next buttons (views/nav.js) and ←/→
// ask for (their entries in controller/actions.js), and what a screen reader is told when the step
// changes.

import { stepCount, stepWords, stepIdAt } from '../steps.js';
import { renderNav, updateMap } from '../views/nav.js';

/** The words for step `step` (1-based) of this state: "第 3 / 9 步 打分:QKᵀ". */
export const stepTitle = (t, step, state) =>
  `${t('nav.position', { step, total: stepCount(state) })} ${t(stepWords(stepIdAt(state, step), state).title)}`;

/** explain: the popover's part (a new step closes it). */
export function createStepNav(page, { explain }) {
  const shown = () => !page.state.embed || page.state.nav; // an embed shows the map only with nav=1

  function go(step) {
    if (step < 1 || step > stepCount(page.state) || step === page.state.step) return;
    explain.close();
    // Said once to screen readers (the map and the title change silently).
    if (page.commit({ ...page.state, step }, { panel: false }))
      page.$('step-announce').textContent = stepTitle(page.t, step, page.state);
  }

  return {
    go,
    /** Whether the map and its buttons are on the page (an embed shows them only with nav=1). */
    shown,
    render({ frame }) {
      if (!shown()) return;
      if (frame) renderNav(page.$('nav'), { state: page.state, t: page.t });
      updateMap(page.$('nav'), { model: page.model, theme: page.theme() });
    },
    destroy() {},
  };
}
