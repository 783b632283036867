"""Records across seasons, from the stored games and deals: head-to-head between two teams or
two players, the roll of honour, the special hands (24, 28, 29 and four of a kind, from deals
entered with their cards), skunks given and taken (the Skunk King), winning streaks and
lifetime milestones.

What counts: confirmed games played at the table (a forfeit's awarded games are left out: no
cards were played), in seasons the public sees (no draft, none an import is still writing).
A team is the same team across seasons when it keeps its name in the same league: a team row
belongs to one season, so its record against another team gathers every season's rows of the
two names. Games run in the order they were played (the match's date, else its night's).

The skunks, streaks, milestones and special hands of every game ever played are kept as
results count: :func:`records_compute` works them out from plain rows of the games (no model
instance per game), ``league.services.records`` stores them (``RecordsSnapshot``) and rebuilds
them when the public seasons' results versions move, and the ``*_shown`` readers here turn the
stored figures back into what the pages show, reading only the games they link to.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, Q, QuerySet
from django.db.models.functions import Coalesce

from contest import records as maths
from contest.special_hands import special_hands
from league.kernel.extensions import honour_sections
from league.models import Deal, Game, GameSeat, GameStatus, Player, Season, SeasonState, Team
from league.selectors.careers import season_champion
from league.selectors.unsettled import unsettled_by_season
from scoring.variants import VARIANTS

#: Bumped when the stored figures change shape: every snapshot of the old shape is rebuilt.
SHAPE = 1
ALL = "all"


def public_games() -> QuerySet[Game]:
    """The games records count, oldest first, with their match, teams, night and season."""
    return (
        Game.objects.filter(
            status=GameStatus.CONFIRMED,
            forfeit__isnull=True,
            match__week__season__importing=False,
        )
        .exclude(match__week__season__state=SeasonState.DRAFT)
        .select_related("match__week__season__league", "match__home", "match__away")
        .order_by(
            Coalesce("match__date", "match__week__date").asc(nulls_last=True),
            "match__week__season_id",
            "match__week__number",
            "match__table",
            "number",
            "pk",
        )
    )


def public_seasons() -> QuerySet[Season]:
    return Season.objects.exclude(state=SeasonState.DRAFT).filter(importing=False)


def scope_of(season: Season | int | None) -> str:
    """The stored scope of ``season``'s records (of every season's, without one)."""
    if season is None:
        return ALL
    return f"season:{season if isinstance(season, int) else season.pk}"


def records_fingerprint(seasons: Iterable[Season]) -> str:
    """What the stored records were computed from: the public ``seasons`` (every one of them)
    and their results versions, which move after every result's commit. No query."""
    marks = sorted((s.pk, s.results_version) for s in seasons)
    text = f"{SHAPE}:" + ",".join(f"{pk}.{version}" for pk, version in marks)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Played:
    """One game (a model instance, with its match) and who sat where (seat -> (player id,
    name)): what the head-to-head pages, bounded by two sides' games, are drawn from."""

    game: Game
    seats: dict[int, tuple[int, str]] = field(default_factory=dict)

    @property
    def season(self) -> Season:
        return self.game.match.week.season

    def side_of(self, seat: int) -> int:
        return self.season.game_variant.side_of(seat)

    def team_for_side(self, side: int) -> Team:
        return self.game.team_for_side(side)

    def score_of(self, team_id: int) -> tuple[int, int]:
        """(scored, conceded) of ``team_id`` in this game."""
        game = self.game
        if team_id == game.match.home_id:
            return game.home_score, game.away_score
        return game.away_score, game.home_score


def _played(games: QuerySet[Game]) -> list[Played]:
    """``games`` with their seats: two queries."""
    rows = [Played(game) for game in games]
    by_id = {row.game.pk: row for row in rows}
    if by_id:
        seated = GameSeat.objects.filter(game__in=games.order_by().values("pk")).values_list(
            "game_id", "seat", "player_id", "player__name"
        )
        for game_id, seat, player_id, name in seated:
            if game_id in by_id:
                by_id[game_id].seats[seat] = (player_id, name)
    return rows


def _same_teams(team: Team) -> QuerySet[Team]:
    return Team.objects.filter(season__league_id=team.season.league_id, name=team.name)


