// The two dictionaries are JS modules (no runtime fetch), so the page also works as one offline file.
import zh from './zh-CN.js';
import en from './en.js';

export const DICTIONARIES = { 'zh-CN': zh, en };

/** Looks up a key in the language's dictionary and fills in {params}; a missing key shows itself. */
export function translate(lang, key, params = {}) {
  const text = DICTIONARIES[lang]?.[key] ?? DICTIONARIES['zh-CN'][key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A translator bound to one language: t('nav.next'). */
export const translator = (lang) => (key, params) => translate(lang, key, params);
