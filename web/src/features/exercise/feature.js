// "动手算一算": a series of questions, each a cell of the article's steps worked by hand.

import { EXERCISE_FIELDS } from './exercise-fields.js';
import { exerciseQuestion } from './exercise.js';
import words from './words.js';

export default Object.freeze({
  view: 'exercise',
  fields: EXERCISE_FIELDS,
  words,
  // The open question must be within the series.
  accepts: (state) => state.ex <= state.exlen,
  // The printed handout is the learner's sheet: the open question's example, its cells blank.
  handout: { printKey: 'export.printBlank', question: exerciseQuestion },
});
