// embed.js — the host side of the Attention Playground embed (README, "For blog authors").
// Include it once on a page; it sizes every <iframe data-attention-playground> to its content.
//
// Each frame posts to its parent:
//   { type: 'attention-playground:ready' }            once, when its first numbers are on screen
//   { type: 'attention-playground:resize', height }   on load and on every layout change (CSS px)
//   { type: 'attention-playground:state', hash }      when the reader changes its state
//   { type: 'attention-playground:open', url }        the reader asked to open the full playground,
//                                                     or the article its address names (article=)
// and the host answers each frame { type: 'attention-playground:host', heard } (heard: in answer
// to one of its messages; without it the frame posts 'ready' again, which the host may have missed).
// A message counts only when it comes from one of those frames: its event.source is matched to
// the frame's contentWindow (a sandboxed frame's origin reads "null", so origins cannot be used).
// Everything else is ignored. Each frame also receives DOM events of the same names
// ('attention-playground:ready' etc., with the message as `detail`) for pages that want them.
(function () {
  'use strict';
  if (window.attentionPlaygroundHost) return; // included twice: one listener is enough
  window.attentionPlaygroundHost = true;
  var PREFIX = 'attention-playground:';
  var MAX_HEIGHT = 100000;

  function frameOf(source) {
    var frames = document.querySelectorAll('iframe[data-attention-playground]');
    for (var i = 0; i < frames.length; i++) if (frames[i].contentWindow === source) return frames[i];
    return null;
  }

  // The full playground opens only at the frame's own page, never at a URL a message chose (and
  // the article only at the address the blog author wrote into the frame's src: isArticle).
  function samePage(url, frame) {
    try {
      var target = new URL(url, location.href);
      var page = new URL(frame.getAttribute('src'), location.href);
      return /^https?:$/.test(target.protocol) && target.origin === page.origin && target.pathname === page.pathname;
    } catch (e) {
      return false;
    }
  }

  // The article a frame links to: the `article=` of the address the blog author gave it.
  function articleOf(frame) {
    var hash = (frame.getAttribute('src') || '').split('#')[1] || '';
    var match = /(?:^|&)article=([^&]*)/.exec(hash);
    try {
      return match ? decodeURIComponent(match[1]) : null;
    } catch (e) {
      return null;
    }
  }

  // True when `url` is the https: article the frame's address names (the page checks it too).
  function isArticle(url, article) {
    try {
      return Boolean(article) && new URL(article).protocol === 'https:' && new URL(article).href === url;
    } catch (e) {
      return false;
    }
  }

  // Tells a frame that a host listens, so that its "open in the playground" link asks us to open
  // the page (a frame sandboxed without allow-popups cannot open a tab itself).
  // `heard`: in answer to one of the frame's messages, so the host has been listening since then
  // and needs no 'ready' again (without it, the host may have loaded after the frame was ready).
  function announce(win, heard) {
    try {
      win.postMessage({ type: PREFIX + 'host', heard: Boolean(heard) }, '*');
    } catch (e) {
      /* frame gone */
    }
  }
  var existing = document.querySelectorAll('iframe[data-attention-playground]');
  for (var i = 0; i < existing.length; i++) if (existing[i].contentWindow) announce(existing[i].contentWindow);

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || typeof data.type !== 'string' || data.type.indexOf(PREFIX) !== 0) return;
    var frame = frameOf(event.source);
    if (!frame) return;
    var type = data.type.slice(PREFIX.length);
    if (type === 'resize' || type === 'ready') announce(event.source, true);
    if (type === 'resize') {
      var height = Number(data.height);
      if (!(height > 0 && height < MAX_HEIGHT)) return;
      frame.style.height = Math.ceil(height) + 'px';
    } else if (type === 'ready') {
      frame.setAttribute('data-ready', 'true');
    } else if (type === 'state') {
      if (typeof data.hash !== 'string') return;
    } else if (type === 'open') {
      var allowed = samePage(data.url, frame) || isArticle(data.url, articleOf(frame));
      if (typeof data.url !== 'string' || !allowed) return;
      window.open(data.url, '_blank', 'noopener');
    } else {
      return;
    }
    frame.dispatchEvent(new CustomEvent(data.type, { detail: data }));
  });
})();
