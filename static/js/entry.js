/* Score entry on a phone, with the deal form of dealform.js (every number checked as it is typed,
 * with the server's own rules):
 * - the next deal is saved on the phone first and sent through the outbox (outbox.js), so it
 *   survives a reload and a dropped connection, and is stored once;
 * - a deal this user's team entered (the data's ``correctable``) is corrected from the deal list,
 *   with a reason, straight to the server (a correction needs a connection);
 * - a deal the two phones entered with different numbers is shown in both versions, to settle
 *   with one tap: a dispute that holds both, or accepting the other numbers;
 * - when nothing more may be entered (the data's ``can_record``), the form goes and the page
 *   says how the game came out, as the game page does;
 * - where the league asks for the cards dealt (the data's ``dealt.mode`` is "asked"), once a
 *   deal this phone entered is stored, a prompt asks for the cards dealt to each seat this user
 *   may record (their own, their team's), with the card picker and the show's cards filled in;
 *   skipping it records nothing, and the deal is stored whatever is done with it. */
(function () {
  "use strict";

  var root = document.querySelector("[data-entry]");
  var outbox = window.PegboardOutbox;
  var DealForm = window.PegboardDealForm;
  if (!root || !outbox || !DealForm) return;

  var gettext = DealForm.util.gettext;
  var ngettext = DealForm.util.ngettext;
  var fmt = DealForm.util.fmt;
  var el = DealForm.util.el;

  var data = JSON.parse(document.getElementById("entry-data").textContent);
  var target = data.target;
  var form = root.querySelector("[data-deal-form]");
  var reasonBox = form.querySelector("[data-reason-box]");
  var reasonInput = form.querySelector("[data-reason]");
  var cancelButton = form.querySelector("[data-cancel-fix]");
  var POLL_MS = 8000;
  var mode = null; // null: the next deal; {fix: key}: a refused entry; {correct: n}: a stored deal
  var deal = DealForm.create(form, data, { scoresBefore: scoresBefore, onSave: onSave });

  function seatName(seat) { return DealForm.seatName(data, seat); }
  function sideName(side) { return DealForm.sideName(data, side); }
  function offline() { return !navigator.onLine || outbox.problem() === "offline"; }
  function storedDeal(number) {
    return data.deals.filter(function (d) { return d.number === number; })[0] || null;
  }

  // --- The game so far: the server's deals, then this phone's entries not sent yet -------------

  function timeline() {
    var rows = data.deals.map(function (d) {
      return { number: d.number, dealer: d.dealer, after: d.after.slice(), sent: true, version: d.version };
    });
    var last = rows.length ? rows[rows.length - 1].number : 0;
    var after = rows.length ? rows[rows.length - 1].after.slice() : [0, 0];
    outbox.forGame(data.game).forEach(function (entry) {
      if (entry.number <= last) return; // the server has this deal: it compares the two entries
      var points = DealForm.points(data, entry.payload);
      after = [after[0] + points[0], after[1] + points[1]];
      rows.push({ number: entry.number, dealer: entry.payload.dealer, after: after.slice(), points: points, entry: entry });
      last = entry.number;
    });
    return rows;
  }

  function scoresBefore(number) {
    var before = [0, 0];
    timeline().forEach(function (row) { if (row.number === number - 1) before = row.after.slice(); });
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
      var shown = Math.min(front[side], target); // the winner stands in the game hole
      var score = figure.querySelector('[data-score="' + side + '"]');
      if (score) score.textContent = String(shown);
      words.push(sideName(side) + " " + shown);
    }
    svg.setAttribute("aria-label", words.join(", "));
    var title = svg.querySelector("title");
    if (title) title.textContent = words.join(", ");
  }

  // --- Saving a deal: a new one into the outbox, a correction to the server --------------------

  function onSave(payload) {
    if (mode && mode.correct) {
      sendCorrection(mode.correct, payload);
      return;
    }
    var number = deal.number();
    var entry = { game: data.game, url: data.urls.deals, number: number, payload: payload };
    if (mode && mode.fix) outbox.replace(mode.fix, entry);
    else outbox.add(entry);
    mode = null;
    deal.close();
    say(fmt(gettext("Deal %(n)s is saved on this phone."), { n: number }));
    render();
    outbox.sync();
    var next = form.querySelector("input:not([disabled])");
    if (next && !form.hidden) next.focus();
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": outbox.csrfToken() },
      body: JSON.stringify(body || {}),
    }).then(
      function (response) {
        return response.json().catch(function () { return {}; }).then(function (answer) {
          return { ok: response.ok, status: response.status, body: answer || {} };
        });
      },
      function () { return { ok: false, status: 0, body: {} }; }
    );
  }

  function refusal(answer) {
    if (answer.status === 0) return gettext("No connection: this needs the server. Try again when you are back online.");
    return answer.body.detail || gettext("The server refused this.");
  }

  function sendCorrection(number, payload) {
    var reason = reasonInput.value.trim();
    deal.setMessage("reason", "");
    if (!reason) {
      deal.setMessage("reason", gettext("Say why the deal is corrected."), "error");
      deal.showError(gettext("Say why the deal is corrected."));
      reasonInput.focus();
      return;
    }
    if (offline()) {
      deal.showError(gettext("A correction goes straight to the server, so it needs a connection: try again when you are back online."));
      return;
    }
    var save = form.querySelector("[data-save]");
    save.disabled = true;
    post(data.urls.corrections, { number: number, deal: payload, reason: reason }).then(function (answer) {
      save.disabled = false;
      if (answer.ok) {
        mode = null;
        deal.close();
        reasonInput.value = "";
        say(fmt(gettext("Deal %(n)s is corrected."), { n: number }));
        refresh();
        return;
      }
      deal.showError(refusal(answer));
      if (answer.body.field) deal.setMessage(answer.body.field, answer.body.detail, "error");
    });
  }

  // --- Status, the outbox list, the rival entries and the deals list --------------------------

  var announcement = null;
  function say(text) { announcement = text; }

  function renderStatus(entries) {
    var box = root.querySelector("[data-sync-status]");
    var n = entries.length;
    var refused = entries.filter(function (e) { return e.status === "refused"; }).length;
    var problem = outbox.problem();
    var conflicts = (data.rivals || []).map(function (r) { return r.number; });
    var state, text;
    if (!n && offline()) { state = "offline"; text = gettext("No connection: this is the copy of the page kept on this phone. Deals you enter are kept here and sent when the connection returns."); }
    else if (!n && conflicts.length) { state = "conflict"; text = fmt(ngettext("Everything is sent, but a conflict waits: deal %(n)s was entered twice. See it below.", "Everything is sent, but conflicts wait: deals %(n)s were entered twice. See them below.", conflicts.length), { n: conflicts.join(", ") }); }
    else if (!n) { state = "ok"; text = gettext("Everything is sent: the server has every deal."); }
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
      var points = DealForm.points(data, entry.payload);
      item.appendChild(el("strong", {}, fmt(gettext("Deal %(n)s"), { n: entry.number })));
      item.appendChild(el("span", { class: "muted" }, " · " + fmt(gettext("%(dealer)s dealt · %(a)s +%(pa)s, %(b)s +%(pb)s"), {
        dealer: seatName(entry.payload.dealer), a: sideName(0), pa: points[0], b: sideName(1), pb: points[1],
      })));
      if (entry.status === "refused") {
        item.appendChild(el("p", { class: "refusal", role: "alert" }, entry.error ? entry.error.detail : ""));
        var actions = el("p", { class: "actions" });
        actions.appendChild(el("button", { type: "button", class: "button", "data-fix": entry.key }, gettext("Fix")));
        actions.appendChild(el("button", { type: "button", class: "button button--danger", "data-discard": entry.key }, gettext("Discard")));
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

  function version(title, payload, other) {
    var box = el("div", { class: "card rival-version" });
    box.appendChild(el("h3", { class: "h4" }, title));
    box.appendChild(DealForm.summary(data, payload, other));
    return box;
  }

  /* Each deal the two teams entered differently, both versions side by side, and what this user
   * may do about it: raise a dispute that holds both, or accept the other numbers (the sender of
   * the second entry withdraws it; the team whose entry counts corrects it to the other one). */
  function renderRivals() {
    var box = root.querySelector("[data-rivals]");
    box.textContent = "";
    box.hidden = !data.rivals.length;
    data.rivals.forEach(function (rival) {
      var counted = storedDeal(rival.number);
      if (!counted) return;
      var section = el("section", { class: "card card--highlight rival", "data-rival": rival.number });
      section.appendChild(el("h2", {}, fmt(gettext("Deal %(n)s was entered twice, with different numbers"), { n: rival.number })));
      section.appendChild(el("p", {}, rival.disputed
        ? gettext("A judge has been asked: the dispute holds both versions. The first one counts until the ruling.")
        : gettext("Both entries are kept. The first one counts until this is settled: raise a dispute for a judge, or accept the first numbers.")));
      var versions = el("div", { class: "two-col rival-versions" });
      versions.appendChild(version(fmt(gettext("Counted now (entered by %(who)s)"), { who: counted.entered_by || "?" }), counted.deal, rival.deal));
      versions.appendChild(version(fmt(gettext("The other entry (by %(who)s)"), { who: rival.entered_by || "?" }), rival.deal, counted.deal));
      section.appendChild(versions);
      var actions = el("p", { class: "actions" });
      if (rival.can_dispute) {
        actions.appendChild(el("button", { type: "button", class: "button button--danger", "data-rival-dispute": rival.id }, gettext("Raise a dispute with both versions")));
      }
      if (rival.can_withdraw) {
        actions.appendChild(el("button", { type: "button", class: "button", "data-rival-accept": rival.id }, gettext("Accept their numbers")));
        section.appendChild(actions);
        section.appendChild(el("p", { class: "muted small" }, fmt(gettext("Accepting their numbers keeps deal %(n)s as %(who)s entered it."), { n: rival.number, who: counted.entered_by || "?" })));
      } else if (data.correctable.indexOf(rival.number) >= 0 && !rival.disputed) {
        actions.appendChild(el("button", { type: "button", class: "button", "data-rival-take": rival.id }, gettext("Accept their numbers")));
        section.appendChild(actions);
        section.appendChild(el("p", { class: "muted small" }, fmt(gettext("Accepting their numbers corrects deal %(n)s to what %(who)s entered."), { n: rival.number, who: rival.entered_by || "?" })));
      } else {
        section.appendChild(actions);
      }
      section.appendChild(el("p", { class: "msg", role: "status", "data-rival-msg": rival.id }));
      box.appendChild(section);
    });
  }

  function rivalById(id) {
    return data.rivals.filter(function (r) { return String(r.id) === String(id); })[0] || null;
  }

  function settleRival(rival, request, done) {
    var message = root.querySelector('[data-rival-msg="' + rival.id + '"]');
    root.querySelectorAll('[data-rival="' + rival.number + '"] button').forEach(function (b) { b.disabled = true; });
    request.then(function (answer) {
      if (answer.ok) {
        say(done);
        refresh();
        return;
      }
      root.querySelectorAll('[data-rival="' + rival.number + '"] button').forEach(function (b) { b.disabled = false; });
      if (message) { message.textContent = refusal(answer); message.className = "msg msg--error"; }
    });
  }

  function renderDeals(rows) {
    var list = root.querySelector("[data-deal-list]");
    list.textContent = "";
    var noConnection = offline();
    var disputed = data.rivals.map(function (r) { return r.number; });
    rows.slice().reverse().forEach(function (row) {
      var item = el("li", { class: "deal-item" + (row.sent ? "" : " deal-item--local"), "data-deal": row.number });
      item.appendChild(el("strong", {}, fmt(gettext("Deal %(n)s"), { n: row.number })));
      item.appendChild(el("span", {}, " · " + fmt(gettext("%(dealer)s dealt"), { dealer: seatName(row.dealer) }) + " · "));
      item.appendChild(el("span", { class: "nowrap" }, sideName(0) + " " + row.after[0] + " · " + sideName(1) + " " + row.after[1]));
      if (!row.sent) item.appendChild(el("span", { class: "badge badge--wait" }, gettext("not sent yet")));
      if (row.sent && row.version > 1) item.appendChild(el("span", { class: "badge badge--ok" }, gettext("corrected")));
      if (disputed.indexOf(row.number) >= 0) item.appendChild(el("span", { class: "badge badge--disputed" }, gettext("entered twice")));
      if (row.sent && data.correctable.indexOf(row.number) >= 0) {
        var correct = el("button", { type: "button", class: "button small deal-correct", "data-correct": row.number }, gettext("Correct"));
        correct.setAttribute("aria-label", fmt(gettext("Correct deal %(n)s"), { n: row.number }));
        if (noConnection) correct.disabled = true;
        item.appendChild(correct);
      }
      list.appendChild(item);
    });
  }

  // --- The page as a whole ------------------------------------------------------------------

  var STATUS_TEXT = {
    finished: gettext("The result counts once both teams have vouched for it: the game page says who still has to confirm."),
    disputed: gettext("This game is disputed: it waits for a judge's ruling."),
    confirmed: gettext("This game is confirmed by both teams: it counts in the standings. Only a judge can change it now."),
    void: gettext("This game was voided: it does not count, and nothing more can be entered."),
  };

  function renderPanel(rows, entries) {
    var panel = root.querySelector("[data-game-over]");
    var last = rows.length ? rows[rows.length - 1].after : [0, 0];
    var outcome = data.status === "void" ? null : DealForm.outcome(data, last);
    var resultLine = panel.querySelector("[data-game-over-result]");
    panel.querySelector("[data-game-over-title]").textContent = outcome ? outcome.title
      : data.status === "void" ? gettext("This game was voided.")
      : gettext("Nothing more can be entered in this game.");
    resultLine.hidden = !outcome;
    resultLine.textContent = outcome ? outcome.result : "";
    var words = [];
    var waiting = entries.filter(function (e) { return e.status !== "refused"; }).length;
    if (waiting) words.push(gettext("Some deals are not sent yet: keep this page open until they are."));
    else if (STATUS_TEXT[data.status]) words.push(STATUS_TEXT[data.status]);
    if (data.correctable.length) words.push(gettext("A deal your team entered can still be corrected: tap Correct beside it below."));
    panel.querySelector("[data-game-over-text]").textContent = words.join(" ");
    panel.hidden = false;
  }

  function render() {
    var entries = outbox.forGame(data.game);
    var rows = timeline();
    drawBoard(rows);
    renderStatus(entries);
    renderOutbox(entries);
    renderRivals();
    renderDeals(rows);
    root.querySelector("[data-offline-note]").hidden = !(offline() && data.correctable.length);
    var panel = root.querySelector("[data-game-over]");
    if (mode) { // the form shows a refused entry being fixed, or a stored deal being corrected
      panel.hidden = true;
      form.hidden = false;
      reasonBox.hidden = !mode.correct;
      cancelButton.hidden = false;
      cancelButton.textContent = mode.correct ? gettext("Cancel the correction") : gettext("Cancel the fix");
      return;
    }
    var last = rows.length ? rows[rows.length - 1].after : [0, 0];
    var reached = Math.max(last[0], last[1]) >= target;
    if (reached || !data.can_record) {
      form.hidden = true;
      deal.close();
      renderPanel(rows, entries);
      return;
    }
    panel.hidden = true;
    form.hidden = false;
    reasonBox.hidden = true;
    cancelButton.hidden = true;
    var next = rows.length ? rows[rows.length - 1].number + 1 : 1;
    var shown = deal.number();
    if (shown !== null && shown < next && typing()) {
      // The other phone sent this deal while it was being typed here: finish it, and the
      // server compares the two (the same numbers agree; other numbers are kept beside).
      deal.evaluate(false);
    } else if (shown !== next) {
      deal.open(next, DealForm.dealerFor(data, next), null, {
        title: fmt(gettext("Deal %(n)s"), { n: next }),
        save: fmt(gettext("Save deal %(n)s"), { n: next }),
      });
    } else {
      deal.evaluate(false);
    }
  }

  function typing() {
    return Array.prototype.some.call(form.querySelectorAll("[data-field], [data-cards]"), function (box) {
      return box.type === "checkbox" ? box.checked : box.value.trim() !== "";
    });
  }

  function startCorrection(number) {
    var stored = storedDeal(number);
    if (!stored) return;
    if (offline()) {
      say(gettext("You are offline: correcting a deal needs a connection."));
      render();
      return;
    }
    mode = { correct: number };
    reasonInput.value = "";
    deal.setMessage("reason", "");
    deal.open(number, stored.dealer, stored.deal, {
      title: fmt(gettext("Correct deal %(n)s"), { n: number }),
      save: fmt(gettext("Save the correction of deal %(n)s"), { n: number }),
    });
    render();
    form.scrollIntoView({ block: "start" });
    deal.focusFirst();
  }

  root.addEventListener("click", function (event) {
    var target_ = event.target.closest("button");
    if (!target_ || !root.contains(target_)) return;
    var fixKey = target_.getAttribute("data-fix");
    var discardKey = target_.getAttribute("data-discard");
    var entry, rival;
    if (fixKey) {
      entry = outbox.forGame(data.game).filter(function (e) { return e.key === fixKey; })[0];
      if (!entry) return;
      mode = { fix: fixKey };
      deal.open(entry.number, entry.payload.dealer, entry.payload, {
        title: fmt(gettext("Fix deal %(n)s"), { n: entry.number }),
        save: fmt(gettext("Save the fixed deal %(n)s"), { n: entry.number }),
      });
      render();
      if (entry.error && entry.error.field) {
        var field = entry.error.field.replace(/^hands\./, "cards.").replace(/^crib_cards$/, "cards.crib");
        deal.setMessage(field, entry.error.detail, "error");
      }
      deal.focusFirst();
    } else if (discardKey) {
      entry = outbox.forGame(data.game).filter(function (e) { return e.key === discardKey; })[0];
      if (!entry) return;
      if (!window.confirm(fmt(gettext("Discard deal %(n)s? Its numbers will be lost."), { n: entry.number }))) return;
      outbox.remove(discardKey);
      if (mode && mode.fix === discardKey) { mode = null; deal.close(); }
      render();
      outbox.sync();
    } else if (target_.hasAttribute("data-cancel-fix")) {
      mode = null;
      deal.close();
      render();
    } else if (target_.hasAttribute("data-correct")) {
      startCorrection(parseInt(target_.getAttribute("data-correct"), 10));
    } else if ((rival = rivalById(target_.getAttribute("data-rival-dispute")))) {
      settleRival(rival, post(data.urls.disputes, { claim: rival.claim, deal_number: rival.number, rival: rival.id }),
        fmt(gettext("Your dispute about deal %(n)s was sent to the judges, with both versions."), { n: rival.number }));
    } else if ((rival = rivalById(target_.getAttribute("data-rival-accept")))) {
      settleRival(rival, post(rival.withdraw_url),
        fmt(gettext("Done: deal %(n)s stands as it was first entered."), { n: rival.number }));
    } else if ((rival = rivalById(target_.getAttribute("data-rival-take")))) {
      // The reason is the server's to word, in each reader's language: a code and the entry.
      settleRival(rival, post(data.urls.corrections, {
        number: rival.number, deal: rival.deal, reason_code: "took_rival", rival: rival.id,
      }), fmt(gettext("Deal %(n)s is corrected."), { n: rival.number }));
    }
  });

  // --- The cards dealt, where the league asks for them -----------------------------------------

  var dealtBox = root.querySelector("[data-dealt-prompt]");
  var dealtAsked = {}; // the deals already prompted for on this page

  function askDealt(stored) {
    if (!dealtBox || !data.dealt || data.dealt.mode !== "asked" || !data.dealt.seats.length) return;
    if (dealtAsked[stored.number]) return;
    dealtAsked[stored.number] = true;
    var fields = dealtBox.querySelector("[data-dealt-fields]");
    fields.textContent = "";
    dealtBox.setAttribute("data-dealt-number", String(stored.number));
    dealtBox.querySelector("[data-dealt-title]").textContent = fmt(gettext("Deal %(n)s: the cards each player was dealt"), { n: stored.number });
    var msg = dealtBox.querySelector("[data-dealt-msg]");
    msg.textContent = "";
    msg.className = "msg";
    var shown = (stored.cards || {});
    data.dealt.seats.forEach(function (seat) {
      var id = "dealt-" + stored.number + "-" + seat.seat;
      var box = el("div", { class: "field field--cards" });
      box.appendChild(el("label", { for: id }, seat.own ? gettext("The cards you were dealt") : fmt(gettext("The cards %(name)s was dealt"), { name: seat.name })));
      var input = el("input", {
        type: "text", id: id, "data-card-picker": "", "data-card-count": String(data.dealt.count),
        "data-dealt-seat": String(seat.seat), maxlength: "80", autocomplete: "off",
        autocapitalize: "characters", spellcheck: "false",
      });
      input.value = (shown[String(seat.seat)] || []).join(" ");
      input.setAttribute("data-dealt-prefill", input.value); // the show's cards: not an answer yet
      box.appendChild(input);
      box.appendChild(el("p", { class: "msg", "data-dealt-seat-msg": String(seat.seat) }));
      fields.appendChild(box);
      if (window.CardPicker) window.CardPicker.attach(input);
    });
    dealtBox.hidden = false;
  }

  function saveDealt() {
    var number = parseInt(dealtBox.getAttribute("data-dealt-number"), 10);
    var inputs = Array.prototype.slice.call(dealtBox.querySelectorAll("[data-dealt-seat]"))
      .filter(function (input) {
        var value = input.value.trim();
        return value !== "" && value !== input.getAttribute("data-dealt-prefill");
      });
    var msg = dealtBox.querySelector("[data-dealt-msg]");
    if (!inputs.length) { dealtBox.hidden = true; return; }
    var save = dealtBox.querySelector("[data-dealt-save]");
    save.disabled = true;
    Promise.all(inputs.map(function (input) {
      var seat = parseInt(input.getAttribute("data-dealt-seat"), 10);
      var line = dealtBox.querySelector('[data-dealt-seat-msg="' + seat + '"]');
      return post(data.dealt.url, { number: number, seat: seat, cards: input.value }).then(function (answer) {
        line.textContent = answer.ok ? gettext("Recorded.") : refusal(answer);
        line.className = answer.ok ? "msg msg--ok" : "msg msg--error";
        return answer.ok;
      });
    })).then(function (results) {
      save.disabled = false;
      if (results.every(Boolean)) {
        dealtBox.hidden = true;
        say(fmt(gettext("The cards dealt for deal %(n)s are recorded."), { n: number }));
        render();
      } else {
        msg.textContent = gettext("Some cards were not recorded: correct them, or skip.");
        msg.className = "msg msg--error";
      }
    });
  }

  if (dealtBox) {
    dealtBox.querySelector("[data-dealt-save]").addEventListener("click", saveDealt);
    dealtBox.querySelector("[data-dealt-skip]").addEventListener("click", function () { dealtBox.hidden = true; });
  }

  // --- Keeping up with the server -------------------------------------------------------------

  function sideAfter(d) {
    return data.home_side === 0 ? [d.home_after, d.away_after] : [d.away_after, d.home_after];
  }

  function shapeOf(d) { // a deal as the API answers it, in the one deal shape
    return { dealer: d.dealer, starter: d.starter || null, heels: !!d.heels, pegging: d.pegging, shows: d.shows, crib: d.crib, cards: d.cards || null };
  }

  var refreshing = null;
  var refreshAgain = false;

  /* The page's data as the server has it now (deals, what this user may do, rival entries). */
  function refresh() {
    if (refreshing) { refreshAgain = true; return refreshing; }
    refreshing = fetch(data.urls.refresh, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { if (!response.ok) throw new Error(String(response.status)); return response.json(); })
      .then(function (fresh) { Object.keys(fresh).forEach(function (k) { data[k] = fresh[k]; }); })
      .catch(function () { /* offline: the outbox retries, and the next answer refreshes */ })
      .then(function () {
        refreshing = null;
        render();
        if (refreshAgain) { refreshAgain = false; refresh(); }
      });
    return refreshing;
  }

  outbox.onChange(function (entries, event) {
    var mine = event && event.entry && event.entry.game === data.game;
    if (mine && event.type === "sent" && event.deal) {
      if (event.deal.is_rival) {
        say(fmt(gettext("Deal %(n)s was already entered with other numbers: both versions are kept, side by side below."), { n: event.deal.number }));
      } else {
        var last = data.deals.length ? data.deals[data.deals.length - 1].number : 0;
        askDealt({ number: event.deal.number, cards: event.deal.cards || null });
        if (event.deal.number === last + 1) {
          data.deals.push({
            number: event.deal.number, dealer: event.deal.dealer, after: sideAfter(event.deal),
            version: event.deal.version, entered_by: event.deal.entered_by, deal: shapeOf(event.deal),
          });
        }
      }
      refresh();
    } else if (mine && event.type === "refused") {
      refresh();
      return;
    }
    render();
  });

  // The other phone's entries, rival entries and the game's state show up here without a
  // reload: the page asks the server again every few seconds while it is in view.
  window.setInterval(function () {
    if (document.visibilityState === "visible" && !offline()) refresh();
  }, POLL_MS);

  window.addEventListener("online", function () { render(); });
  window.addEventListener("offline", function () { render(); });

  render();
})();
