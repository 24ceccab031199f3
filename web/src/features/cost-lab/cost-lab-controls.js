// The cost lab's controls (cost-lab-view.js): the largest n to time, Run and Stop, and the run's
// progress with its status line. Ids stay across updates, so that the app's keepingFocus() finds
// the focused control again.

import { h } from '../../views/dom.js';
import { COST_PLAN, planStep, formatDuration } from './cost-lab.js';

/** The run's status in a line: idle, starting, warming up, the measurement under way, or how it ended. */
export function statusLine(t, record) {
  if (!record) return t('cost.status.idle');
  switch (record.status) {
    case 'done':
      return t('cost.status.done', { count: record.total, time: formatDuration(record.endedAt - record.startedAt) });
    case 'stopped':
      return t('cost.status.stopped', { done: record.done, total: record.total });
    case 'error':
      return t('cost.status.error', { message: record.error?.message ?? '' });
    default: {
      if (!record.mode) return t('cost.status.starting');
      if (!record.warmedUp) return t('cost.status.warming');
      const next = planStep(record.plan, record.done);
      return next
        ? t('cost.status.running', {
            n: next.n,
            path: t(`cost.path.${next.path}`),
            step: record.done + 1,
            total: record.total,
          })
        : '';
    }
  }
}

/**
 * The controls: { el, runButton, stopButton, word(t, state), draw(t, record) }. setState(patch)
 * for the largest n; run() and stop() for the buttons. `memory` (cost-lab.js memoryTable) says
 * which sizes the core refuses on the reference path.
 */
export function createCostControls({ memory, setState, run, stop }) {
  const maxLabel = h('label', { for: 'cost-max' });
  const maxSelect = h(
    'select',
    { id: 'cost-max', onchange: () => setState({ costmax: Number(maxSelect.value) }) },
    COST_PLAN.sizes.map((n) => h('option', { value: String(n) })),
  );
  const runButton = h('button', { type: 'button', id: 'cost-run', class: 'primary', onclick: run });
  const stopButton = h('button', { type: 'button', id: 'cost-stop', onclick: stop });
  const progress = h('progress', { id: 'cost-progress', max: 1, value: 0 });
  const statusText = h('p', { class: 'cost-status-text', id: 'cost-status' });
  const el = h(
    'div',
    { class: 'cost-controls' },
    h('div', { class: 'cost-field' }, maxLabel, maxSelect),
    h('div', { class: 'cost-buttons' }, runButton, stopButton),
    h('div', { class: 'cost-progress' }, progress, statusText),
  );

  /** The texts no run changes, and the largest n of the state. */
  function word(t, state) {
    maxLabel.textContent = t('cost.max.label');
    [...maxSelect.options].forEach((option) => {
      const n = Number(option.value);
      option.textContent = t(
        memory.find((row) => row.n === n)?.paths.reference.fits === false ? 'cost.max.refused' : 'cost.max.option',
        { n },
      );
    });
    maxSelect.value = String(state.costmax);
    stopButton.textContent = t('cost.stop');
    progress.setAttribute('aria-label', t('cost.progress.label'));
  }

  /** What a run changes: the buttons, the select (a run in progress keeps its plan), the progress. */
  function draw(t, record) {
    const running = record?.status === 'running';
    runButton.textContent = t(record && !running ? 'cost.run.again' : 'cost.run');
    runButton.disabled = running;
    stopButton.disabled = !running;
    maxSelect.disabled = running; // the run in progress keeps its plan
    progress.max = record?.total ?? 1;
    progress.value = record?.done ?? 0;
    statusText.textContent = statusLine(t, record);
  }

  return { el, runButton, stopButton, word, draw };
}
