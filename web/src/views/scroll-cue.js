// A box wider than its room scrolls sideways inside it (a 6×16 gradient on the stage, a 22×16
// weight editor in the panel). Scrollbars are hidden on many systems until the box is scrolled, so
// the box says itself that there is more: data-more = 'right', 'left' or 'both' while columns lie
// beyond an edge (styles.css fades that edge), none when all of it is in view.

// One observer for every box: a box's width changes with the window, the panel and the digits.
let resizes = null;

/** Sets `box`'s data-more from where it is scrolled. */
function mark(box) {
  const left = box.scrollLeft > 1;
  const right = box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
  const more = left && right ? 'both' : left ? 'left' : right ? 'right' : '';
  if ((box.dataset.more ?? '') !== more) {
    if (more) box.dataset.more = more;
    else delete box.dataset.more;
  }
}

/** Keeps `box`'s data-more up to date as it scrolls and resizes; returns `box`. */
export function scrollCue(box) {
  box.addEventListener('scroll', () => mark(box), { passive: true });
  if (typeof ResizeObserver === 'function') {
    resizes ??= new ResizeObserver((entries) => entries.forEach((entry) => mark(entry.target)));
    resizes.observe(box);
  }
  return box;
}
