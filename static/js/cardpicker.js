/* The card picker: a 52-card grid (one row a suit) under a text field of card codes.
 *
 * Guarantees:
 * - The text field stays the truth: a tap adds or takes away the card's code in the field and
 *   fires the field's own "input" and "change" events, so everything that reads typed cards
 *   (the deal form's scorer breakdown, the server) sees picked cards exactly as typed ones.
 *   Typing still works, and the grid follows what is typed.
 * - A card already in another field of the same deal (the closest [data-card-deal], else the
 *   form) is greyed out and cannot be tapped.
 * - A field never gets more cards than its data-card-count; the grid closes itself when the
 *   field is full (a hand: the "Pick" button and four cards, five taps).
 * - Without JavaScript the fields are plain text fields.
 *
 * Use: <input data-card-picker data-card-count="4"> (or data-card-count-from="<select id>" with
 * data-card-counts='{"<option value>": n}'); fields made later call
 * CardPicker.attach(input). data-card-picker-open shows the grid from the start. */
(function () {
  "use strict";

  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUITS = [
    { code: "S", symbol: "♠", name: function () { return gettext("Spades"); } },
    { code: "H", symbol: "♥", name: function () { return gettext("Hearts"); } },
    { code: "D", symbol: "♦", name: function () { return gettext("Diamonds"); } },
    { code: "C", symbol: "♣", name: function () { return gettext("Clubs"); } },
  ];
  var SYMBOL_SUIT = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

  function normal(token) {
    var m = /^(10|[2-9]|[AJQKT])([SHDC♠♥♦♣])$/i.exec(String(token || "").trim());
    if (!m) return null;
    var rank = m[1].toUpperCase() === "T" ? "10" : m[1].toUpperCase();
    return rank + (SYMBOL_SUIT[m[2]] || m[2].toUpperCase());
  }
  function tokens(input) {
    return String(input.value).replace(/,/g, " ").split(/\s+/).filter(Boolean);
  }
  function cardsIn(input) {
    return tokens(input).map(normal).filter(Boolean);
  }
  function groupOf(input) {
    return input.closest("[data-card-deal]") || input.form || document;
  }
  function limit(input) {
    var from = input.getAttribute("data-card-count-from"); // a select whose choice sets the count
    var select = from && document.getElementById(from);
    if (select) {
      var counts = JSON.parse(input.getAttribute("data-card-counts") || "{}");
      if (counts[select.value]) return counts[select.value];
    }
    var n = parseInt(input.getAttribute("data-card-count"), 10);
    return isNaN(n) ? 52 : n;
  }
  function fire(input) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function refresh(group) {
    var fields = Array.prototype.slice.call(group.querySelectorAll("[data-card-picker]"));
    var owner = {};
    fields.forEach(function (f) { cardsIn(f).forEach(function (c) { owner[c] = f; }); });
    fields.forEach(function (f) {
      var grid = f._cardGrid;
      if (!grid) return;
      var mine = cardsIn(f);
      var full = mine.length >= limit(f);
      grid.querySelectorAll("button[data-card]").forEach(function (b) {
        var code = b.getAttribute("data-card");
        var chosen = mine.indexOf(code) >= 0;
        var elsewhere = !chosen && owner[code] && owner[code] !== f;
        // Each write only when it changes something: Chrome keeps the page still by an anchor
        // node, and rewriting nodes on every keystroke scrolled the page under a finger.
        var pressed = chosen ? "true" : "false";
        if (b.getAttribute("aria-pressed") !== pressed) b.setAttribute("aria-pressed", pressed);
        var off = !!elsewhere || (full && !chosen);
        if (b.disabled !== off) b.disabled = off;
        if (b.classList.contains("is-elsewhere") !== !!elsewhere) b.classList.toggle("is-elsewhere", !!elsewhere);
      });
      var count = f._cardCount;
      var text = fmt(gettext("%(n)s of %(size)s"), { n: mine.length, size: limit(f) });
      if (count && count.textContent !== text) count.textContent = text;
    });
  }
  function fmt(text, values) { return interpolate(text, values, true); }

  function show(input, open) {
    input._cardGrid.hidden = !open;
    input._cardToggle.setAttribute("aria-expanded", open ? "true" : "false");
    input._cardToggle.textContent = open ? gettext("Hide the cards") : gettext("Pick cards");
  }

  function tap(input, code) {
    var list = tokens(input);
    var at = list.map(normal).indexOf(code);
    if (at >= 0) list.splice(at, 1);
    else if (cardsIn(input).length < limit(input)) list.push(code);
    else return;
    input.value = list.join(" ");
    fire(input);
    if (at < 0 && cardsIn(input).length >= limit(input) && !input.hasAttribute("data-card-picker-open")) {
      show(input, false);
    }
  }

  function attach(input) {
    if (input._cardGrid) return;
    var id = (input.id || "cards") + "-picker";
    var bar = document.createElement("div");
    bar.className = "card-picker-bar";
    var toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "card-picker-toggle";
    toggle.setAttribute("aria-controls", id);
    var count = document.createElement("span");
    count.className = "card-picker-count muted";
    count.setAttribute("aria-live", "polite");
    bar.appendChild(toggle);
    bar.appendChild(count);
    var grid = document.createElement("div");
    grid.className = "card-grid";
    grid.id = id;
    SUITS.forEach(function (suit) {
      var row = document.createElement("div");
      row.className = "card-row card-row--" + suit.code.toLowerCase();
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", suit.name());
      RANKS.forEach(function (rank) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "card-pick";
        b.setAttribute("data-card", rank + suit.code);
        b.setAttribute("aria-label", rank + suit.code);
        b.innerHTML = '<span class="card-rank"></span><span class="card-suit" aria-hidden="true"></span>';
        b.firstChild.textContent = rank;
        b.lastChild.textContent = suit.symbol;
        b.addEventListener("click", function () { tap(input, rank + suit.code); });
        row.appendChild(b);
      });
      grid.appendChild(row);
    });
    input.insertAdjacentElement("afterend", bar);
    bar.insertAdjacentElement("afterend", grid);
    input._cardGrid = grid;
    input._cardToggle = toggle;
    input._cardCount = count;
    toggle.addEventListener("click", function () { show(input, grid.hidden); });
    show(input, input.hasAttribute("data-card-picker-open"));
    var group = groupOf(input);
    if (!group._cardListening) {
      group._cardListening = true;
      // Only a card field, or the choice that sets a field's count, changes the grids.
      var relevant = function (event) {
        var t = event.target;
        return t.hasAttribute && (t.hasAttribute("data-card-picker") || (t.id && group.querySelector('[data-card-count-from="' + t.id + '"]')));
      };
      group.addEventListener("input", function (event) { if (relevant(event)) refresh(group); });
      group.addEventListener("change", function (event) { if (relevant(event)) refresh(group); });
    }
    refresh(group);
  }

  window.CardPicker = { attach: attach, refresh: function (input) { refresh(groupOf(input)); } };
  function start() { document.querySelectorAll("[data-card-picker]").forEach(attach); }
  // Deferred scripts run before DOMContentLoaded, the translation catalogue perhaps after this one.
  if (document.readyState === "complete") start();
  else document.addEventListener("DOMContentLoaded", start);
})();
