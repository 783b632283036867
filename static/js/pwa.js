/* Installs the service worker (/sw.js) for a signed-in player, and asks it to keep tonight's
   score-entry pages ([data-keep-offline] links, and this page) so they open with no signal.
   Only when the worker answers that every one is stored does the page say so (in
   [data-offline-status], and by body[data-offline-ready]); if one could not be kept, it says
   that instead. On a page seen signed out it empties the worker's cache and removes it:
   nothing of a player's stays on a shared phone after logging out.
   Logging out itself first asks the outbox what to do with entries still waiting
   (outbox.js's beforeLogout), then empties the worker's cache and removes the worker, and
   only then sends the log-out: a slow answer can no longer bring back the signed-in page the
   worker kept, and nothing the worker was still fetching is kept afterwards. */
(function () {
  "use strict";
  var body = document.body;
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }

  /* Empty every cache of this site and remove the worker; resolves when done (or after 3 s). */
  function forget() {
    var work = [];
    if ("caches" in window) {
      work.push(caches.keys().then(function (keys) {
        return Promise.all(keys.map(function (key) { return caches.delete(key); }));
      }));
    }
    if ("serviceWorker" in navigator) {
      work.push(navigator.serviceWorker.getRegistrations().then(function (registrations) {
        return Promise.all(registrations.map(function (registration) {
          if (registration.active) registration.active.postMessage({ type: "forget" });
          return registration.unregister();
        }));
      }));
    }
    var done = Promise.all(work).catch(function () {});
    var patience = new Promise(function (resolve) { window.setTimeout(resolve, 3000); });
    return Promise.race([done, patience]);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-logout]")) return;
    event.preventDefault();
    var outbox = window.PegboardOutbox;
    var ask = outbox && outbox.beforeLogout ? outbox.beforeLogout() : Promise.resolve(true);
    ask.then(function (go) {
      if (!go) return;
      forget().then(function () { form.submit(); });
    });
  });

  if (!("serviceWorker" in navigator)) return;
  if (!body.hasAttribute("data-signed-in")) {
    forget();
    return;
  }
  navigator.serviceWorker.register(body.getAttribute("data-sw"), { scope: "/" })
    .then(function () { return navigator.serviceWorker.ready; })
    .then(function (registration) {
      var urls = [window.location.href];
      document.querySelectorAll("[data-keep-offline]").forEach(function (a) { urls.push(a.href); });
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) { kept(event.data || {}); };
      registration.active.postMessage({ type: "keep", urls: urls }, [channel.port2]);
    })
    .catch(function () { /* no worker (private mode, old browser): the outbox still keeps entries */ });

  function kept(answer) {
    var status = document.querySelector("[data-offline-status]");
    var missed = answer.missed || [];
    if (missed.length === 0) body.setAttribute("data-offline-ready", "");
    if (!status || !document.querySelector("[data-keep-offline]")) return;
    status.textContent = missed.length === 0
      ? gettext("Tonight's games are kept for offline use on this phone: their pages open with no signal.")
      : gettext("Not every page of tonight's games could be saved on this phone: open each once while you have a signal.");
    status.classList.toggle("notice--error", missed.length > 0);
    status.setAttribute("role", missed.length > 0 ? "alert" : "status");
  }
})();
