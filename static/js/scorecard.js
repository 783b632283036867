/* The phone's tournament scorecard, sent through the league's outbox (outbox.js), so it keeps
 * the outbox's guarantees: the card is saved on the phone first, with an idempotency key made
 * then; with no signal it waits there (the page itself opens from the service worker) and is
 * sent when the signal returns; the server stores a card sent twice under its key once. Once
 * the server has it, the tournament page is shown; a refusal is shown here, with the server's
 * reason, and the card leaves the phone so that it can be written again. Without this script
 * the form posts to the page as before. */
(function () {
  "use strict";

  var form = document.querySelector("form[data-scorecard]");
  var outbox = window.PegboardOutbox;
  if (!form || !outbox) return;

  var queue = form.getAttribute("data-queue");
  var status = document.querySelector("[data-card-status]");
  function gettext(text) { return window.gettext ? window.gettext(text) : text; }

  function mine() { return outbox.forGame(queue)[0] || null; }

  function say(text, kind) {
    status.hidden = !text;
    status.textContent = text || "";
    status.className = "message message--" + (kind || "info");
    status.setAttribute("role", kind === "error" ? "alert" : "status");
  }

  function show() {
    var card = mine();
    status.setAttribute("data-pending", card ? "1" : "0");
    status.removeAttribute("data-busy");
    if (!card) return;
    if (!navigator.onLine || outbox.problem() === "offline") {
      say(gettext("No signal: your card is kept on this phone and will be sent once the signal returns."), "warning");
    } else if (outbox.problem() === "busy") {
      var n = Math.max(1, outbox.retryIn ? outbox.retryIn() : 1);
      var text = window.ngettext
        ? window.ngettext(
          "The server is busy: your card is kept on this phone and is sent again by itself in %(n)s second.",
          "The server is busy: your card is kept on this phone and is sent again by itself in %(n)s seconds.",
          n)
        : "The server is busy: your card is kept on this phone and is sent again by itself in %(n)s seconds.";
      say(window.interpolate ? window.interpolate(text, { n: n }, true) : text.replace("%(n)s", n), "warning");
      status.setAttribute("data-busy", "1");
      return;
    } else if (outbox.problem() === "signed-out") {
      say(gettext("Your card is kept on this phone: log in again to send it."), "warning");
    } else {
      say(gettext("Sending your card…"), "info");
    }
  }

  form.addEventListener("submit", function (event) {
    if (!form.checkValidity()) return; // the browser says what is missing
    event.preventDefault();
    var winner = form.querySelector("input[name=winner]:checked");
    var score = form.querySelector("input[name=loser_score]");
    var entry = {
      game: queue,
      url: form.getAttribute("data-api"),
      page: window.location.pathname,
      payload: { winner: parseInt(winner.value, 10), loser_score: parseInt(score.value, 10) },
    };
    var waiting = mine();
    if (waiting) outbox.replace(waiting.key, entry); // not sent yet: the new card replaces it
    else outbox.add(entry);
    show();
    outbox.sync();
  });

  outbox.onChange(function (entries, event) {
    if (event && event.entry && event.entry.game === queue) {
      if (event.type === "sent") {
        window.location.assign(form.getAttribute("data-done"));
        return;
      }
      if (event.type === "refused") {
        outbox.remove(event.entry.key);
        say((event.body && event.body.detail) || gettext("The server refused this card."), "error");
        status.setAttribute("data-pending", "0");
        return;
      }
    }
    show();
  });
  show();
})();
