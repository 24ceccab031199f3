// The labs' views, one part of the page that loads when a lab first opens (web/src/parts.js):
// the stepper does not parse or run them. A new lab is one entry here (and its view in state.js VIEWS).

import { createScaleLabView } from './scale-lab/scale-lab-view.js';
import { createCostLabView } from './cost-lab/cost-lab-view.js';
import { createExerciseView } from './exercise/exercise-view.js';
import { createTrainLabView } from './train-lab/train-lab-view.js';

export const LAB_VIEWS = Object.freeze({
  'scale-lab': createScaleLabView,
  'cost-lab': createCostLabView,
  exercise: createExerciseView,
  'train-lab': createTrainLabView,
});
