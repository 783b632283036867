"""The story of a night, for both competitions: what a league week and a club night recap
hold, and its words in the active language, ready to paste into a newsletter or a post.

A selector fills a :class:`Recap` from the results (``league.selectors.recap`` for a week,
``tournaments.recap`` for a club night); :func:`recap_sections` and :func:`recap_text` say it in
the language active when they are called (``translation.override`` for another one), with the
plural forms of that language (``ngettext``). Names, cards and numbers are data; every word
around them is translated. Information only: nothing reads a recap back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.conf import settings
from django.utils import formats, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.kernel.errors import ValidationFailed

# A game is an upset when its winner's chance was below this: in a league week, from the board
# (win probability) at some point of the game, the start included (``league.selectors.recap``);
# on a club night, from both sides' ratings as they stood before the night (``tournaments.recap``).
UPSET_BELOW = 0.30


@dataclass(frozen=True)
class MatchLine:
    """A match of the week (or a club night's final): both sides and the games each won."""

    home: str
    away: str
    home_won: int
    away_won: int
    over: bool = True
    # The team that forfeited the match, when it did: the story says so in words.
    forfeited_by: str = ""


@dataclass(frozen=True)
class Finisher:
    """A club night's finisher: its ``place`` and who."""

    place: int
    name: str
    points: int | None = None


@dataclass(frozen=True)
class Upset:
    """A game its winner won from ``chance`` (0 to 1) or less, the lowest the board gave it,
    after ``deal`` deals (0: at the start). ``ratings``: the chance is the ratings' before the
    night instead (a club night's, which keeps no board), for each of the ``games`` the winner
    won against that loser that night (``game`` and ``deal`` are then 0)."""

    winner: str
    loser: str
    game: int
    chance: float
    deal: int
    ratings: bool = False
    games: int = 1

    @property
    def percent(self) -> int:
        return round(self.chance * 100)


@dataclass(frozen=True)
class Hand:
    """A special hand (``contest.special_hands``): who held it, for which side (a club night's
    entrant is both), what it counted, its kinds ("24", "28", "29", "four_of_a_kind"), its
    cards and the starter."""

    player: str
    team: str
    points: int
    kinds: tuple[str, ...]
    crib: bool
    cards: tuple[str, ...]
    starter: str


@dataclass(frozen=True)
class Skunk:
    """A game won by a skunk (``double``: a double skunk), by ``margin`` points."""

    winner: str
    loser: str
    margin: int
    double: bool


@dataclass(frozen=True)
class Move:
    """A team's move in the standings since the night before: from ``was`` to ``place``."""

    team: str
    place: int
    was: int

    @property
    def by(self) -> int:
        """Places gained (negative: lost)."""
        return self.was - self.place


@dataclass(frozen=True)
class Recap:
    """What a night's story tells. ``title`` is a msgid (marked with ``gettext_noop``) said
    with ``params`` in the reader's language; ``over``: every match of it is over (confirmed
    or closed); ``waiting``: games over but not yet counted."""

    title: str
    params: dict[str, Any]
    when: date | None
    over: bool
    matches: list[MatchLine] = field(default_factory=list)
    winner: str | None = None
    finishers: list[Finisher] = field(default_factory=list)
    upsets: list[Upset] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)
    skunks: list[Skunk] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    waiting: int = 0
    # Of the games ``waiting``, those disputed: with the judge, not merely unconfirmed.
    disputed: int = 0


def _match_line(m: MatchLine) -> str:
    values = {"home": m.home, "away": m.away}
    if m.home_won == m.away_won:
        return _("%(home)s and %(away)s drew %(a)s-%(b)s.") % {
            **values,
            "a": m.home_won,
            "b": m.away_won,
        }
    winner, loser = (m.home, m.away) if m.home_won > m.away_won else (m.away, m.home)
    won, lost = max(m.home_won, m.away_won), min(m.home_won, m.away_won)
    if m.forfeited_by:
        line = ngettext(
            "%(winner)s beat %(loser)s by %(won)s game to %(lost)s, by forfeit: %(forfeiter)s "
            "forfeited.",
            "%(winner)s beat %(loser)s by %(won)s games to %(lost)s, by forfeit: %(forfeiter)s "
            "forfeited.",
            won,
        ) % {
            "winner": winner,
            "loser": loser,
            "won": won,
            "lost": lost,
            "forfeiter": m.forfeited_by,
        }
    else:
        line = ngettext(
            "%(winner)s beat %(loser)s by %(won)s game to %(lost)s.",
            "%(winner)s beat %(loser)s by %(won)s games to %(lost)s.",
            won,
        ) % {"winner": winner, "loser": loser, "won": won, "lost": lost}
    if not m.over:
        line += " " + _("(still being played)")
    return line


