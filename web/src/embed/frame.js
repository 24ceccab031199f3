// The frame side of the embed protocol (web/embed.js is the host side; README, "For blog authors").
// Inside an iframe the page tells its parent when it is ready, how tall its content is and which
// state it shows, and asks the host to open the full playground. Outside a frame it does nothing.

const PREFIX = 'attention-playground:';

/** True inside any frame (reading window.parent never throws, even across origins). */
export const inFrame = () => window.parent !== window;

function post(message) {
  // '*': the parent's origin is unknown (any blog) and nothing sent here is private.
  if (inFrame()) window.parent.postMessage(message, '*');
}

/**
 * Connects the page to its host. Returns:
 *   ready()        — once, after the first numbers are on screen;
 *   state(hash)    — after every change of the state;
 *   hostListens()  — whether embed.js has answered (then links are opened by the host);
 *   open(url)      — asks the host to open the full playground in a new tab.
 * The height is posted on load and whenever the document's layout box changes size.
 */
export function connectToHost() {
  let listening = false;
  let sentHeight = -1;
  let isReady = false;
  if (inFrame()) {
    // The document's own box, not scrollHeight: scrollHeight is never less than the frame's
    // height, so a frame could grow but never shrink back.
    const measure = () => {
      const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height !== sentHeight) {
        sentHeight = height;
        post({ type: `${PREFIX}resize`, height });
      }
    };
    window.addEventListener('message', (event) => {
      if (event.source !== window.parent || event.data?.type !== `${PREFIX}host` || listening) return;
      listening = true;
      // embed.js may have loaded after our first messages: tell it the height again, and that we
      // are ready — unless it answers a message of ours (`heard`), and so heard 'ready' too if it
      // was sent: 'ready' is posted once per frame (an older embed.js, which does not say, may
      // get it twice).
      sentHeight = -1;
      measure();
      if (isReady && !event.data.heard) post({ type: `${PREFIX}ready` });
    });
    new ResizeObserver(measure).observe(document.documentElement);
    measure();
  }
  return {
    ready() {
      if (isReady) return;
      isReady = true;
      post({ type: `${PREFIX}ready` });
    },
    state(hash) {
      post({ type: `${PREFIX}state`, hash });
    },
    hostListens: () => listening,
    open(url) {
      post({ type: `${PREFIX}open`, url });
    },
  };
}
