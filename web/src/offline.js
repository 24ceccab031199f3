// The hosted site keeps working without a network: its service worker (web/sw.js, built into
// dist/site/sw.js) caches the site's own files on the first visit, and the page's download link
// takes the offline file from that cache. Only the hosted build carries
// <meta name="attention-playground-sw">; the offline file and the development page never
// register anything (the offline file must not attempt a single request).

import { inFrame } from './embed/frame.js';

/**
 * Registers the service worker when this page is the hosted build, opened over http(s), as a
 * top-level page (an embed has no use for it, and a sandboxed frame cannot have one).
 * `onUpdated` runs when a newer build has taken over while this page was open.
 */
export function registerServiceWorker({ onUpdated }) {
  const script = document.querySelector('meta[name="attention-playground-sw"]')?.content;
  if (!script || !/^https?:$/.test(location.protocol) || inFrame()) return;
  let container;
  try {
    container = navigator.serviceWorker; // throws in opaque origins
  } catch {
    return;
  }
  if (!container) return;
  // Two signs of a new build, either enough (said once): the page changes controller after it
  // already had one (the first visit's worker taking control is not news), or a worker installed
  // while another was active reaches 'activated'.
  let told = false;
  const updated = () => {
    if (!told) {
      told = true;
      onUpdated();
    }
  };
  let controlled = Boolean(container.controller);
  container.addEventListener('controllerchange', () => {
    if (controlled) updated();
    controlled = true;
  });
  downloadFromCache(document.getElementById('offline-link'));
  container.register(script).then(
    (registration) => {
      registration.addEventListener('updatefound', () => {
        const worker = registration.installing;
        const replacing = Boolean(registration.active);
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'activated' && replacing) updated();
        });
      });
    },
    () => {
      /* e.g. storage disabled: the page works online */
    },
  );
}

/**
 * Makes the "下载离线版" link work without a network. Browsers fetch an <a download> outside the
 * service worker, so offline the download fails although the worker has the file (web/sw.js caches
 * it, by exact URL, with the page): the click takes the file from that cache and downloads it from
 * a blob: URL. When the cache does not hold it (the worker not installed yet, storage off), the
 * link downloads from the network as it always did.
 */
function downloadFromCache(link) {
  if (!link || typeof caches === 'undefined') return;
  let fromNetwork = false;
  link.addEventListener('click', (event) => {
    if (fromNetwork) return;
    event.preventDefault();
    const save = (href) => {
      // Named as the link names it: a blob: URL has no file name of its own (an empty `download`
      // would save a UUID), so the name is the link's own, or the file its href points at.
      const name = link.getAttribute('download') || new URL(link.href).pathname.split('/').pop();
      const a = Object.assign(document.createElement('a'), { href, download: name });
      a.hidden = true;
      document.body.append(a);
      a.click();
      a.remove();
    };
    caches
      .match(link.href)
      .then((hit) => hit?.blob())
      .then((blob) => {
        if (!blob) throw new Error('not cached');
        const url = URL.createObjectURL(blob);
        save(url);
        setTimeout(() => URL.revokeObjectURL(url), 60e3); // the download has started long before
      })
      .catch(() => {
        fromNetwork = true; // the link's own click, this once, as if nothing were in the way
        link.click();
        fromNetwork = false;
      });
  });
}

/** The build this page came from (a content hash), shown in the footer and used by the tests. */
export const buildId = () => document.head.querySelector('meta[name="attention-playground-build"]')?.content ?? null;

/** True when the hosted build offers its single offline file for download next to it. */
export const offersOfflineFile = () =>
  Boolean(document.head.querySelector('meta[name="attention-playground-offline-file"]'));
