// The lab view 'scale-lab' (state.view). Being written: shows the lab's name until its view lands.
import { h } from './dom.js';

export function createScaleLabView() {
  const title = h('h2', {});
  const element = h('section', { class: 'lab lab-scale-lab' }, title);
  return {
    element,
    update({ t }) { title.textContent = t('view.scale-lab'); },
    destroy() {},
  };
}
