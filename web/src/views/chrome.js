// The page's fixed frame: document language and title, header texts and buttons, the footer, and
// which parts an embed shows (classes on <body>, read by styles.css). Render only.

import { h, setText } from './dom.js';
import { articleUrl } from '../article.js';

/**
 * The article's name, a link when the page knows where it lives (article.js), else a plain
 * <cite>: never a link to nowhere. `sections` adds which sections the page follows.
 */
export function articleCredit(state, t, { sections = false, doc } = {}) {
  const url = articleUrl(state, doc);
  const name = h('cite', {}, t('article.name'));
  return [
    t('article.source'),
    url ? h('a', { href: url, target: '_blank', rel: 'noopener', class: 'article-link' }, name) : name,
    sections ? ` ${t('article.sections')}` : null,
  ].filter(Boolean);
}

/** Fills `el` with the article's credit, touching it only when its words or link change. */
function showCredit(el, state, t, options) {
  if (!el) return;
  const key = JSON.stringify([state.lang, articleUrl(state, options.doc), options.sections]);
  if (el.dataset.shown === key) return;
  el.dataset.shown = key;
  el.replaceChildren(...articleCredit(state, t, options));
}

/**
 * ctx: { state, t, engineInfo?, build? (the build's id, hosted and offline builds),
 *        offlineFile (the hosted site offers the offline file), fullPageUrl (this state without
 *        the embed switches, for "Open in the playground") }
 */
export function renderChrome(doc, { state, t, engineInfo, build, offlineFile, fullPageUrl }) {
  // Every write is skipped when nothing changes: this runs on every step, and a new lang attribute
  // or text node would make the browser restyle and re-lay out the page for nothing.
  if (doc.documentElement.lang !== state.lang) doc.documentElement.lang = state.lang;
  if (doc.title !== t('app.title')) doc.title = t('app.title');
  const byId = (id) => doc.getElementById(id);
  const set = (id, text) => {
    const el = byId(id);
    if (el) setText(el, text);
  };
  const body = doc.body;
  // Embed mode: only the stage, plus the panel (panel=1) and the step navigation (nav=1).
  body.classList.toggle('embed', state.embed);
  body.classList.toggle('embed-panel', state.embed && state.panel);
  body.classList.toggle('embed-nav', state.embed && state.nav);
  byId('embed-open').hidden = !state.embed;
  set('embed-open-link', t('embed.open'));
  // The article, named in the footer and in an embed's footer (the embed shows neither header nor footer).
  showCredit(byId('article-credit'), state, t, { sections: true, doc });
  showCredit(byId('embed-article'), state, t, { doc });
  if (byId('embed-open-link').href !== fullPageUrl) byId('embed-open-link').href = fullPageUrl;

  set('app-title', t('app.title'));
  set('app-subtitle', t('app.subtitle'));
  set('skip-link', t('app.skip'));
  set('lang-switch', t('lang.switch'));
  byId('lang-switch')?.setAttribute('title', t('lang.switchLabel'));
  byId('lang-switch')?.setAttribute('lang', state.lang === 'zh-CN' ? 'en' : 'zh-CN');
  // The theme: data-theme on <html> sets color-scheme, which every light-dark() colour follows.
  if (state.theme === 'system') doc.documentElement.removeAttribute('data-theme');
  else if (doc.documentElement.dataset.theme !== state.theme) doc.documentElement.dataset.theme = state.theme;
  set('theme-label', t('theme.label'));
  const themes = byId('theme-switch');
  if (themes) {
    for (const option of themes.options) setText(option, t(`theme.${option.value}`));
    if (themes.value !== state.theme) themes.value = state.theme;
  }
  set('copy-link', t('link.copy'));
  set('embed-button', t('embed.button'));
  byId('offline-link').hidden = !offlineFile;
  set('offline-link', t('offline.download'));
  byId('offline-link').title = t('offline.downloadHint');
  byId('panel')?.setAttribute('aria-label', t('panel.label'));
  const details = [engineInfo, build && t('app.build', { build })].filter(Boolean).join(' · ');
  set('footer-text', `${t('app.footer')}${details ? ` (${details})` : ''}`);
}
