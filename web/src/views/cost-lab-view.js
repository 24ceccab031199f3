// The lab view 'cost-lab' (state.view). Being written: shows the lab's name until its view lands.
import { h } from './dom.js';

export function createCostLabView() {
  const title = h('h2', {});
  const element = h('section', { class: 'lab lab-cost-lab' }, title);
  return {
    element,
    update({ t }) { title.textContent = t('view.cost-lab'); },
    destroy() {},
  };
}
