"""Reads for the match pages and the venue's live scoreboard: every table's current game with
its front and back pegs, in a fixed number of queries however many tables a week has."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Window

from league.kernel.permissions import Actor
from league.models import (
    Deal,
    Forfeit,
    Game,
    GameStatus,
    Match,
    Postponement,
    Season,
    SeasonState,
    Team,
    Week,
)
from league.selectors.winprob import game_chance

# What a schedule line reads of a game (its score at the hole, skunk, whether it is under way):
# a week at 512 tables has 2,560 games, and loading only these fields halves their cost.
SCHEDULE_GAME_FIELDS = (
    "id",
    "match_id",
    "number",
    "status",
    "home_score",
    "away_score",
    "winner_id",
    "margin",
    "skunk_level",
    "deal_count",
    "forfeit_id",
)
# The TV boards read the same, and the version (the boards' signature).
BOARD_GAME_FIELDS = (*SCHEDULE_GAME_FIELDS, "version", "first_dealer", "home_side")


def skunk_line(season: Season) -> int:
    """The highest losing score that is still a skunk: the loser must pass it to avoid one."""
    return season.skunk_line()


def current_game(match: Match) -> Game | None:
    """The game the table is playing: the one in progress, else the last one played. A game
    being played (a deal in) keeps the board from a later one that has none (started too
    early, before games were kept in order): the TV shows the game at the table."""
    games = list(match.games.all())
    playing = [g for g in games if g.status == GameStatus.IN_PROGRESS]
    if playing:
        return max(playing, key=lambda g: (g.deal_count > 0, g.number))
    return games[-1] if games else None


def match_tally(match: Match) -> tuple[int, int]:
    """Games won so far by (home, away) in this match."""
    home = away = 0
    for game in match.games.all():
        if game.winner_id == match.home_id:
            home += 1
        elif game.winner_id == match.away_id:
            away += 1
    return home, away


def back_pegs(games: list[Game]) -> dict[int, tuple[int, int]]:
    """(home, away) before each game's last deal: the previous deal's running totals (one query)."""
    ids = [g.pk for g in games if g.deal_count > 1]
    rows = Deal.objects.filter(
        game_id__in=ids, is_current=True, number=F("game__deal_count") - 1
    ).values_list("game_id", "home_after", "away_after")
    backs = {game_id: (home, away) for game_id, home, away in rows}
    return {g.pk: backs.get(g.pk, (0, 0)) for g in games}


def game_board(game: Game, *, back: tuple[int, int], home: str, away: str) -> dict[str, Any]:
    """What the board template needs: home lane on top, each side's front and back peg. A
    winner's score is shown at the game hole (121), as everywhere a result is shown, not what
    was counted past it in the last deal. ``game.match`` must be loaded."""
    return {
        "sides": [
            {"name": home, "score": game.home_at_hole, "back": back[0]},
            {"name": away, "score": game.away_at_hole, "back": back[1]},
        ]
    }


def _player_names(matches: Sequence[Match]) -> dict[int, list[str]]:
    """Each team's player names, for every team of these matches, in one query of names."""
    team_ids = {m.home_id for m in matches} | {m.away_id for m in matches}
    rows = (
        Team.players.through.objects.filter(team_id__in=team_ids)
        .order_by("team_id", "player__name")
        .values_list("team_id", "player__name")
    )
    names: dict[int, list[str]] = {}
    for team_id, name in rows:
        names.setdefault(team_id, []).append(name)
    return names


