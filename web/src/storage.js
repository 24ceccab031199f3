// localStorage, wrapped: inside a sandboxed iframe (blog embeds) or with storage disabled, merely
// touching window.localStorage throws. Preferences are a nicety, so failures are silent.

const PREFIX = 'attention-playground:';

function store() {
  try {
    const s = globalThis.localStorage;
    return s && typeof s.getItem === 'function' ? s : null;
  } catch {
    return null;
  }
}

export function readPreference(key) {
  try {
    return store()?.getItem(PREFIX + key) ?? null;
  } catch {
    return null;
  }
}

export function writePreference(key, value) {
  try {
    store()?.setItem(PREFIX + key, String(value));
  } catch {
    /* sandboxed or full: ignore */
  }
}
