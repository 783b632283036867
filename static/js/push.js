/* Notifications on this phone (Web Push), from the player's "What Pegboard sends you" page.

   What it guarantees:
   - It never asks for permission by itself: only when the player taps the button (a first
     useful action), never on loading a page. A refusal is remembered by the browser; the page
     then says how to allow it again.
   - It subscribes through the service worker (/sw.js) with the site's VAPID public key and sends
     the subscription to /push/subscription/; "Turn off" unsubscribes the browser and tells the
     server to forget the device.
   - An iPhone delivers web notifications only to the app added to its home screen: the page
     says so, and the button stays hidden where the browser has no push at all.
   - It never hangs silently: while the phone is asked, the page says so, and a phone that has
     not answered within WAIT_MS gets a sentence saying what to try, the button usable again. */
"use strict";
(function () {
  var box = document.querySelector("[data-push]");
  if (!box) return;
  var button = box.querySelector("[data-push-toggle]");
  var status = box.querySelector("[data-push-status]");
  var key = box.getAttribute("data-push-key");
  var gettext = window.gettext || function (s) { return s; };
  var csrf = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !key) {
    status.textContent = gettext("This browser cannot show Pegboard's notifications. On an iPhone, add Pegboard to the home screen first (Share, then Add to Home Screen) and open it from there.");
    return;
  }
  function bytes(base64) {
    var padded = (base64 + "===".slice((base64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function send(body) {
    return fetch(box.getAttribute("data-push-url"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": decodeURIComponent(csrf) },
      body: JSON.stringify(body),
    }).then(function (response) { if (!response.ok) throw new Error(response.status); });
  }
  function show(on) {
    button.hidden = false;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? gettext("Turn off notifications on this phone") : gettext("Get notifications on this phone");
    status.textContent = on ? gettext("This phone gets Pegboard's notifications.") : "";
  }
  var WAIT_MS = 15000;
  function NO_ANSWER() {
    return gettext("This phone did not answer. Close other Pegboard tabs, check the signal, then try again; on an iPhone, open Pegboard from the home screen.");
  }
  function inTime(promise) {
    var timer;
    var late = new Promise(function (resolve, reject) {
      timer = setTimeout(function () { reject(new Error("timeout")); }, WAIT_MS);
    });
    return Promise.race([promise, late]).then(
      function (value) { clearTimeout(timer); return value; },
      function (error) { clearTimeout(timer); throw error; }
    );
  }
  function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () { return navigator.serviceWorker.ready; });
  }
  inTime(registration().then(function (reg) { return reg.pushManager.getSubscription(); }))
    .then(function (sub) { show(!!sub); })
    .catch(function (error) {
      show(false);
      if (error && error.message === "timeout") status.textContent = NO_ANSWER();
    });
  button.addEventListener("click", function () {
    button.disabled = true;
    status.textContent = gettext("Asking this phone…");
    // Each wait on the phone is bounded (inTime), but not the player's own answer to the
    // browser's permission question: they may take their time.
    inTime(registration()).then(function (reg) {
      return inTime(reg.pushManager.getSubscription()).then(function (sub) {
        if (sub) {
          return inTime(sub.unsubscribe().then(function () { return send({ unsubscribe: sub.endpoint }); })).then(function () { show(false); });
        }
        return Notification.requestPermission().then(function (answer) {
          if (answer !== "granted") {
            status.textContent = gettext("Notifications are blocked for this site: allow them in the browser's settings, then try again.");
            return;
          }
          return inTime(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) })
            .then(function (sub) { return send({ subscription: sub.toJSON() }); }))
            .then(function () { show(true); });
        });
      });
    }).catch(function (error) {
      status.textContent = error && error.message === "timeout"
        ? NO_ANSWER()
        : gettext("That did not work: check the signal and try again.");
    }).then(function () { button.disabled = false; });
  });
})();
