// The page offline once loaded: every file it is made of kept in the browser's cache, and served
// from there first, so a later load shows the unit at once, with or without a network. Each
// build is its own copy: `make web` writes the site's hash into VERSION, so a rebuilt site is a
// new service worker that fetches its whole copy before it takes over (one load never mixes two
// builds' files) and drops the old copy; the load after that runs the new build. Only this
// origin's files are ever asked for (docs/web.md).
const VERSION = "dev";
const CACHE = "bank-unit-" + VERSION;
const PAGE = ["./", "index.html", "style.css", "unit.js", "feed.js", "body.py",
  "micropython.mjs", "micropython.wasm", "firmware/files.json", "load.json", "words.json",
  "manifest.webmanifest",
  "icons/icon-192.png", "icons/icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Asked of the server, not of the HTTP cache: the copy is this build's, whole.
    const get = (u) => cache.add(new Request(u, { cache: "no-cache" }));
    await Promise.all(PAGE.map(get));
    const files = await (await cache.match("firmware/files.json")).json();
    await Promise.all(files.map((f) => get("firmware/" + f)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) {
    if (name.startsWith("bank-unit") && name !== CACHE) await caches.delete(name);
  }
  await self.clients.claim();
})()));

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(req, { ignoreSearch: true });
    return kept || fetch(req);
  })());
});
