// The lab view 'exercise' (state.view). Being written: shows the lab's name until its view lands.
import { h } from './dom.js';

export function createExerciseView() {
  const title = h('h2', {});
  const element = h('section', { class: 'lab lab-exercise' }, title);
  return {
    element,
    update({ t }) { title.textContent = t('view.exercise'); },
    destroy() {},
  };
}
