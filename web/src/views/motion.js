// Restrained motion between steps: the matrices that stay slide to their new places, and the one
// the step makes grows out of the one it is made from (S slides left, S/√dₖ unfolds from it).
// About a quarter of a second, transforms and opacity only (no layout work per frame), and none
// at all under prefers-reduced-motion. Uses the Web Animations API: no style attributes.

const DURATION = 260;
const EASING = 'cubic-bezier(0.2, 0.7, 0.2, 1)';

// A matrix in a part of the page laid out only near the screen (content-visibility: auto, in
// styles.css) is left still: measuring it would lay it out for nothing. Without checkVisibility,
// the first row of matrices is the part always laid out.
const laidOut = (fig) =>
  fig.checkVisibility
    ? fig.checkVisibility({ contentVisibilityAuto: true })
    : !fig.closest('.matrix-row + .matrix-row');

/** Where each matrix of the step on screen is, by name, before it is replaced. */
export function capture(root) {
  const boxes = new Map();
  for (const fig of root.querySelectorAll('figure.matrix[data-name]'))
    if (laidOut(fig)) boxes.set(fig.dataset.name, fig.getBoundingClientRect());
  return boxes;
}

/**
 * Animates the new step in `root` from the boxes of the old one. `source` names, for a matrix new
 * on this step, the old matrix it comes from (scaled ← scores …); unrelated ones just fade in.
 * The new boxes are read at the next animation frame, when the browser lays the page out anyway:
 * the step itself never waits for a layout of its own.
 */
export function animateStep(root, before, source) {
  if (!before.size || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  requestAnimationFrame(() => slide(root, before, source));
}

function slide(root, before, source) {
  const figures = [...root.querySelectorAll('figure.matrix[data-name]')].filter(laidOut);
  if (!figures.length || typeof figures[0].animate !== 'function') return;
  // Every box is read before any animation starts: one layout for all of them, not one each.
  const boxes = figures.map((fig) => fig.getBoundingClientRect());
  figures.forEach((fig, k) => {
    const now = boxes[k];
    const from = before.get(fig.dataset.name) ?? before.get(source[fig.dataset.name]);
    if (!from) {
      fig.animate([{ opacity: 0 }, { opacity: 1 }], { duration: DURATION, easing: EASING });
      return;
    }
    const dx = from.left - now.left;
    const dy = from.top - now.top;
    const grows = !before.has(fig.dataset.name);
    if (!grows && Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    fig.animate(
      [
        { transform: `translate(${dx}px, ${dy}px)`, opacity: grows ? 0.15 : 1 },
        { transform: 'none', opacity: 1 },
      ],
      { duration: DURATION, easing: EASING },
    );
  });
}
