/* Pegboard's outbox: score entries kept on the phone until the server has them.
 *
 * Every entry is saved in localStorage first (it survives a reload and a closed tab), with an
 * idempotency key made when it is saved. Sending the same key twice stores the deal once, so a
 * retry after a lost answer is safe. Entries of one game are sent in deal order; one the server
 * refuses stays here, with the server's reason, until it is fixed or discarded, and holds back
 * the later deals of its game. An entry of a deal the other team's phone sent first is not a
 * refusal: the same numbers are an agreement (200), other numbers are kept by the server beside
 * the counted ones (201, ``is_rival``); either way the entry has reached the server and leaves.
 * The same holds for any entry made this way: a tournament scorecard is one (its ``game`` is a
 * queue name such as "scorecard:12", it has no ``number``, and ``page`` is where to fix it).
 *
 * Every entry belongs to its typist (``owner``: the id and name of whoever was signed in on the
 * page that saved it, from body[data-user-id]/[data-user-name]). Only that person's session
 * sends it: each send says whose it is (``X-Pegboard-Typist``), and the server answers 409
 * ``typist_signed_out`` if someone else is signed in. Anyone else on the phone sees it "waiting
 * for <name> to sign in again" ([data-outbox-others]), with a button to discard it. Logging out
 * with entries waiting asks first: send now, keep them for their typist, or discard them
 * (``beforeLogout``, used by pwa.js).
 *
 * A busy floor is not hammered: when the server answers 429, 502, 503 or 504, or a send gets no
 * answer within ``timeoutMs`` (aborted), or there is no signal, the outbox stops and waits
 * before the next try, twice as long each time (``baseMs`` to ``capMs``), each wait drawn at
 * random between its half and its whole (jitter: 300 phones told to wait do not all come back
 * in the same second), and never less than the server's ``Retry-After``. One send at a time, one
 * timer: retries never pile up. The wait is kept in localStorage, so a reload or another tab
 * waits too; the signal returning ("online") ends a wait that only the missing signal caused.
 * ``window.PegboardOutboxSettings`` (set before this script) may change the three figures. */
