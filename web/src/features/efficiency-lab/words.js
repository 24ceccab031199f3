// The efficiency lab's words, in both languages: the shell's and each panel's own file, each
// { 'zh-CN': { key: text }, en: { … } } with the same keys in both. A panel adds its file here.

import shell from './efficiency-lab-words.js';
import tiles from './efficiency-tiles-words.js';
import cache from './efficiency-cache-words.js';
import windowWords from './efficiency-window-words.js';
import sharedHeads from './efficiency-shared-heads-words.js';
import linear from './efficiency-linear-words.js';
import costs from './efficiency-costs-words.js';

const PARTS = [shell, tiles, cache, windowWords, sharedHeads, linear, costs];

/** The parts merged, language by language; a key two parts both define is a mistake, and says so. */
function merge(parts) {
  const merged = { 'zh-CN': {}, en: {} };
  for (const part of parts)
    for (const lang of Object.keys(merged))
      for (const [key, text] of Object.entries(part[lang])) {
        if (key in merged[lang]) throw new Error(`efficiency lab: the word ${key} is defined twice`);
        merged[lang][key] = text;
      }
  return merged;
}

export default merge(PARTS);
