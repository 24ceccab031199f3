// embed.js — the host side of the Attention Playground embed (README, "For blog authors").
// Include it once on a page; it sizes every <iframe data-attention-playground> to its content.
//
// Each frame posts to its parent:
//   { type: 'attention-playground:ready' }            once, when its first numbers are on screen
//   { type: 'attention-playground:resize', height }   on load and on every layout change (CSS px)
//   { type: 'attention-playground:state', hash }      when the reader changes its state
//   { type: 'attention-playground:open', url }        the reader asked to open the full playground
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

  // The full playground opens only at the frame's own page, never at a URL a message chose.
  function samePage(url, frame) {
    try {
      var target = new URL(url, location.href);
      var page = new URL(frame.getAttribute('src'), location.href);
      return /^https?:$/.test(target.protocol) && target.origin === page.origin && target.pathname === page.pathname;
    } catch (e) {
      return false;
    }
  }

  // Tells a frame that a host listens, so that its "open in the playground" link asks us to open
  // the page (a frame sandboxed without allow-popups cannot open a tab itself).
  function announce(win) {
    try {
      win.postMessage({ type: PREFIX + 'host' }, '*');
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
    if (type === 'resize' || type === 'ready') announce(event.source);
    if (type === 'resize') {
      var height = Number(data.height);
      if (!(height > 0 && height < MAX_HEIGHT)) return;
      frame.style.height = Math.ceil(height) + 'px';
    } else if (type === 'ready') {
      frame.setAttribute('data-ready', 'true');
    } else if (type === 'state') {
      if (typeof data.hash !== 'string') return;
    } else if (type === 'open') {
      if (typeof data.url !== 'string' || !samePage(data.url, frame)) return;
      window.open(data.url, '_blank', 'noopener');
    } else {
      return;
    }
    frame.dispatchEvent(new CustomEvent(data.type, { detail: data }));
  });
})();
