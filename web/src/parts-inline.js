// parts.js as the self-contained builds have it (the offline file and the hosted site; the build
// puts this file in its place: scripts/lib/lazy-parts.mjs). Each part travels inside the page as
// text in a <script type="text/plain" id="part-NAME">, which the browser neither parses nor runs.
// When the part is first needed its text is run as an inline script — the page's
// Content-Security-Policy lists its sha256, as it does the page's own script, so nothing is
// fetched and nothing else could run this way. The part then hands its module to the page
// through the registry below, which also lends it the modules it shares with the stepper (one
// copy of each, the same state).

import { KEY, modules } from 'inline-parts'; // made by scripts/lib/lazy-parts.mjs

const registry = (globalThis[KEY] = { modules, parts: {} });

/**
 * The part `name` at once: its module, run from its text if it has not run yet. Null while the
 * page is still being read and its text is not there yet (loadPart waits for it).
 */
export function partNow(name) {
  if (!registry.parts[name]) {
    const text = document.getElementById(`part-${name}`)?.textContent;
    if (text === undefined) return null;
    const script = document.createElement('script');
    script.textContent = text;
    document.head.append(script); // an inline script runs as it is inserted
    script.remove();
    if (!registry.parts[name]) throw new Error(`the page's part "${name}" did not run`);
  }
  return registry.parts[name];
}

/** The part `name` (a promise of its module), once the page has been read as far as its text. */
export async function loadPart(name) {
  if (document.readyState === 'loading' && !document.getElementById(`part-${name}`))
    await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  const part = partNow(name);
  if (!part) throw new Error(`the page has no part "${name}"`);
  return part;
}
