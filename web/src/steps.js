// The article's steps, in its order (§1 input X, §2 projections, §3 scores, §4 scaling, §5 the
// softmax in four steps, §6 weighting V). The step list, the URL's step number (1-based, state.js)
// and the formulas pre-rendered for each step (formulas/formulas.js) all follow this one list.

export const STEPS = Object.freeze(['x', 'project', 'scores', 'scale', 'max', 'exp', 'sum', 'weights', 'output']);
