// The lab "效率与变体" (article 10, promised by §8): the reader's Q, K, V through the efficient
// paths — tiles with an online softmax, a KV cache, a sliding window, shared heads, linear
// attention — each beside the full n² attention, and their costs measured in the tab.

import { integer, oneOf } from '../../fields.js';
import { PANEL_IDS, INPUTS, LAB_LIMIT, EFFICIENCY_DEFAULTS as D } from './efficiency-lab.js';
import { HEADS_FIELDS, fitSharedHeads } from './efficiency-heads-fields.js';
import words from './words.js';

const on = (panel) => (s) => s.effpanel === panel;

export default Object.freeze({
  view: 'efficiency-lab',
  fields: [
    { key: 'effpanel', type: oneOf(PANEL_IDS), initial: D.panel },
    // Where Q, K, V come from; random inputs have their n and seed.
    { key: 'effinput', type: oneOf(INPUTS), initial: D.input },
    { key: 'effn', type: integer(1, LAB_LIMIT), initial: D.n, only: (s) => s.effinput === 'random' },
    { key: 'effseed', type: integer(0, 2 ** 31 - 1), initial: D.seed, only: (s) => s.effinput === 'random' },
    // The tiles: B_r × B_c, and how many tiles are done (the stepper's place, 1-based).
    { key: 'efftr', type: integer(1, LAB_LIMIT), initial: D.tileRows, only: on('tiles') },
    { key: 'efftc', type: integer(1, LAB_LIMIT), initial: D.tileCols, only: on('tiles') },
    { key: 'efftile', type: integer(1, LAB_LIMIT * LAB_LIMIT), initial: D.tile, only: on('tiles') },
    // The KV cache: the token being decoded (1-based).
    { key: 'efftoken', type: integer(1, LAB_LIMIT), initial: D.token, only: on('cache') },
    // The sliding window's w.
    { key: 'effw', type: integer(1, LAB_LIMIT), initial: D.window, only: on('window') },
    // Shared heads: h query heads and g key–value heads.
    ...HEADS_FIELDS,
  ],
  // A link's g that does not divide its h: dropped, and named in the notice.
  fit: fitSharedHeads,
  words,
  // The chart the classroom mode makes as large as the first screen allows: the open panel's.
  classroomChart: '.eff-panel .eff-chart',
});
