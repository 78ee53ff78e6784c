// The site's service worker, served from the site's root (/sw.js, by
// marram_site.webapp.service_worker, which puts self.workerConfig before this):
// - the static files come from a cache named by their version: those of every
//   page fetched into it on install, the others kept once asked for; a new
//   version (a deploy) installs a new worker, which deletes the older caches;
// - a page is always asked of the network, and with no network the offline
//   page (from the cache) is shown instead;
// - everything else (the API, a game's state, the stream) goes to the network
//   alone. No page and no answer is ever stored: they hold what one player may
//   see, and the next person to open the app may be someone else.

const config = self.workerConfig;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(config.cacheName)
      .then((cache) => cache.addAll(config.precache))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name.startsWith(config.cachePrefix) && name !== config.cacheName)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

function isStatic(url) {
  return url.pathname.startsWith(config.staticPrefix) || config.precache.includes(url.pathname);
}

async function fromCache(request) {
  const cache = await caches.open(config.cacheName);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

async function pageOrOffline(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await caches.match(config.offline, { cacheName: config.cacheName });
    if (offline) return offline;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  } else if (isStatic(url) && url.pathname !== config.offline) {
    event.respondWith(fromCache(request));
  }
});
