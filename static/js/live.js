/* Live parts of a page: an element with data-live-url is replaced by a fresh copy of that URL
 * every data-live-every milliseconds, only when its data-signature changed. No reload, no login. */
(function () {
  "use strict";

  function poll(box) {
    var url = box.getAttribute("data-live-url");
    var every = parseInt(box.getAttribute("data-live-every"), 10) || 3000;
    var status = document.querySelector("[data-live-status]");
    var busy = false;

    function signature(node) {
      var first = node.querySelector("[data-signature]");
      return first ? first.getAttribute("data-signature") : null;
    }

    function tick() {
      if (busy || document.hidden) return;
      busy = true;
      fetch(url, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.text();
        })
        .then(function (html) {
          var fresh = document.createElement("div");
          fresh.innerHTML = html;
          if (signature(fresh) !== signature(box)) {
            box.innerHTML = html;
            box.setAttribute("data-updated", String(Date.now()));
          }
          if (status) status.classList.remove("is-stale");
        })
        .catch(function () {
          if (status) status.classList.add("is-stale");
        })
        .finally(function () {
          busy = false;
        });
    }

    window.setInterval(tick, every);
    document.addEventListener("visibilitychange", tick);
  }

  function start() {
    document.querySelectorAll("[data-live-url]").forEach(poll);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
