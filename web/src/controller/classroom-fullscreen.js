// Full screen for the classroom mode, through the Fullscreen API, asked on a reader's gesture (the
// bar's button, the F key). Where it is refused — an embed without allowfullscreen, a local file,
// a browser setting, a browser without the API — the mode goes on as it is and the bar says so.

/**
 * events: the classroom part's listeners; refused(): say why not; changed(): the page went in or out
 * of full screen (the bar's button is redrawn).
 */
export function createFullscreen(page, events, { refused, changed }) {
  const { document } = page.dom;
  const active = () => Boolean(document.fullscreenElement);

  function request() {
    let asked;
    try {
      asked = document.documentElement.requestFullscreen();
    } catch (error) {
      asked = Promise.reject(error); // no Fullscreen API, or an older one that throws
    }
    Promise.resolve(asked).catch(() => refused());
  }

  function leave() {
    if (!active()) return;
    Promise.resolve(document.exitFullscreen?.()).catch(() => {});
  }

  events.on(document, 'fullscreenchange', changed);
  return { active, leave, toggle: () => (active() ? leave() : request()) };
}
