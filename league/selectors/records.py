"""Records across seasons, computed from the stored games and deals (nothing is stored for
them): head-to-head between two teams or two players, the roll of honour, the special hands
(24, 28, 29 and four of a kind, from deals entered with their cards), skunks given and taken
(the Skunk King), winning streaks and lifetime milestones.

What counts: confirmed games played at the table (a forfeit's awarded games are left out: no
cards were played), in seasons the public sees (no draft, none an import is still writing).
A team is the same team across seasons when it keeps its name in the same league: a team row
belongs to one season, so its record against another team gathers every season's rows of the
two names. Games run in the order they were played (the match's date, else its night's).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
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


@dataclass
class Played:
    """One game and who sat where (seat -> (player id, name))."""

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


def played(season: Season | None = None) -> list[Played]:
    """Every game records count (of ``season`` only, if given), with its seats: two queries."""
    games = public_games()
    if season is not None:
        games = games.filter(match__week__season=season)
    return _played(games)


def _team_key(team: Team) -> tuple[int, str]:
    return team.season.league_id, team.name


def _player_games(rows: Iterable[Played]) -> Iterable[tuple[Played, int, str, int]]:
    """(game, player id, name, team id) for every seat of ``rows``."""
    for row in rows:
        for seat, (player_id, name) in sorted(row.seats.items()):
            yield row, player_id, name, row.team_for_side(row.side_of(seat)).pk


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


def _same_teams(team: Team) -> QuerySet[Team]:
    return Team.objects.filter(season__league_id=team.season.league_id, name=team.name)


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
    """Every team ``team``'s name has met in its league, most games first (one query): the
    other team's latest row (``team``, for its link) and the games played."""
    ours = _same_teams(team).values("pk")
    games = public_games().filter(Q(match__home__in=ours) | Q(match__away__in=ours))
    met: dict[str, dict[str, Any]] = {}
    for game in games:
        home, away = game.match.home, game.match.away
        other = away if home.name == team.name else home
        row = met.setdefault(other.name, {"team": other, "games": 0})
        row["team"] = other  # the latest season's row
        row["games"] += 1
    return sorted(met.values(), key=lambda r: (-r["games"], r["team"].name))


def player_opponents(player: Player) -> list[dict[str, Any]]:
    """Every player ``player`` has sat against, most games first (two queries)."""
    met: dict[int, dict[str, Any]] = {}
    for row in _played(public_games().filter(seats__player=player)):
        mine = next(s for s, (pk, _name) in row.seats.items() if pk == player.pk)
        for seat, (pk, name) in row.seats.items():
            if row.side_of(seat) != row.side_of(mine):
                entry = met.setdefault(pk, {"player": {"pk": pk, "name": name}, "games": 0})
                entry["games"] += 1
    return sorted(met.values(), key=lambda r: (-r["games"], r["player"]["name"]))


def head_to_head_choices() -> dict[str, Any]:
    """Who the picker offers (two queries): every player who sat in a game records count,
    and every team name of each league (its latest season's row), by league."""
    games = public_games().order_by().values("pk")
    players = Player.objects.filter(seats__game__in=games).distinct().order_by("name")
    teams: dict[tuple[int, str], Team] = {}
    for team in (
        Team.objects.filter(season__in=public_seasons())
        .select_related("season__league")
        .order_by("season__league__name", "name", "season_id")
    ):
        teams[_team_key(team)] = team
    return {"players": list(players.only("pk", "name")), "teams": list(teams.values())}


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


# --- Special hands ---------------------------------------------------------------------------


