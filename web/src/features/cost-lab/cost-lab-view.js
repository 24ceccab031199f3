// The lab view 'cost-lab' (state.view): article §8, "the cost of n²". It times attention in the
// reader's own browser — cost-run.js runs the measurements in a Web Worker, or in slices on
// the page's thread where no Worker can start — and draws them as they arrive: time against n on
// log–log axes, one line per path with its fitted slope, and beside it the working memory each
// path needs, from the core's own memory check. Its parts: the controls (cost-lab-controls.js),
// the facts (cost-lab-facts.js), the time part (cost-lab-time.js) and the memory part
// (cost-lab-memory.js), with their charts (cost-lab-chart.js); what a run's events change is
// cost-record.js.
//
// The run lives in this view, not in the state: update() (every state change, a language switch
// included) re-labels what is on screen and the run goes on; destroy() stops it.

import { h } from '../../views/dom.js';
import { serializeState } from '../../state.js';
import { memoryTable, planUpTo, slopes } from './cost-lab.js';
import { startCostRun } from './cost-run.js';
import { newRecord, takeEvent } from './cost-record.js';
import workerSource from '../../labs/labs-worker-source.js';
import { createCostControls, statusLine } from './cost-lab-controls.js';
import { createCostFacts } from './cost-lab-facts.js';
import { createTimePart, slopeText } from './cost-lab-time.js';
import { createMemoryPart } from './cost-lab-memory.js';

/** What a screen reader hears when a run ends: the SIMD path's slope, and ⚠ if a slope is disturbed. */
function endWords(t, record) {
  if (record.status !== 'done') return statusLine(t, record);
  const fitted = slopes(record.results, record.plan.paths);
  const busy = Object.values(fitted).some((fit) => fit?.busy);
  return [t('cost.announce.done', { slope: slopeText(t, fitted.simd) }), busy ? t('cost.announce.busy') : '']
    .filter(Boolean)
    .join(' ');
}

export function createCostLabView({ engine, setState, announce }) {
  // state and t: the last update's; record: the current or last run (cost-record.js)
  const view = { state: null, t: null, record: null, destroyed: false };
  const memory = memoryTable(engine);
  const controls = createCostControls({
    memory,
    setState,
    run: () => begin(),
    stop: () => view.record?.handle.stop(),
  });
  const facts = createCostFacts();
  const time = createTimePart();
  const memoryPart = createMemoryPart(memory);
  const title = h('h2', {});
  const lede = h('p', { class: 'cost-lede' });
  // §8 ends on a promise — the n² matrix is the bottleneck that article 10 takes on — and the
  // efficiency lab keeps it: a link to that view (a hash, not an import: features/index.js).
  const next = h('a', { class: 'cost-next-link' });
  const nextLine = h('p', { class: 'cost-next' }, next);
  const element = h(
    'section',
    { class: 'lab lab-cost-lab', dataset: { status: 'idle' } },
    h('header', { class: 'cost-head' }, title, lede),
    controls.el,
    facts.el,
    facts.note,
    time.el,
    memoryPart.el,
    nextLine,
  );

  /** Everything a run's events change: controls, progress, the facts, the time chart and table. */
  function renderRun() {
    const { t, record } = view;
    element.dataset.status = record?.status ?? 'idle';
    controls.draw(t, record);
    facts.draw(t, record, (engine.timing ?? engine).build); // the build its worker times (engine.js)
    // The sizes and paths on screen: the run's, or before any run the plan the button would start.
    time.draw({ t, record, plan: record?.plan ?? planUpTo(view.state.costmax) });
  }

  /** Starts a run over the sizes up to state.costmax; its events are shown as they arrive. */
  async function begin() {
    if (view.record?.status === 'running') return;
    const { runButton, stopButton } = controls;
    const plan = planUpTo(view.state.costmax);
    const handle = startCostRun({ engine, workerSource, plan });
    const mine = newRecord({ handle, plan, build: engine.build, startedAt: performance.now() });
    view.record = mine;
    const wasOnRun = document.activeElement === runButton;
    renderRun();
    // A disabled button loses focus: it moves to where the next action is (and back at the end).
    if (wasOnRun) stopButton.focus({ preventScroll: true });
    announce(view.t('cost.announce.start'));
    for await (const event of handle) {
      if (view.destroyed || view.record !== mine) return;
      const onStop = document.activeElement === stopButton;
      takeEvent(mine, event, performance.now());
      renderRun();
      if (onStop && stopButton.disabled) runButton.focus({ preventScroll: true });
    }
    if (!view.destroyed) announce(endWords(view.t, mine));
  }

  return {
    element,
    update({ state, t }) {
      Object.assign(view, { state, t });
      title.textContent = t('view.cost-lab');
      lede.textContent = t('cost.lede');
      controls.word(t, state);
      facts.word(t);
      time.word(t);
      memoryPart.draw(t);
      next.textContent = t('cost.next');
      next.setAttribute('href', serializeState({ ...state, view: 'efficiency-lab' }));
      renderRun();
    },
    destroy() {
      view.destroyed = true;
      time.destroy();
      memoryPart.destroy();
      view.record?.handle.stop();
    },
  };
}
