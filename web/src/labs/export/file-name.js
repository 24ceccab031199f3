// The names of the downloaded files, which say what they hold: the example, every option that
// differs from the article's, and the step on screen. Pure.
//
//   the worked example at step 8, as a script          attention-article-step8.py
//   "它 是 猫" with a causal mask, naive softmax, PNG   attention-cat-causal-naive-step9.png

import { DEFAULTS } from '../../../../wasm/vocabulary.mjs';

/** 'attention-<example>[-<options>]-step<n>.<extension>' for the page's state. */
export function exportFileName(state, extension) {
  const parts = ['attention', state.preset === 'random' ? `random${state.seed}` : state.preset];
  if (state.scale !== DEFAULTS.scale) parts.push(state.scale === 'none' ? 'unscaled' : 'div-dk');
  if (state.temperature !== DEFAULTS.temperature) parts.push(`t${state.temperature}`);
  if (state.mask !== DEFAULTS.mask) parts.push(state.mask);
  if (state.softmax === 'naive') parts.push('naive');
  if (state.axis !== DEFAULTS.axis) parts.push('columns');
  parts.push(`step${state.step}`);
  return `${parts.join('-')}.${extension}`;
}
