// A box wider than its room scrolls sideways inside it, never the page: a formula with heads on a
// 375 px phone, a 6×16 gradient on the stage, a 22×16 weight editor in the panel, the map, the row
// of views, a lab's table. Scrollbars are hidden on many systems until the box is scrolled, so the
// box says itself that there is more: data-more = 'right', 'left' or 'both' while content lies
// beyond an edge (styles.css fades that edge), none when all of it is in view. A box that scrolls
// takes keyboard focus, so that the arrow keys scroll it too.

// One observer for every box: a box's width changes with the window, the panel and the digits.
let resizes = null;
// And one for the boxes whose content is replaced while their own width stays (a formula per step).
let contents = null;
const replaced = new Set(); // the boxes it watches

/** Sets `box`'s data-more from where it is scrolled, and makes a box that scrolls focusable. */
function mark(box) {
  const left = box.scrollLeft > 1;
  const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
  const more = left && right ? 'both' : left ? 'left' : right ? 'right' : '';
  if ((box.dataset.more ?? '') !== more) {
    if (more) box.dataset.more = more;
    else delete box.dataset.more;
  }
  // (Not a box hidden from assistive technology: focus must not land in what it does not read.)
  if (more && !box.hasAttribute('tabindex') && !box.closest('[aria-hidden="true"]')) box.setAttribute('tabindex', '0');
}

/**
 * Keeps `box`'s data-more up to date as it scrolls and resizes; returns `box`. With `content`, also
 * when what is inside it is replaced (a box whose width stays while its content changes).
 */
export function scrollCue(box, { content = false } = {}) {
  box.addEventListener('scroll', () => mark(box), { passive: true });
  if (typeof ResizeObserver === 'function') {
    resizes ??= new ResizeObserver((entries) => entries.forEach((entry) => mark(entry.target)));
    resizes.observe(box);
  }
  if (content && typeof MutationObserver === 'function') {
    contents ??= new MutationObserver(markReplaced);
    contents.observe(box, { childList: true, subtree: true });
    replaced.add(box);
  }
  return box;
}

/**
 * Marks the boxes whose content was replaced, at the next frame: the page is laid out then anyway,
 * and the rest of the change (the step's matrices) is in place.
 */
function markReplaced(records) {
  const boxes = [...replaced].filter((box) => records.some((record) => box.contains(record.target)));
  requestAnimationFrame(() => boxes.forEach(mark));
}
