// The site's service worker, served from the site's root (/sw.js, by
// marram_site.webapp.service_worker, which puts self.workerConfig before this):
// - the static files come from a cache named by their version: those of every
//   page fetched into it on install, the others kept once asked for; a new
//   version (a deploy) installs a new worker, which deletes the older caches;
// - a page is always asked of the network, and with no network the offline
//   page (from the cache) is shown instead;
// - everything else (the API, a game's state, the stream) goes to the network
//   alone. No page and no answer is ever stored: they hold what one player may
//   see, and the next person to open the app may be someone else;
// - a push (notifications/push.py) is shown as the notification its message
//   describes, once: a message delivered again (the same delivery id: push
//   services deliver at least once) is dropped; tapping it focuses the page it
//   names where one is open, or opens it. The message says everything shown; the
//   worker decides nothing about it.

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

// ---------------------------------------------------------------- push

const DELIVERED = "push-delivered";
const DELIVERED_KEPT = 200;

// Whether this is the first delivery of message ``id``: the ids of the last
// DELIVERED_KEPT messages are kept in a cache of their own (nothing else is in it).
async function firstDelivery(id) {
  const kept = await caches.open(DELIVERED);
  const key = new Request(`/push-delivered/${encodeURIComponent(id)}`);
  if (await kept.match(key)) return false;
  await kept.put(key, new Response(""));
  const keys = await kept.keys();
  await Promise.all(keys.slice(0, Math.max(0, keys.length - DELIVERED_KEPT))
    .map((old) => kept.delete(old)));
  return true;
}

// A page of this site, from a message's url ("/" for anything else).
function sitePage(url) {
  const page = new URL(url || "/", self.location.origin);
  return page.origin === self.location.origin ? page.href : `${self.location.origin}/`;
}

async function showPush(message) {
  if (!message || typeof message.title !== "string") return;
  if (message.id && !(await firstDelivery(String(message.id)))) return;
  await self.registration.showNotification(message.title, {
    body: message.body || "",
    tag: message.tag || "",
    renotify: Boolean(message.tag),
    icon: config.icon,
    data: { id: message.id, kind: message.kind, url: sitePage(message.url) },
  });
}

self.addEventListener("push", (event) => {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch (error) {
    message = null;
  }
  event.waitUntil(showPush(message));
});

async function openPage(url) {
  const wanted = new URL(url);
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = open.find((client) => new URL(client.url).pathname === wanted.pathname);
  if (same) return same.focus();
  return self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openPage(sitePage(event.notification.data && event.notification.data.url)));
});
