"""A club night's story (a selector module): the night's winner and top finishers, the final,
its special hands, its skunks and the club season's moves, said in each language by
``league.kernel.recap``. Information only: nothing reads it back.

- **Results**: the final (the last playoff match, with the games each side won) once decided.
- **The night's winner** is the final's winner; the **top finishers** are the first
  ``TOP_FINISHERS`` by final place once the final is decided (by the qualifying standings
  before), with their qualifying game points.
- **Upsets**: a game won (a verified qualifying table, a playoff game) by the entrant the
  ratings gave under ``UPSET_BELOW`` (30%, the league week's threshold) to win it, from both
  entrants' players' ratings as they stood before the night started (its first round's start,
  or its first verified table; the results that came to stand before it, replayed through
  ``league.kernel.ratings.win_chances_before``: today's ratings already count the night). A
  player with no rated result before the night is new (the default rating). The games one
  entrant won against the same other are told once, with how many.
- **Special hands**: the 24, 28 and 29 hands and fours of a kind of the verified games whose
  cards were entered deal by deal (``acc_reports.special_hands_of``).
- **Skunks**: the verified qualifying games won by the event's skunk margins.
- **The standings**: for a finished night of a club season, the players whose place in the
  season's table moved with this night.

A club night keeps no deal-by-deal board, so its upsets read the ratings rather than the win
probability (a league selector, which the tournaments do not import).

:func:`night_recap` reads sixteen queries for a night outside a club season (pinned by
``tests/tournaments/test_recap.py``), seven of them the upsets' (four the ratings' replay);
a club season's moves read its finished nights besides.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext_noop

from league.kernel.ratings import Sides, win_chances_before
from league.kernel.recap import UPSET_BELOW, Finisher, Hand, MatchLine, Move, Recap, Skunk, Upset
from league.shared import Player
from scoring.outcome import SkunkLevel
from tournaments import logic, selectors
from tournaments.acc_reports import special_hands_of
from tournaments.models import (
    EntrantPlayer,
    PlayoffGame,
    PlayoffMatch,
    Round,
    TableGame,
    TableState,
    Tournament,
    TournamentStage,
)

TOP_FINISHERS = 3


def night_recap(tournament: Tournament) -> Recap:
    """The story of ``tournament`` (a club night or an event)."""
    rules = tournament.rules
    [night] = selectors.nights_of([tournament])
    finishers = _finishers(night)
    games = list(
        TableGame.objects.filter(
            round__tournament=tournament, status=TableState.VERIFIED, winner__isnull=False
        )
        .select_related("first", "second", "winner")
        .order_by("round__number", "table")
    )
    skunks = []
    for game in games:
        if game.loser_score is None:
            continue
        margin = rules.target - game.loser_score
        level = rules.ladder.level(margin)
        if level >= SkunkLevel.SKUNK:
            loser = game.second if game.winner_id == game.first_id else game.first
            skunks.append(
                Skunk(
                    winner=game.winner.name if game.winner else "",
                    loser=loser.name,
                    margin=margin,
                    double=level == SkunkLevel.DOUBLE,
                )
            )
    hands = [
        Hand(
            player=h["entrant"].name,
            team=h["entrant"].name,
            points=h["points"],
            kinds=h["kinds"],
            crib=h["crib"],
            cards=h["cards"],
            starter=h["starter"],
        )
        for h in special_hands_of(tournament)
    ]
    winner = night.champion
    title, when = _title_and_date(tournament)
    return Recap(
        title=gettext_noop("%(night)s"),
        params={"night": title},
        when=when,
        over=tournament.stage == TournamentStage.FINISHED or winner is not None,
        matches=_final(tournament) if winner is not None else [],
        winner=winner,
        finishers=finishers,
        upsets=_upsets(tournament, games),
        hands=sorted(hands, key=lambda h: -h.points),
        skunks=skunks,
        moves=_club_season_moves(tournament),
    )


def _title_and_date(tournament: Tournament) -> tuple[str, dt.date | None]:
    """The night's name and the date its story's heading adds after it. A night made by
    "Tonight" is named "Club · 2026-12-06": the heading drops that date and says it in words.
    A name that already says its date another way ("Club night, 14 Nov 2026") keeps it, and the
    heading adds none, so the date is said once."""
    date = tournament.date
    if date is None:
        return tournament.name, None
    name = tournament.name.replace(f" · {date.isoformat()}", "", 1)
    spelled = {
        f"{date:%d %b %Y}",
        f"{date.day} {date:%b %Y}",
        f"{date:%d %B %Y}",
        f"{date.day} {date:%B %Y}",
        f"{date:%b} {date.day}, {date.year}",
        f"{date:%B} {date.day}, {date.year}",
        f"{date:%d/%m/%Y}",
        f"{date:%m/%d/%Y}",
    }
    if any(text in name for text in spelled):
        return name, None
    return name, date


def _night_start(tournament: Tournament, tables: list[TableGame]) -> dt.datetime | None:
    """When the night started: its first round's start or its first verified table,
    whichever came first; its date's midnight when neither is known; None with no date
    either."""
    started = Round.objects.filter(tournament=tournament).aggregate(at=Min("started_at"))["at"]
    known = [at for at in [started, *(t.verified_at for t in tables)] if at is not None]
    if known:
        return min(known)
    if tournament.date is None:
        return None
    return timezone.make_aware(dt.datetime.combine(tournament.date, dt.time()))


def _upsets(tournament: Tournament, tables: list[TableGame]) -> list[Upset]:
    """The games won by an entrant the ratings before the night gave under ``UPSET_BELOW``:
    its verified qualifying ``tables`` and its playoff games, each winner and loser once with
    the games of theirs it won, the least likely first."""
    won: Counter[tuple[int, int]] = Counter()
    names: dict[int, str] = {}
    for table in tables:
        if table.winner is None:
            continue
        loser = table.second if table.winner_id == table.first_id else table.first
        won[(table.winner.pk, loser.pk)] += 1
        names.update({table.winner.pk: table.winner.name, loser.pk: loser.name})
    playoff = PlayoffGame.objects.filter(match__tournament=tournament).select_related(
        "match__top", "match__bottom"
    )
    for game in playoff:
        top, bottom = game.match.top, game.match.bottom
        if top is None or bottom is None or game.winner_id not in (top.pk, bottom.pk):
            continue
        winner, loser = (top, bottom) if game.winner_id == top.pk else (bottom, top)
        won[(winner.pk, loser.pk)] += 1
        names.update({winner.pk: winner.name, loser.pk: loser.name})
    start = _night_start(tournament, tables) if won else None
    if start is None:
        return []
    players: dict[int, list[int]] = {}
    rows = EntrantPlayer.objects.filter(entrant_id__in=names).values_list("entrant_id", "player_id")
    for entrant_id, player_id in rows:
        players.setdefault(entrant_id, []).append(player_id)
    pairs = [pair for pair in won if players.get(pair[0]) and players.get(pair[1])]
    sides: list[Sides] = [(tuple(players[w]), tuple(players[lo])) for w, lo in pairs]
    found = [
        Upset(names[w], names[lo], 0, chance, 0, ratings=True, games=won[(w, lo)])
        for (w, lo), chance in zip(pairs, win_chances_before(start, sides), strict=True)
        if chance < UPSET_BELOW
    ]
    return sorted(found, key=lambda u: (u.chance, u.winner, u.loser))


def _finishers(night: selectors.Night) -> list[Finisher]:
    """The first ``TOP_FINISHERS``: by final place once the final is decided, else by the
    qualifying standings; each with their qualifying game points."""
    records = night.records
    if night.places:
        placed = sorted(night.places.items(), key=lambda item: (item[1], item[0]))
        return [
            Finisher(place=place, name=name, points=records[name].game_points)
            for name, place in placed[:TOP_FINISHERS]
            if name in records
        ]
    return [
        Finisher(place=s.rank, name=s.record.entrant, points=s.record.game_points)
        for s in night.standings["ranked"][:TOP_FINISHERS]
        if s.record.played
    ]


def _club_season_moves(tournament: Tournament) -> list[Move]:
    """For a finished night of a club season: each player's place in the season's table with
    this night beside their place before it (the season's finished nights by date), for the
    players who moved. None for the season's first night, or a night not finished."""
    season = tournament.club_season
    if season is None or tournament.stage != TournamentStage.FINISHED:
        return []
    counted = list(season.nights.filter(stage=TournamentStage.FINISHED).order_by("date", "pk"))
    at = next((i for i, t in enumerate(counted) if t.pk == tournament.pk), 0)
    if at == 0:
        return []
    per_night = [selectors.night_points(season, n) for n in selectors.nights_of(counted[: at + 1])]
    ids = {pk for points in per_night for pk in points}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    before = {row.key: row.rank for row in logic.season_table(per_night[:-1], names)}
    moves = [
        Move(team=row.name, place=row.rank, was=before[row.key])
        for row in logic.season_table(per_night, names)
        if row.key in before and before[row.key] != row.rank
    ]
    return sorted(moves, key=lambda m: (-m.by, m.place, m.team))


def _final(tournament: Tournament) -> list[MatchLine]:
    final = (
        PlayoffMatch.objects.filter(tournament=tournament)
        .select_related("top", "bottom")
        .prefetch_related("games")
        .order_by("-round")
        .first()
    )
    if final is None or final.top is None or final.bottom is None:
        return []
    won = [g.winner_id for g in final.games.all()]
    return [
        MatchLine(
            home=final.top.name,
            away=final.bottom.name,
            home_won=won.count(final.top.pk),
            away_won=won.count(final.bottom.pk),
        )
    ]
