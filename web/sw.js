// sw.js — the hosted site's service worker (scripts/build-dist.mjs fills in BUILD and MANIFEST).
//
// It keeps the build's own files for reloads without a network, and nothing else. The site may
// share its origin with a blog or another copy of the playground in another folder, so:
//   - it answers only the files of MANIFEST, by exact URL (the query string included): every
//     other request — a neighbour page, `data.json?v=2`, a request made with cache: 'no-store' —
//     goes to the network as if there were no worker, and nothing else is ever stored;
//   - its cache is named after its scope (the folder the site is in) and its build, and a new
//     build deletes only the older caches of its own scope: two builds in two folders of one
//     origin keep each other's caches.
// Cache first: the page is self-contained, so what is cached is complete and consistent.
const BUILD = '__BUILD__';
// The build's files, relative to this script's folder: the page (also reached as the folder
// itself), the offline file behind the page's "下载离线版" link, and the host script for embeds.
const MANIFEST = __MANIFEST__;
const PREFIX = 'attention-playground ';
const SCOPE = self.registration.scope;
const CACHE = `${PREFIX}${SCOPE} ${BUILD}`;
// Every file's exact URL → the URL its response is stored under (the folder is its index.html).
const FILES = new Map(
  MANIFEST.map((file) => {
    const url = new URL(file, self.location).href;
    return [url, file === './' ? new URL('index.html', self.location).href : url];
  }),
);
const STORED = [...new Set(FILES.values())];

self.addEventListener('install', (event) => {
  // cache: 'reload' — from the server, never from the HTTP cache, which may still hold the last build.
  const requests = STORED.map((url) => new Request(url, { cache: 'reload' }));
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(requests))
      .then(() => self.skipWaiting()),
  );
});

// A cache this worker may replace: an older build of this scope. (Workers before this one named
// their caches 'attention-playground-<build>', whatever their folder: such a cache is this scope's
// when it holds this scope's page, and only then.)
async function ownOlderCache(name) {
  if (name === CACHE) return false;
  if (name.startsWith(PREFIX)) return name.slice(PREFIX.length, name.lastIndexOf(' ')) === SCOPE;
  if (!name.startsWith('attention-playground-')) return false;
  const cache = await caches.open(name);
  return Boolean(await cache.match(new URL('index.html', self.location).href));
}

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.map(async (name) => (await ownOlderCache(name)) && caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const stored = FILES.get(request.url.replace(/#.*$/, ''));
  // Not one of the build's files, or asked not to be stored: the network answers, untouched.
  if (request.method !== 'GET' || stored === undefined || request.cache === 'no-store') return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(stored))
      .then((hit) => hit ?? fetch(request)),
  );
});
