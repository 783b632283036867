/* Pegboard's service worker: the score-entry page opens with no signal.

   What it guarantees:
   - While the network answers, every page, script and game state comes from the server (no old
     page is shown to someone online); when it does not answer (or takes over 4 s), the copy
     last kept on this phone is shown instead.
   - It never sends anything: deals typed offline wait in the page's outbox (outbox.js), which
     sends each exactly once, by its idempotency key, when the signal returns.
   - It keeps only this site's GET answers, never the admin or the API, and only for a signed-in
     player: logging out (any page seen signed out) empties the cache and removes the worker.
   - Asked to keep pages, it answers on the message's port once each is stored (or could not
     be): a page says "kept for offline use" only when it is true. */
"use strict";
const CACHE = "pegboard-{{ version }}";
const SHELL = [{% for url in shell %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const PATIENCE_MS = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

function keepable(url) {
  const u = new URL(url, self.location.href);
  return u.origin === self.location.origin && !/^\/(admin|api)\//.test(u.pathname);
}

/* Whether the answer was stored: only a page's own full answer (no error, no login redirect). */
function keep(cache, request, response) {
  if (response.ok && !response.redirected && response.type === "basic") return cache.put(request, response).then(() => true);
  return Promise.resolve(false);
}

/* The network's answer if it comes in time, else this phone's copy; the network's answer is kept. */
function networkFirst(request) {
  return new Promise((resolve, reject) => {
    let done = false;
    const answer = (response) => { if (!done && response) { done = true; resolve(response); } return response; };
    const fromCache = () => caches.match(request, { ignoreVary: true }).then(answer);
    const timer = setTimeout(fromCache, PATIENCE_MS);
    fetch(request)
      .then((response) => {
        clearTimeout(timer);
        const copy = response.clone();
        caches.open(CACHE).then((cache) => keep(cache, request, copy));
        answer(response);
      })
      .catch((error) => {
        clearTimeout(timer);
        fromCache().then((hit) => { if (!hit && !done) { done = true; reject(error); } });
      });
  });
}

self.addEventListener("fetch", (event) => {
  if (event.request.method === "GET" && keepable(event.request.url)) event.respondWith(networkFirst(event.request));
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "keep" && Array.isArray(message.urls)) {
    const urls = message.urls.filter(keepable);
    const reply = event.ports[0];
    event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(urls.map(
      (url) => fetch(url, { credentials: "same-origin" }).then((response) => keep(cache, url, response)).catch(() => false)
    ))).then((stored) => {
      if (reply) reply.postMessage({ type: "kept", kept: urls.filter((_, i) => stored[i]), missed: urls.filter((_, i) => !stored[i]) });
    }));
  } else if (message.type === "forget") {
    event.waitUntil(caches.keys().then((keys) => Promise.all(keys.map((key) => caches.delete(key)))));
  }
});
