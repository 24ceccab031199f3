// The exercise's hints (exercise-view.js): a Hint button revealing the sub-steps one at a time,
// each with its live formula (one line per sum), and Show answer; then the steps shown so far and
// the answer.

import { h } from '../../views/dom.js';
import { formatNumber } from '../../format.js';
import { typographic } from './exercise-math.js';

// aria-disabled rather than disabled: a button that becomes disabled loses focus, and a reader
// who pressed Next to the last question must stay on Next.
export function setDisabled(button, off) {
  if (off) button.setAttribute('aria-disabled', 'true');
  else button.removeAttribute('aria-disabled');
}

/**
 * The hints: { tools, steps, solution, draw({ t, question, hintSteps, rec, name }) } — `tools` the
 * buttons, `steps` what they revealed. hint() and show() are called on the buttons; on(target,
 * type, handler) registers the listeners.
 */
export function createHints({ on, hint, show }) {
  const hintButton = h('button', { type: 'button', id: 'ex-hint' });
  const showButton = h('button', { type: 'button', id: 'ex-show' });
  const title = h('h3', { id: 'ex-steps-title' });
  const list = h('ol', { class: 'ex-steps-list' });
  const solution = h('p', { class: 'ex-solution' });
  const steps = h('section', { class: 'ex-steps', 'aria-labelledby': 'ex-steps-title' }, title, list, solution);
  const tools = h('div', { class: 'ex-tools' }, hintButton, showButton);
  on(hintButton, 'click', hint);
  on(showButton, 'click', show);

  function draw({ t, question, hintSteps, rec, name }) {
    const all = rec.hints >= hintSteps.length;
    hintButton.textContent = all ? t('ex.hintsAll') : t('ex.hint', { shown: rec.hints, total: hintSteps.length });
    setDisabled(hintButton, all);
    showButton.textContent = t('ex.show');
    setDisabled(showButton, rec.shown);
    title.textContent = t('ex.steps');
    list.replaceChildren(
      ...hintSteps.slice(0, rec.hints).map((step) =>
        h(
          'li',
          {},
          h('span', { class: 'ex-step-name' }, t(`ex.step.${step.step}`)),
          step.formula.split('; ').map((line) => h('span', { class: 'ex-step-line' }, line)),
        ),
      ),
    );
    solution.textContent = rec.shown
      ? t('ex.answer', { cell: name, answer: typographic(question.answer), exact: formatNumber(question.expected, 4) })
      : '';
    steps.hidden = rec.hints === 0 && !rec.shown;
  }
  return { tools, steps, solution, draw };
}
