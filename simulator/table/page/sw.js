// The table's page kept by the browser (docs/table.md, "Installing it"): its own files only,
// asked of the network first so a new page is seen at once, the kept copy when there is no
// network, so the page still opens and says it is not connected. The stream is never kept.
const CACHE = "bank-table";
const PAGE = ["./", "table.js", "table.css", "words.json", "manifest.webmanifest",
  "icon-192.png", "icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(PAGE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin ||
      url.pathname.endsWith("/stream")) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const got = await fetch(req);
      if (got.ok) await cache.put(req, got.clone());
      return got;
    } catch (e) {
      const kept = await cache.match(req, { ignoreSearch: true });
      if (kept) return kept;
      throw e;
    }
  })());
});