# --- Every game as plain values --------------------------------------------------------------

_ROW = (
    "pk",
    "home_side",
    "home_score",
    "away_score",
    "winner_id",
    "skunk_level",
    "match__week_id",
    "match__week__is_playoff",
    "match__week__season_id",
    "match__week__season__league_id",
    "match__week__season__games_per_match",
    "match__week__season__variant",
    "match__home_id",
    "match__home__name",
    "match__away_id",
    "match__away__name",
)


# The fields of ``Row`` the first eleven values of ``_ROW`` fill, in their order.
_ROW_FIELDS = (
    "pk",
    "home_side",
    "home_score",
    "away_score",
    "winner_id",
    "skunk_level",
    "week_id",
    "is_playoff",
    "season_id",
    "league_id",
    "games_per_match",
)


@dataclass(slots=True)
class Row:
    """One game records count, as the values the records need (no model instance)."""

    pk: int
    home_side: int
    home_score: int
    away_score: int
    winner_id: int | None
    skunk_level: int
    week_id: int
    is_playoff: bool
    season_id: int
    league_id: int
    games_per_match: int
    sides: int
    home: tuple[int, str]
    away: tuple[int, str]
    seats: dict[int, tuple[int, str]] = field(default_factory=dict)

    def team_of_seat(self, seat: int) -> int:
        side = seat % self.sides
        return self.home[0] if side == self.home_side else self.away[0]

    def scored_by(self, team_id: int) -> int:
        return self.home_score if team_id == self.home[0] else self.away_score


def game_rows(games: QuerySet[Game] | None = None) -> list[Row]:
    """Every game records count (of ``games``, some of them), oldest first, with its seats, as
    plain values (two queries)."""
    games = public_games() if games is None else games
    rows = []
    for v in games.values_list(*_ROW):
        sides = VARIANTS[v[11]].sides  # the variant's sides: which seats are partners
        plain = dict(zip(_ROW_FIELDS, v, strict=False))
        rows.append(Row(**plain, sides=sides, home=(v[12], v[13]), away=(v[14], v[15])))
    by_id = {row.pk: row for row in rows}
    if by_id:
        seated = GameSeat.objects.filter(game__in=games.order_by().values("pk")).values_list(
            "game_id", "seat", "player_id", "player__name"
        )
        for game_id, seat, player_id, name in seated:
            if game_id in by_id:
                by_id[game_id].seats[seat] = (player_id, name)
    return rows


def _player_games(rows: Iterable[Row]) -> Iterable[tuple[Row, int, str, int]]:
    """(game, player id, name, team id) for every seat of ``rows``."""
    for row in rows:
        for seat, (player_id, name) in sorted(row.seats.items()):
            yield row, player_id, name, row.team_of_seat(seat)


# --- Head to head ----------------------------------------------------------------------------


@dataclass
class Meeting:
    """The record of side ``a`` against side ``b``, in total and season by season, with the
    games (latest first)."""

    total: maths.HeadToHead = field(default_factory=maths.HeadToHead)
    seasons: list[tuple[Season, maths.HeadToHead]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)

    def add(self, row: Played, scored: int, conceded: int) -> None:
        game = row.game
        self.total.add(scored=scored, conceded=conceded, skunk_level=game.skunk_level)
        if not self.seasons or self.seasons[-1][0].pk != row.season.pk:
            self.seasons.append((row.season, maths.HeadToHead()))
        self.seasons[-1][1].add(scored=scored, conceded=conceded, skunk_level=game.skunk_level)
        self.games.insert(
            0,
            {
                "game": game,
                "season": row.season,
                "when": game.match.when,
                "scored": scored,
                "conceded": conceded,
                "won": scored > conceded,
                "skunk": game.skunk_level,
            },
        )


def team_head_to_head(a: Team, b: Team) -> Meeting:
    """``a``'s record against ``b`` over every season the two names met in ``a``'s league (one
    query; ``a`` and ``b`` read with their seasons)."""
    ours, theirs = _same_teams(a).values("pk"), _same_teams(b).values("pk")
    games = public_games().filter(
        Q(match__home__in=ours, match__away__in=theirs)
        | Q(match__home__in=theirs, match__away__in=ours)
    )
    meeting = Meeting()
    for game in games:
        row = Played(game)
        mine = game.match.home_id if game.match.home.name == a.name else game.match.away_id
        meeting.add(row, *row.score_of(mine))
    return meeting


