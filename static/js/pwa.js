/* Installs the service worker (/sw.js) for a signed-in player, and asks it to keep tonight's
   score-entry pages ([data-keep-offline] links, and this page) so they open with no signal.
   Only when the worker answers that every one is stored does the page say so (in
   [data-offline-status], and by body[data-offline-ready]); if one could not be kept, it says
   that instead. On a page seen signed out it empties the worker's cache and removes it:
   nothing of a player's stays on a shared phone after logging out. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var body = document.body;
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
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
