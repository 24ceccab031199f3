// The two dictionaries are JS modules (no runtime fetch), so the page also works as one offline file.
// The stepper's words are in zh-CN.js and en.js; each feature keeps its words in both languages
// side by side in its folder (features/index.js), and the chapters not yet in a folder in labs/,
// merged here into one dictionary per language.
import zh from './zh-CN.js';
import en from './en.js';
import exportAndPrint from './labs/export.js';
import heads from './labs/heads.js';
import backward from './labs/backward.js';
import classroom from './labs/classroom.js';
import formulaArrows from './labs/formula-arrows.js';
import { FEATURES } from '../features/index.js';

const LAB_WORDS = [
  ...FEATURES.map((feature) => feature.words),
  exportAndPrint,
  heads,
  backward,
  classroom,
  formulaArrows,
];

export const DICTIONARIES = {
  'zh-CN': Object.assign({}, zh, ...LAB_WORDS.map((words) => words['zh-CN'])),
  en: Object.assign({}, en, ...LAB_WORDS.map((words) => words.en)),
};

// Own properties only: `in` and plain indexing would find 'constructor' or 'toString' on every
// object's prototype. (Object.prototype.hasOwnProperty rather than Object.hasOwn, which Safari
// before 15.4 lacks.)
const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const own = (object, key) => (object != null && hasOwn(object, key) ? object[key] : undefined);

/** Looks up a key in the language's dictionary and fills in {params}; a missing key shows itself. */
export function translate(lang, key, params = {}) {
  const text = own(own(DICTIONARIES, lang), key) ?? own(DICTIONARIES['zh-CN'], key) ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (hasOwn(params, name) ? String(params[name]) : whole));
}

/** A translator bound to one language: t('nav.next'). */
export const translator = (lang) => (key, params) => translate(lang, key, params);