def player_head_to_head(a: Player, b: Player) -> Meeting:
    """``a``'s record against ``b`` in every game they sat on opposite sides (two queries).
    Games they played as partners are not meetings: they are counted apart
    (``Meeting.games`` holds meetings only; the partners' count is on the page)."""
    games = public_games().filter(seats__player=a).filter(seats__player=b)
    meeting = Meeting()
    for row in _played(games):
        seat_of = {player_id: seat for seat, (player_id, _name) in row.seats.items()}
        side_a, side_b = row.side_of(seat_of[a.pk]), row.side_of(seat_of[b.pk])
        if side_a == side_b:
            continue
        meeting.add(row, *row.score_of(row.team_for_side(side_a).pk))
    return meeting


def team_opponents(team: Team) -> list[dict[str, Any]]:
    """Every team ``team``'s name has met in its league, most games first (one query, no
    model instance per game): the other team's latest row (``team``, its id and name, for its
    link) and the games played."""
    ours = _same_teams(team).values("pk")
    games = public_games().filter(Q(match__home__in=ours) | Q(match__away__in=ours))
    met: dict[str, dict[str, Any]] = {}
    sides = games.values_list(
        "match__home_id", "match__home__name", "match__away_id", "match__away__name"
    )
    for home_id, home_name, away_id, away_name in sides:
        other: dict[str, Any] = {"pk": away_id, "name": away_name}
        if home_name != team.name:
            other = {"pk": home_id, "name": home_name}
        row = met.setdefault(str(other["name"]), {"team": other, "games": 0})
        row["team"] = other  # the latest season's row
        row["games"] += 1
    return sorted(met.values(), key=lambda r: (-r["games"], r["team"]["name"]))


def player_opponents(player: Player) -> list[dict[str, Any]]:
    """Every player ``player`` has sat against, most games first (two queries, no model
    instance per game)."""
    met: dict[int, dict[str, Any]] = {}
    for row in game_rows(public_games().filter(seats__player=player)):
        mine = next(s for s, (pk, _name) in row.seats.items() if pk == player.pk)
        for seat, (pk, name) in row.seats.items():
            if seat % row.sides != mine % row.sides:
                entry = met.setdefault(pk, {"player": {"pk": pk, "name": name}, "games": 0})
                entry["games"] += 1
    return sorted(met.values(), key=lambda r: (-r["games"], r["player"]["name"]))


# --- The roll of honour ----------------------------------------------------------------------


def roll_of_honour() -> dict[str, Any]:
    """Every finished league season's champion, newest first per league (the playoff winner,
    or the first in the standings when the season had no playoff: ``how`` says which), and the
    sections the other competition adds (the tournaments: each club night's winner)."""
    seasons = list(
        public_seasons()
        .filter(state=SeasonState.FINISHED)
        .select_related("league")
        .order_by("league__name", "-id")
    )
    teams = {
        (t.season_id, t.name): t
        for t in Team.objects.filter(season__in=seasons).only("pk", "name", "season_id")
    }
    # A season finished with disputes open or games unconfirmed crowns a provisional champion.
    unsettled = unsettled_by_season([s.pk for s in seasons])
    rows = []
    for season in seasons:
        champion = season_champion(season)
        rows.append(
            {
                "season": season,
                "champion": champion,
                "team": teams.get((season.pk, champion["team"])) if champion else None,
                "provisional": season.pk in unsettled,
            }
        )
    return {"seasons": rows, "sections": honour_sections()}


# --- Skunks ----------------------------------------------------------------------------------


@dataclass
class SkunkLine:
    """A player's or team's skunks: ``given`` and ``taken`` (doubles included), and doubles."""

    name: str
    link: int  # the player's id, or the team's latest row's
    given: int = 0
    taken: int = 0
    doubles_given: int = 0

    def stored(self) -> list[Any]:
        return [self.name, self.link, self.given, self.taken, self.doubles_given]