def special_hand_records(season: Season | None = None) -> list[dict[str, Any]]:
    """Every 24, 28 and 29 hand or crib and every four of a kind, in the deals entered with
    their cards (``contest.special_hands``, counted by the scorer), best first, then oldest
    first: who held it, the game it came in, the cards (two queries)."""
    games = public_games()
    if season is not None:
        games = games.filter(match__week__season=season)
    ids = games.order_by().values("pk")
    deals = (
        Deal.objects.filter(game__in=ids, is_current=True, cards__isnull=False)
        .exclude(starter="")
        .select_related(
            "game__match__week__season__league", "game__match__home", "game__match__away"
        )
        .annotate(when=Coalesce("game__match__date", "game__match__week__date"))
        .order_by(F("when").asc(nulls_last=True), "game_id", "number")
    )
    names = {
        (game_id, seat): (pk, name)
        for game_id, seat, pk, name in GameSeat.objects.filter(game__in=ids).values_list(
            "game_id", "seat", "player_id", "player__name"
        )
    }
    found = []
    for deal in deals:
        shape = {"dealer": deal.dealer, "starter": deal.starter, "cards": deal.cards}
        for hand in special_hands([shape]):
            player_id, name = names.get((deal.game_id, hand.seat), (None, ""))
            who = "crib" if hand.crib else str(hand.seat)
            found.append(
                {
                    "game": deal.game,
                    "season": deal.game.match.week.season,
                    "when": deal.when,  # type: ignore[attr-defined]
                    "deal": deal.number,
                    "player": {"pk": player_id, "name": name},
                    "crib": hand.crib,
                    "points": hand.points,
                    "kinds": hand.kinds,
                    "cards": (deal.cards or {}).get(who, []),
                    "starter": deal.starter,
                }
            )
    return sorted(found, key=lambda h: -h["points"])


# --- Skunks ----------------------------------------------------------------------------------


@dataclass
class SkunkLine:
    """A player's or team's skunks: ``given`` and ``taken`` (doubles included), and doubles."""

    name: str
    link: int  # the player's id, or the team's latest row's
    given: int = 0
    taken: int = 0
    doubles_given: int = 0


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


def skunk_records(rows: list[Played]) -> dict[str, Any]:
    """Skunks given and taken per player and per team (in ``rows``' games), the Skunk King of
    all the games and of each season (newest first). No query."""
    players: dict[int, SkunkLine] = {}
    teams: dict[tuple[int, str], SkunkLine] = {}
    seasons: dict[int, tuple[Season, dict[int, SkunkLine]]] = {}
    for row, player_id, name, team_id in _player_games(rows):
        won = row.game.winner_id == team_id
        level = row.game.skunk_level
        _skunk(players.setdefault(player_id, SkunkLine(name, player_id)), won=won, level=level)
        per = seasons.setdefault(row.season.pk, (row.season, {}))[1]
        _skunk(per.setdefault(player_id, SkunkLine(name, player_id)), won=won, level=level)
    for row in rows:
        for team in (row.game.match.home, row.game.match.away):
            key = (row.season.league_id, team.name)
            line = teams.setdefault(key, SkunkLine(team.name, team.pk))
            line.link = team.pk
            _skunk(line, won=row.game.winner_id == team.pk, level=row.game.skunk_level)
    ranked_players = _ranked(players.values())
    return {
        "players": ranked_players,
        "teams": _ranked(teams.values()),
        "king": _kings(ranked_players),
        "season_kings": [
            {"season": season, "kings": _kings(_ranked(lines.values()))}
            for season, lines in sorted(seasons.values(), key=lambda s: -s[0].pk)
        ],
    }


# --- Streaks and milestones ------------------------------------------------------------------


def _streak(name: str, link: int, games: list[tuple[Played, bool]]) -> dict[str, Any] | None:
    run = maths.longest_run([won for _row, won in games])
    if not run.length:
        return None
    return {
        "name": name,
        "link": link,
        "length": run.length,
        "first": games[run.first][0].game,
        "last": games[run.last][0].game,
    }


def _by_length(streaks: Iterable[dict[str, Any] | None]) -> list[dict[str, Any]]:
    return sorted((s for s in streaks if s), key=lambda s: (-s["length"], -s["last"].pk, s["name"]))


