// The efficiency lab's popover: a number on screen is a button, and choosing it (a click, Enter,
// Space) expands it next to itself with its arithmetic, the numbers filled in — the page's popover
// (styles.css .popover, placed by views/popover.js), owned by the lab. Escape, the close button or
// a click elsewhere closes it; the focus stays on (or returns to) the number.

import { h } from '../../views/dom.js';
import { placePopover } from '../../views/popover.js';

const ID = 'eff-popover';

/**
 * The popover: { button(text, explain, attrs?) → <button>, close(), destroy() }. `explain()` is called
 * when the number is chosen and returns { heading, lines: [{ label, text }] }.
 */
export function createPopover() {
  const heading = h('h3', { id: `${ID}-title` });
  const list = h('ul', { class: 'expansion' });
  const closeButton = h('button', { type: 'button', class: 'popover-close', onclick: () => close(true) }, '×');
  const el = h(
    'section',
    { id: ID, class: 'popover pinned eff-popover', role: 'dialog', 'aria-labelledby': `${ID}-title`, hidden: true },
    h('div', { class: 'popover-head' }, heading, closeButton),
    list,
  );
  // Beside the page's own popover: its coordinates are the document's (views/popover.js).
  document.body.append(el);
  let opener = null;

  function open(button, { heading: title, lines }) {
    if (opener && opener !== button) close(false);
    opener = button;
    heading.textContent = title;
    list.replaceChildren(
      ...lines.map(({ label, text }) =>
        h('li', {}, label ? h('span', { class: 'label' }, label) : null, h('span', { class: 'line' }, text)),
      ),
    );
    button.setAttribute('aria-expanded', 'true');
    button.setAttribute('aria-describedby', ID);
    placePopover(el, { td: button });
  }

  function close(refocus) {
    el.hidden = true;
    if (!opener) return;
    opener.setAttribute('aria-expanded', 'false');
    opener.removeAttribute('aria-describedby');
    if (refocus && opener.isConnected) opener.focus({ preventScroll: true });
    opener = null;
  }

  const onKey = (event) => {
    if (event.key === 'Escape' && opener) close(true);
  };
  const onPointer = (event) => {
    if (opener && !el.contains(event.target) && event.target !== opener) close(false);
  };
  document.addEventListener('keydown', onKey);
  document.addEventListener('pointerdown', onPointer);

  return {
    el,
    /** A number that expands: its text, and what it is made of. */
    button(text, explain, attrs = {}) {
      const button = h('button', {
        type: 'button',
        class: 'eff-num',
        'aria-haspopup': 'dialog',
        'aria-expanded': 'false',
        ...attrs,
        onclick: () => (opener === button ? close(false) : open(button, explain())),
      });
      button.textContent = text;
      return button;
    },
    /** Closes it (the numbers it was about are redrawn). */
    close: () => close(false),
    destroy() {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      el.remove();
    },
  };
}