def _skunk(line: SkunkLine, *, won: bool, level: int) -> None:
    if level < 1:
        return
    if won:
        line.given += 1
        line.doubles_given += level >= 2
    else:
        line.taken += 1


def _ranked(lines: Iterable[SkunkLine]) -> list[SkunkLine]:
    return sorted(
        (line for line in lines if line.given or line.taken),
        key=lambda line: (-line.given, line.taken, line.name),
    )


def _kings(lines: list[SkunkLine]) -> list[SkunkLine]:
    """The Skunk King: the most skunks given (everyone level with them)."""
    most = max((line.given for line in lines), default=0)
    return [line for line in lines if most and line.given == most]


def _skunks(rows: list[Row]) -> dict[str, Any]:
    """Skunks given and taken per player and per team (in ``rows``' games), ranked, and the
    Skunk Kings of each season (newest first), as stored. No query."""
    players: dict[int, SkunkLine] = {}
    teams: dict[tuple[int, str], SkunkLine] = {}
    seasons: dict[int, dict[int, SkunkLine]] = {}
    for row, player_id, name, team_id in _player_games(rows):
        won = row.winner_id == team_id
        level = row.skunk_level
        _skunk(players.setdefault(player_id, SkunkLine(name, player_id)), won=won, level=level)
        per = seasons.setdefault(row.season_id, {})
        _skunk(per.setdefault(player_id, SkunkLine(name, player_id)), won=won, level=level)
    for row in rows:
        for team_id, team_name in (row.home, row.away):
            line = teams.setdefault((row.league_id, team_name), SkunkLine(team_name, team_id))
            line.link = team_id
            _skunk(line, won=row.winner_id == team_id, level=row.skunk_level)
    return {
        "players": [line.stored() for line in _ranked(players.values())],
        "teams": [line.stored() for line in _ranked(teams.values())],
        "season_kings": [
            [season_id, [line.stored() for line in _kings(_ranked(lines.values()))]]
            for season_id, lines in sorted(seasons.items(), key=lambda s: -s[0])
        ],
    }


def skunks_shown(stored: Mapping[str, Any], seasons: Sequence[Season]) -> dict[str, Any]:
    """The stored skunks as the page and the command show them: every line, the Skunk King
    and each season's (``seasons``: the public seasons, read once by the caller). No query."""
    by_id = {s.pk: s for s in seasons}
    players = [SkunkLine(*line) for line in stored.get("players", [])]
    return {
        "players": players,
        "teams": [SkunkLine(*line) for line in stored.get("teams", [])],
        "king": _kings(players),
        "season_kings": [
            {"season": by_id[season_id], "kings": [SkunkLine(*line) for line in kings]}
            for season_id, kings in stored.get("season_kings", [])
            if season_id in by_id
        ],
    }


# --- Streaks and milestones ------------------------------------------------------------------


def _streak(name: str, link: int, games: list[tuple[Row, bool]]) -> list[Any] | None:
    run = maths.longest_run([won for _row, won in games])
    if not run.length:
        return None
    return [name, link, run.length, games[run.first][0].pk, games[run.last][0].pk]


def _by_length(streaks: Iterable[list[Any] | None]) -> list[list[Any]]:
    return sorted((s for s in streaks if s), key=lambda s: (-s[2], -s[4], s[0]))


def _weeks(games: list[tuple[Row, bool]]) -> list[tuple[Row, bool]]:
    """A team's regular-season weeks whose match is over (every game played), in order, each
    with its last game and whether the team won more games than it lost that week."""
    weeks: dict[int, list[tuple[Row, bool]]] = {}
    for row, won in games:
        if not row.is_playoff:
            weeks.setdefault(row.week_id, []).append((row, won))
    out = []
    for played_week in weeks.values():
        if len(played_week) < played_week[0][0].games_per_match:
            continue  # the match is not over (or was forfeited in part): not a week won or lost
        balance = sum(1 if won else -1 for _row, won in played_week)
        out.append((played_week[-1][0], balance > 0))
    return out


