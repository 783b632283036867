/* Score entry on a phone: one deal at a time, checked as it is typed with the same rules as the
 * server (entry_rules), saved on the phone first and sent through the outbox (outbox.js). */
(function () {
  "use strict";

  var root = document.querySelector("[data-entry]");
  var outbox = window.PegboardOutbox;
  if (!root || !outbox) return;

  var data = JSON.parse(document.getElementById("entry-data").textContent);
  var rules = data.rules;
  var target = data.target;
  var serverDeals = data.deals.slice();
  var form = root.querySelector("[data-deal-form]");
  var starterInput = form.querySelector("[data-field=starter]");
  var heelsBox = form.querySelector("[data-field=heels]");
  var withCards = form.querySelector("[data-with-cards]");
  var formNumber = null; // the deal the form is showing
  var formDealer = null;
  var fixing = null; // the key of the refused entry being fixed
  var counts = {}; // who ("0".."3", "crib") -> {total, lines} from the scorer
  var countTimers = {};

  function gettext(text) { return window.gettext ? window.gettext(text) : text; }
  function ngettext(one, many, n) {
    return window.ngettext ? window.ngettext(one, many, n) : (n === 1 ? one : many);
  }
  function fmt(text, values) {
    if (window.interpolate) return window.interpolate(text, values, true);
    return text.replace(/%\((\w+)\)s/g, function (_, k) { return values[k]; });
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "class") node.className = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function fieldId(field) { return "f-" + field.replace(/\./g, "-"); }

  function seatName(seat) { return data.seats[seat].name; }
  function sideOf(seat) { return rules.side_of_seat[seat]; }
  function sideName(side) { return data.sides[side].name; }
  function dealerFor(number) { return (data.first_dealer + number - 1) % rules.players; }
  function showOrder(dealer) {
    var order = [];
    for (var i = 1; i <= rules.players; i++) order.push((dealer + i) % rules.players);
    return order;
  }

  // --- Cards ---------------------------------------------------------------------------------

  var SUITS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  function parseCard(text) {
    var m = /^(10|[2-9]|[AJQKT])([SHDC♠♥♦♣])$/i.exec(String(text).trim());
    if (!m) return null;
    var rank = m[1].toUpperCase() === "T" ? "10" : m[1].toUpperCase();
    var suit = SUITS[m[2]] || m[2].toUpperCase();
    return { rank: rank, suit: suit, text: rank + suit };
  }
  function parseHand(text) {
    var tokens = String(text).replace(/,/g, " ").split(/\s+/).filter(Boolean);
    var cards = [];
    for (var i = 0; i < tokens.length; i++) {
      var card = parseCard(tokens[i]);
      if (!card) return { error: fmt(gettext("%(card)s is not a card: write cards like 5H, 10D or JC."), { card: tokens[i] }) };
      cards.push(card.text);
    }
    return { cards: cards };
  }

  // --- The game so far: the server's deals, then this phone's entries not sent yet -------------

  function dealPoints(payload) {
    var points = [0, 0];
    var dealerSide = sideOf(payload.dealer);
    var starter = payload.starter ? parseCard(payload.starter) : null;
    if ((starter && starter.rank === "J") || (!starter && payload.heels)) points[dealerSide] += rules.heels_points;
    (payload.pegging || []).forEach(function (p, side) { points[side] += p; });
    Object.keys(payload.shows || {}).forEach(function (seat) { points[sideOf(+seat)] += payload.shows[seat]; });
    if (payload.crib !== null && payload.crib !== undefined) points[dealerSide] += payload.crib;
    return points;
  }

  function timeline() {
    var rows = serverDeals.map(function (d) {
      return { number: d.number, dealer: d.dealer, after: d.after.slice(), sent: true };
    });
    var last = rows.length ? rows[rows.length - 1].number : 0;
    var after = rows.length ? rows[rows.length - 1].after.slice() : [0, 0];
    outbox.forGame(data.game).forEach(function (entry) {
      if (entry.number <= last) return; // already on the server, or refused as a duplicate
      var points = dealPoints(entry.payload);
      after = [after[0] + points[0], after[1] + points[1]];
      rows.push({ number: entry.number, dealer: entry.payload.dealer, after: after.slice(), points: points, entry: entry });
      last = entry.number;
    });
    return rows;
  }

  function scoresBefore(number, rows) {
    var before = [0, 0];
    rows.forEach(function (row) { if (row.number === number - 1) before = row.after.slice(); });
    return before;
  }

  // --- The board -----------------------------------------------------------------------------

  function movePeg(svg, side, kind, score) {
    var peg = svg.querySelector(".pegs--" + side + " .peg--" + kind);
    if (!peg) return;
    var hole;
    if (score >= target) hole = svg.querySelector(".hole--game");
    else if (score <= 0) hole = svg.querySelectorAll('circle[data-s="' + side + '"][data-h="0"]')[kind === "back" ? 0 : 1];
    else hole = svg.querySelector('circle[data-s="' + side + '"][data-h="' + score + '"]');
    if (!hole) return;
    peg.setAttribute("cx", hole.getAttribute("cx"));
    peg.setAttribute("cy", hole.getAttribute("cy"));
  }

  function drawBoard(rows) {
    var figure = document.getElementById("entry-board");
    if (!figure) return;
    var svg = figure.querySelector("svg");
    var front = rows.length ? rows[rows.length - 1].after : [0, 0];
    var back = rows.length > 1 ? rows[rows.length - 2].after : [0, 0];
    var words = [];
    for (var side = 0; side < 2; side++) {
      movePeg(svg, side, "back", back[side]);
      movePeg(svg, side, "front", front[side]);
      var score = figure.querySelector('[data-score="' + side + '"]');
      if (score) score.textContent = String(front[side]);
      words.push(sideName(side) + " " + front[side]);
    }
    svg.setAttribute("aria-label", words.join(", "));
    var title = svg.querySelector("title");
    if (title) title.textContent = words.join(", ");
  }

  // --- The form for one deal -----------------------------------------------------------------

  function numberField(field, label, hint) {
    var wrap = el("div", { class: "field field--num", "data-wrap": field });
    var id = fieldId(field);
    wrap.appendChild(el("label", { for: id }, label));
    var input = el("input", {
      id: id, name: field, "data-field": field, inputmode: "numeric", pattern: "[0-9]*",
      autocomplete: "off", enterkeyhint: "next", "aria-describedby": id + "-msg" + (hint ? " " + id + "-hint" : ""),
    });
    wrap.appendChild(input);
    if (hint) wrap.appendChild(el("small", { class: "help", id: id + "-hint" }, hint));
    wrap.appendChild(el("p", { class: "msg", id: id + "-msg", "data-msg-for": field }));
    return wrap;
  }

  function cardsField(who, label) {
    var wrap = el("div", { class: "field field--cards", "data-cards-wrap": who });
    var id = "f-cards-" + who;
    wrap.appendChild(el("label", { for: id }, label));
    var input = el("input", {
      id: id, "data-cards": who, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
      placeholder: gettext("e.g. 5H 5D JC 10S"), "aria-describedby": id + "-msg",
    });
    wrap.appendChild(input);
    wrap.appendChild(el("p", { class: "msg", id: id + "-msg", "data-msg-for": "cards." + who }));
    wrap.appendChild(el("ul", { class: "breakdown-lines", "data-breakdown": who, "aria-live": "polite" }));
    return wrap;
  }

  function buildForm(number, dealer, entry) {
    formNumber = number;
    formDealer = dealer;
    counts = {};
    var dealerSide = sideOf(dealer);
    form.querySelector("[data-deal-title]").textContent = entry
      ? fmt(gettext("Fix deal %(n)s"), { n: number })
      : fmt(gettext("Deal %(n)s"), { n: number });
    form.querySelector("[data-dealer-line]").textContent = fmt(
      gettext("%(dealer)s deals; the crib is %(team)s's"), { dealer: seatName(dealer), team: sideName(dealerSide) }
    );
    form.querySelector("[data-save]").textContent = entry
      ? fmt(gettext("Save the fixed deal %(n)s"), { n: number })
      : fmt(gettext("Save deal %(n)s"), { n: number });
    form.querySelector("[data-cancel-fix]").hidden = !entry;

    var pegging = form.querySelector("[data-pegging]");
    pegging.textContent = "";
    for (var side = 0; side < rules.sides; side++) {
      var isDealer = side === dealerSide;
      var most = isDealer ? rules.pegging_max.dealer : rules.pegging_max.non_dealer;
      pegging.appendChild(numberField(
        "pegging." + side,
        isDealer ? fmt(gettext("%(team)s (dealer's team)"), { team: sideName(side) }) : sideName(side),
        fmt(gettext("at most %(n)s"), { n: most })
      ));
    }
    var shows = form.querySelector("[data-shows]");
    shows.textContent = "";
    showOrder(dealer).forEach(function (seat, i) {
      var row = el("div", { class: "show-row" });
      row.appendChild(numberField(
        "shows." + seat,
        fmt(gettext("%(n)s. %(player)s's hand"), { n: i + 1, player: seatName(seat) }),
        sideName(sideOf(seat))
      ));
      row.appendChild(cardsField(String(seat), fmt(gettext("%(player)s's cards"), { player: seatName(seat) })));
      shows.appendChild(row);
    });
    var cribRow = el("div", { class: "show-row show-row--crib" });
    cribRow.appendChild(numberField(
      "crib", fmt(gettext("%(n)s. The crib (%(dealer)s's)"), { n: rules.players + 1, dealer: seatName(dealer) }), sideName(dealerSide)
    ));
    cribRow.appendChild(cardsField("crib", gettext("The crib's cards")));
    shows.appendChild(cribRow);

    starterInput.value = "";
    heelsBox.checked = false;
    withCards.checked = false;
    setMessage("starter", "");
    if (entry) fill(entry);
    toggleCards();
    evaluate(false);
  }

  function fill(entry) {
    var p = entry.payload;
    starterInput.value = p.starter || "";
    heelsBox.checked = !!p.heels;
    (p.pegging || []).forEach(function (v, side) { input("pegging." + side).value = String(v); });
    Object.keys(p.shows || {}).forEach(function (seat) { input("shows." + seat).value = String(p.shows[seat]); });
    if (p.crib !== null && p.crib !== undefined) input("crib").value = String(p.crib);
    if (p.cards) {
      withCards.checked = true;
      Object.keys(p.cards).forEach(function (who) {
        var box = form.querySelector('[data-cards="' + who + '"]');
        if (box) box.value = p.cards[who].join(" ");
      });
    }
  }

  function input(field) { return form.querySelector('[data-field="' + field + '"]'); }

  function setMessage(field, text, kind) {
    var msg = form.querySelector('[data-msg-for="' + field + '"]');
    var box = input(field) || form.querySelector('[data-cards="' + field.replace(/^cards\./, "") + '"]');
    if (msg) {
      msg.textContent = text || "";
      msg.className = "msg" + (text ? " msg--" + (kind || "error") : "");
    }
    if (box) {
      if (text && (kind || "error") === "error") box.setAttribute("aria-invalid", "true");
      else box.removeAttribute("aria-invalid");
    }
  }

  function readInt(field) {
    var box = input(field);
    var raw = box ? box.value.trim() : "";
    if (raw === "") return { empty: true };
    if (!/^\d+$/.test(raw)) return { bad: true };
    return { value: parseInt(raw, 10) };
  }

  function checkPoints(value, allowed, noun) {
    if (allowed.indexOf(value) >= 0) return null;
    var most = allowed[allowed.length - 1];
    if (noun === "crib") {
      return value > most
        ? fmt(gettext("A crib can never score %(n)s: the most it can make is %(most)s."), { n: value, most: most })
        : fmt(gettext("A crib can never score %(n)s."), { n: value });
    }
    return value > most
      ? fmt(gettext("A hand can never score %(n)s: the most it can make is %(most)s."), { n: value, most: most })
      : fmt(gettext("A hand can never score %(n)s."), { n: value });
  }

  /* Add the deal up in table order (his heels, the play, the shows, the crib), stopping when a
   * side reaches the target, and check every number. ``strict``: empty counted fields are errors. */
  function evaluate(strict) {
    var rows = timeline();
    var before = scoresBefore(formNumber, rows);
    var scores = before.slice();
    var errors = {};
    var notes = {};
    var ended = null;
    var dealer = formDealer;
    var dealerSide = sideOf(dealer);
    var result = { pegging: [], shows: {}, crib: null, starter: null, heels: false, cards: null };

    var starterText = starterInput.value.trim();
    var starter = null;
    if (starterText) {
      starter = parseCard(starterText);
      if (!starter) errors.starter = gettext("Write the starter like 5H, 10D or JC: the rank, then the suit.");
      else result.starter = starter.text;
    }
    var heelsWrap = form.querySelector("[data-heels-box]");
    heelsWrap.hidden = !!starter;
    var heels = starter ? starter.rank === "J" : heelsBox.checked;
    if (starter && heels) notes.starter = fmt(gettext("His heels: 2 to %(team)s."), { team: sideName(dealerSide) });
    result.heels = heels;
    if (heels) {
      scores[dealerSide] += rules.heels_points;
      if (scores[dealerSide] >= target) ended = { stage: "heels", side: dealerSide };
    }

    // The play
    var peg = [];
    var pegOk = true;
    for (var side = 0; side < rules.sides; side++) {
      var field = "pegging." + side;
      var box = input(field);
      box.disabled = !!ended;
      if (ended) { notes[field] = gettext("Doesn't count: the game was already over."); peg.push(0); continue; }
      var r = readInt(field);
      var most = side === dealerSide ? rules.pegging_max.dealer : rules.pegging_max.non_dealer;
      if (r.bad) { errors[field] = gettext("Enter a whole number, like 4."); pegOk = false; }
      else if (r.empty) { if (strict) errors[field] = gettext("Enter the pegging (0 if none)."); pegOk = false; }
      else if (r.value > most) {
        errors[field] = side === dealerSide
          ? fmt(gettext("The dealer's team can peg at most %(most)s in one deal, not %(n)s."), { most: most, n: r.value })
          : fmt(gettext("A team that didn't deal can peg at most %(most)s in one deal, not %(n)s."), { most: most, n: r.value });
        pegOk = false;
      }
      peg.push(r.value || 0);
    }
    result.pegging = peg;
    if (!ended && pegOk) {
      var total = peg.reduce(function (a, b) { return a + b; }, 0);
      if (total > rules.pegging_max.total) {
        errors["pegging." + (rules.sides - 1)] = fmt(gettext("Both teams together can peg at most %(most)s in one deal, not %(n)s."), { most: rules.pegging_max.total, n: total });
      } else {
        var out = [];
        peg.forEach(function (p, s) { if (scores[s] + p >= target) out.push(s); });
        if (out.length > 1) {
          errors["pegging.0"] = fmt(gettext("Only one team can reach %(target)s in the play: enter the other team's pegging up to that moment."), { target: target });
        } else {
          [0, 1].sort(function (a, b) { return (out.indexOf(a) >= 0) - (out.indexOf(b) >= 0); }).forEach(function (s) {
            scores[s] += peg[s];
          });
          if (out.length) ended = { stage: "pegging", side: out[0] };
        }
      }
    }

    // The shows, from the dealer's left, the dealer last, then the crib
    var who = showOrder(dealer).map(String).concat(["crib"]);
    who.forEach(function (w) {
      var field = w === "crib" ? "crib" : "shows." + w;
      var box = input(field);
      var seat = w === "crib" ? dealer : +w;
      var s = sideOf(seat);
      box.disabled = !!ended;
      var cardsBox = form.querySelector('[data-cards="' + w + '"]');
      if (cardsBox) cardsBox.disabled = !!ended;
      if (ended) { notes[field] = gettext("Doesn't count: the game was already over."); return; }
      var r = readInt(field);
      if (r.bad) { errors[field] = gettext("Enter a whole number, like 8."); return; }
      if (r.empty) { if (strict) errors[field] = w === "crib" ? gettext("Enter the crib (0 if nothing).") : gettext("Enter this hand (0 if nothing)."); return; }
      var wrong = checkPoints(r.value, w === "crib" ? rules.crib_totals : rules.show_totals, w === "crib" ? "crib" : "hand");
      if (!wrong && counts[w] && counts[w].total !== undefined && r.value > counts[w].total) {
        wrong = fmt(gettext("These cards make %(total)s, so %(n)s can't be claimed (an under-count stands: we play no muggins)."), { total: counts[w].total, n: r.value });
      }
      if (wrong) { errors[field] = wrong; return; }
      if (w === "crib") result.crib = r.value;
      else result.shows[w] = r.value;
      scores[s] += r.value;
      if (scores[s] >= target) ended = { stage: w === "crib" ? "crib" : "show", side: s, seat: seat };
    });

    // The cards, when entered
    if (withCards.checked) {
      var seen = {};
      if (starter) seen[starter.text] = gettext("the starter");
      var cards = {};
      who.forEach(function (w) {
        var box = form.querySelector('[data-cards="' + w + '"]');
        var field = "cards." + w;
        if (!box || !box.value.trim()) return;
        var parsed = parseHand(box.value);
        if (parsed.error) { errors[field] = parsed.error; return; }
        var size = w === "crib" ? rules.crib_size : rules.hand_size;
        if (parsed.cards.length !== size) {
          if (strict || parsed.cards.length > size) errors[field] = fmt(gettext("Enter %(n)s cards."), { n: size });
          return;
        }
        for (var i = 0; i < parsed.cards.length; i++) {
          var c = parsed.cards[i];
          if (seen[c]) { errors[field] = fmt(gettext("%(card)s is entered twice (%(where)s too): a deck has only one of each card."), { card: c, where: seen[c] }); return; }
          seen[c] = w === "crib" ? gettext("the crib") : seatName(+w);
        }
        if (!starter) { errors.starter = gettext("Enter the starter too: the cards can't be counted without it."); return; }
        cards[w] = parsed.cards;
      });
      if (Object.keys(cards).length) result.cards = cards;
    }

    result.errors = errors;
    result.notes = notes;
    result.ended = ended;
    result.before = before;
    result.after = scores;
    showMessages(result);
    return result;
  }

  function showMessages(result) {
    var fields = ["starter"];
    form.querySelectorAll("[data-field]").forEach(function (box) {
      var f = box.getAttribute("data-field");
      if (f !== "heels" && fields.indexOf(f) < 0) fields.push(f);
    });
    form.querySelectorAll("[data-cards]").forEach(function (box) { fields.push("cards." + box.getAttribute("data-cards")); });
    fields.forEach(function (f) {
      if (result.errors[f]) setMessage(f, result.errors[f], "error");
      else if (result.notes[f]) setMessage(f, result.notes[f], "note");
      else if (f.indexOf("cards.") === 0 && counts[f.slice(6)] && counts[f.slice(6)].message) setMessage(f, counts[f.slice(6)].message, "note");
      else setMessage(f, "");
    });
    var line = form.querySelector("[data-deal-total]");
    var plus = [result.after[0] - result.before[0], result.after[1] - result.before[1]];
    var text = fmt(gettext("This deal: %(a)s +%(pa)s, %(b)s +%(pb)s. Score %(sa)s–%(sb)s."), {
      a: sideName(0), pa: plus[0], b: sideName(1), pb: plus[1], sa: result.after[0], sb: result.after[1],
    });
    if (result.ended) {
      text += " " + fmt(gettext("%(team)s reach %(target)s: the game is over, and nothing after that counts."), { team: sideName(result.ended.side), target: target });
    }
    line.textContent = text;
  }

  // --- The scorer's count of entered cards ----------------------------------------------------

  function requestCount(who) {
    var box = form.querySelector('[data-cards="' + who + '"]');
    var list = form.querySelector('[data-breakdown="' + who + '"]');
    var starter = parseCard(starterInput.value);
    var parsed = box ? parseHand(box.value) : { error: true };
    var size = who === "crib" ? rules.crib_size : rules.hand_size;
    list.textContent = "";
    delete counts[who];
    if (!withCards.checked || !starter || parsed.error || parsed.cards.length !== size) return;
    var url = data.urls.show + "?" + new URLSearchParams({
      hand: parsed.cards.join(" "), starter: starter.text, crib: who === "crib" ? "1" : "0",
    }).toString();
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
      .then(function (answer) {
        if (!answer.ok) { counts[who] = { message: answer.body.detail }; evaluate(false); return; }
        var show = answer.body;
        counts[who] = { total: show.total, message: fmt(gettext("The scorer counts %(n)s."), { n: show.total }) };
        show.breakdown.forEach(function (item) {
          list.appendChild(el("li", {}, item.label + ": " + item.cards.join(" ") + " (" + item.points + ")"));
        });
        list.appendChild(el("li", { class: "total" }, fmt(gettext("Total: %(n)s"), { n: show.total })));
        var field = who === "crib" ? "crib" : "shows." + who;
        var number = input(field);
        if (number && number.value.trim() === "") number.value = String(show.total);
        evaluate(false);
      })
      .catch(function () {
        counts[who] = { message: gettext("No connection: the count will show when you are back online. The server checks the cards when the deal is sent.") };
        evaluate(false);
      });
  }

  function toggleCards() {
    form.querySelectorAll("[data-cards-wrap]").forEach(function (wrap) { wrap.hidden = !withCards.checked; });
  }

  form.addEventListener("input", function (event) {
    var who = event.target.getAttribute("data-cards");
    if (who !== null || event.target === starterInput) {
      var targets = who !== null ? [who] : Object.keys(countTimers).concat(
        Array.prototype.map.call(form.querySelectorAll("[data-cards]"), function (b) { return b.getAttribute("data-cards"); })
      );
      targets.forEach(function (w) {
        window.clearTimeout(countTimers[w]);
        countTimers[w] = window.setTimeout(function () { requestCount(w); }, 250);
      });
    }
    evaluate(false);
  });
  form.addEventListener("change", function (event) {
    if (event.target === withCards) toggleCards();
    evaluate(false);
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var result = evaluate(true);
    var problem = form.querySelector("[data-form-error]");
    var bad = Object.keys(result.errors);
    if (bad.length) {
      problem.textContent = fmt(ngettext("One number needs fixing before this deal can be saved.", "%(n)s numbers need fixing before this deal can be saved.", bad.length), { n: bad.length });
      problem.hidden = false;
      var first = form.querySelector("[aria-invalid=true]");
      if (first) first.focus();
      return;
    }
    problem.hidden = true;
    var payload = { dealer: formDealer, pegging: result.pegging, shows: result.shows, crib: result.crib };
    if (result.starter) payload.starter = result.starter;
    else if (result.heels) payload.heels = true;
    if (result.cards) payload.cards = result.cards;
    var entry = { game: data.game, url: data.urls.deals, number: formNumber, payload: payload };
    var number = formNumber;
    if (fixing) outbox.replace(fixing, entry);
    else outbox.add(entry);
    fixing = null;
    formNumber = null;
    say(fmt(gettext("Deal %(n)s is saved on this phone."), { n: number }));
    render();
    outbox.sync();
    var next = form.querySelector("input:not([disabled])");
    if (next && !form.hidden) next.focus();
  });

  form.querySelector("[data-cancel-fix]").addEventListener("click", function () {
    fixing = null;
    formNumber = null;
    render();
  });

  var announcement = null;
  function say(text) { announcement = text; }

  // --- Status, the outbox list and the deals list ---------------------------------------------

  function renderStatus(entries) {
    var box = root.querySelector("[data-sync-status]");
    var n = entries.length;
    var refused = entries.filter(function (e) { return e.status === "refused"; }).length;
    var problem = outbox.problem();
    var state, text;
    if (!n) { state = "ok"; text = gettext("Everything is sent: the server has every deal."); }
    else if (refused) { state = "refused"; text = fmt(ngettext("%(n)s deal is not sent: the server refused it. Fix it or discard it below.", "%(n)s deals are not sent: the server refused one. Fix it or discard it below.", n), { n: n }); }
    else if (problem === "offline") { state = "offline"; text = fmt(ngettext("%(n)s deal is not sent yet: no connection. It is kept on this phone and will be sent when the connection returns.", "%(n)s deals are not sent yet: no connection. They are kept on this phone and will be sent when the connection returns.", n), { n: n }); }
    else if (problem === "signed-out") { state = "signed-out"; text = fmt(ngettext("%(n)s deal is not sent: you are signed out. Log in again; it is kept on this phone.", "%(n)s deals are not sent: you are signed out. Log in again; they are kept on this phone.", n), { n: n }); }
    else { state = "sending"; text = fmt(ngettext("Sending %(n)s deal…", "Sending %(n)s deals…", n), { n: n }); }
    box.setAttribute("data-state", state);
    box.setAttribute("data-pending", String(n));
    box.textContent = (announcement ? announcement + " " : "") + text;
    if (state === "signed-out") {
      box.appendChild(document.createTextNode(" "));
      box.appendChild(el("a", { href: data.urls.login + "?next=" + encodeURIComponent(window.location.pathname) }, gettext("Log in")));
    }
    announcement = null;
  }

  function renderOutbox(entries) {
    var section = root.querySelector("[data-outbox-section]");
    var list = root.querySelector("[data-outbox-list]");
    list.textContent = "";
    section.hidden = !entries.length;
    var blockedBy = null;
    entries.forEach(function (entry) {
      var item = el("li", { class: "outbox-item outbox-item--" + entry.status, "data-outbox-entry": entry.number });
      var points = dealPoints(entry.payload);
      item.appendChild(el("strong", {}, fmt(gettext("Deal %(n)s"), { n: entry.number })));
      item.appendChild(el("span", { class: "muted" }, " · " + fmt(gettext("%(dealer)s dealt · %(a)s +%(pa)s, %(b)s +%(pb)s"), {
        dealer: seatName(entry.payload.dealer), a: sideName(0), pa: points[0], b: sideName(1), pb: points[1],
      })));
      if (entry.status === "refused") {
        item.appendChild(el("p", { class: "refusal", role: "alert" }, entry.error ? entry.error.detail : ""));
        var fix = el("button", { type: "button", class: "button", "data-fix": entry.key }, gettext("Fix"));
        var discard = el("button", { type: "button", class: "button button--danger", "data-discard": entry.key }, gettext("Discard"));
        var actions = el("p", { class: "actions" });
        actions.appendChild(fix);
        actions.appendChild(discard);
        item.appendChild(actions);
        blockedBy = blockedBy || entry.number;
      } else if (blockedBy) {
        item.appendChild(el("p", { class: "muted" }, fmt(gettext("Waiting: deal %(n)s must be fixed or discarded first."), { n: blockedBy })));
      } else {
        item.appendChild(el("p", { class: "muted" }, gettext("Kept on this phone, waiting to be sent.")));
      }
      list.appendChild(item);
    });
  }

  function renderDeals(rows) {
    var list = root.querySelector("[data-deal-list]");
    list.textContent = "";
    rows.slice().reverse().forEach(function (row) {
      var item = el("li", { class: "deal-item" + (row.sent ? "" : " deal-item--local") });
      item.appendChild(el("strong", {}, fmt(gettext("Deal %(n)s"), { n: row.number })));
      item.appendChild(el("span", {}, " · " + fmt(gettext("%(dealer)s dealt"), { dealer: seatName(row.dealer) }) + " · "));
      item.appendChild(el("span", { class: "nowrap" }, sideName(0) + " " + row.after[0] + " · " + sideName(1) + " " + row.after[1]));
      if (!row.sent) item.appendChild(el("span", { class: "badge badge--wait" }, gettext("not sent yet")));
      list.appendChild(item);
    });
  }

  function render() {
    var entries = outbox.forGame(data.game);
    var rows = timeline();
    drawBoard(rows);
    renderStatus(entries);
    renderOutbox(entries);
    renderDeals(rows);
    var last = rows.length ? rows[rows.length - 1].after : [0, 0];
    var over = Math.max(last[0], last[1]) >= target || (data.status !== "in_progress" && !entries.length);
    var panel = root.querySelector("[data-game-over]");
    if (over && !fixing) {
      form.hidden = true;
      panel.hidden = false;
      var winner = last[0] >= target ? 0 : last[1] >= target ? 1 : null;
      panel.querySelector("[data-game-over-title]").textContent = winner === null
        ? gettext("This game is over.")
        : fmt(gettext("Game over: %(team)s win %(a)s–%(b)s."), { team: sideName(winner), a: last[winner], b: last[1 - winner] });
      panel.querySelector("[data-game-over-text]").textContent = entries.length
        ? gettext("Some deals are not sent yet: keep this page open until they are.")
        : gettext("The other team now confirms the result from their own phone, on the game page.");
      return;
    }
    panel.hidden = true;
    form.hidden = false;
    if (fixing) return; // the form shows the entry being fixed
    var next = rows.length ? rows[rows.length - 1].number + 1 : 1;
    if (formNumber !== next) buildForm(next, dealerFor(next), null);
    else evaluate(false);
  }

  root.addEventListener("click", function (event) {
    var fixKey = event.target.getAttribute("data-fix");
    var discardKey = event.target.getAttribute("data-discard");
    var entry;
    if (fixKey) {
      entry = outbox.forGame(data.game).filter(function (e) { return e.key === fixKey; })[0];
      if (!entry) return;
      fixing = fixKey;
      buildForm(entry.number, entry.payload.dealer, entry);
      form.hidden = false;
      root.querySelector("[data-game-over]").hidden = true;
      if (entry.error && entry.error.field) {
        var field = entry.error.field.replace(/^hands\./, "cards.").replace(/^crib_cards$/, "cards.crib");
        setMessage(field, entry.error.detail, "error");
      }
      var first = form.querySelector("[aria-invalid=true]") || form.querySelector("input");
      if (first) first.focus();
    } else if (discardKey) {
      entry = outbox.forGame(data.game).filter(function (e) { return e.key === discardKey; })[0];
      if (!entry) return;
      if (!window.confirm(fmt(gettext("Discard deal %(n)s? Its numbers will be lost."), { n: entry.number }))) return;
      outbox.remove(discardKey);
      if (fixing === discardKey) fixing = null;
      formNumber = null;
      render();
      outbox.sync();
    }
  });

  // --- Keeping up with the server -------------------------------------------------------------

  function sideAfter(deal) {
    return data.home_side === 0 ? [deal.home_after, deal.away_after] : [deal.away_after, deal.home_after];
  }

  function refreshServer() {
    return fetch(data.urls.deals, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { if (!response.ok) throw new Error(); return response.json(); })
      .then(function (deals) {
        var list = Array.isArray(deals) ? deals : deals.results || [];
        serverDeals = list.map(function (d) { return { number: d.number, dealer: d.dealer, after: sideAfter(d) }; });
        formNumber = fixing ? formNumber : null;
        render();
      })
      .catch(function () { /* offline: the outbox retries */ });
  }

  outbox.onChange(function (entries, event) {
    if (event && event.type === "sent" && event.entry.game === data.game && event.deal) {
      var last = serverDeals.length ? serverDeals[serverDeals.length - 1].number : 0;
      if (event.deal.number === last + 1) {
        serverDeals.push({ number: event.deal.number, dealer: event.deal.dealer, after: sideAfter(event.deal) });
      }
    }
    if (event && event.type === "refused" && event.entry.game === data.game && event.status === 409) {
      refreshServer();
      return;
    }
    render();
  });

  render();
})();