def week_boards(week: Week, *, screen: int = 1, per_screen: int) -> dict[str, Any]:
    """Screen ``screen`` (from 1) of ``week``'s tables: at most ``per_screen`` tables in table
    order, each with its teams, players, the current game's board and the match tally.

    Returns ``tables`` (the rows), ``screen``, ``screens`` (how many the week has: 0 with no
    table), and ``first_table`` and ``last_table`` of this screen (None when it has none).
    Four queries whatever the number of tables or screens: this screen's matches with their
    teams (and the week's number of tables, counted by the same query), the teams' player
    names, games, and the back pegs; a screen past the last counts the tables in a fifth.
    ``week`` must come with ``season__league`` selected. Polled by every TV at the venue, so it
    reads only this screen's tables and builds no more than the boards show: players as
    names, each game with only the fields a board reads, and its winner taken from the match's
    two teams rather than joined again (512 tables: 2,560 games)."""
    start = (screen - 1) * per_screen
    matches = list(
        Match.objects.filter(week=week)
        .annotate(tables_in_week=Window(Count("pk")))
        .select_related("home", "away")
        .prefetch_related(
            Prefetch(
                "games",
                queryset=Game.objects.exclude(status=GameStatus.VOID)
                .only(*BOARD_GAME_FIELDS)
                .order_by("number"),
            )
        )
        .order_by("table", "pk")[start : start + per_screen]
    )
    if matches:
        in_week = matches[0].tables_in_week
    else:
        in_week = Match.objects.filter(week=week).count() if screen > 1 else 0
    tables = _board_rows(matches)
    season = week.season
    for row in tables:  # information only: the board's win probability, no query
        game = row["game"]
        row["chance"] = (
            game_chance(game, variant=season.variant, target=season.target) if game else None
        )
    return {
        "tables": tables,
        "screen": screen,
        "screens": -(-in_week // per_screen),
        "first_table": matches[0].table if matches else None,
        "last_table": matches[-1].table if matches else None,
    }


def _board_rows(matches: Sequence[Match]) -> list[dict[str, Any]]:
    """One row a table: what the TV draws of each match (three queries)."""
    players = _player_names(matches)
    game: Game | None
    for match in matches:
        for game in match.games.all():
            if game.winner_id is not None:
                game.winner = match.home if game.winner_id == match.home_id else match.away
    current = {m.pk: current_game(m) for m in matches}
    backs = back_pegs([g for g in current.values() if g is not None])
    tables = []
    for match in matches:
        game = current[match.pk]
        home_won, away_won = match_tally(match)
        row: dict[str, Any] = {
            "match": match,
            "home": match.home,
            "away": match.away,
            "home_players": players.get(match.home_id, []),
            "away_players": players.get(match.away_id, []),
            "home_won": home_won,
            "away_won": away_won,
            "game": game,
            "board": None,
            "empty_board": [
                {"name": match.home.name, "score": 0, "back": 0},
                {"name": match.away.name, "score": 0, "back": 0},
            ],
        }
        if game is not None:
            row["board"] = game_board(
                game, back=backs[game.pk], home=match.home.name, away=match.away.name
            )
        tables.append(row)
    return tables


def boards_signature(boards: dict[str, Any]) -> str:
    """A short text that changes whenever any board of the screen changes, or the number of
    screens (the poller skips equal ones). :func:`week_boards`' answer."""
    parts = [f"s{boards['screen']}/{boards['screens']}"]
    for row in boards["tables"]:
        game = row["game"]
        parts.append(f"{row['match'].pk}:{game.pk if game else 0}:{game.version if game else 0}")
    return ",".join(parts)


def _schedule_row(match: Match) -> dict[str, Any]:
    """One line of the schedule: a match, its teams' names, its games (not void) and the tally
    so far."""
    home_won, away_won = match_tally(match)
    games = list(match.games.all())
    return {
        "match": match,
        "home_name": match.home_name,  # type: ignore[attr-defined]
        "away_name": match.away_name,  # type: ignore[attr-defined]
        "games": games,
        "home_won": home_won,
        "away_won": away_won,
        "played": any(g.deal_count or g.winner_id for g in games),
        "live": any(g.status == GameStatus.IN_PROGRESS for g in games),
    }


def _schedule_match_rows() -> QuerySet[Match]:
    """Matches with their teams' names and their games that are not void, by table (two
    queries). The names come as two columns, not as team objects: a line shows nothing else
    of a team, and 1,024 objects were a quarter of a 512-table week's cost."""
    games = Game.objects.exclude(status=GameStatus.VOID).only(*SCHEDULE_GAME_FIELDS)
    return (
        Match.objects.annotate(home_name=F("home__name"), away_name=F("away__name"))
        .prefetch_related(Prefetch("games", queryset=games.order_by("number")))
        .order_by("table", "pk")
    )


def _with_started(weeks: QuerySet[Week]) -> QuerySet[Week]:
    """Each week marked ``started`` when one of its matches has a game (what places undated
    weeks in :func:`pick_current_week`)."""
    return weeks.annotate(started=Exists(Game.objects.filter(match__week=OuterRef("pk"))))


def schedule_week(season: Season, *, number: int | None, today: dt.date) -> dict[str, Any]:
    """One week of a season's schedule: the week numbered ``number`` (the week being played,
    :func:`pick_current_week`, when None), every week for the picker, the previous and next.

    Three queries however long the season and however many tables: the weeks, the chosen
    week's matches with their teams, their games. ``week`` is None when the season has no week
    numbered ``number`` (or no week at all); ``weeks`` still lists them all."""
    weeks = list(
        _with_started(Week.objects.filter(season=season)).select_related("venue").order_by("number")
    )
    if number is None:
        week = pick_current_week(weeks, today)
    else:
        week = next((w for w in weeks if w.number == number), None)
    rows: list[dict[str, Any]] = []
    previous = following = None
    if week is not None:
        rows = [_schedule_row(m) for m in _schedule_match_rows().filter(week=week)]
        at = weeks.index(week)
        previous = weeks[at - 1] if at > 0 else None
        following = weeks[at + 1] if at + 1 < len(weeks) else None
    return {
        "week": week,
        "matches": rows,
        "weeks": weeks,
        "previous": previous,
        "next": following,
    }


def match_detail(match_id: int) -> dict[str, Any]:
    """A match with its teams, players, its forfeits and postponements, and every game with its
    board (seven queries)."""
    match = (
        Match.objects.select_related("week__season__league", "week__venue", "home", "away")
        .prefetch_related(
            "home__players",
            "away__players",
            Prefetch("forfeits", queryset=Forfeit.objects.select_related("team")),
            Prefetch("postponements", queryset=Postponement.objects.select_related("team")),
            Prefetch(
                "games",
                queryset=Game.objects.select_related("winner")
                .prefetch_related("seats__player")
                .order_by("number"),
            ),
        )
        .get(pk=match_id)
    )
    games = list(match.games.all())
    backs = back_pegs(games)
    rows = []
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.seat)
        rows.append(
            {
                "game": game,
                "seats": [s.player.name for s in seats],
                "board": game_board(
                    game, back=backs[game.pk], home=match.home.name, away=match.away.name
                ),
            }
        )
    home_won, away_won = match_tally(match)
    return {
        "match": match,
        "games": rows,
        "home_won": home_won,
        "away_won": away_won,
        "home_players": list(match.home.players.all()),
        "away_players": list(match.away.players.all()),
        "skunk_line": skunk_line(match.week.season),
        "forfeit": next((f for f in match.forfeits.all() if f.undone_at is None), None),
        "postponement": next((p for p in match.postponements.all() if p.status == "asked"), None),
    }


