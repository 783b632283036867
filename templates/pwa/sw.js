/* Pegboard's service worker: the score-entry page opens with no signal.

   What it guarantees:
   - While the network answers, every page, script and game state comes from the server (no old
     page is shown to someone online); when it does not answer (or takes over 4 s), the copy
     last kept on this phone is shown instead.
   - It never sends anything: deals typed offline wait in the page's outbox (outbox.js), which
     sends each exactly once, by its idempotency key, when the signal returns.
   - It keeps only this site's GET answers (no admin, no API) for a signed-in player; logging out
     empties the cache and removes the worker first, and after "forget" it keeps nothing more.
   - Asked to keep pages, it answers once each is stored (or not): "kept" is always true. */
"use strict";
const CACHE = "pegboard-{{ version }}";
const SHELL = [{% for url in shell %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const PATIENCE_MS = 4000;
let forgotten = false;  // "forget" (logging out): keep nothing, not even an answer on its way

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
  if (forgotten) return Promise.resolve(false);
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
    forgotten = true;
    event.waitUntil(caches.keys().then((keys) => Promise.all(keys.map((key) => caches.delete(key)))));
  }
});

/* Web Push: show what the server sent ({title, body, url, tag}); a tap opens its page. */
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = { title: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "Pegboard", {
    body: data.body || "", tag: data.tag || undefined, icon: "{{ icon|escapejs }}", data: { url: data.url || "/" },
  }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((windows) => {
    const open = windows.find((w) => w.url === url) || windows[0];  // ours: this worker's pages
    if (!open) return self.clients.openWindow(url);
    return (open.url === url ? Promise.resolve(open) : open.navigate(url)).then((w) => (w || open).focus());
  }));
});