def _weeks(games: list[tuple[Played, bool]]) -> list[tuple[Played, bool]]:
    """A team's regular-season weeks whose match is over (every game played), in order, each
    with its last game and whether the team won more games than it lost that week."""
    weeks: dict[int, list[tuple[Played, bool]]] = {}
    for row, won in games:
        week = row.game.match.week
        if not week.is_playoff:
            weeks.setdefault(week.pk, []).append((row, won))
    out = []
    for played_week in weeks.values():
        if len(played_week) < played_week[0][0].season.games_per_match:
            continue  # the match is not over (or was forfeited in part): not a week won or lost
        balance = sum(1 if won else -1 for _row, won in played_week)
        out.append((played_week[-1][0], balance > 0))
    return out


def streak_records(rows: list[Played]) -> dict[str, Any]:
    """The longest winning streaks in ``rows``' games: of games per player and per team, and
    of weeks won per team (a week is won when the team won more of its match's games than it
    lost; a week whose match is not over, or was forfeited, neither extends nor breaks a
    streak). Longest first. No query."""
    players: dict[int, tuple[str, list[tuple[Played, bool]]]] = {}
    for row, player_id, name, team_id in _player_games(rows):
        players.setdefault(player_id, (name, []))[1].append((row, row.game.winner_id == team_id))
    teams: dict[tuple[int, str], tuple[list[Team], list[tuple[Played, bool]]]] = {}
    for row in rows:
        for team in (row.game.match.home, row.game.match.away):
            entry = teams.setdefault((row.season.league_id, team.name), ([], []))
            entry[0].append(team)
            entry[1].append((row, row.game.winner_id == team.pk))
    return {
        "players": _by_length(_streak(n, pk, games) for pk, (n, games) in players.items()),
        "teams": _by_length(_streak(ts[-1].name, ts[-1].pk, games) for ts, games in teams.values()),
        "weeks": _by_length(
            _streak(ts[-1].name, ts[-1].pk, _weeks(games)) for ts, games in teams.values()
        ),
    }


def streaks_and_milestones(season: Season | None = None) -> dict[str, Any]:
    """The streaks of ``season``'s games (of every game without one) and the milestones
    reached in them, each career counted from its start (two queries)."""
    every = played()
    rows = [r for r in every if r.season.pk == season.pk] if season else every
    return {"streaks": streak_records(rows), "milestones": milestone_records(every, season)}


def milestone_records(rows: list[Played], season: Season | None = None) -> list[dict[str, Any]]:
    """The lifetime milestones (``contest.records.MILESTONES``: games played, games won,
    points scored) each player reached in ``rows``' games, the latest first, each with the
    game that reached it; with ``season``, only those reached in it (``rows`` must then hold
    every game, so a career counts from its start). No query."""
    careers: dict[int, tuple[str, list[tuple[Played, int, bool]]]] = defaultdict(lambda: ("", []))
    for row, player_id, name, team_id in _player_games(rows):
        scored, _conceded = row.score_of(team_id)
        games = careers[player_id][1]
        careers[player_id] = (name, games)
        games.append((row, scored, row.game.winner_id == team_id))
    position = {row.game.pk: i for i, row in enumerate(rows)}
    found = []
    for player_id, (name, games) in careers.items():
        reached = maths.milestones([g[1] for g in games], wins=[g[2] for g in games])
        for milestone in reached:
            row = games[milestone.index][0]
            if season is not None and row.season.pk != season.pk:
                continue
            found.append(
                {
                    "player": {"pk": player_id, "name": name},
                    "kind": milestone.kind,
                    "at": milestone.at,
                    "game": row.game,
                    "season": row.season,
                    "when": row.game.match.when,
                    "order": position[row.game.pk],
                }
            )
    return sorted(found, key=lambda m: (-m["order"], -m["at"], m["player"]["name"]))
