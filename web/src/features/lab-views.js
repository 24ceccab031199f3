// The registry's part that loads when a lab first opens (web/src/parts.js): the labs' views, which
// the stepper does not parse or run. A new lab is one entry here, beside its line in index.js
// (which gives state.js its VIEWS).

import { createScaleLabView } from './scale-lab/scale-lab-view.js';
import { createCostLabView } from './cost-lab/cost-lab-view.js';
import { createExerciseView } from './exercise/exercise-view.js';
import { createTrainLabView } from './train-lab/train-lab-view.js';
import { createEfficiencyLabView } from './efficiency-lab/efficiency-lab-view.js';

export const LAB_VIEWS = Object.freeze({
  'scale-lab': createScaleLabView,
  'cost-lab': createCostLabView,
  exercise: createExerciseView,
  'train-lab': createTrainLabView,
  'efficiency-lab': createEfficiencyLabView,
});