def pick_current_week(weeks: Sequence[Week], today: Any) -> Week | None:
    """The week whose date is ``today`` or the latest before it; else the next one to come.
    Weeks without a date are placed by play: the latest with a game started (``started``, see
    :func:`_with_started`), else the first. Pure: the weeks are already read."""
    dated = [w for w in weeks if w.date is not None]
    if dated:
        past = [w for w in dated if w.date <= today]
        if past:
            return max(past, key=lambda w: (w.date, w.number))
        return min(dated, key=lambda w: (w.date, w.number))
    started = [w for w in weeks if getattr(w, "started", False)]
    if started:
        return max(started, key=lambda w: w.number)
    return min(weeks, key=lambda w: w.number, default=None)


def _by_date(weeks: QuerySet[Week], today: dt.date) -> Week | None:
    """:func:`pick_current_week` of these weeks, read in one query."""
    return pick_current_week(list(_with_started(weeks)), today)


def current_week_at(venue_id: int, *, today: dt.date) -> Week | None:
    """The week a venue's TV shows: the venue's week by date (today's, or the latest before
    it), running seasons first (a next season prepared meanwhile never takes the TV), then
    any season but a draft. Several leagues at one venue: the one playing by date."""
    weeks = Week.objects.filter(venue_id=venue_id).exclude(season__state=SeasonState.DRAFT)
    running = weeks.filter(season__in=Season.objects.running(today).values("pk"))
    return _by_date(running, today) if running.exists() else _by_date(weeks, today)


def current_week(season: Season, *, today: dt.date) -> Week | None:
    """The week being played by date: today's, or the latest before today (the first week
    before the season starts). An early game of next week does not move it."""
    return _by_date(Week.objects.filter(season=season).select_related("venue"), today)


def my_open_matches(user: Actor, seasons: list[Season], *, today: dt.date) -> list[Match]:
    """Every match of the signed-in player's teams in these seasons that is not over (a game
    left to play or a result not yet confirmed), up to this week, whatever the week; none for
    a visitor. One query."""
    if not getattr(user, "is_authenticated", False) or not seasons:
        return []
    matches = (
        Match.objects.filter(week__season__in=seasons)
        .filter(Q(home__players__user=user) | Q(away__players__user=user))
        .filter(Q(week__date__lte=today) | Q(week__date__isnull=True) | Q(games__isnull=False))
        .filter(week__cancelled_reason="")  # nothing is played until the night is moved
        .select_related("home", "away", "week__season")
        .prefetch_related(Prefetch("games", queryset=Game.objects.exclude(status=GameStatus.VOID)))
        .distinct()
        .order_by("week__season_id", "week__number", "table")
    )
    out = []
    for match in matches:
        games = list(match.games.all())
        season = match.week.season
        wanted = season.playoff_games_per_match if match.playoff_round else season.games_per_match
        left = OpenGames(
            to_play=max(wanted - len(games), 0),
            under_way=sum(g.status == GameStatus.IN_PROGRESS for g in games),
            to_confirm=sum(g.status == GameStatus.FINISHED for g in games),
            disputed=sum(g.status == GameStatus.DISPUTED for g in games),
        )
        if any(left):
            match.left = left  # type: ignore[attr-defined]
            out.append(match)
    return out


class OpenGames(NamedTuple):
    """What keeps a match open, as the home page tells its captains: games not yet started,
    games being played, games finished and waiting for a team to confirm, disputed games."""

    to_play: int
    under_way: int
    to_confirm: int
    disputed: int
