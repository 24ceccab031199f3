// Links and embedding: "copy link", the Embed dialog with its snippet (embed/snippet.js), and in
// a frame whose host runs embed.js, "Open in the playground" asked of the host.

import { serializeState } from '../state.js';
import { stepCount } from '../steps.js';
import { embedSnippet, embeddablePage } from '../embed/snippet.js';
import { renderEmbedDialog } from '../views/embed-dialog.js';
import { stepTitle } from './step-nav.js';
import { listeners } from './listeners.js';

const LINK_WORDS = { done: 'link.copied', failed: 'link.copyFailed' };
const EMBED_WORDS = { done: 'embed.copied', failed: 'embed.copyFailed' };

/** url: the URL part (its flush(): the link copied is the page as it is now). */
export function createEmbedding(page, { url }) {
  const { location, window } = page.dom;
  const events = listeners();

  // Says in `status` whether the clipboard took `text`: words.done or words.failed (i18n keys).
  async function copy(text, status, words) {
    try {
      await window.navigator.clipboard.writeText(text);
      status.textContent = page.t(words.done);
    } catch {
      status.textContent = page.t(words.failed);
    }
  }

  function openDialog() {
    const { state, t } = page;
    // The development page cannot be framed (a sandboxed frame cannot load its module scripts):
    // its snippet points at the self-contained build that the server also serves (embed/snippet.js).
    const embedPage = embeddablePage();
    const snippet = embedSnippet({
      pageUrl: embedPage ? new URL(embedPage, location.href).href : location.href,
      hash: serializeState({ ...state, embed: true }),
      // The frame's title names what it shows: the step, or the lab.
      title: `${t('app.title')} · ${state.view === 'steps' ? stepTitle(t, state.step, state) : t(`view.${state.view}`)}`,
    });
    renderEmbedDialog(page.$('embed-dialog'), {
      t,
      snippet,
      devServer: Boolean(embedPage),
      steps: stepCount(state),
      onCopy: (textarea) => {
        // Selected first, so that where the clipboard refuses, Ctrl+C copies it (the status says so).
        textarea.select();
        copy(textarea.value, page.$('embed-copy-status'), EMBED_WORDS);
      },
    });
    page.$('embed-dialog').showModal();
  }

  events.on(page.$('copy-link'), 'click', () => {
    url.flush();
    copy(location.href, page.$('copy-status'), LINK_WORDS);
  });
  events.on(page.$('embed-button'), 'click', openDialog);
  // In a frame whose host runs embed.js, the host opens the full playground: a frame sandboxed
  // without allow-popups cannot open a tab itself. Without a host the link works as a link.
  events.on(page.$('embed-open-link'), 'click', (event) => {
    if (!page.host.hostListens()) return;
    event.preventDefault();
    page.host.open(page.fullPageUrl());
  });
  // The article's link in an embed's footer likewise (embed.js opens it when it is the one the
  // frame's own address names in `article=`).
  events.on(page.$('embed-article'), 'click', (event) => {
    const link = event.target.closest('a[href]');
    if (!link || !page.host.hostListens()) return;
    event.preventDefault();
    page.host.open(link.href);
  });

  return { destroy: () => events.removeAll(), listeners: events };
}
