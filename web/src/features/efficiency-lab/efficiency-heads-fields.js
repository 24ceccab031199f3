// The shared-heads panel's link fields: h query heads (effh) and g key–value heads (effg), written
// only while that panel is open. A hand-written link whose g does not divide h opens with g = 1
// (which divides every h), and its notice names the field effg (the feature's `fit`).

import { oneOf } from '../../fields.js';
import { HEAD_CHOICES, KV_HEAD_CHOICES, sharesEvenly } from './efficiency-shared-heads.js';

/** The panel's h and g when a link has none: two query heads sharing one key–value head (MQA). */
export const HEADS_DEFAULTS = Object.freeze({ heads: 2, kvHeads: 1 });

const onHeads = (s) => s.view === 'efficiency-lab' && s.effpanel === 'heads';

// (state.js writes a feature's fields only in its view; `only` adds the panel.)
export const HEADS_FIELDS = Object.freeze([
  { key: 'effh', type: oneOf(HEAD_CHOICES), initial: HEADS_DEFAULTS.heads, only: (s) => s.effpanel === 'heads' },
  { key: 'effg', type: oneOf(KV_HEAD_CHOICES), initial: HEADS_DEFAULTS.kvHeads, only: (s) => s.effpanel === 'heads' },
]);

/** A link's g that does not divide its h: dropped (g = 1), and named in the notice. Else null. */
export function fitSharedHeads(state) {
  if (!onHeads(state) || sharesEvenly(state.effh, state.effg)) return null;
  return {
    change: { effg: 1 },
    notice: { key: 'linkLab', reason: 'indivisible', problem: 'effg', text: String(state.effg), h: state.effh },
  };
}
