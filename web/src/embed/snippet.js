// The HTML a blog author pastes to embed the current state (the "嵌入 / Embed" button). Pure.

const escapeAttribute = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Where a snippet of this page must point, relative to it, when not at the page itself: the
 * development page (build/web, `npm start`) names the self-contained build its server also
 * serves (scripts/serve.mjs: dist/site at site/), since a sandboxed frame has an opaque origin
 * and cannot load the development page's module scripts. null on a page that can be framed.
 */
export function embeddablePage(doc = document) {
  return doc.querySelector('meta[name="attention-playground-embed-page"]')?.content ?? null;
}

/**
 * The iframe and the host script for a state link.
 *   pageUrl — the playground page's URL without its hash (http or https), e.g.
 *             https://example.org/attention/index.html
 *   hash    — the state with embed=1, e.g. "#embed=1&step=4&preset=article"
 *   title   — the frame's accessible name
 * Returns null when the page is not on a web server (file://): a frame on a blog cannot load a
 * file from the reader's disk.
 */
export function embedSnippet({ pageUrl, hash, title, height = 560 }) {
  const url = new URL(pageUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.hash = '';
  const script = new URL('embed.js', url);
  return [
    `<iframe data-attention-playground src="${escapeAttribute(url.href + hash)}"`,
    `  sandbox="allow-scripts" title="${escapeAttribute(title)}"`,
    `  loading="lazy" style="width: 100%; height: ${height}px; border: 0"></iframe>`,
    `<script src="${escapeAttribute(script.href)}" async></script>`,
  ].join('\n');
}
