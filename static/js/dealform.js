/* The form for one deal, written once and used by two pages: the phone's score entry (entry.js)
 * and the judge's correction form in the admin (judge.js). Seats are named by their players, every
 * number is checked as it is typed with the server's own rules (``entry_rules``, the data's
 * ``rules``), entered cards are counted by the scorer, and a deal comes out in the one deal shape
 * the server reads: {dealer, starter | heels, pegging: [per side], shows: {seat: points}, crib,
 * cards}. The page says what happens to a saved deal (``onSave``) and what the scores were before
 * it (``scoresBefore``). */
(function () {
  "use strict";

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

  // --- The table: names, sides, the order of the count --------------------------------------

  function seatName(data, seat) { return data.seats[seat].name; }
  function sideOf(data, seat) { return data.rules.side_of_seat[seat]; }
  function sideName(data, side) { return data.sides[side].name; }
  function dealerFor(data, number) { return (data.first_dealer + number - 1) % data.rules.players; }
  function showOrder(data, dealer) {
    var order = [];
    for (var i = 1; i <= data.rules.players; i++) order.push((dealer + i) % data.rules.players);
    return order;
  }

  // --- Cards ---------------------------------------------------------------------------------

  var SUITS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  function parseCard(text) {
    var m = /^(10|[2-9]|[AJQKT])([SHDC♠♥♦♣])$/i.exec(String(text || "").trim());
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

  // --- A deal in the one deal shape ----------------------------------------------------------

  /* What a deal adds to each side (side order), in table order; a deal that ended the game
   * carries only what was counted before the end. */
  function points(data, payload) {
    var rules = data.rules;
    var total = [0, 0];
    var dealerSide = sideOf(data, payload.dealer);
    var starter = payload.starter ? parseCard(payload.starter) : null;
    if ((starter && starter.rank === "J") || (!starter && payload.heels)) total[dealerSide] += rules.heels_points;
    (payload.pegging || []).forEach(function (p, side) { total[side] += p; });
    Object.keys(payload.shows || {}).forEach(function (seat) { total[sideOf(data, +seat)] += payload.shows[seat]; });
    if (payload.crib !== null && payload.crib !== undefined) total[dealerSide] += payload.crib;
    return total;
  }

  function canonical(payload) {
    var starter = payload.starter ? parseCard(payload.starter) : null;
    var shows = {};
    Object.keys(payload.shows || {}).sort().forEach(function (k) { shows[String(k)] = payload.shows[k]; });
    var cards = null;
    if (payload.cards && Object.keys(payload.cards).length) {
      cards = {};
      Object.keys(payload.cards).sort().forEach(function (k) { cards[k] = payload.cards[k].slice(); });
    }
    return JSON.stringify([
      payload.dealer, starter ? starter.text : null, !!(payload.heels || (starter && starter.rank === "J")),
      payload.pegging || [], shows, payload.crib === undefined ? null : payload.crib, cards,
    ]);
  }

  /* Whether two deals say the same (however his heels was spelt). */
  function same(a, b) { return canonical(a) === canonical(b); }

  /* A deal in words, as the game page shows it: the dealer, the starter, each team's pegging,
   * each hand in counting order, the crib. */
  /* A deal in words (dealer, starter, pegging, shows in counting order, crib). With ``other``
   * (the rival version of the same deal), each value that is not the same in both is marked,
   * and says so to a screen reader. */
  function summary(data, payload, other) {
    var dl = el("dl", { class: "deal-summary" });
    function row(term, parts) {
      dl.appendChild(el("dt", {}, term));
      var dd = el("dd", {});
      parts.forEach(function (part, i) {
        if (i) dd.appendChild(document.createTextNode(", "));
        if (!part.differs) { dd.appendChild(document.createTextNode(part.text)); return; }
        var mark = el("mark", { class: "differs" }, part.text);
        mark.appendChild(el("span", { class: "visually-hidden" }, " " + gettext("(differs)")));
        dd.appendChild(mark);
      });
      dl.appendChild(dd);
    }
    function differs(read) { return !!other && String(read(payload)) !== String(read(other)); }
    row(gettext("Dealer"), [{ text: seatName(data, payload.dealer), differs: differs(function (p) { return p.dealer; }) }]);
    var starter = payload.starter ? parseCard(payload.starter) : null;
    var starterDiffers = differs(function (p) { return (p.starter || "") + "|" + !!p.heels; });
    if (starter) row(gettext("Starter"), [{ text: starter.text + (starter.rank === "J" ? " · " + gettext("his heels") : ""), differs: starterDiffers }]);
    else if (payload.heels) row(gettext("Starter"), [{ text: gettext("his heels"), differs: starterDiffers }]);
    row(gettext("Pegging"), (payload.pegging || []).map(function (p, side) {
      return { text: sideName(data, side) + " " + p, differs: differs(function (d) { return (d.pegging || [])[side]; }) };
    }));
    var shows = showOrder(data, payload.dealer).filter(function (seat) {
      return payload.shows && payload.shows[String(seat)] !== undefined;
    }).map(function (seat) {
      return { text: seatName(data, seat) + " " + payload.shows[String(seat)], differs: differs(function (d) { return (d.shows || {})[String(seat)]; }) };
    });
    row(gettext("Shows"), shows.length ? shows : [{ text: "–" }]);
    var crib = payload.crib === null || payload.crib === undefined ? null : payload.crib;
    row(gettext("Crib"), [{ text: crib === null ? "–" : String(crib), differs: differs(function (d) { return d.crib === undefined ? null : d.crib; }) }]);
    return dl;
  }

  /* How a game that reached the target came out, in the game page's words: the winner is shown
   * at the game hole (the target), the margin measured from there, skunks named. Null while
   * nobody has reached the target. */
  function outcome(data, after) {
    var target = data.target;
    var winner = after[0] >= target ? 0 : after[1] >= target ? 1 : null;
    if (winner === null) return null;
    var loser = after[1 - winner];
    var margin = target - loser;
    var level = margin >= data.double_skunk_margin ? 2 : margin >= data.skunk_margin ? 1 : 0;
    var team = sideName(data, winner);
    var values = { team: team, margin: margin };
    var result = level === 2 ? fmt(gettext("%(team)s won by %(margin)s: a double skunk."), values)
      : level === 1 ? fmt(gettext("%(team)s won by %(margin)s: a skunk."), values)
      : fmt(gettext("%(team)s won by %(margin)s."), values);
    return {
      winner: winner, margin: margin, level: level, result: result,
      title: fmt(gettext("Game over: %(team)s wins %(a)s–%(b)s."), { team: team, a: target, b: loser }),
    };
  }

  // --- The form ------------------------------------------------------------------------------

  /* ``form``: the element holding _deal_form.html's fields and a [data-save] button.
   * ``options.scoresBefore(number)``: the scores (side order) before deal ``number``.
   * ``options.onSave(payload, result)``: a deal every check accepts, in the one deal shape. */
  function create(form, data, options) {
    var rules = data.rules;
    var target = data.target;
    var starterInput = form.querySelector("[data-field=starter]");
    var heelsBox = form.querySelector("[data-field=heels]");
    var withCards = form.querySelector("[data-with-cards]");
    var formNumber = null; // the deal the form is showing
    var formDealer = null;
    var counts = {}; // who ("0".."3", "crib") -> {total, lines} from the scorer
    var countTimers = {};

    function seatName_(seat) { return seatName(data, seat); }
    function sideOf_(seat) { return sideOf(data, seat); }
    function sideName_(side) { return sideName(data, side); }

    function numberField(field, label, hint) {
      var wrap = el("div", { class: "field field--num", "data-wrap": field });
      var id = fieldId(field);
      wrap.appendChild(el("label", { for: id }, label));
      var box = el("input", {
        id: id, "data-field": field, inputmode: "numeric", pattern: "[0-9]*",
        autocomplete: "off", enterkeyhint: "next", "aria-describedby": id + "-msg" + (hint ? " " + id + "-hint" : ""),
      });
      wrap.appendChild(box);
      if (hint) wrap.appendChild(el("small", { class: "help", id: id + "-hint" }, hint));
      wrap.appendChild(el("p", { class: "msg", id: id + "-msg", "data-msg-for": field }));
      return wrap;
    }

    function cardsField(who, label) {
      var wrap = el("div", { class: "field field--cards", "data-cards-wrap": who });
      var id = "f-cards-" + who;
      wrap.appendChild(el("label", { for: id }, label));
      var box = el("input", {
        id: id, "data-cards": who, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
        placeholder: gettext("e.g. 5H 5D JC 10S"), "aria-describedby": id + "-msg",
        "data-card-picker": "", "data-card-count": String(who === "crib" ? rules.crib_size : rules.hand_size),
      });
      wrap.appendChild(box);
      // The card picker (static/js/cardpicker.js, where the page loads it) under the field.
      if (window.CardPicker) window.setTimeout(function () { window.CardPicker.attach(box); }, 0);
      wrap.appendChild(el("p", { class: "msg", id: id + "-msg", "data-msg-for": "cards." + who }));
      wrap.appendChild(el("ul", { class: "breakdown-lines", "data-breakdown": who, "aria-live": "polite" }));
      return wrap;
    }

    /* Show deal ``number`` (dealt by ``dealer``), empty or filled with ``payload``; ``labels``
     * gives the title and the save button's words. */
    function open(number, dealer, payload, labels) {
      formNumber = number;
      formDealer = dealer;
      counts = {};
      var dealerSide = sideOf_(dealer);
      form.querySelector("[data-deal-title]").textContent = labels.title;
      form.querySelector("[data-dealer-line]").textContent = fmt(
        gettext("%(dealer)s deals; the crib goes to %(team)s"), { dealer: seatName_(dealer), team: sideName_(dealerSide) }
      );
      form.querySelector("[data-save]").textContent = labels.save;
      form.querySelector("[data-form-error]").hidden = true;

      var pegging = form.querySelector("[data-pegging]");
      pegging.textContent = "";
      for (var side = 0; side < rules.sides; side++) {
        var isDealer = side === dealerSide;
        var most = isDealer ? rules.pegging_max.dealer : rules.pegging_max.non_dealer;
        pegging.appendChild(numberField(
          "pegging." + side,
          isDealer ? fmt(gettext("%(team)s (dealer's team)"), { team: sideName_(side) }) : sideName_(side),
          fmt(gettext("at most %(n)s"), { n: most })
        ));
      }
      var shows = form.querySelector("[data-shows]");
      shows.textContent = "";
      showOrder(data, dealer).forEach(function (seat, i) {
        var row = el("div", { class: "show-row" });
        row.appendChild(numberField(
          "shows." + seat,
          fmt(gettext("%(n)s. %(player)s's hand"), { n: i + 1, player: seatName_(seat) }),
          sideName_(sideOf_(seat))
        ));
        row.appendChild(cardsField(String(seat), fmt(gettext("%(player)s's cards"), { player: seatName_(seat) })));
        shows.appendChild(row);
      });
      var cribRow = el("div", { class: "show-row show-row--crib" });
      cribRow.appendChild(numberField(
        "crib", fmt(gettext("%(n)s. The crib (%(dealer)s's)"), { n: rules.players + 1, dealer: seatName_(dealer) }), sideName_(dealerSide)
      ));
      cribRow.appendChild(cardsField("crib", gettext("The crib's cards")));
      shows.appendChild(cribRow);

      starterInput.value = "";
      heelsBox.checked = false;
      withCards.checked = false;
      setMessage("starter", "");
      if (payload) fill(payload);
      toggleCards();
      evaluate(false);
      if (payload && withCards.checked) Object.keys(payload.cards || {}).forEach(requestCount);
    }

    function fill(p) {
      starterInput.value = p.starter || "";
      heelsBox.checked = !!p.heels;
      (p.pegging || []).forEach(function (v, side) { var box = input("pegging." + side); if (box) box.value = String(v); });
      Object.keys(p.shows || {}).forEach(function (seat) { var box = input("shows." + seat); if (box) box.value = String(p.shows[seat]); });
      if (p.crib !== null && p.crib !== undefined) input("crib").value = String(p.crib);
      if (p.cards && Object.keys(p.cards).length) {
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
        if (msg.textContent !== (text || "")) msg.textContent = text || "";
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
      var before = options.scoresBefore(formNumber).slice();
      var scores = before.slice();
      var errors = {};
      var notes = {};
      var ended = null;
      var dealer = formDealer;
      var dealerSide = sideOf_(dealer);
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
      if (starter && heels) notes.starter = fmt(gettext("His heels: 2 to %(team)s."), { team: sideName_(dealerSide) });
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
      var who = showOrder(data, dealer).map(String).concat(["crib"]);
      who.forEach(function (w) {
        var field = w === "crib" ? "crib" : "shows." + w;
        var box = input(field);
        var seat = w === "crib" ? dealer : +w;
        var s = sideOf_(seat);
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
            seen[c] = w === "crib" ? gettext("the crib") : seatName_(+w);
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
        a: sideName_(0), pa: plus[0], b: sideName_(1), pb: plus[1], sa: result.after[0], sb: result.after[1],
      });
      if (result.ended) {
        text += " " + fmt(gettext("%(team)s reach %(target)s: the game is over, and nothing after that counts."), { team: sideName_(result.ended.side), target: target });
      }
      // Text is replaced only when it changes: Chrome keeps the page still by an anchor node,
      // and replacing it on every check scrolled the page under a finger tapping Save.
      if (line.textContent !== text) line.textContent = text;
    }

    // --- The scorer's count of entered cards ------------------------------------------------

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
            // The server says each line in the page's language (its code and params are there too).
            list.appendChild(el("li", {}, fmt(gettext("%(line)s: %(cards)s (%(points)s)"), {
              line: item.label, cards: item.cards.join(" "), points: item.points,
            })));
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

    function isDealField(box) { // a page's own fields (a correction's reason) are not the deal's
      return box.hasAttribute("data-field") || box.hasAttribute("data-cards") || box === withCards;
    }

    function toggleCards() {
      form.querySelectorAll("[data-cards-wrap]").forEach(function (wrap) { wrap.hidden = !withCards.checked; });
    }

    form.addEventListener("input", function (event) {
      if (!isDealField(event.target)) return;
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
      if (!isDealField(event.target)) return;
      if (event.target === withCards) toggleCards();
      evaluate(false);
    });

    /* Check every number as if the deal were being saved; a deal every check accepts goes to
     * ``onSave`` in the one deal shape, else the form says how many numbers need fixing. */
    function save() {
      if (formNumber === null) return;
      var result = evaluate(true);
      var problem = form.querySelector("[data-form-error]");
      var bad = Object.keys(result.errors);
      if (bad.length) {
        showError(fmt(ngettext("One number needs fixing before this deal can be saved.", "%(n)s numbers need fixing before this deal can be saved.", bad.length), { n: bad.length }));
        var first = form.querySelector("[aria-invalid=true]");
        if (first) first.focus();
        return;
      }
      problem.hidden = true;
      var payload = { dealer: formDealer, pegging: result.pegging, shows: result.shows, crib: result.crib };
      if (result.starter) payload.starter = result.starter;
      else if (result.heels) payload.heels = true;
      if (result.cards) payload.cards = result.cards;
      options.onSave(payload, result);
    }

    function showError(text) {
      var problem = form.querySelector("[data-form-error]");
      problem.textContent = text || "";
      problem.hidden = !text;
    }

    // Enter in a field saves the deal (and never submits a page's surrounding form: the
    // admin's ruling form holds the judge's deal form).
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.target.tagName !== "INPUT") return;
      event.preventDefault();
      save();
    });
    form.addEventListener("click", function (event) {
      if (!event.target.closest("[data-save]")) return;
      event.preventDefault();
      save();
    });
    if (form.tagName === "FORM") {
      form.addEventListener("submit", function (event) { event.preventDefault(); save(); });
    }

    return {
      open: open,
      evaluate: evaluate,
      save: save,
      setMessage: setMessage,
      showError: showError,
      number: function () { return formNumber; },
      dealer: function () { return formDealer; },
      focusFirst: function () {
        var first = form.querySelector("[aria-invalid=true]") || form.querySelector("input:not([disabled])");
        if (first) first.focus();
      },
      close: function () { formNumber = null; formDealer = null; },
    };
  }

  window.PegboardDealForm = {
    create: create,
    points: points,
    same: same,
    summary: summary,
    outcome: outcome,
    dealerFor: dealerFor,
    seatName: seatName,
    sideName: sideName,
    util: { gettext: gettext, ngettext: ngettext, fmt: fmt, el: el },
  };
})();
