// The export bar (views/export-bar.js: NumPy, JSON, CSV, PNG) and the printed handout
// (views/handout.js), which printing from the browser's menu lays out too.

import { renderExportBar } from '../views/export-bar.js';
import { renderHandout } from '../views/handout.js';
import { listeners } from './listeners.js';

export function createExports(page) {
  const { window } = page.dom;
  const events = listeners();
  const handout = () =>
    renderHandout(page.$('handout'), {
      state: page.state,
      model: page.model,
      t: page.t,
      engine: page.engine,
      theme: page.theme(),
    });

  /** Lays the handout out and opens the browser's print dialog. */
  function print() {
    handout();
    window.print();
  }

  // Printing from the browser's menu (or Ctrl+P) prints the same handout as the button.
  events.on(window, 'beforeprint', () => {
    if (page.model) handout();
  });

  return {
    render() {
      const { state, model, t } = page;
      renderExportBar(page.$('export-bar'), {
        state,
        model,
        t,
        theme: page.theme(),
        tokens: page.tokens(),
        onPrint: print,
      });
    },
    destroy: () => events.removeAll(),
    listeners: events,
  };
}