def _streaks(rows: list[Row]) -> dict[str, Any]:
    """The longest winning streaks in ``rows``' games: of games per player and per team, and
    of weeks won per team (a week is won when the team won more of its match's games than it
    lost; a week whose match is not over, or was forfeited, neither extends nor breaks a
    streak). Longest first, as stored. No query."""
    players: dict[int, tuple[str, list[tuple[Row, bool]]]] = {}
    for row, player_id, name, team_id in _player_games(rows):
        players.setdefault(player_id, (name, []))[1].append((row, row.winner_id == team_id))
    teams: dict[tuple[int, str], tuple[list[tuple[int, str]], list[tuple[Row, bool]]]] = {}
    for row in rows:
        for team in (row.home, row.away):
            entry = teams.setdefault((row.league_id, team[1]), ([], []))
            entry[0].append(team)
            entry[1].append((row, row.winner_id == team[0]))
    return {
        "players": _by_length(_streak(n, pk, games) for pk, (n, games) in players.items()),
        "teams": _by_length(_streak(ts[-1][1], ts[-1][0], games) for ts, games in teams.values()),
        "weeks": _by_length(
            _streak(ts[-1][1], ts[-1][0], _weeks(games)) for ts, games in teams.values()
        ),
    }


def _milestones(rows: list[Row]) -> list[list[Any]]:
    """The lifetime milestones (``contest.records.MILESTONES``: games played, games won,
    points scored) each player reached in ``rows`` (every game, so a career counts from its
    start), the latest first, each with the game that reached it, as stored. No query."""
    careers: dict[int, tuple[str, list[tuple[int, Row, int, bool]]]] = defaultdict(lambda: ("", []))
    for order, row in enumerate(rows):
        for seat, (player_id, name) in sorted(row.seats.items()):
            team_id = row.team_of_seat(seat)
            games = careers[player_id][1]
            careers[player_id] = (name, games)
            games.append((order, row, row.scored_by(team_id), row.winner_id == team_id))
    found = []
    for player_id, (name, games) in careers.items():
        reached = maths.milestones([g[2] for g in games], wins=[g[3] for g in games])
        for milestone in reached:
            order, row, _scored, _won = games[milestone.index]
            found.append(
                [player_id, name, milestone.kind, milestone.at, row.pk, row.season_id, order]
            )
    return sorted(found, key=lambda m: (-m[6], -m[3], m[1]))


def _games_for(ids: Iterable[int]) -> dict[int, Game]:
    """The games of ``ids`` with their match, teams, night and season (one query)."""
    wanted = set(ids)
    if not wanted:
        return {}
    return Game.objects.select_related(
        "match__week__season__league", "match__home", "match__away"
    ).in_bulk(wanted)


def _streaks_of(lines: Sequence[list[Any]], games: Mapping[int, Game]) -> list[dict[str, Any]]:
    return [
        {"name": name, "link": link, "length": length, "first": games[first], "last": games[last]}
        for name, link, length, first, last in lines
    ]


def streaks_shown(
    stored: Mapping[str, Any],
    milestones: Sequence[list[Any]],
    *,
    lines: int | None = None,
    milestones_shown: int | None = None,
) -> dict[str, Any]:
    """The stored streaks and milestones as the page shows them: the first ``lines`` of each
    list of streaks and the first ``milestones_shown`` milestones (every one without them),
    with the games they link to (one query)."""
    lists = {key: stored.get(key, [])[:lines] for key in ("players", "teams", "weeks")}
    milestones = list(milestones)[:milestones_shown]
    ids = [pk for kept in lists.values() for line in kept for pk in line[3:5]]
    games = _games_for([*ids, *(m[4] for m in milestones)])
    return {
        "streaks": {key: _streaks_of(kept, games) for key, kept in lists.items()},
        "milestones": [
            {
                "player": {"pk": player_id, "name": name},
                "kind": kind,
                "at": at,
                "game": games[game_id],
                "season": games[game_id].match.week.season,
                "when": games[game_id].match.when,
                "order": order,
            }
            for player_id, name, kind, at, game_id, _season_id, order in milestones
        ],
    }


# --- Special hands ---------------------------------------------------------------------------


