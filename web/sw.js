// The page offline once loaded: every file it is made of kept in the browser's cache. Network
// first (a rebuilt site is seen at the next load while the server is there), the cache when
// the network is not. Only this origin's files are ever asked for (docs/web.md).
const CACHE = "bank-unit";
const PAGE = ["./", "index.html", "style.css", "unit.js", "body.py", "micropython.mjs",
  "micropython.wasm", "firmware/files.json", "manifest.webmanifest", "icons/icon-192.png",
  "icons/icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PAGE);
    const files = await (await fetch("firmware/files.json")).json();
    await cache.addAll(files.map((f) => "firmware/" + f));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const got = await fetch(req);
      if (got.ok) cache.put(req, got.clone());
      return got;
    } catch (e) {
      const kept = await cache.match(req, { ignoreSearch: true });
      if (kept) return kept;
      throw e;
    }
  })());
});
