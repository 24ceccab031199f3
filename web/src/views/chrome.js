// The page's fixed frame: document language and title, header texts and buttons, the footer, and
// which parts an embed shows (classes on <body>, read by styles.css). Render only.

import { setText } from './dom.js';

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
