// The "嵌入 / Embed" dialog: the iframe snippet for the current state, ready to copy, and what it
// allows. Render only; the snippet text comes from embed/snippet.js.

import { h } from './dom.js';

/**
 * Fills the <dialog> (no <form>: closing is a button, so nothing is submitted anywhere). ctx: { t, snippet (string, or null when the page is not on a web server),
 * devServer (the page is the development page: the snippet points at the built site, and the
 * dialog says what to deploy), steps (how many steps the embedded state has: step=1…steps),
 * onCopy(textarea) }.
 */
export function renderEmbedDialog(dialog, { t, snippet, devServer = false, steps, onCopy }) {
  const text =
    snippet === null
      ? null
      : h(
          'textarea',
          {
            id: 'embed-snippet',
            class: 'snippet',
            rows: 5,
            readOnly: true,
            spellcheck: 'false',
            'aria-labelledby': 'embed-dialog-title',
            'aria-describedby': 'embed-dialog-help',
          },
          snippet,
        );
  dialog.replaceChildren(
    h(
      'div',
      { class: 'embed-form' },
      h('h2', { id: 'embed-dialog-title' }, t('embed.title')),
      h('p', { id: 'embed-dialog-help' }, snippet === null ? t('embed.needsServer') : t('embed.help')),
      text,
      snippet === null ? null : h('p', { class: 'hint', id: 'embed-fields' }, t('embed.fields', { steps })),
      snippet !== null && devServer ? h('p', { class: 'hint', id: 'embed-deploy' }, t('embed.devServer')) : null,
      h('p', { class: 'status', id: 'embed-copy-status', role: 'status' }),
      h(
        'div',
        { class: 'dialog-buttons' },
        text ? h('button', { type: 'button', id: 'embed-copy', onclick: () => onCopy(text) }, t('embed.copy')) : null,
        h('button', { type: 'button', id: 'embed-close', onclick: () => dialog.close() }, t('embed.close')),
      ),
    ),
  );
}
