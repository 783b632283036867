/* Live parts of a page, redrawn without a reload and without a login:
 * - an element with data-live-url is replaced by a fresh copy of that URL every data-live-every
 *   milliseconds, only when its data-signature changed; the ETag of the last copy is sent back
 *   (If-None-Match), so while nothing changed the answer is an empty 304; with
 *   data-live-rotate (milliseconds) it shows each screen of the partial in turn (?screen=K, the
 *   partial's data-screen of data-screens), polling the one on show;
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

  // Runs ``tick`` every data-live-every ms and when the page is shown again; returns a
  // function that runs it now (``force``: even if a tick is under way, whose answer is dropped).
  function every(box, tick) {
    var status = document.querySelector("[data-live-status]");
    var busy = false;
    function run(force) {
      if ((busy && force !== true) || document.hidden) return;
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
    return run;
  }

  function signature(node) {
    var first = node.querySelector("[data-signature]");
    return first ? first.getAttribute("data-signature") : null;
  }

  // The screen to show after ``node``'s: the next of its data-screens, back to the first.
  function nextScreen(node) {
    var grid = node.querySelector("[data-screens]");
    var screens = grid ? parseInt(grid.getAttribute("data-screens"), 10) || 1 : 1;
    var screen = grid ? parseInt(grid.getAttribute("data-screen"), 10) || 1 : 1;
    return screen >= screens ? 1 : screen + 1;
  }

  function partial(box) {
    var state = { etag: null, url: box.getAttribute("data-live-url") };
    var fetchNow = every(box, function () {
      var url = state.url;
      return conditional(url, state, "text/html").then(function (response) {
        if (response === null) return null;
        return response.text().then(function (html) {
          if (url !== state.url) return; // the screen turned meanwhile: this answer is stale
          var fresh = document.createElement("div");
          fresh.innerHTML = html;
          if (signature(fresh) !== signature(box)) {
            box.innerHTML = html;
            box.setAttribute("data-updated", String(Date.now()));
          }
        });
      });
    });
    // data-live-rotate: show each screen in turn (?screen=K of the same URL), so one TV shows
    // every table of a big venue; each screen is then polled like a single one.
    var rotate = parseInt(box.getAttribute("data-live-rotate"), 10);
    if (rotate > 0) {
      window.setInterval(function () {
        var next = new URL(box.getAttribute("data-live-url"), window.location.href);
        next.searchParams.set("screen", String(nextScreen(box)));
        state.url = next.pathname + next.search;
        state.etag = null;
        fetchNow(true);
      }, rotate);
    }
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
