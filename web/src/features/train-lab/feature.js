// "看注意力学习": one attention layer trained live on a small task, and §4's √d_k race measured.

import { TRAIN_LAB_FIELDS } from './train-lab.js';
import { fitFork } from './train-fork.js';
import words from './words.js';

export default Object.freeze({
  view: 'train-lab',
  // The run (task, seed, learning rate, d_k, scaling, heads, steps), the own rule's (only for
  // traintask=own: each field's own `only`) and the fork's.
  fields: TRAIN_LAB_FIELDS,
  // A link's fork that its run cannot have (in the race, or beyond its steps): dropped, and named.
  fit: fitFork,
  words,
  // The chart the classroom mode makes as large as the first screen allows (the loss chart).
  classroomChart: '#train-chart-loss',
});
