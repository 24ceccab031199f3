// A box wider than its room scrolls sideways inside it, never the page: a formula with heads on a
// 375 px phone, a 6×16 gradient on the stage, a 22×16 weight editor in the panel, the map, the row
// of views, a lab's table. Scrollbars are hidden on many systems until the box is scrolled, so the
// box says itself that there is more: data-more = 'right', 'left' or 'both' while content lies
// beyond an edge (styles.css fades that edge), none when all of it is in view. A box that scrolls
// takes keyboard focus, so that the arrow keys scroll it too.

// One observer for every box and its children: a box's width changes with the window and the
// panel, its content's with the digits and the words (a row of matrices whose tables narrow).
let resizes = null;
const owners = new WeakMap(); // an observed element → the box whose cue it changes
// And one for the boxes whose content is replaced or shown while their own width stays (a formula
// per step, the panes of matrices).
let contents = null;
const watched = new Set(); // the roots it watches

/** Sets `box`'s data-more from where it is scrolled, and makes a box that scrolls focusable. */
function mark(box) {
  // A box that wraps where it is (a row of matrices off the product step) has no edge to fade.
  const scrolls = getComputedStyle(box).overflowX !== 'visible';
  const left = scrolls && box.scrollLeft > 1;
  const right = scrolls && box.scrollLeft + box.clientWidth < box.scrollWidth - 1;
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
 * when what is inside it is replaced or shown (a box whose width stays while its content changes).
 */
export function scrollCue(box, { content = false } = {}) {
  box.classList.add('scrolls');
  box.addEventListener('scroll', () => mark(box), { passive: true });
  if (typeof ResizeObserver === 'function') {
    resizes ??= new ResizeObserver((entries) =>
      new Set(entries.map((entry) => owners.get(entry.target))).forEach(mark),
    );
    for (const el of [box, ...box.children]) {
      owners.set(el, box);
      resizes.observe(el);
    }
  }
  // A step's formula is a pane of its own, shown by its class (panes.js), or one rendered anew.
  if (content) watch(box, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  return box;
}

/**
 * Marks again the boxes within `root` when a pane of it is shown (its class changes): a box laid
 * out while its pane was hidden was measured then, and its size may not change as it is shown.
 */
export function cueWithin(root) {
  watch(root, { subtree: true, attributes: true, attributeFilter: ['class'] });
  return root;
}

function watch(root, options) {
  if (typeof MutationObserver !== 'function') return;
  contents ??= new MutationObserver(markChanged);
  contents.observe(root, options);
  watched.add(root);
}

/**
 * Marks the boxes in the roots where something changed, at the next frame: the page is laid out
 * then anyway, and the rest of the change (the step's matrices) is in place.
 */
function markChanged(records) {
  const roots = [...watched].filter((root) => records.some((record) => root.contains(record.target)));
  requestAnimationFrame(() =>
    roots.forEach((root) => {
      if (root.classList.contains('scrolls')) mark(root);
      // Not in a kept pane (panes.js): measuring it would lay out what is not drawn.
      for (const box of root.querySelectorAll('.scrolls')) if (!box.closest('.kept')) mark(box);
    }),
  );
}
