// The row of views under the header: the nine steps and the three labs. Each is a link to its own
// state (so it opens in a new tab, or is copied, like any state link); a plain click switches in
// place. Render only. The links are built once and updated in place: a step changes their hrefs,
// and must not rebuild (and re-lay out) the header.

import { h, setText } from './dom.js';
import { VIEWS, serializeState } from '../state.js';
import { scrollCue } from './scroll-cue.js';

const built = new WeakMap(); // root → { view: <a> }

/** ctx: { state, t, onView(view) } */
export function renderViewSwitch(root, { state, t, onView }) {
  let links = built.get(root);
  if (!links) {
    links = Object.fromEntries(
      VIEWS.map((view) => [
        view,
        h('a', {
          dataset: { view },
          onclick: (event) => {
            if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            onView(view);
          },
        }),
      ]),
    );
    root.replaceChildren(
      h(
        'ul',
        {},
        VIEWS.map((view) => h('li', {}, links[view])),
      ),
    );
    built.set(root, links);
    scrollCue(root); // on a phone the row scrolls, its far edge faded
  }
  setIfChanged(root, 'aria-label', t('views.label'));
  for (const view of VIEWS) {
    const a = links[view];
    setIfChanged(a, 'href', serializeState({ ...state, view }));
    if (view === state.view) setIfChanged(a, 'aria-current', 'page');
    else a.removeAttribute('aria-current');
    setText(a, t(`view.${view}`));
  }
  if (root.dataset.shown !== state.view) showCurrent(root, links[state.view], state.view);
}

/**
 * On a phone the row scrolls: a view opened (by a link, say) has its tab scrolled into the row,
 * not left under the faded edge. Once per view, so that a reader's own scrolling stays; centred, measured
 * at the next frame, when the page is laid out anyway.
 */
function showCurrent(root, link, view) {
  root.dataset.shown = view;
  requestAnimationFrame(() => {
    if (root.scrollWidth <= root.clientWidth) return;
    const [row, tab] = [root.getBoundingClientRect(), link.getBoundingClientRect()];
    // to the middle of the row (scrollLeft stops at either end)
    if (tab.left < row.left || tab.right > row.right)
      root.scrollLeft += (tab.left + tab.right - row.left - row.right) / 2;
  });
}

function setIfChanged(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
