/* The judge's correction form, on the admin's ruling page: the phone's deal form (dealform.js)
 * in judge mode. The game is listed deal by deal as the ruling would leave it; "Correct deal N"
 * opens the deal form filled with the deal as it stands (the disputed version), with the other
 * team's version beside it when the two teams entered it differently; the last deals can be
 * struck out. Several deals can be corrected; the running totals, the end of the game and the
 * result follow every change. The judge never types JSON or a seat number: this script writes
 * the hidden ``corrections`` input the ruling reads ({"deal number": the whole deal in the one
 * deal shape, or null for a last deal struck out}), and the server checks the corrected game as
 * one when the ruling is saved. */
(function () {
  "use strict";

  function start() {
    var root = document.querySelector("[data-judge]");
    var DealForm = window.PegboardDealForm;
    var hidden = document.querySelector("[data-judge-corrections]");
    var source = document.getElementById("judge-data");
    if (!root || !DealForm || !hidden || !source) return;

    var gettext = DealForm.util.gettext;
    var fmt = DealForm.util.fmt;
    var el = DealForm.util.el;
    var data = JSON.parse(source.textContent);
    var target = data.target;
    var corrections = read(hidden.value); // "deal number" -> deal, or null when struck out
    var editing = null; // the deal number the form shows
    var announcement = "";
    var editor = root.querySelector("[data-judge-editor]");
    var formBox = root.querySelector("[data-deal-form]");
    var deal = DealForm.create(formBox, data, { scoresBefore: scoresBefore, onSave: onSave });

    function read(raw) {
      try {
        var value = JSON.parse(raw || "{}");
        return value && typeof value === "object" && !Array.isArray(value) ? value : {};
      } catch (e) {
        return {};
      }
    }
    function write() {
      hidden.value = Object.keys(corrections).length ? JSON.stringify(corrections) : "";
    }
    function has(n) { return Object.prototype.hasOwnProperty.call(corrections, String(n)); }
    function struck(n) { return has(n) && corrections[String(n)] === null; }
    function stored(n) { return data.deals.filter(function (d) { return d.number === n; })[0]; }
    function current(n) { return has(n) && corrections[String(n)] ? corrections[String(n)] : stored(n).deal; }
    function seatName(seat) { return DealForm.seatName(data, seat); }
    function sideName(side) { return DealForm.sideName(data, side); }

    /* The game as the ruling would leave it: each deal's points and running totals, where the
     * game ends, and the deals left after that end. */
    function timeline() {
      var after = [0, 0];
      var endedAt = null;
      var lastKept = 0;
      var rows = data.deals.map(function (d) {
        var row = { number: d.number, dealer: d.dealer, entered_by: d.entered_by, struck: struck(d.number), corrected: has(d.number) && !struck(d.number) };
        if (row.struck) return row;
        var points = DealForm.points(data, current(d.number));
        after = [after[0] + points[0], after[1] + points[1]];
        row.points = points;
        row.after = after.slice();
        row.afterEnd = endedAt !== null;
        if (endedAt === null && Math.max(after[0], after[1]) >= target) {
          endedAt = d.number;
          row.final = after.slice();
        }
        lastKept = d.number;
        return row;
      });
      var final = endedAt === null ? after : rows[endedAt - 1].final;
      return { rows: rows, endedAt: endedAt, lastKept: lastKept, final: final };
    }

    function scoresBefore(number) {
      var before = [0, 0];
      timeline().rows.forEach(function (row) { if (row.number === number - 1 && row.after) before = row.after.slice(); });
      return before;
    }

    function onSave(payload) {
      var n = editing;
      if (DealForm.same(payload, stored(n).deal)) delete corrections[String(n)];
      else corrections[String(n)] = payload;
      announcement = has(n)
        ? fmt(gettext("Deal %(n)s is corrected here; the ruling applies it when you save."), { n: n })
        : fmt(gettext("Deal %(n)s stays as it was entered."), { n: n });
      close();
    }

    function open(n) {
      editing = n;
      editor.hidden = false;
      deal.open(n, stored(n).dealer, current(n), {
        title: fmt(gettext("Correct deal %(n)s"), { n: n }),
        save: fmt(gettext("Use these numbers for deal %(n)s"), { n: n }),
      });
      renderVersions(n);
      render();
      editor.scrollIntoView({ block: "start" });
      deal.focusFirst();
    }

    function close() {
      editing = null;
      deal.close();
      editor.hidden = true;
      write();
      render();
    }

    function version(title, payload, extra, other) {
      var box = el("section", { class: "judge-version" });
      box.appendChild(el("h4", {}, title));
      box.appendChild(DealForm.summary(data, payload, other));
      if (extra) box.appendChild(extra);
      return box;
    }

    function renderVersions(n) {
      var aside = root.querySelector("[data-judge-versions]");
      aside.textContent = "";
      var d = stored(n);
      var rival = data.rival && data.rival.number === n ? data.rival : null;
      aside.appendChild(version(fmt(gettext("As entered (by %(who)s)"), { who: d.entered_by || "?" }), d.deal, null, rival && rival.deal));
      if (rival) {
        var use = el("button", { type: "button", class: "button", "data-judge-use-rival": "" }, gettext("Start from these numbers"));
        aside.appendChild(version(fmt(gettext("The other entry (by %(who)s)"), { who: data.rival.entered_by || "?" }), data.rival.deal, use, d.deal));
      }
    }

    function button(text, attrs) {
      var b = el("button", Object.assign({ type: "button", class: "button" }, attrs), text);
      return b;
    }

    function render() {
      var line = timeline();
      root.querySelectorAll("[data-judge-side]").forEach(function (th) {
        th.textContent = sideName(+th.getAttribute("data-judge-side"));
      });
      var body = root.querySelector("[data-judge-deals]");
      body.textContent = "";
      var firstStruck = null;
      line.rows.forEach(function (row) { if (row.struck && firstStruck === null) firstStruck = row.number; });
      line.rows.forEach(function (row) {
        var classes = ["judge-deal"];
        if (row.number === data.disputed) classes.push("disputed");
        if (row.corrected) classes.push("corrected");
        if (row.struck) classes.push("struck");
        if (row.afterEnd) classes.push("after-end");
        if (row.number === editing) classes.push("editing");
        var tr = el("tr", { class: classes.join(" "), "data-judge-deal": row.number });
        var head = el("th", { scope: "row" }, String(row.number));
        if (row.number === data.disputed) head.appendChild(el("span", { class: "judge-flag" }, " " + gettext("disputed")));
        tr.appendChild(head);
        // Each cell names its column (data-label): on a phone the table reads as one card per deal.
        tr.appendChild(el("td", { "data-label": gettext("Dealer") }, seatName(row.dealer)));
        for (var side = 0; side < 2; side++) {
          tr.appendChild(el("td", { class: "num", "data-label": sideName(side) }, row.struck ? "–" : "+" + row.points[side] + " → " + row.after[side]));
        }
        tr.appendChild(el("td", { "data-label": gettext("Entered by") }, row.entered_by || "–"));
        var actions = el("td", { class: "judge-actions" });
        if (row.struck) {
          actions.appendChild(el("strong", {}, gettext("Struck out")));
          if (row.number === firstStruck) actions.appendChild(button(fmt(gettext("Restore deal %(n)s"), { n: row.number }), { "data-judge-restore": row.number }));
        } else {
          if (row.corrected) actions.appendChild(el("strong", {}, gettext("Corrected")));
          actions.appendChild(button(fmt(gettext("Correct deal %(n)s"), { n: row.number }), { "data-judge-edit": row.number }));
          if (row.corrected) actions.appendChild(button(gettext("Undo the correction"), { "data-judge-undo": row.number }));
          if (row.number === line.lastKept && row.number > 1) {
            actions.appendChild(button(fmt(gettext("Strike out deal %(n)s"), { n: row.number }), { "data-judge-strike": row.number }));
          }
        }
        tr.appendChild(actions);
        body.appendChild(tr);
      });
      renderSummary(line);
    }

    function renderSummary(line) {
      var box = root.querySelector("[data-judge-summary]");
      box.textContent = "";
      if (announcement) box.appendChild(el("p", { class: "judge-said" }, announcement));
      announcement = "";
      var changes = [];
      data.deals.forEach(function (d) {
        if (struck(d.number)) changes.push(fmt(gettext("deal %(n)s struck out"), { n: d.number }));
        else if (has(d.number)) changes.push(fmt(gettext("deal %(n)s corrected"), { n: d.number }));
      });
      box.appendChild(el("p", { "data-judge-changes": "" }, changes.length
        ? fmt(gettext("The ruling will apply: %(changes)s."), { changes: changes.join(", ") })
        : gettext("No deal is corrected yet: the ruling changes no number.")));
      if (line.endedAt !== null && line.endedAt < line.lastKept) {
        var warn = el("p", { class: "errornote judge-warning" }, fmt(gettext("With these numbers the game ends in deal %(n)s: strike out the deals after it."), { n: line.endedAt }));
        warn.appendChild(document.createTextNode(" "));
        warn.appendChild(button(fmt(gettext("Strike out deals %(a)s to %(b)s"), { a: line.endedAt + 1, b: line.lastKept }), { "data-judge-strike-after": line.endedAt }));
        box.appendChild(warn);
      } else if (line.endedAt === null && data.deals.length) {
        box.appendChild(el("p", { class: "judge-warning" }, fmt(gettext("With these numbers nobody reaches %(target)s: the game would be under way again."), { target: target })));
      }
      var outcome = line.endedAt === null ? null : DealForm.outcome(data, line.final);
      if (outcome) box.appendChild(el("p", { class: "judge-outcome", "data-judge-outcome": "" }, outcome.title + " " + outcome.result));
    }

    root.addEventListener("click", function (event) {
      var b = event.target.closest("button");
      if (!b || !root.contains(b)) return;
      var n;
      if (b.hasAttribute("data-judge-edit")) {
        open(parseInt(b.getAttribute("data-judge-edit"), 10));
      } else if (b.hasAttribute("data-judge-cancel")) {
        close();
      } else if (b.hasAttribute("data-judge-use-rival")) {
        deal.open(editing, stored(editing).dealer, data.rival.deal, {
          title: fmt(gettext("Correct deal %(n)s"), { n: editing }),
          save: fmt(gettext("Use these numbers for deal %(n)s"), { n: editing }),
        });
        deal.focusFirst();
      } else if (b.hasAttribute("data-judge-undo")) {
        n = b.getAttribute("data-judge-undo");
        delete corrections[n];
        announcement = fmt(gettext("Deal %(n)s stays as it was entered."), { n: n });
        if (String(editing) === n) close(); else { write(); render(); }
      } else if (b.hasAttribute("data-judge-strike")) {
        n = parseInt(b.getAttribute("data-judge-strike"), 10);
        corrections[String(n)] = null;
        if (editing === n) close(); else { write(); render(); }
      } else if (b.hasAttribute("data-judge-strike-after")) {
        var from = parseInt(b.getAttribute("data-judge-strike-after"), 10) + 1;
        data.deals.forEach(function (d) { if (d.number >= from) corrections[String(d.number)] = null; });
        if (editing !== null && editing >= from) close(); else { write(); render(); }
      } else if (b.hasAttribute("data-judge-restore")) {
        delete corrections[b.getAttribute("data-judge-restore")];
        write();
        render();
      } else {
        return;
      }
      event.preventDefault();
    });

    // A correction still open in the form is not part of the ruling: say so rather than lose it.
    if (hidden.form) {
      hidden.form.addEventListener("submit", function (event) {
        if (editing === null) return;
        event.preventDefault();
        deal.showError(fmt(gettext("Use or cancel the correction of deal %(n)s before saving the ruling."), { n: editing }));
        editor.scrollIntoView({ block: "start" });
      });
    }

    write();
    render();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
