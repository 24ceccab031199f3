// The words that label the rows of X (or Q): "它 是 猫", or the reader's own sentence. Pure.
//
// The state's `words` is 'none' (rows numbered 1…n), the name of a preset that has words ('cat',
// 'heads': its words in the page's language), or the reader's own list, one word per row. Every
// view and export reads them through one function, stateTokens(state).
//
// A word is what the reader types between separators (spaces, commas, 、): so no word contains
// one, and a link can join them with commas. In the hash field `words` a list always has a comma —
// `words=猫,狗`, and one word is written `words=猫,` — so that a word such as "cat" is never read as
// the preset's name (`words=cat`, `words=heads` and `words=none` open as they always have).

import { PRESETS, presetTokens } from './presets.js';

/** The most characters one word may have: it labels a row, a column and a word line. */
export const WORD_LIMIT = 12;

// Spaces, commas (ASCII and full-width), the enumeration comma 、 and control characters.
const SEPARATORS = /[\s,，、\p{Cc}]+/u;

/** The names `words` may take besides a list: none (numbers), or a preset that has words. */
export const WORD_PRESETS = ['none', ...PRESETS.filter((preset) => presetTokens(preset, 'en'))];

/** The words a preset opens with: its own name if it has words, else 'none'. */
export const presetWords = (preset) => (presetTokens(preset, 'en') ? preset : 'none');

/** The reader's text as words: "猫 狗", "猫,狗" and "猫，狗" are ['猫', '狗']; empty text is []. */
export function splitWords(text) {
  return String(text).split(SEPARATORS).filter(Boolean);
}

/** Why a word cannot label a row ({ key: 'wordLong', word, max }), or null. */
function wordProblem(word) {
  return [...word].length > WORD_LIMIT ? { key: 'wordLong', word, max: WORD_LIMIT } : null;
}

/**
 * The words the reader typed, checked against n: { ok: true, words } — 'none' for empty text (the
 * rows are numbered) — or { ok: false, error } with error { key: 'wordCount', count, n } or
 * { key: 'wordLong', word, max }, for the field's message.
 */
export function readWords(text, n) {
  const words = splitWords(text);
  if (words.length === 0) return { ok: true, words: 'none' };
  const long = words.map(wordProblem).find(Boolean);
  if (long) return { ok: false, error: long };
  if (words.length !== n) return { ok: false, error: { key: 'wordCount', count: words.length, n } };
  return { ok: true, words };
}

/** The labels of the rows for `state`: its list, its preset's words in its language, or null (numbers). */
export function stateTokens({ words, lang }) {
  return Array.isArray(words) ? words : presetTokens(words, lang);
}

/** The field's text for `state`: the words separated by spaces, '' when the rows are numbered. */
export function wordsText(state) {
  return stateTokens(state)?.join(' ') ?? '';
}

/**
 * The words of `state` for n rows (n changed): those that still fit, and for a row that had none
 * its number ("4"). 'none' stays 'none'; a preset's words become a list in the page's language.
 */
export function fitWords(state, n) {
  const tokens = stateTokens(state);
  if (!tokens) return 'none';
  return Array.from({ length: n }, (_, i) => tokens[i] ?? String(i + 1));
}

/** True when the state's words (if any) are one per row. */
export function wordsFit(state) {
  const tokens = stateTokens(state);
  return !tokens || tokens.length === state.n;
}

/**
 * The hash field `words`: 'none', a preset's name, or a list (see the top of this file). parse
 * returns undefined for text that is none of them; problem says why a list was refused.
 */
export const wordsLink = {
  parse(s) {
    if (WORD_PRESETS.includes(s)) return s;
    const words = s.replace(/,$/, '').split(',');
    return words.every((word) => splitWords(word)[0] === word && !wordProblem(word)) ? words : undefined;
  },
  problem: (s) => (WORD_PRESETS.includes(s) ? null : 'badWords'),
  notice: 'linkWords',
  format: (words) => (Array.isArray(words) ? `${words.join(',')}${words.length === 1 ? ',' : ''}` : words),
};
