// The training lab's learned weights (train-lab-view.js): each run's W_Q and W_K, head by head, as
// heatmaps, with what their rows are — d_token of the embedding, then n of the position.

import { h, setText } from '../../views/dom.js';
import { renderHeatmap } from '../../views/heatmap.js';
import { taskFor } from './train-lab.js';

/** { el, word({ t }), draw({ state, t, theme }, d, names) }: `d` the runner's data, `names` each run's name. */
export function createParamsPart() {
  const title = h('h3', {});
  const text = h('p', {});
  const params = h('div', { class: 'train-params', id: 'train-params' });
  // The heatmaps on screen and what they show: rebuilt when that changes, else redrawn in place.
  const heatmaps = { key: '', items: [] };
  return {
    el: h('section', { class: 'train-part' }, title, text, params),
    word: ({ t }) => setText(title, t('train.params.title')),
    draw: (look, d, names) => drawParams({ params, heatmaps, text }, look, d, names),
  };
}

function drawParams({ params, heatmaps, text }, { state, t, theme }, d, names) {
  if (!d.runs.length) return;
  // x_i = E[token] ⊕ one-hot(i): W's rows are d_token of the embedding, then n of the position.
  const n = taskFor(state).probe.length;
  setText(text, t('train.params.text', { dToken: d.runs[0].parameters.wQ[0].rows - n, n }));
  const figures = d.runs.flatMap((run, r) =>
    ['wQ', 'wK'].flatMap((which) =>
      run.parameters[which].map((matrix, head) => ({
        matrix,
        kind: 'div',
        label: t(`train.params.${which.toLowerCase()}`, { run: names[r], head: head + 1 }),
      })),
    ),
  );
  const key = figures.map((f) => `${f.label}/${f.matrix.rows}x${f.matrix.cols}`).join('|');
  const look = { t, theme, digits: 2 };
  if (key !== heatmaps.key) {
    heatmaps.key = key;
    heatmaps.items = figures.map((spec) => ({ spec, map: renderHeatmap(spec, look) }));
    params.replaceChildren(
      ...heatmaps.items.map(({ spec, map }) =>
        h('figure', { class: 'train-heatmap' }, h('figcaption', {}, spec.label), map.el),
      ),
    );
  } else heatmaps.items.forEach((item, k) => item.map.update(figures[k], look));
}
