// The registry of the page's features: each chapter or mode beyond the article's nine steps is a
// folder here that holds everything its own — its computations, views, words in both languages,
// styles and state fields — and is one line below. The rest of the page knows a feature only
// through the description its feature.js gives:
//
//   view       the value of the hash field `view` that opens it (state.js VIEWS, in this order)
//   fields     its own hash fields, { key, type (fields.js), initial, only? }, written only in its view
//   words      its words: { 'zh-CN': { key: text }, en: { … } }, merged into the dictionaries
//   accepts?   state → false when a link's fields contradict each other (the link is refused)
//   fit?       state → null, or { change, notice } when one of its fields has no place beside the
//              others: the link opens with `change` made (that field dropped), and `notice` names it
//   handout?   what the printed handout shows in its view (views/handout.js)
//   classroomChart?  the selector of its main chart, sized to the first screen in the classroom mode
//
// Its view itself — the part that draws it, loaded only when it first opens (parts.js) — is its
// line in lab-views.js; code it runs in the labs' worker is its line in workers.js. No file
// outside a feature's folder imports from it but these three (tests/web/features.test.mjs).

import scaleLab from './scale-lab/feature.js';
import costLab from './cost-lab/feature.js';
import exercise from './exercise/feature.js';
import trainLab from './train-lab/feature.js';
import efficiencyLab from './efficiency-lab/feature.js';

export const FEATURES = Object.freeze([scaleLab, costLab, exercise, trainLab, efficiencyLab]);

/** The feature that `view` opens, or undefined (the stepper). */
export const featureOf = (view) => FEATURES.find((feature) => feature.view === view);
