"""The schedule's match rows, built in Python rather than tag by tag in a template.

A week at 512 tables has 512 matches and 2,560 games: through the template engine (a ``{% url %}``
and a ``{% blocktranslate %}`` per row and per game) that page took seconds at 1,024 teams
(bench/pages.py); joined here it takes a few milliseconds, as the standings rows do
(``league.tables.standings_rows_html``). Texts go through ``escape()``; numbers are ints. The
words are the template's own msgids, so they keep their translations.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

# A score that does not count yet wears the colours of its game's status badge
# (templates/league/_status.html), at the schedule's size (.game-flag).
_STATUS_BADGE = {"finished": "badge--wait", "disputed": "badge--disputed"}


def schedule_rows_html(rows: list[dict[str, Any]]) -> SafeString:
    """The ``<li>`` of each match of :func:`league.selectors.scoreboard.schedule_week`, in the
    reader's language: table, teams, the match's tally and a link to each game's score."""
    match_url = reverse("league:match", args=[0])[:-2]  # "/matches/" + id + "/"
    game_url = reverse("league:game", args=[0])[:-2]
    versus, playing = escape(_("v")), escape(_("playing"))
    games_label, skunk = escape(_("Games"), quote=True), escape(_("skunk"), quote=True)
    # A score that does not count yet says so: it may still change.
    not_yet = {
        "finished": escape(pgettext("a game's score on the schedule", "to confirm")),
        "disputed": escape(pgettext("a game's score on the schedule", "disputed")),
    }
    forfeit = escape(pgettext("a game's score on the schedule", "forfeit"))
    table_text = _("Table %(table)s")
    postponed = _("postponed to %(date)s")
    out = []
    for row in rows:
        match = row["match"]
        home_won, away_won = int(row["home_won"]), int(row["away_won"])
        tally = f"{home_won}–{away_won}" if row["played"] else versus
        parts = [
            f'<li class="match-row{" match-row--live" if row["live"] else ""}" '
            f'id="match-{int(match.pk)}">',
            f'<a class="match-link" href="{match_url}{int(match.pk)}/">',
            f'<span class="table-no">{escape(table_text % {"table": match.table})}</span>',
            f'<span class="team{" team--won" if home_won > away_won else ""}">'
            f"{escape(row['home_name'])}</span>",
            f'<span class="tally">{tally}</span>',
            f'<span class="team{" team--won" if away_won > home_won else ""}">'
            f"{escape(row['away_name'])}</span>",
        ]
        if row["live"]:
            parts.append(f'<span class="badge badge--live">{playing}</span>')
        if match.date is not None:  # played on its own date (league.services.postponements)
            when = escape(postponed % {"date": date_format(match.date, "DATE_FORMAT")})
            parts.append(f'<span class="badge badge--wait">{when}</span>')
        parts.append("</a>")
        if row["games"]:
            scores = []
            for game in row["games"]:
                mark = f' <abbr title="{skunk}">S</abbr>' if game.is_skunk else ""
                if game.status in not_yet:
                    flag = not_yet[game.status]
                    badge = _STATUS_BADGE[game.status]
                    mark += f' <span class="game-flag {badge}">{flag}</span>'
                if game.forfeit_id is not None:  # no score: who won it, by forfeit
                    winner = "1–0" if game.winner_id == match.home_id else "0–1"
                    score = f'{winner} <span class="game-flag badge--forfeit">{forfeit}</span>'
                else:
                    score = f"{int(game.home_at_hole)}–{int(game.away_at_hole)}"
                scores.append(f'<li><a href="{game_url}{int(game.pk)}/">{score}{mark}</a></li>')
            parts.append(
                f'<ol class="game-scores" aria-label="{games_label}">{"".join(scores)}</ol>'
            )
        parts.append("</li>")
        out.append("".join(parts))
    return mark_safe("\n".join(out))  # every text went through escape(), the rest are ints