def _finisher_line(f: Finisher) -> str:
    if f.points is None:
        return _("%(place)s. %(name)s") % {"place": f.place, "name": f.name}
    return ngettext(
        "%(place)s. %(name)s, %(points)s point",
        "%(place)s. %(name)s, %(points)s points",
        f.points,
    ) % {"place": f.place, "name": f.name, "points": f.points}


def _upset_line(u: Upset) -> str:
    values = {"winner": u.winner, "loser": u.loser, "game": u.game, "percent": u.percent}
    if u.ratings:
        if u.games == 1:
            return _("%(winner)s beat %(loser)s, given a %(percent)s%% chance by the ratings.") % (
                values
            )
        return ngettext(
            "%(winner)s beat %(loser)s in %(games)s game, each given a %(percent)s%% chance "
            "by the ratings.",
            "%(winner)s beat %(loser)s in %(games)s games, each given a %(percent)s%% chance "
            "by the ratings.",
            u.games,
        ) % {**values, "games": u.games}
    if u.deal == 0:
        return (
            _(
                "%(winner)s beat %(loser)s in game %(game)s, given %(percent)s%% by the board "
                "at the start."
            )
            % values
        )
    return ngettext(
        "%(winner)s beat %(loser)s in game %(game)s from %(percent)s%% on the board after "
        "%(deal)s deal.",
        "%(winner)s beat %(loser)s in game %(game)s from %(percent)s%% on the board after "
        "%(deal)s deals.",
        u.deal,
    ) % {**values, "deal": u.deal}


def _kind_words(kind: str) -> str:
    if kind == "four_of_a_kind":
        return _("four of a kind")
    return _("a %(points)s hand") % {"points": kind}


def _hand_line(h: Hand) -> str:
    what = ", ".join(_kind_words(k) for k in h.kinds)
    cards = " ".join(h.cards)
    values = {
        "player": h.player,
        "team": h.team,
        "what": what,
        "cards": cards,
        "starter": h.starter,
        "points": h.points,
    }
    if h.player == h.team:  # a club night's entrant
        if h.crib:
            return _("%(player)s: %(what)s in the crib, %(cards)s with %(starter)s cut.") % values
        return _("%(player)s: %(what)s, %(cards)s with %(starter)s cut.") % values
    if h.crib:
        return (
            _("%(player)s (%(team)s): %(what)s in the crib, %(cards)s with %(starter)s cut.")
            % values
        )
    return _("%(player)s (%(team)s): %(what)s, %(cards)s with %(starter)s cut.") % values


def _skunk_line(s: Skunk) -> str:
    values = {"winner": s.winner, "loser": s.loser, "margin": s.margin}
    if s.double:
        return (
            ngettext(
                "%(winner)s double skunked %(loser)s, by %(margin)s point.",
                "%(winner)s double skunked %(loser)s, by %(margin)s points.",
                s.margin,
            )
            % values
        )
    return (
        ngettext(
            "%(winner)s skunked %(loser)s, by %(margin)s point.",
            "%(winner)s skunked %(loser)s, by %(margin)s points.",
            s.margin,
        )
        % values
    )


# More skunks than this (a club night of many tables) are told per player, not game by game: a
# story of seventy skunk lines is not one anybody pastes into a newsletter.
SKUNKS_TOLD_ONE_BY_ONE = 8
#: Past that, the givers named with their count, most first; the rest are one line.
SKUNK_GIVERS_NAMED = 5


def _skunk_lines(skunks: list[Skunk]) -> list[str]:
    """Each skunk, or, past ``SKUNKS_TOLD_ONE_BY_ONE``, how many there were, who gave the most
    (the first ``SKUNK_GIVERS_NAMED``, then how many others gave the rest) and the biggest."""
    if len(skunks) <= SKUNKS_TOLD_ONE_BY_ONE:
        return [_skunk_line(s) for s in skunks]
    given: dict[str, list[Skunk]] = {}
    for skunk in skunks:
        given.setdefault(skunk.winner, []).append(skunk)
    lines = [
        ngettext("%(n)s skunk in all.", "%(n)s skunks in all.", len(skunks)) % {"n": len(skunks)}
    ]
    ranked = sorted(given.items(), key=lambda item: (-len(item[1]), item[0]))
    # One giver left over is named too: "1 more player" would hide a name to save no line.
    named = ranked if len(ranked) <= SKUNK_GIVERS_NAMED + 1 else ranked[:SKUNK_GIVERS_NAMED]
    for winner, theirs in named:
        doubles = sum(s.double for s in theirs)
        values = {"winner": winner, "n": len(theirs), "doubles": doubles}
        if doubles and len(theirs) > 1:  # the plural that matters: the doubles'
            lines.append(
                ngettext(
                    "%(winner)s gave %(n)s skunks (%(doubles)s double).",
                    "%(winner)s gave %(n)s skunks (%(doubles)s doubles).",
                    doubles,
                )
                % values
            )
        elif doubles:
            lines.append(
                ngettext(
                    "%(winner)s gave %(n)s skunk (%(doubles)s double).",
                    "%(winner)s gave %(n)s skunks (%(doubles)s double).",
                    len(theirs),
                )
                % values
            )
        else:
            lines.append(
                ngettext(
                    "%(winner)s gave %(n)s skunk.", "%(winner)s gave %(n)s skunks.", len(theirs)
                )
                % values
            )
    if rest := ranked[len(named) :]:
        lines.append(
            _("%(players)s more players gave %(n)s skunks between them.")
            % {"players": len(rest), "n": sum(len(theirs) for _winner, theirs in rest)}
        )
    biggest = max(skunks, key=lambda s: (s.margin, s.double))
    lines.append(_("The biggest: %(skunk)s") % {"skunk": _skunk_line(biggest)})
    return lines


