/* Installs the service worker (/sw.js) for a signed-in player, and asks it to keep tonight's
   score-entry pages ([data-keep-offline] links, and this page) so they open with no signal.
   On a page seen signed out it empties the worker's cache and removes it: nothing of a
   player's stays on a shared phone after logging out. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var body = document.body;
  if (!body.hasAttribute("data-signed-in")) {
    navigator.serviceWorker.getRegistrations().then(function (registrations) {
      registrations.forEach(function (registration) {
        if (registration.active) registration.active.postMessage({ type: "forget" });
        registration.unregister();
      });
    });
    return;
  }
  navigator.serviceWorker.register(body.getAttribute("data-sw"), { scope: "/" })
    .then(function () { return navigator.serviceWorker.ready; })
    .then(function (registration) {
      var urls = [window.location.href];
      document.querySelectorAll("[data-keep-offline]").forEach(function (a) { urls.push(a.href); });
      registration.active.postMessage({ type: "keep", urls: urls });
      body.setAttribute("data-offline-ready", "");
    })
    .catch(function () { /* no worker (private mode, old browser): the outbox still keeps entries */ });
})();
