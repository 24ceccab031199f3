// The listeners one part of the controller has added, so that its destroy() removes exactly those.
// Every part registers through one of these: no listener outlives the part that added it.

/** A list of listeners: on(target, type, handler, options) adds one; removeAll() removes them all. */
export function listeners() {
  const added = [];
  return {
    on(target, type, handler, options) {
      target.addEventListener(type, handler, options);
      added.push([target, type, handler, options]);
    },
    removeAll() {
      for (const [target, type, handler, options] of added.splice(0))
        target.removeEventListener(type, handler, options);
    },
    /** How many are registered (for tests). */
    get size() {
      return added.length;
    },
  };
}
