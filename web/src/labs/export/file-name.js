// The names of the downloaded files, which say what they hold: the example, every option that
// differs from the article's, and the step on screen. Pure.
//
//   the worked example at step 8, as a script          attention-article-step8.py
//   "它 是 猫" with a causal mask, naive softmax, PNG   attention-cat-causal-naive-step9.png

import { OPTIONS } from '../../options.js';

/** 'attention-<example>[-<options>]-step<n>.<extension>' for the page's state. */
export function exportFileName(state, extension) {
  const parts = ['attention', state.preset === 'random' ? `random${state.seed}` : state.preset];
  for (const o of OPTIONS) {
    const tag = o.fileTag(state[o.key]);
    if (tag) parts.push(tag);
  }
  parts.push(`step${state.step}`);
  return `${parts.join('-')}.${extension}`;
}
