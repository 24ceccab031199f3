// The export bar (views/export-bar.js: NumPy, JSON, CSV, PNG) and the printed handout
// (views/handout.js), which printing from the browser's menu lays out too. The handout's code, as
// the exports', is a part of the page loaded when first needed (parts.js, views/export-files.js).

import { renderExportBar } from '../views/export-bar.js';
import { loadPart, partNow } from '../parts.js';
import { listeners } from './listeners.js';

export function createExports(page) {
  const { window } = page.dom;
  const events = listeners();
  const handout = ({ renderHandout }) =>
    renderHandout(page.$('handout'), {
      state: page.state,
      model: page.model,
      t: page.t,
      engine: page.engine,
      theme: page.theme(),
    });

  /** Lays the handout out and opens the browser's print dialog. */
  async function print() {
    handout(partNow('exports') ?? (await loadPart('exports')));
    window.print();
  }

  // Printing from the browser's menu (or Ctrl+P) prints the same handout as the button, laid out
  // before the browser prints: the self-contained builds have the part at once (partNow). The
  // development page loads it as a file; there a print before it has loaded lays the handout out
  // when it arrives, for the print after.
  events.on(window, 'beforeprint', () => {
    if (!page.model) return;
    const part = partNow('exports');
    if (part) handout(part);
    else loadPart('exports').then((loaded) => page.model && handout(loaded));
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
