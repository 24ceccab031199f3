// sw.js — the hosted site's service worker (scripts/build-dist.mjs fills in BUILD and PRECACHE).
//
// The first visit caches the page, so that a reload without a network still works. Each build
// has its own cache, named after the build's content hash; a new deployment changes this file,
// the browser installs it, and it takes over at once and deletes every older cache.
// Cache first: the page is self-contained, so what is cached is complete and consistent.
const BUILD = '__BUILD__';
const PRECACHE = __PRECACHE__;
const PREFIX = 'attention-playground-';
const CACHE = PREFIX + BUILD;

self.addEventListener('install', (event) => {
  // cache: 'reload' — from the server, never from the HTTP cache, which may still hold the last build.
  const requests = PRECACHE.map((url) => new Request(url, { cache: 'reload' }));
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(requests))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  // The site's folder and its index.html are one page (the hash is never sent).
  const scope = new URL(self.registration.scope);
  const key =
    request.mode === 'navigate' && url.pathname === scope.pathname ? new URL('index.html', scope).href : request;
  event.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(key, { ignoreSearch: true }).then(
        (hit) =>
          hit ??
          fetch(request).then((response) => {
            // Anything else of the site (the offline file, say) is kept once it has been fetched.
            if (response.ok && response.type === 'basic') cache.put(request, response.clone());
            return response;
          }),
      ),
    ),
  );
});
