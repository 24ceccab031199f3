// The cost lab's facts (cost-lab-view.js): the build being timed, where the run runs (a Web Worker
// or the page's thread), the best speed measured; and the note when the run is on the page's
// thread, with the reason.

import { h } from '../../views/dom.js';
import { bestGflops } from './cost-lab.js';
import { SLICE_MS } from '../../labs/worker-host.js';

const WHERE = { worker: 'cost.where.worker', 'main-thread': 'cost.where.main' };

/** The facts: { el (the list), note (the page-thread note), word(t), draw(t, record, build) }. */
export function createCostFacts() {
  const fact = (id) => h('dd', { id });
  const facts = { build: fact('cost-build'), where: fact('cost-where'), speed: fact('cost-speed') };
  const terms = { build: h('dt'), where: h('dt'), speed: h('dt') };
  const el = h(
    'dl',
    { class: 'cost-facts' },
    Object.keys(facts).map((key) => h('div', {}, terms[key], facts[key])),
  );
  const note = h('p', { class: 'cost-note', id: 'cost-main-note', hidden: true });

  function word(t) {
    for (const key of Object.keys(terms)) terms[key].textContent = t(`cost.fact.${key}`);
  }

  /** `build` is the engine's, shown until the run says which build it times. */
  function draw(t, record, build) {
    facts.build.textContent = t(`cost.build.${record?.build ?? build}`);
    facts.where.dataset.mode = record?.mode ?? '';
    facts.where.textContent = t(WHERE[record?.mode] ?? 'cost.where.none');
    const best = record && bestGflops(record.results);
    facts.speed.textContent = best ? t('cost.speed', { gflops: best.gflops.toFixed(1), n: best.n }) : '—';
    note.hidden = record?.mode !== 'main-thread';
    if (record?.mode === 'main-thread')
      note.textContent = t('cost.main.note', { reason: t(`cost.reason.${record.reason}`), ms: SLICE_MS });
  }

  return { el, note, word, draw };
}
