// The static page's service worker (`make web`): at install it keeps a copy of every file
// the page needs, under a cache named for this build, and from then on answers from that
// copy, so the page opens and plays with no network. A new build (another version) replaces
// the copy at its next install. scripts/web-sw.py writes the two constants below.
const VERSION = "@VERSION@";
const FILES = @FILES@;
const CACHE = "poolshark-" + VERSION;

self.addEventListener("install", (ev) => {
  ev.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((n) => n.startsWith("poolshark-") && n !== CACHE).map((n) => caches.delete(n)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// The copy first (it is this build's own), the network for anything else.
self.addEventListener("fetch", (ev) => {
  if (ev.request.method !== "GET") return;
  ev.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(ev.request, { ignoreSearch: true }))
      .then((hit) => hit || fetch(ev.request)),
  );
});
