// The static page's service worker (`make web`): at install it keeps a copy of every file
// the page needs, under a cache named for this build, and from then on answers from that
// copy, so the page opens and plays with no network. The endgame tables' larger groups are
// kept the first time the page reads one (`LATER`). scripts/web-sw.py writes the two
// constants below for each build (this file as it stands is the unbuilt page's: no files).
//
// A new build (another version) installs beside the old one and waits: a tab open on the old
// build keeps being answered from the old copy, so that its page, its workers (a search
// worker starts at every stop) and its module are all of one build. It takes over once no
// tab of the old build is open, or when the page's only tab asks (`take-over`: a reload, or
// the page's "reload now"); then the old copy is deleted. Another tab is never taken over
// while it runs.
const VERSION = "unbuilt";
/** @type {string[]} */
const FILES = [];
const CACHE = "poolshark-" + VERSION;

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", (ev) => {
  // From the server, not the browser's HTTP cache, which may hold the old build's files.
  ev.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))));
});

// "take-over" from a page: answered on its port with whether this build takes over, which it
// does only where that page is the only tab of this site (it then reloads itself).
sw.addEventListener("message", (ev) => {
  if (ev.data !== "take-over") return;
  ev.waitUntil(
    sw.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
      const alone = tabs.length <= 1;
      if (ev.ports[0]) ev.ports[0].postMessage(alone);
      if (alone) return sw.skipWaiting();
    }),
  );
});

sw.addEventListener("activate", (ev) => {
  ev.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((n) => n.startsWith("poolshark-") && n !== CACHE).map((n) => caches.delete(n)),
        ),
      )
      // The first install: the tab that installed it is of this build.
      .then(() => sw.clients.claim()),
  );
});

// An endgame table's group the install did not fetch (5 pieces and more: scripts/web-sw.py),
// kept once read, so that it works offline from then on.
const LATER = /\/egdb\/b\d\dw\d\d\.egdb$/;

// The copy first (it is this build's own), the network for anything else.
sw.addEventListener("fetch", (ev) => {
  if (ev.request.method !== "GET") return;
  ev.respondWith(
    caches.open(CACHE).then((cache) =>
      cache.match(ev.request, { ignoreSearch: true }).then(
        (hit) =>
          hit ||
          fetch(ev.request).then((res) => {
            const url = new URL(ev.request.url);
            if (res.ok && url.origin === sw.location.origin && LATER.test(url.pathname))
              return cache.put(ev.request, res.clone()).then(() => res, () => res);
            return res;
          }),
      ),
    ),
  );
});
