// A slot that shows one of its children (panes) and keeps the others on the page, laid out but not
// drawn (.pane.kept: content-visibility: hidden, in styles.css). Why: at n = 16 a step makes up to
// 1,800 table cells, and creating, styling and laying them out took longer than a frame, while
// showing a kept pane again takes well under a millisecond. A pane can also be prepared — made and
// laid out, still hidden — while the reader reads, so that the next step is ready too. Like
// anything not rendered, a kept pane is out of the accessibility tree, the tab order and
// find-in-page.

const KEPT = 'kept';

/**
 * box: the slot's element. hide(pane) and reveal(pane) are called as a pane is kept or shown (the
 * stage takes the ids of a kept pane's figures away, so that only the shown step answers to them).
 * A pane is whatever make() returns, with its element as `el`.
 */
export function paneSlot(box, { hide = () => {}, reveal = () => {} } = {}) {
  const panes = new Map(); // key → pane
  let shown = null;

  function keep(pane) {
    pane.el.classList.add(KEPT);
    hide(pane);
  }

  function add(key, make) {
    const pane = make();
    pane.el.classList.add('pane');
    panes.set(key, pane);
    box.append(pane.el);
    return pane;
  }

  return {
    /** The pane on screen (or null). */
    get shown() {
      return shown;
    },

    /** True if there is a pane of `key`, shown or kept. */
    has(key) {
      return panes.has(key);
    },

    /** Shows the pane of `key`, made by make() if there is none yet, and keeps the one shown before. */
    show(key, make) {
      const pane = panes.get(key) ?? add(key, make);
      if (pane === shown) return pane;
      if (shown) keep(shown);
      pane.el.classList.remove(KEPT);
      reveal(pane);
      shown = pane;
      return pane;
    },

    /**
     * Has the pane of `key` ready off screen: made if need be, brought up to date by refresh(pane),
     * and laid out: reading a box inside each of its parts makes the browser lay out the hidden
     * content (parts laid out only near the screen, content-visibility: auto, included), once.
     * Returns the pane (the shown one as it is, if `key` is on screen).
     */
    prepare(key, make, refresh = () => {}) {
      let pane = panes.get(key);
      if (pane === shown) return pane;
      if (!pane) {
        pane = add(key, make);
        keep(pane);
      }
      refresh(pane);
      for (const part of pane.el.children) (part.lastElementChild ?? part).getBoundingClientRect();
      return pane;
    },

    /** Removes every pane, the shown one too (what they were drawn for has changed). */
    clear() {
      for (const pane of panes.values()) pane.el.remove();
      panes.clear();
      shown = null;
    },
  };
}
