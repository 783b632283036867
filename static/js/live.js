/* Live parts of a page, redrawn without a reload and without a login:
 * - an element with data-live-url is replaced by a fresh copy of that URL every data-live-every
 *   milliseconds, only when its data-signature changed; the ETag of the last copy is sent back
 *   (If-None-Match), so while nothing changed the answer is an empty 304;
 * - an element with data-live-version-url asks that URL for the page's version (also with its
 *   ETag) and, only when it differs from its data-version, fetches the page again and swaps in
 *   the same element of the fresh copy. */
(function () {
  "use strict";

  // GET ``url`` sending back the ETag of the last answer: resolves to the fresh response, or
  // to null when the server (or the cache in front of it) says nothing changed (304).
  function conditional(url, state, accept) {
    var headers = { Accept: accept };
    if (state.etag) headers["If-None-Match"] = state.etag;
    return fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers }).then(
      function (response) {
        if (response.status === 304) return null;
        if (!response.ok) throw new Error(String(response.status));
        state.etag = response.headers.get("ETag");
        return response;
      }
    );
  }

  function every(box, tick) {
    var status = document.querySelector("[data-live-status]");
    var busy = false;
    function run() {
      if (busy || document.hidden) return;
      busy = true;
      tick()
        .then(function () {
          if (status) status.classList.remove("is-stale");
        })
        .catch(function () {
          if (status) status.classList.add("is-stale");
        })
        .finally(function () {
          busy = false;
        });
    }
    window.setInterval(run, parseInt(box.getAttribute("data-live-every"), 10) || 3000);
    document.addEventListener("visibilitychange", run);
  }

  function signature(node) {
    var first = node.querySelector("[data-signature]");
    return first ? first.getAttribute("data-signature") : null;
  }

  function partial(box) {
    var url = box.getAttribute("data-live-url");
    var state = { etag: null };
    every(box, function () {
      return conditional(url, state, "text/html").then(function (response) {
        if (response === null) return null;
        return response.text().then(function (html) {
          var fresh = document.createElement("div");
          fresh.innerHTML = html;
          if (signature(fresh) !== signature(box)) {
            box.innerHTML = html;
            box.setAttribute("data-updated", String(Date.now()));
          }
        });
      });
    });
  }

  function versioned(box) {
    var url = box.getAttribute("data-live-version-url");
    // The endpoint's ETag is the version in quotes: even the first poll can be a 304.
    var state = { etag: '"' + box.getAttribute("data-version") + '"' };
    every(box, function () {
      return conditional(url, state, "application/json").then(function (response) {
        if (response === null) return null;
        return response.json().then(function (body) {
          if (body.version === box.getAttribute("data-version")) return null;
          return fetch(window.location.href, {
            credentials: "same-origin",
            cache: "no-store",
            headers: { Accept: "text/html" },
          })
            .then(function (page) {
              if (!page.ok) throw new Error(String(page.status));
              return page.text();
            })
            .then(function (html) {
              var doc = new DOMParser().parseFromString(html, "text/html");
              var fresh = box.id ? doc.getElementById(box.id) : null;
              if (!fresh) throw new Error("no live element in the fresh page");
              box.innerHTML = fresh.innerHTML;
              box.setAttribute("data-version", fresh.getAttribute("data-version") || "");
              box.setAttribute("data-updated", String(Date.now()));
            });
        });
      });
    });
  }

  function start() {
    document.querySelectorAll("[data-live-url]").forEach(partial);
    document.querySelectorAll("[data-live-version-url]").forEach(versioned);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
