/* A tournament scorecard entered deal by deal, with the league's deal form (dealform.js): each
 * deal is checked as it is typed with the server's own rules and kept on this phone as it is
 * saved (localStorage: it survives a reload and a closed tab). When a side reaches the target,
 * "Send my card" puts the card, with every deal, into the league's outbox (outbox.js), which
 * sends it once, by its key, whenever there is a signal. The server checks the deals again with
 * the scorer and takes the winner and the loser's score from them. */
(function () {
  "use strict";

  var root = document.querySelector("[data-card-deals]");
  var outbox = window.PegboardOutbox;
  var DealForm = window.PegboardDealForm;
  if (!root || !outbox || !DealForm) return;

  var gettext = DealForm.util.gettext;
  var fmt = DealForm.util.fmt;
  var el = DealForm.util.el;
  var data = JSON.parse(document.getElementById("card-data").textContent);
  var STORE = "pegboard.card-deals." + data.table;
  var queue = "scorecard:" + data.table;
  var form = root.querySelector("[data-deal-form]");
  var status = root.querySelector("[data-card-status]");
  var firstDealer = root.querySelector("[data-first-dealer]");
  var over = root.querySelector("[data-game-over]");
  var undo = root.querySelector("[data-undo]");
  var card = load();
  data.first_dealer = card.first_dealer;
  firstDealer.value = String(card.first_dealer);
  var deal = DealForm.create(form, data, { scoresBefore: totals, onSave: onSave });

  function load() {
    try {
      var kept = JSON.parse(window.localStorage.getItem(STORE));
      if (kept && Array.isArray(kept.deals)) return kept;
    } catch (e) { /* nothing kept */ }
    return { first_dealer: 0, deals: [] };
  }
  function keep() { window.localStorage.setItem(STORE, JSON.stringify(card)); }

  function totals(number) { // the scores (side order) before deal ``number``
    var total = [0, 0];
    card.deals.slice(0, number - 1).forEach(function (payload) {
      var points = DealForm.points(data, payload);
      total = [total[0] + points[0], total[1] + points[1]];
    });
    return total;
  }

  function say(text, kind) {
    status.hidden = !text;
    status.textContent = text || "";
    status.className = "message message--" + (kind || "info");
    status.setAttribute("role", kind === "error" ? "alert" : "status");
  }

  function onSave(payload) {
    card.deals.push(payload);
    keep();
    render();
  }

  function render() {
    var list = root.querySelector("[data-deal-list]");
    list.textContent = "";
    card.deals.forEach(function (payload, i) {
      var after = totals(i + 2).map(function (s) { return Math.min(s, data.target); }); // the game hole
      list.appendChild(el("li", {}, fmt(gettext("Deal %(n)s"), { n: i + 1 }) + ": " +
        DealForm.sideName(data, 0) + " " + after[0] + ", " + DealForm.sideName(data, 1) + " " + after[1]));
    });
    var sending = outbox.forGame(queue).length > 0;
    var result = DealForm.outcome(data, totals(card.deals.length + 1));
    root.querySelector("[data-first-dealer-box]").hidden = card.deals.length > 0;
    undo.hidden = !card.deals.length || sending;
    form.hidden = !!result;
    over.hidden = !result;
    root.querySelector("[data-send-card]").hidden = sending;
    if (result) {
      over.querySelector("[data-game-over-title]").textContent = result.title;
      over.querySelector("[data-game-over-result]").textContent = result.result;
      return;
    }
    var next = card.deals.length + 1;
    deal.open(next, DealForm.dealerFor(data, next), null, {
      title: fmt(gettext("Deal %(n)s"), { n: next }),
      save: fmt(gettext("Save deal %(n)s"), { n: next }),
    });
  }

  firstDealer.addEventListener("change", function () {
    card.first_dealer = parseInt(firstDealer.value, 10);
    data.first_dealer = card.first_dealer;
    keep();
    render();
  });
  undo.addEventListener("click", function () {
    card.deals.pop();
    keep();
    render();
  });
  root.querySelector("[data-send-card]").addEventListener("click", function () {
    outbox.add({
      game: queue,
      url: data.urls.scorecards,
      page: window.location.pathname,
      payload: { first_dealer: card.first_dealer, deals: card.deals },
    });
    say(navigator.onLine ? gettext("Sending your card…")
      : gettext("No signal: your card is kept on this phone and will be sent once the signal returns."), "info");
    render();
    outbox.sync();
  });
  outbox.onChange(function (entries, event) {
    if (!event || !event.entry || event.entry.game !== queue) return;
    if (event.type === "sent") {
      window.localStorage.removeItem(STORE);
      window.location.assign(data.urls.done);
    } else if (event.type === "refused") {
      outbox.remove(event.entry.key);
      say((event.body && event.body.detail) || gettext("The server refused this card."), "error");
      render();
    }
  });
  render();
})();
