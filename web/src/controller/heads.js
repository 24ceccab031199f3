// Multi-head attention's two choices: how many heads (the panel), and which head the article's
// steps show (the panel, and a head chosen in the overview on the concat step).

import { setHeads } from '../state.js';
import { toRows } from '../matrix.js';
import { STEPS } from '../steps.js';

/** The step a head chosen in the overview opens at: its scores, the first step that is its own. */
const HEAD_OPENS_AT = STEPS.indexOf('scores') + 1;

/** explain: the popover's part (another head closes it). */
export function createHeads(page, { explain }) {
  return {
    /** h heads; the core refuses a count that does not divide d_k and d_v, worded at the field. */
    setHeads(heads) {
      page.errors.delete('engine:heads');
      const { q, k, v } = page.model;
      page.commit(setHeads(page.state, heads, { q: toRows(q), k: toRows(k), v: toRows(v) }));
    },
    /** Shows head `head` (1-based) in the steps; from the overview, at its own first step. */
    showHead(head, { open = false } = {}) {
      explain.close();
      const next = { ...page.state, head };
      page.commit(open ? { ...next, step: HEAD_OPENS_AT } : next, { panel: true });
      if (open) page.$('step-title')?.focus();
    },
    destroy() {},
  };
}

/** The panel's requests about heads (views/panel.js calls on.heads and on.head). */
export const headHandlers = (heads) => ({
  heads: (value) => heads.setHeads(Number(value)),
  head: (value) => heads.showHead(Number(value)),
});