(function () {
  "use strict";

  var STORAGE_KEY = "pegboard.outbox.v1";
  var BACKOFF_KEY = "pegboard.outbox.backoff.v1";
  var RETRY_MS = 5000;
  var settings = Object.assign(
    { baseMs: 2000, capMs: 60000, timeoutMs: 20000 },
    window.PegboardOutboxSettings || {}
  );
  var BUSY = { 429: true, 502: true, 503: true, 504: true };
  var listeners = [];
  var syncing = null;
  var timer = null;
  var lastProblem = null; // "offline" | "busy" | "signed-out" | null

  function gettext(text) {
    return window.gettext ? window.gettext(text) : text;
  }
  function ngettext(one, many, n) {
    return window.ngettext ? window.ngettext(one, many, n) : n === 1 ? one : many;
  }
  function fmt(text, values) {
    return window.interpolate ? window.interpolate(text, values, true) : text;
  }

  /* Whoever is signed in on this page: {id, name}, or null. */
  function me() {
    var body = document.body;
    var id = body && body.getAttribute("data-user-id");
    return id ? { id: id, name: body.getAttribute("data-user-name") || "" } : null;
  }
  function ownerId(entry) {
    return entry.owner && entry.owner.id ? String(entry.owner.id) : "";
  }
  function isMine(entry) {
    var who = me();
    return !!who && ownerId(entry) === who.id;
  }
  function mine(entries) {
    return entries.filter(isMine);
  }

  function loadAll() {
    try {
      var raw = window.localStorage.getItem(STORAGE_KEY);
      var entries = raw ? JSON.parse(raw) : [];
      return Array.isArray(entries) ? entries : [];
    } catch (e) {
      return [];
    }
  }

  function load() {
    return mine(loadAll());
  }

  /* ``entries``: this typist's entries; everyone else's on the phone are kept as they are. */
  function save(entries, event) {
    var others = loadAll().filter(function (e) { return !isMine(e); });
    writeAll(others.concat(entries), event);
  }

  function writeAll(entries, event) {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(entries));
    emit(event);
  }

  function emit(event) {
    var snapshot = load();
    listeners.forEach(function (fn) {
      try {
        fn(snapshot, event || null);
      } catch (e) {
        if (window.console) console.error(e);
      }
    });
    updateBadge(snapshot);
  }

  function order(x, y) {
    return x < y ? -1 : x > y ? 1 : 0;
  }
  function byGameThenNumber(a, b) {
    return order(a.game, b.game) || order(a.number || 0, b.number || 0) || a.savedAt - b.savedAt;
  }

  function uuid() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    // crypto.randomUUID needs a secure context; a bar's plain-http LAN address is not one.
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" +
      hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // --- Back-off: how long to wait before the next try, kept across reloads and tabs ----------

  function backoff() {
    try {
      var kept = JSON.parse(window.localStorage.getItem(BACKOFF_KEY) || "null");
      if (kept && typeof kept.tries === "number") return kept;
    } catch (e) { /* a damaged record: start again */ }
    return { tries: 0, notBefore: 0, why: null };
  }

  function keepBackoff(value) {
    if (!value.tries) window.localStorage.removeItem(BACKOFF_KEY);
    else window.localStorage.setItem(BACKOFF_KEY, JSON.stringify(value));
  }

  /* The wait after the ``tries``-th failure in a row: base * 2^(tries-1), at most the cap,
   * drawn between its half and its whole; never less than the server's Retry-After (seconds),
   * to which up to a fifth more is added, so that phones told the same figure spread out. */
  function waitAfter(tries, retryAfter) {
    var ceiling = Math.min(settings.capMs, settings.baseMs * Math.pow(2, Math.max(0, tries - 1)));
    var wait = ceiling / 2 + Math.random() * (ceiling / 2);
    if (retryAfter > 0) {
      var told = retryAfter * 1000;
      wait = Math.max(wait, told + Math.random() * told * 0.2);
    }
    return Math.round(wait);
  }

  function failed(kind, retryAfter) {
    var now = backoff();
    var tries = now.tries + 1;
    var wait = waitAfter(tries, retryAfter);
    keepBackoff({ tries: tries, notBefore: Date.now() + wait, why: kind });
    return wait;
  }

  function recovered() {
    if (backoff().tries) keepBackoff({ tries: 0 });
  }

  /* Milliseconds until the next try may go (0: now). */
  function waitLeft() {
    return Math.max(0, backoff().notBefore - Date.now());
  }

  function retryAfterOf(response) {
    var raw = response.headers.get("Retry-After");
    if (!raw) return 0;
    var seconds = parseInt(raw, 10);
    if (!isNaN(seconds)) return Math.max(0, seconds);
    var at = Date.parse(raw); // an HTTP date
    return isNaN(at) ? 0 : Math.max(0, (at - Date.now()) / 1000);
  }

  /* One POST. Resolves to {kind: "sent"|"refused"|"offline"|"busy"|"signed-out", status, body,
   * retryAfter}; a send with no answer within ``timeoutMs`` is abandoned as "busy". */
  function send(entry) {
    var body = Object.assign({}, entry.payload, { key: entry.key });
    if (entry.number !== undefined) body.number = entry.number;
    var abort = typeof AbortController === "function" ? new AbortController() : null;
    var timedOut = false;
    var clock = abort ? window.setTimeout(function () { timedOut = true; abort.abort(); }, settings.timeoutMs) : null;
    return fetch(entry.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-CSRFToken": csrfToken(),
        "X-Pegboard-Typist": ownerId(entry),
      },
      body: JSON.stringify(body),
      signal: abort ? abort.signal : undefined,
    }).then(
      function (response) {
        return response.json().catch(function () { return {}; }).then(function (data) {
          window.clearTimeout(clock);
          var status = response.status;
          if (status === 200 || status === 201) return { kind: "sent", status: status, body: data };
          var detail = (data && data.detail) || "";
          var typistGone = status === 409 && data && data.code === "typist_signed_out";
          if (status === 401 || typistGone || (status === 403 && /CSRF/i.test(detail))) {
            return { kind: "signed-out", status: status, body: data };
          }
          if (BUSY[status]) {
            return { kind: "busy", status: status, body: data, retryAfter: retryAfterOf(response) };
          }
          if (status >= 400 && status < 500) return { kind: "refused", status: status, body: data };
          return { kind: "busy", status: status, body: data, retryAfter: retryAfterOf(response) };
        });
      },
      function () {
        window.clearTimeout(clock);
        if (timedOut) return { kind: "busy", status: 0, body: null, retryAfter: 0 };
        return { kind: "offline", status: 0, body: null };
      }
    );
  }

  function syncOnce() {
    var entries = load().sort(byGameThenNumber);
    var blocked = {};
    var chain = Promise.resolve(false);
    var stop = false;
    entries.forEach(function (entry) {
      chain = chain.then(function () {
        if (stop || blocked[entry.game]) return;
        if (entry.status === "refused") {
          blocked[entry.game] = true;
          return;
        }
        return send(entry).then(function (result) {
          var current = load();
          var index = current.findIndex(function (e) { return e.key === entry.key; });
          if (result.kind === "sent") {
            lastProblem = null;
            recovered();
            if (index >= 0) current.splice(index, 1);
            save(current, { type: "sent", entry: entry, deal: result.body });
          } else if (result.kind === "refused") {
            lastProblem = null;
            recovered();
            if (index >= 0) {
              current[index].status = "refused";
              current[index].error = {
                detail: (result.body && result.body.detail) || gettext("The server refused this entry."),
                field: (result.body && result.body.field) || null,
                status: result.status,
                current: (result.body && result.body.current) || null,
              };
            }
            blocked[entry.game] = true;
            save(current, { type: "refused", entry: entry, status: result.status, body: result.body });
          } else {
            lastProblem = result.kind;
            stop = true;
            var wait = result.kind === "signed-out" ? 0 : failed(result.kind, result.retryAfter || 0);
            emit({ type: result.kind, wait: wait, status: result.status });
          }
        });
      });
    });
    return chain.then(function () {
      if (!stop && !entries.length) lastProblem = null;
      return !stop;
    });
  }

  /* Send what waits, unless a wait is running (then the timer sends it when the wait ends):
   * one send at a time, one timer. ``now``: the person asked for it (the logout dialog's "send
   * now"): one try at once, whatever the wait. */
  function sync(now) {
    if (syncing) return syncing;
    var left = now === true ? 0 : waitLeft();
    if (left > 0) {
      var kept = backoff();
      if (kept.why) lastProblem = kept.why;
      schedule(left);
      emit({ type: "waiting", wait: left });
      return Promise.resolve(false);
    }
    syncing = syncOnce().finally(function () {
      syncing = null;
      emit({ type: "synced" });
      if (waitLeft() > 0) schedule(waitLeft());
    });
    return syncing;
  }

  function schedule(ms) {
    if (timer !== null) window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      timer = null;
      sync();
    }, Math.max(ms, 50));
  }

  function add(entry) {
    var entries = load();
    entry.owner = me();
    entry.key = entry.key || uuid();
    entry.status = "pending";
    entry.error = null;
    entry.savedAt = entry.savedAt || Date.now();
    entries.push(entry);
    save(entries);
    return entry;
  }

  /* A refused entry, fixed: a new key (the fixed numbers are a different entry), same place. */
  function replace(oldKey, entry) {
    var entries = load();
    var index = entries.findIndex(function (e) { return e.key === oldKey; });
    entry.key = uuid();
    entry.owner = me();
    entry.status = "pending";
    entry.error = null;
    entry.savedAt = index >= 0 ? entries[index].savedAt : Date.now();
    if (index >= 0) entries[index] = entry;
    else entries.push(entry);
    save(entries);
    return entry;
  }

  function remove(key) {
    save(load().filter(function (e) { return e.key !== key; }));
  }

  function forGame(game) {
    return load().filter(function (e) { return e.game === game; }).sort(byGameThenNumber);
  }

  function problem() {
    if (!navigator.onLine) return "offline";
    return lastProblem;
  }

  /* Seconds until the outbox tries again (0: it is not waiting). */
  function retryIn() {
    return Math.ceil(waitLeft() / 1000);
  }

  /* Everyone else's entries on this phone, by typist: [{id, name, count}]. */
  function others() {
    var groups = {};
    var list = [];
    loadAll().forEach(function (e) {
      if (isMine(e)) return;
      var id = ownerId(e);
      if (!groups[id]) {
        groups[id] = { id: id, name: (e.owner && e.owner.name) || "", count: 0 };
        list.push(groups[id]);
      }
      groups[id].count += 1;
    });
    return list;
  }

  function discardFor(id) {
    writeAll(loadAll().filter(function (e) { return isMine(e) || ownerId(e) !== String(id); }));
  }

  function renderOthers() {
    var box = document.querySelector("[data-outbox-others]");
    if (!box) return;
    var groups = others();
    box.textContent = "";
    box.hidden = groups.length === 0;
    groups.forEach(function (group) {
      var line = document.createElement("p");
      line.setAttribute("data-outbox-owner", group.name);
      var text = group.name
        ? fmt(ngettext(
          "%(n)s score entry typed on this phone is waiting for %(name)s to sign in again.",
          "%(n)s score entries typed on this phone are waiting for %(name)s to sign in again.",
          group.count), { n: group.count, name: group.name })
        : fmt(ngettext(
          "%(n)s score entry typed on this phone before it knew who typed it is waiting.",
          "%(n)s score entries typed on this phone before it knew who typed them are waiting.",
          group.count), { n: group.count });
      line.appendChild(document.createTextNode(text + " "));
      var button = document.createElement("button");
      button.type = "button";
      button.className = "small";
      button.setAttribute("data-outbox-discard-owner", group.id);
      button.textContent = gettext("Discard");
      button.addEventListener("click", function () {
        var question = group.name
          ? fmt(gettext("Discard what %(name)s typed? It will never be sent."), { name: group.name })
          : gettext("Discard these entries? They will never be sent.");
        if (window.confirm(question)) discardFor(group.id);
      });
      line.appendChild(button);
      box.appendChild(line);
    });
  }

  /* Logging out: resolves true to go ahead (after sending, keeping or discarding this typist's
   * waiting entries, as asked in dialog[data-logout-dialog]), false to stay signed in. */
  function beforeLogout() {
    var waiting = load();
    var dialog = document.querySelector("[data-logout-dialog]");
    if (!waiting.length || !dialog || typeof dialog.showModal !== "function") {
      return Promise.resolve(true);
    }
    var who = me();
    var count = dialog.querySelector("[data-logout-count]");
    if (count) {
      count.textContent = fmt(ngettext(
        "%(n)s score entry typed on this phone is not sent yet.",
        "%(n)s score entries typed on this phone are not sent yet.",
        waiting.length), { n: waiting.length });
    }
    var problem = dialog.querySelector("[data-logout-problem]");
    if (problem) problem.hidden = true;
    return new Promise(function (resolve) {
      function choose(event) {
        var button = event.target.closest("[data-logout-choice]");
        if (!button) return;
        var choice = button.getAttribute("data-logout-choice");
        if (choice === "send") {
          button.disabled = true;
          sync(true).then(function () {
            button.disabled = false;
            if (!load().length) finish(true);
            else if (problem) problem.hidden = false;
          });
          return;
        }
        if (choice === "discard") save([]);
        finish(choice !== "stay");
      }
      function finish(go) {
        dialog.removeEventListener("click", choose);
        dialog.close();
        resolve(go);
      }
      dialog.addEventListener("click", choose);
      dialog.addEventListener("cancel", function onCancel() {
        dialog.removeEventListener("cancel", onCancel);
        dialog.removeEventListener("click", choose);
        resolve(false);
      });
      if (who) dialog.setAttribute("data-typist", who.name);
      dialog.showModal();
    });
  }

  function updateBadge(entries) {
    renderOthers();
    var badge = document.querySelector("[data-outbox-badge]");
    if (!badge) return;
    var count = entries.length;
    badge.hidden = count === 0;
    var refused = entries.some(function (e) { return e.status === "refused"; });
    badge.classList.toggle("outbox-badge--refused", refused);
    var counter = badge.querySelector("[data-outbox-count]");
    var label = badge.querySelector("[data-outbox-label]");
    if (counter) counter.textContent = String(count);
    if (label) label.textContent = ngettext("entry not sent", "entries not sent", count);
    if (count) {
      var first = entries.slice().sort(byGameThenNumber)[0];
      badge.href = first.page || "/games/" + first.game + "/enter/";
      badge.setAttribute("aria-label", fmt(ngettext(
        "%(n)s score entry is not sent yet", "%(n)s score entries are not sent yet", count
      ), { n: count }));
    }
  }

  window.PegboardOutbox = {
    add: add,
    replace: replace,
    remove: remove,
    forGame: forGame,
    all: load,
    others: others,
    discardFor: discardFor,
    beforeLogout: beforeLogout,
    sync: sync,
    problem: problem,
    retryIn: retryIn,
    waitAfter: waitAfter,
    uuid: uuid,
    csrfToken: csrfToken,
    onChange: function (fn) { listeners.push(fn); },
  };

  window.addEventListener("online", function () {
    // The signal is back: a wait the missing signal caused ends; a busy server's wait does not.
    if (backoff().why === "offline") recovered();
    sync();
  });
  window.addEventListener("offline", function () { emit({ type: "offline" }); });
  window.addEventListener("storage", function (event) {
    if (event.key === STORAGE_KEY) emit({ type: "storage" });
  });
  // Entries saved meanwhile (another tab, a send under way) go within RETRY_MS; a wait running
  // holds this too (``sync``).
  window.setInterval(function () {
    if (timer === null && load().some(function (e) { return e.status === "pending"; })) sync();
  }, RETRY_MS);
  function start() {
    updateBadge(load());
    sync();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
