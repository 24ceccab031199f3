// The printed handout. Being written.
export function renderHandout(root) {
  root.replaceChildren();
}
