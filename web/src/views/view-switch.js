// The row of views under the header: the nine steps and the three labs. Each is a link to its own
// state (so it opens in a new tab, or is copied, like any state link); a plain click switches in
// place. Render only.

import { h } from './dom.js';
import { VIEWS, serializeState } from '../state.js';

/** ctx: { state, t, onView(view) } */
export function renderViewSwitch(root, { state, t, onView }) {
  root.setAttribute('aria-label', t('views.label'));
  root.replaceChildren(
    h(
      'ul',
      {},
      VIEWS.map((view) =>
        h(
          'li',
          {},
          h(
            'a',
            {
              href: serializeState({ ...state, view }),
              'aria-current': view === state.view ? 'page' : undefined,
              dataset: { view },
              onclick: (event) => {
                if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
                event.preventDefault();
                onView(view);
              },
            },
            t(`view.${view}`),
          ),
        ),
      ),
    ),
  );
}
