// The page's fixed frame: document language and title, header texts, the language and copy-link
// buttons, the footer. Render only.

export function renderChrome(doc, { state, t, engineInfo }) {
  doc.documentElement.lang = state.lang;
  doc.title = t('app.title');
  const set = (id, text) => { const el = doc.getElementById(id); if (el) el.textContent = text; };
  set('app-title', t('app.title'));
  set('app-subtitle', t('app.subtitle'));
  set('skip-link', t('app.skip'));
  set('lang-switch', t('lang.switch'));
  doc.getElementById('lang-switch')?.setAttribute('title', t('lang.switchLabel'));
  doc.getElementById('lang-switch')?.setAttribute('lang', state.lang === 'zh-CN' ? 'en' : 'zh-CN');
  set('copy-link', t('link.copy'));
  doc.getElementById('panel')?.setAttribute('aria-label', t('panel.label'));
  set('footer-text', `${t('app.footer')}${engineInfo ? ` (${engineInfo})` : ''}`);
}
