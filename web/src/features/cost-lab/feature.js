// The lab "n² 的代价" (§8): the three paths timed against n in the reader's own browser.

import { oneOf } from '../../fields.js';
import { COST_PLAN } from './cost-lab.js';
import words from './words.js';

// The lab times up to n = 4096 unless a link asks for less (or for 8192, where the step-by-step
// path is refused for memory).
const MAX_N = 4096;

export default Object.freeze({
  view: 'cost-lab',
  fields: [{ key: 'costmax', type: oneOf(COST_PLAN.sizes), initial: MAX_N }],
  words,
  // The chart the classroom mode makes as large as the first screen allows (the time chart).
  classroomChart: '#cost-chart-time',
});