def _hands(rows: list[Row]) -> list[dict[str, Any]]:
    """Every 24, 28 and 29 hand or crib and every four of a kind, in the deals entered with
    their cards (``contest.special_hands``, counted by the scorer), best first, then oldest
    first, as stored: who held it, the game it came in, the cards (one query)."""
    seats = {row.pk: row for row in rows}
    deals = (
        Deal.objects.filter(
            game__in=public_games().order_by().values("pk"), is_current=True, cards__isnull=False
        )
        .exclude(starter="")
        .annotate(when=Coalesce("game__match__date", "game__match__week__date"))
        .order_by(F("when").asc(nulls_last=True), "game_id", "number")
        .values_list("game_id", "number", "dealer", "starter", "cards")
    )
    found = []
    for game_id, number, dealer, starter, cards in deals:
        row = seats.get(game_id)
        if row is None:
            continue  # confirmed since the games were read: the next rebuild counts it
        shape = {"dealer": dealer, "starter": starter, "cards": cards}
        for hand in special_hands([shape]):
            player_id, name = row.seats.get(hand.seat, (None, ""))
            who = "crib" if hand.crib else str(hand.seat)
            found.append(
                {
                    "game": game_id,
                    "season": row.season_id,
                    "deal": number,
                    "player": {"pk": player_id, "name": name},
                    "crib": hand.crib,
                    "points": hand.points,
                    "kinds": list(hand.kinds),
                    "cards": (cards or {}).get(who, []),
                    "starter": starter,
                }
            )
    return sorted(found, key=lambda h: -h["points"])


def hands_shown(stored: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The stored special hands as the page shows them, with their games (one query)."""
    games = _games_for(h["game"] for h in stored)
    return [
        {
            **hand,
            "game": games[hand["game"]],
            "season": games[hand["game"]].match.week.season,
            "when": games[hand["game"]].match.when,
            "kinds": tuple(hand["kinds"]),
        }
        for hand in stored
    ]


# --- Who the head-to-head picker offers --------------------------------------------------------


def _picker_players() -> list[list[Any]]:
    """Every player who sat in a game records count, by name (one query)."""
    games = public_games().order_by().values("pk")
    players = Player.objects.filter(seats__game__in=games).distinct().order_by("name")
    return [[pk, name] for pk, name in players.values_list("pk", "name")]


def head_to_head_choices(players: Sequence[list[Any]]) -> dict[str, Any]:
    """Who the picker offers (one query, no model instance): ``players``, as stored (every
    player who sat in a game records count), and every team name of each league (its latest
    season's row), by league."""
    teams: dict[tuple[int, str], dict[str, Any]] = {}
    rows = (
        Team.objects.filter(season__in=public_seasons())
        .order_by("season__league__name", "name", "season_id")
        .values_list("pk", "name", "season__league_id", "season__league__name")
    )
    for pk, name, league_id, league_name in rows:
        season = {"league": {"pk": league_id, "name": league_name}}
        teams[(league_id, name)] = {"pk": pk, "name": name, "season": season}
    return {
        "players": [{"pk": pk, "name": name} for pk, name in players],
        "teams": list(teams.values()),
    }


# --- All of it, as results count -----------------------------------------------------------------


def records_compute(season_ids: Iterable[int]) -> dict[str, dict[str, Any]]:
    """Every stored figure of every scope: all seasons (``ALL``) and each of ``season_ids``
    (the public seasons), from plain rows of the games (four queries, no model instance per
    game). A season's streaks and skunks are of its games; its milestones are those reached
    in it, each career counted from its start; its hands are its games'."""
    rows = game_rows()
    by_season: dict[int, list[Row]] = {pk: [] for pk in season_ids}
    for row in rows:
        by_season.setdefault(row.season_id, []).append(row)
    milestones = _milestones(rows)
    hands = _hands(rows)
    out = {
        ALL: {
            "skunks": _skunks(rows),
            "streaks": _streaks(rows),
            "milestones": milestones,
            "hands": hands,
            "picker": _picker_players(),
        }
    }
    for season_id, season_rows in by_season.items():
        out[scope_of(season_id)] = {
            "skunks": _skunks(season_rows),
            "streaks": _streaks(season_rows),
            "milestones": [m for m in milestones if m[5] == season_id],
            "hands": [h for h in hands if h["season"] == season_id],
            "picker": [],
        }
    return out