def _move_line(m: Move) -> str:
    values = {"team": m.team, "n": abs(m.by), "place": m.place}
    if m.by > 0:
        return (
            ngettext(
                "%(team)s went up %(n)s place, to number %(place)s.",
                "%(team)s went up %(n)s places, to number %(place)s.",
                m.by,
            )
            % values
        )
    return (
        ngettext(
            "%(team)s went down %(n)s place, to number %(place)s.",
            "%(team)s went down %(n)s places, to number %(place)s.",
            -m.by,
        )
        % values
    )


def recap_sections(recap: Recap) -> list[tuple[str, list[str]]]:
    """The story as ``(heading, lines)`` in the active language, the empty sections left out."""
    sections: list[tuple[str, list[str]]] = []
    if recap.matches:
        sections.append((_("Results"), [_match_line(m) for m in recap.matches]))
    if recap.winner:
        sections.append(
            (_("The night's winner"), [_("%(name)s won the night.") % {"name": recap.winner}])
        )
    if recap.finishers:
        sections.append((_("Top finishers"), [_finisher_line(f) for f in recap.finishers]))
    if recap.upsets:
        sections.append((_("Upsets"), [_upset_line(u) for u in recap.upsets]))
    if recap.hands:
        sections.append((_("Special hands"), [_hand_line(h) for h in recap.hands]))
    if recap.skunks:
        sections.append((_("Skunks"), _skunk_lines(recap.skunks)))
    if recap.moves:
        sections.append((_("The standings"), [_move_line(m) for m in recap.moves]))
    return sections


def recap_heading(recap: Recap) -> str:
    """The story's first line: its title and its date."""
    title = _(recap.title) % recap.params
    if recap.when is None:
        return title
    return f"{title}, {formats.date_format(recap.when, 'DATE_FORMAT')}"


def recap_notes(recap: Recap) -> list[str]:
    """What the reader should know of the figures: a night not over, games not yet counted."""
    notes = []
    if not recap.over:
        notes.append(_("Not every match of the night is over yet: this story may still change."))
    unconfirmed = recap.waiting - recap.disputed
    if unconfirmed:
        notes.append(
            ngettext(
                "%(n)s game is over but not yet confirmed: it is not counted here.",
                "%(n)s games are over but not yet confirmed: they are not counted here.",
                unconfirmed,
            )
            % {"n": unconfirmed}
        )
    if recap.disputed:
        notes.append(
            ngettext(
                "%(n)s game is disputed, with the judge: it is not counted here.",
                "%(n)s games are disputed, with the judge: they are not counted here.",
                recap.disputed,
            )
            % {"n": recap.disputed}
        )
    return notes


def recap_text(recap: Recap) -> str:
    """The whole story as plain text in the active language, ready to paste."""
    lines = [recap_heading(recap)]
    sections = recap_sections(recap)
    if not sections:
        lines += ["", _("No result to tell yet.")]
    for heading, rows in sections:
        lines += ["", heading, *[f"- {row}" for row in rows]]
    notes = recap_notes(recap)
    if notes:
        lines += ["", *notes]
    return "\n".join(lines) + "\n"


def recap_language(code: str | None) -> str:
    """The language a story is asked in (an API's ``?lang=``): one of the site's, or the
    active one when none is given; another is refused naming the field."""
    if not code:
        return translation.get_language() or settings.LANGUAGE_CODE
    if code not in dict(settings.LANGUAGES):
        raise ValidationFailed(_("Unknown language: %(code)s.") % {"code": code}, field="lang")
    return code


def recap_document(recap: Recap) -> dict[str, Any]:
    """The story in the active language as the API gives it: ``over``, ``heading``,
    ``sections`` (each ``heading`` and ``lines``), ``notes`` and the whole ``text``."""
    return {
        "language": translation.get_language(),
        "over": recap.over,
        "heading": recap_heading(recap),
        "sections": [{"heading": h, "lines": lines} for h, lines in recap_sections(recap)],
        "notes": recap_notes(recap),
        "text": recap_text(recap),
    }
