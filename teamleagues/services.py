"""Writes of a team league, each one transaction with one shape: check who asks and the state
(a sentence a captain at the bar understands), lock, change, write the audit entry.

Semantics chosen where the published rules are silent:

- A forfeited board gives the other side the board and the legs it takes to win it (a
  majority when the board is the best of its legs, else every leg).
- A leg's entry is each captain's: the leg stands when both agree (winner and loser's score),
  or when an organiser settles a disagreement. A captain may change their own entry until the
  leg stands.
- Names: "same pair all night" names a board (both sides) before its first leg; "names in before
  the match" names every board before any leg. A board's names stay once a leg is entered.
- A player plays at most one board of each kind (singles, pairs) in a match.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from contest import teamleague as tl
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, Locked, NotAllowed, ValidationFailed
from league.kernel.permissions import Actor, Trusted, is_league_admin
from league.shared import Player
from teamleagues import roles, selectors
from teamleagues.models import (
    Board,
    BoardPlayer,
    Division,
    Entry,
    EntryMode,
    Fixture,
    FormatBoard,
    Kind,
    Leg,
    LegState,
    MatchFormat,
    Member,
    Naming,
    SeasonState,
    Side,
    Team,
    TeamLeague,
    TeamSeason,
    Variant,
)

MIN_TEAM, MAX_TEAM = 2, 10


def must_organise(user: Actor, league: TeamLeague) -> None:
    if not roles.is_organiser(user, league):
        raise NotAllowed(_("Only the league's organisers do this."))


# -- A league and its format -------------------------------------------------------------------

FORMAT_FIELDS = (
    "team_size",
    "reserves",
    "legs_per_board",
    "best_of",
    "target",
    "points_per_leg",
    "points_per_board",
    "points_win",
    "points_draw",
    "decided_by",
    "naming",
    "entry_mode",
)


def _check_format(settings: Mapping[str, Any], boards: Sequence[tuple[str, str]]) -> None:
    size = settings.get("team_size", 10)
    if not MIN_TEAM <= size <= MAX_TEAM:
        raise ValidationFailed(
            _("A team plays %(min)s to %(max)s players a match.")
            % {"min": MIN_TEAM, "max": MAX_TEAM},
            field="team_size",
        )
    if not boards:
        raise ValidationFailed(_("A match needs at least one board."), field="boards")
    for kind, variant in boards:
        if kind not in Kind.values or variant not in Variant.values:
            raise ValidationFailed(
                _("Each board is singles or pairs, six-card or five-card."), field="boards"
            )
    kinds = {k: sum(1 for b, _v in boards if b == k) for k in Kind.values}
    if kinds[Kind.PAIRS] * 2 > size or kinds[Kind.SINGLES] > size:
        raise ValidationFailed(
            _(
                "%(n)s players a side cannot fill these boards "
                "(a player plays one board of each kind)."
            )
            % {"n": size},
            field="team_size",
        )
    legs = settings.get("legs_per_board", 3)
    if not 1 <= legs <= 15:
        raise ValidationFailed(_("A board has 1 to 15 legs."), field="legs_per_board")
    target = settings.get("target", 121)
    if target not in (61, 121):
        raise ValidationFailed(_("A leg is played to 61 or 121."), field="target")
    if settings.get("entry_mode", EntryMode.LEG_RESULT) != EntryMode.LEG_RESULT:
        raise ValidationFailed(
            _(
                "Team leagues take each leg's result for now: "
                "deal-by-deal entry is not offered yet."
            ),
            field="entry_mode",
        )


def league_set(
    *,
    user: Actor,
    name: str,
    boards: Sequence[tuple[str, str]],
    organisers: Sequence[Any] = (),
    league: TeamLeague | None = None,
    feeds: TeamLeague | None = None,
    **settings: Any,
) -> TeamLeague:
    """Create a team league with its match format, or change an existing one's format
    (refused once a fixture has a leg: the results were played under it)."""
    name = name.strip()
    if not name:
        raise ValidationFailed(_("Give the league a name."), field="name")
    unknown = set(settings) - set(FORMAT_FIELDS)
    if unknown:
        raise ValidationFailed(
            _("Unknown setting: %(names)s.") % {"names": ", ".join(sorted(unknown))}
        )
    if league is None:
        if not _may_create(user):
            raise NotAllowed(_("Only the site's league admins start a team league."))
    else:
        must_organise(user, league)
    _check_format(settings, boards)
    with transaction.atomic():
        if league is None:
            if TeamLeague.objects.filter(name=name).exists():
                raise Conflict(_("A team league already has that name."), field="name")
            league = TeamLeague.objects.create(name=name)
            fmt = MatchFormat(league=league)
            before = None
        else:
            league = TeamLeague.objects.select_for_update().get(pk=league.pk)
            if Leg.objects.filter(board__fixture__season__league=league).exists():
                raise Locked(_("Matches were played under this format: it stays as it is."))
            fmt = league.format
            before = {f: getattr(fmt, f) for f in FORMAT_FIELDS}
            if league.name != name:
                league.name = name
                league.save(update_fields=["name"])
        for key, value in settings.items():
            setattr(fmt, key, value)
        fmt.save()
        FormatBoard.objects.filter(format=fmt).delete()
        FormatBoard.objects.bulk_create(
            FormatBoard(format=fmt, number=i, kind=k, variant=v)
            for i, (k, v) in enumerate(boards, start=1)
        )
        if before is not None:
            # Nothing is played yet: the open seasons' fixtures take the new boards (their
            # captains name them again).
            fixtures = list(
                Fixture.objects.filter(season__league=league, season__state=SeasonState.OPEN)
            )
            Board.objects.filter(fixture__in=fixtures).delete()
            make_boards(fixtures, fmt)
        if organisers:
            league.organisers.add(*organisers)
        if feeds is not None and league.feeds_id != feeds.pk:
            if feeds.pk == league.pk:
                raise ValidationFailed(_("A league does not qualify into itself."), field="feeds")
            league.feeds = feeds
            league.save(update_fields=["feeds"])
        audit_log(
            actor=user,
            action=AuditAction.TEAM_LEAGUE_SET,
            obj=league,
            before=before,
            after={
                **{f: getattr(fmt, f) for f in FORMAT_FIELDS},
                "boards": [list(b) for b in boards],
            },
        )
    return league


def _may_create(user: Actor) -> bool:
    return isinstance(user, Trusted) or bool(
        getattr(user, "is_authenticated", False) and is_league_admin(user)
    )


def team_set(
    *,
    user: Actor,
    league: TeamLeague,
    name: str,
    captain: Player,
    players: Sequence[Player],
    reserves: Sequence[Player] = (),
    venue: str = "",
    team: Team | None = None,
) -> Team:
    """A team and its list: the captain, its players and reserves (the captain plays for it)."""
    must_organise(user, league)
    name = name.strip()
    if not name:
        raise ValidationFailed(_("Give the team a name."), field="name")
    fmt = league.format
    listed = [*players, *reserves]
    if len({p.pk for p in listed}) != len(listed):
        raise ValidationFailed(_("A player is on the list twice."), field="players")
    if captain.pk not in {p.pk for p in listed}:
        raise ValidationFailed(_("The captain must be on the team's list."), field="captain")
    if len(reserves) > fmt.reserves:
        raise ValidationFailed(
            _("A team lists at most %(n)s reserves.") % {"n": fmt.reserves}, field="reserves"
        )
    with transaction.atomic():
        clash = Team.objects.filter(league=league, name=name)
        if team is not None:
            clash = clash.exclude(pk=team.pk)
        if clash.exists():
            raise Conflict(_("The league already has a team of that name."), field="name")
        if team is None:
            team = Team.objects.create(league=league, name=name, venue=venue, captain=captain)
        else:
            team = Team.objects.select_for_update().get(pk=team.pk)
            team.name, team.venue, team.captain = name, venue, captain
            team.save()
            Member.objects.filter(team=team).delete()
        Member.objects.bulk_create(
            [Member(team=team, player=p) for p in players]
            + [Member(team=team, player=p, reserve=True) for p in reserves]
        )
        audit_log(
            actor=user,
            action=AuditAction.TEAM_SET,
            obj=team,
            after={
                "captain": captain.name,
                "players": [p.name for p in players],
                "reserves": [p.name for p in reserves],
            },
        )
    return team


# -- A season, its divisions and fixtures ------------------------------------------------------


def season_create(
    *,
    user: Actor,
    league: TeamLeague,
    name: str,
    divisions: Sequence[tuple[str, Sequence[Team]]],
    promoted: int = 2,
    relegated: int = 2,
    playoffs: bool = False,
    tiebreaks: Sequence[str] = tl.DEFAULT_TEAM_TIEBREAKS,
    draw_seed: int = 0,
    previous: TeamSeason | None = None,
) -> TeamSeason:
    """A season with its divisions (top first) and the teams in each."""
    must_organise(user, league)
    name = name.strip()
    if not name:
        raise ValidationFailed(_("Give the season a name."), field="name")
    if not divisions:
        raise ValidationFailed(_("A season needs at least one division."), field="divisions")
    try:
        tl.team_chain(tiebreaks)
    except ValueError:
        raise ValidationFailed(
            _("Unknown tie-break: choose from %(known)s.") % {"known": ", ".join(tl.TEAM_METRICS)},
            field="tiebreaks",
        ) from None
    seen: set[int] = set()
    for div_name, teams in divisions:
        if len(teams) < 2:
            raise ValidationFailed(
                _("Division %(name)s needs at least two teams.") % {"name": div_name},
                field="divisions",
            )
        for t in teams:
            if t.league_id != league.pk:
                raise ValidationFailed(
                    _("%(team)s is not a team of this league.") % {"team": t.name}
                )
            if t.pk in seen:
                raise ValidationFailed(
                    _("%(team)s is in two divisions.") % {"team": t.name}, field="divisions"
                )
            seen.add(t.pk)
        if promoted >= len(teams) or relegated >= len(teams):
            raise ValidationFailed(
                _("More teams would go up or down than division %(name)s holds.")
                % {"name": div_name},
                field="promoted",
            )
    with transaction.atomic():
        TeamLeague.objects.select_for_update().filter(pk=league.pk).first()
        if TeamSeason.objects.filter(league=league, name=name).exists():
            raise Conflict(_("The league already has a season of that name."), field="name")
        season = TeamSeason.objects.create(
            league=league,
            name=name,
            promoted=promoted,
            relegated=relegated,
            playoffs=playoffs,
            tiebreaks=list(tiebreaks),
            draw_seed=draw_seed,
            previous=previous,
        )
        for level, (div_name, teams) in enumerate(divisions, start=1):
            division = Division.objects.create(season=season, name=div_name, level=level)
            Entry.objects.bulk_create(
                Entry(division=division, season=season, team=t) for t in teams
            )
        audit_log(
            actor=user,
            action=AuditAction.TEAM_SEASON_CREATE,
            obj=season,
            after={"divisions": [[d, [t.name for t in ts]] for d, ts in divisions]},
        )
    return season


def make_boards(fixtures: Sequence[Fixture], fmt: MatchFormat) -> None:
    layout = list(fmt.boards.order_by("number"))
    Board.objects.bulk_create(
        Board(fixture=f, number=b.number, kind=b.kind, variant=b.variant)
        for f in fixtures
        for b in layout
    )


def fixtures_make(
    *, user: Actor, division: Division, first: date, days_between: int = 7
) -> list[Fixture]:
    """Home and away fixtures for ``division``: a double round robin, a round every
    ``days_between`` days from ``first``."""
    season = division.season
    must_organise(user, season.league)
    if days_between < 1:
        raise ValidationFailed(_("Rounds are at least a day apart."), field="days_between")
    with transaction.atomic():
        TeamSeason.objects.select_for_update().filter(pk=season.pk).first()
        if season.state != SeasonState.OPEN:
            raise Locked(_("This season is closed."))
        if Fixture.objects.filter(division=division).exists():
            raise Conflict(_("This division's fixtures are already made."))
        teams = [e.team for e in division.entries.select_related("team").order_by("team__name")]
        rounds = tl.double_round_robin(teams)
        fixtures = Fixture.objects.bulk_create(
            Fixture(
                division=division,
                season=season,
                round=r,
                home=home,
                away=away,
                date=first + timedelta(days=days_between * (r - 1)),
            )
            for r, pairs in enumerate(rounds, start=1)
            for home, away in pairs
        )
        make_boards(fixtures, season.league.format)
        audit_log(
            actor=user,
            action=AuditAction.TEAM_FIXTURES_MAKE,
            obj=division,
            after={"rounds": len(rounds), "fixtures": len(fixtures)},
        )
    return fixtures


def fixture_add(
    *,
    user: Actor,
    season: TeamSeason,
    home: Team,
    away: Team,
    division: Division | None = None,
    on: date | None = None,
    round_number: int = 1,
    playoff: bool = False,
) -> Fixture:
    """One fixture added by an organiser (a match rearranged, an archive's match), its boards
    from the format."""
    must_organise(user, season.league)
    if home.pk == away.pk:
        raise ValidationFailed(_("A team does not play itself."))
    with transaction.atomic():
        TeamSeason.objects.select_for_update().filter(pk=season.pk).first()
        if season.state != SeasonState.OPEN:
            raise Locked(_("This season is closed."))
        if division is not None:
            entered = set(division.entries.values_list("team_id", flat=True))
            if home.pk not in entered or away.pk not in entered:
                raise ValidationFailed(
                    _("Both teams play in %(division)s for this match to count in its table.")
                    % {"division": division.name}
                )
        fixture = Fixture.objects.create(
            season=season,
            division=division,
            home=home,
            away=away,
            date=on,
            round=round_number,
            playoff=playoff,
        )
        make_boards([fixture], season.league.format)
        audit_log(
            actor=user,
            action=AuditAction.TEAM_FIXTURES_MAKE,
            obj=fixture,
            after={"home": home.name, "away": away.name, "date": on.isoformat() if on else None},
        )
    return fixture


# -- At the table: names, legs, forfeits -------------------------------------------------------


def _side_for(user: Actor, fixture: Fixture, side: str | None) -> str:
    """The side ``user`` acts for: their own as captain; an organiser names the side."""
    mine = roles.captain_sides(user, fixture)
    if side is None:
        if len(mine) == 1:
            return mine[0]
        if roles.is_organiser(user, fixture.season.league):
            raise ValidationFailed(_("Say which side this is for."), field="side")
        raise NotAllowed(_("Only the two captains and the organisers enter this match."))
    if side not in Side.values:
        raise ValidationFailed(_("A side is home or away."), field="side")
    if side in mine or roles.is_organiser(user, fixture.season.league):
        return side
    raise NotAllowed(_("Only this side's captain or an organiser does this."))


def _locked_fixture(fixture: Fixture) -> Fixture:
    locked = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("season__league__format", "home", "away")
        .get(pk=fixture.pk)
    )
    if locked.season.state != SeasonState.OPEN:
        raise Locked(_("This season is closed: its matches stay as they are."))
    return locked


def boards_name(
    *,
    user: Actor,
    fixture: Fixture,
    names: Mapping[int, Sequence[Player]],
    side: str | None = None,
) -> Fixture:
    """A captain names their side's players on boards (board number -> players)."""
    side = _side_for(user, fixture, side)
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        fmt = fixture.season.league.format
        team = fixture.team_of(side)
        boards = {b.number: b for b in fixture.boards.all()}
        members = {m.player_id: m for m in Member.objects.filter(team=team)}
        started = set(
            Leg.objects.filter(board__fixture=fixture).values_list("board__number", flat=True)
        )
        if fmt.naming == Naming.BEFORE_MATCH and started:
            raise Locked(_("The names were in before the match: they stay as they are."))
        for number, players in names.items():
            board = boards.get(number)
            if board is None:
                raise ValidationFailed(_("This match has no board %(n)s.") % {"n": number})
            if board.forfeited_by:
                raise Locked(_("Board %(n)s was forfeited: nobody plays it.") % {"n": number})
            if number in started:
                raise Locked(_("Board %(n)s has a leg entered: its players stay.") % {"n": number})
            if len(players) != board.size:
                raise ValidationFailed(
                    _("Board %(n)s is %(kind)s: name %(size)s.")
                    % {"n": number, "kind": board.get_kind_display().lower(), "size": board.size}
                )
            for p in players:
                if p.pk not in members:
                    raise ValidationFailed(
                        _("%(player)s is not on the list of %(team)s.")
                        % {"player": p.name, "team": team.name}
                    )
            if len({p.pk for p in players}) != len(players):
                raise ValidationFailed(_("A pair is two different players."))
        # The whole side as it would stand: one board of each kind a player, the team's size.
        standing: dict[int, list[int]] = {}
        for bp in BoardPlayer.objects.filter(board__fixture=fixture, side=side).select_related(
            "board"
        ):
            standing.setdefault(bp.board.number, []).append(bp.player_id)
        for number, players in names.items():
            standing[number] = [p.pk for p in players]
        per_kind: dict[tuple[str, int], int] = {}
        for number, ids in standing.items():
            for pid in ids:
                key = (boards[number].kind, pid)
                if key in per_kind:
                    name = Player.objects.get(pk=pid).name
                    raise ValidationFailed(
                        _("%(player)s is on boards %(a)s and %(b)s: one %(kind)s board a player.")
                        % {
                            "player": name,
                            "a": per_kind[key],
                            "b": number,
                            "kind": boards[number].get_kind_display().lower(),
                        }
                    )
                per_kind[key] = number
        everyone = {pid for ids in standing.values() for pid in ids}
        if len(everyone) > fmt.team_size:
            raise ValidationFailed(_("A side plays at most %(n)s players.") % {"n": fmt.team_size})
        BoardPlayer.objects.filter(
            board__fixture=fixture, side=side, board__number__in=list(names)
        ).delete()
        BoardPlayer.objects.bulk_create(
            BoardPlayer(
                board=boards[number],
                side=side,
                player=p,
                reserve=members[p.pk].reserve,
            )
            for number, players in sorted(names.items())
            for p in players
        )
        audit_log(
            actor=user,
            action=AuditAction.TEAM_BOARDS_NAME,
            obj=fixture,
            after={
                "side": side,
                "boards": {str(n): [p.name for p in ps] for n, ps in names.items()},
            },
        )
    return fixture


def _reconcile(leg: Leg) -> None:
    if leg.state == LegState.SETTLED:
        return
    home = (leg.home_winner, leg.home_loser_score)
    away = (leg.away_winner, leg.away_loser_score)
    if not leg.home_winner or not leg.away_winner:
        leg.state, leg.winner, leg.loser_score = LegState.WAITING, "", None
    elif home == away:
        leg.state, leg.winner, leg.loser_score = LegState.AGREED, home[0], home[1]
    else:
        leg.state, leg.winner, leg.loser_score = LegState.DISAGREE, "", None


def _check_score(fmt: MatchFormat, winner: str, loser_score: int) -> None:
    if winner not in Side.values:
        raise ValidationFailed(_("Say who won the leg: home or away."), field="winner")
    if not 0 <= loser_score < fmt.target:
        raise ValidationFailed(
            _("The loser's score is from 0 to %(max)s.") % {"max": fmt.target - 1},
            field="loser_score",
        )


def leg_enter(
    *,
    user: Actor,
    fixture: Fixture,
    board: int,
    leg: int,
    winner: str,
    loser_score: int,
    side: str | None = None,
) -> Leg:
    """A captain's entry of a leg (winner, loser's score). It stands once the other captain's
    agrees; a different entry is kept beside it, and the captains (or an organiser) settle it."""
    return sheet_enter(
        user=user, fixture=fixture, legs=[(board, leg, winner, loser_score)], side=side
    )[0]


def sheet_enter(
    *,
    user: Actor,
    fixture: Fixture,
    legs: Sequence[tuple[int, int, str, int]],
    side: str | None = None,
) -> list[Leg]:
    """A captain's sheet: several legs (board, leg, winner, loser's score) entered at once, in
    their order, each checked as :func:`leg_enter` checks one; all stored or none."""
    side = _side_for(user, fixture, side)
    if not legs:
        raise ValidationFailed(_("The sheet has no leg."))
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        fmt = fixture.season.league.format
        rules = fmt.rules()
        boards = {b.number: b for b in fixture.boards.all()}
        named = set(
            BoardPlayer.objects.filter(board__fixture=fixture).values_list("board__number", "side")
        )
        stored: dict[tuple[int, int], Leg] = {
            (x.board.number, x.number): x
            for x in Leg.objects.select_for_update()
            .filter(board__fixture=fixture)
            .select_related("board")
        }
        if fmt.naming == Naming.BEFORE_MATCH:
            for b in boards.values():
                if b.forfeited_by:
                    continue
                if any((b.number, s) not in named for s in Side.values):
                    raise Locked(
                        _("Every board's names are in before the first leg: board %(n)s is not.")
                        % {"n": b.number}
                    )
        changed: list[Leg] = []
        for number, leg, winner, loser_score in legs:
            _check_score(fmt, winner, loser_score)
            the_board = boards.get(number)
            if the_board is None:
                raise ValidationFailed(_("This match has no board %(n)s.") % {"n": number})
            if the_board.forfeited_by:
                raise Locked(_("Board %(n)s was forfeited: nobody plays it.") % {"n": number})
            if any((number, s) not in named for s in Side.values):
                raise Locked(
                    _("Both captains name board %(n)s's players before its first leg.")
                    % {"n": number}
                )
            if not 1 <= leg <= fmt.legs_per_board:
                raise ValidationFailed(
                    _("A board has legs 1 to %(n)s.") % {"n": fmt.legs_per_board}, field="leg"
                )
            previous = stored.get((number, leg - 1))
            if (
                leg > 1
                and not (previous is not None and previous.stands)
                and not (previous is not None and getattr(previous, f"{side}_winner"))
            ):
                raise Locked(
                    _("Leg %(prev)s of board %(n)s comes before leg %(leg)s.")
                    % {"prev": leg - 1, "n": number, "leg": leg}
                )
            before_legs = [
                x.winner if x.stands else getattr(x, f"{side}_winner")
                for n in range(1, leg)
                if (x := stored.get((number, n))) is not None
            ]
            if tl.board_result(before_legs, rules=rules).over:  # type: ignore[arg-type]
                raise Locked(_("Board %(n)s is already decided.") % {"n": number})
            row = stored.get((number, leg)) or Leg(board=the_board, number=leg)
            if row.stands:
                raise Locked(
                    _("Leg %(leg)s of board %(n)s stands: ask an organiser to change it.")
                    % {"leg": leg, "n": number}
                )
            setattr(row, f"{side}_winner", winner)
            setattr(row, f"{side}_loser_score", loser_score)
            _reconcile(row)
            stored[(number, leg)] = row
            changed.append(row)
        for row in changed:
            row.save()
        audit_log(
            actor=user,
            action=AuditAction.TEAM_LEG_ENTER,
            obj=fixture,
            after={
                "side": side,
                "legs": [[b, n, w, s] for b, n, w, s in legs],
                "states": [r.state for r in changed],
            },
        )
    return changed


def leg_settle(*, user: Actor, leg: Leg, winner: str, loser_score: int, reason: str = "") -> Leg:
    """An organiser settles a leg (the captains disagree, or a standing leg was wrong)."""
    fixture = leg.board.fixture
    must_organise(user, fixture.season.league)
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        fmt = fixture.season.league.format
        _check_score(fmt, winner, loser_score)
        row = Leg.objects.select_for_update().get(pk=leg.pk)
        later = Leg.objects.filter(board=row.board, number__gt=row.number).exclude(
            home_winner="", away_winner=""
        )
        before = {"winner": row.winner, "loser": row.loser_score, "state": row.state}
        row.winner, row.loser_score, row.state = winner, loser_score, LegState.SETTLED
        row.save()
        if later.exists():
            # A changed leg may decide the board sooner: a leg past the decider no longer counts.
            rules = fmt.rules()
            legs = list(Leg.objects.filter(board=row.board).order_by("number"))
            winners: list[str] = []
            for x in legs:
                if tl.board_result(winners, rules=rules).over:  # type: ignore[arg-type]
                    x.delete()
                    continue
                if x.stands:
                    winners.append(x.winner)
        audit_log(
            actor=user,
            action=AuditAction.TEAM_LEG_SETTLE,
            obj=row,
            before=before,
            after={"winner": winner, "loser": loser_score},
            reason=reason,
        )
    return row


def board_forfeit(*, user: Actor, fixture: Fixture, board: int, side: str | None = None) -> Board:
    """A side cannot play a board: the other side takes it (its captain, or an organiser)."""
    side = _side_for(user, fixture, side)
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        the_board = fixture.boards.select_for_update().filter(number=board).first()
        if the_board is None:
            raise ValidationFailed(_("This match has no board %(n)s.") % {"n": board})
        if the_board.forfeited_by:
            raise Conflict(_("Board %(n)s is already forfeited.") % {"n": board})
        if Leg.objects.filter(board=the_board).exists():
            raise Locked(_("Board %(n)s has a leg entered: it is being played.") % {"n": board})
        the_board.forfeited_by = side
        the_board.save(update_fields=["forfeited_by"])
        BoardPlayer.objects.filter(board=the_board).delete()
        audit_log(
            actor=user,
            action=AuditAction.TEAM_BOARD_FORFEIT,
            obj=the_board,
            after={"side": side},
        )
    return the_board


def match_decide(*, user: Actor, fixture: Fixture, side: str, reason: str = "") -> Fixture:
    """An organiser puts a side through a knockout or play-off left level after every measure."""
    must_organise(user, fixture.season.league)
    if side not in Side.values:
        raise ValidationFailed(_("A side is home or away."), field="side")
    with transaction.atomic():
        fixture = _locked_fixture(fixture)
        if fixture.division_id is not None:
            raise Locked(_("A league match may be drawn: only a knockout is decided."))
        result = selectors.match_result(selectors.fixture_detail(fixture.pk))
        if not result.over:
            raise Locked(_("The match is not over yet."))
        if selectors.winner_of(Fixture(decided_for=""), result) is not None:
            raise Conflict(_("The match has a winner: nothing to decide."))
        fixture.decided_for = side
        fixture.save(update_fields=["decided_for"])
        audit_log(
            actor=user,
            action=AuditAction.TEAM_MATCH_DECIDE,
            obj=fixture,
            after={"side": side},
            reason=reason,
        )
    return fixture


# -- The season's end: play-offs, promotion and relegation -------------------------------------


def playoffs_make(*, user: Actor, season: TeamSeason, on: date | None = None) -> list[Fixture]:
    """The play-offs between neighbouring divisions once their matches are over: the team just
    above the drop at home to the team just below promotion; the winner plays in the upper
    division next season."""
    must_organise(user, season.league)
    if not season.playoffs:
        raise Locked(_("This season has no play-offs."))
    with transaction.atomic():
        TeamSeason.objects.select_for_update().get(pk=season.pk)
        if season.state != SeasonState.OPEN:
            raise Locked(_("This season is closed."))
        if Fixture.objects.filter(season=season, playoff=True).exists():
            raise Conflict(_("The play-offs are already made."))
        tables = selectors.division_tables(season)
        _all_played(tables)
        fixtures = []
        for upper, lower in itertools.pairwise(tables):
            above_drop = upper.rows[len(upper.rows) - season.relegated - 1]
            below_up = lower.rows[season.promoted]
            fixtures.append(
                Fixture.objects.create(
                    season=season,
                    home_id=above_drop.team_id,
                    away_id=below_up.team_id,
                    date=on,
                    playoff=True,
                )
            )
        make_boards(fixtures, season.league.format)
        audit_log(
            actor=user,
            action=AuditAction.TEAM_FIXTURES_MAKE,
            obj=season,
            after={"playoffs": len(fixtures)},
        )
    return fixtures


def _all_played(tables: Sequence[selectors.DivisionTable]) -> None:
    left = sum(t.to_play for t in tables)
    if left:
        raise Locked(
            _(
                "%(n)s matches are still to finish: every match is played "
                "(or its boards forfeited) before the season closes."
            )
            % {"n": left}
        )
    for t in tables:
        if len({r.position for r in t.rows}) != len(t.rows):
            level = [
                r.name for r in t.rows if sum(1 for x in t.rows if x.position == r.position) > 1
            ]
            raise Locked(
                _(
                    "%(teams)s are level after every tie-break in %(division)s: "
                    "add the draw to the season's tie-breaks."
                )
                % {"teams": ", ".join(level), "division": t.division.name}
            )


def season_close(*, user: Actor, season: TeamSeason, next_name: str) -> TeamSeason:
    """Close a season in one action: the final positions stored, the promoted and relegated
    (and the play-offs' winners) moved, and next season made with the same divisions, teams and
    settings (its fixtures made next, with their dates)."""
    must_organise(user, season.league)
    next_name = next_name.strip()
    if not next_name:
        raise ValidationFailed(_("Name next season."), field="next_name")
    with transaction.atomic():
        season = TeamSeason.objects.select_for_update().get(pk=season.pk)
        if season.state != SeasonState.OPEN:
            raise Locked(_("This season is already closed."))
        if TeamSeason.objects.filter(league=season.league, name=next_name).exists():
            raise Conflict(_("The league already has a season of that name."), field="next_name")
        tables = selectors.division_tables(season)
        _all_played(tables)
        swaps: list[tuple[int, int]] = []
        if season.playoffs and len(tables) > 1:
            playoffs = list(
                selectors.fixtures_with_play(Fixture.objects.filter(season=season, playoff=True))
            )
            if not playoffs:
                raise Locked(_("Make the play-offs before closing the season."))
            for f in playoffs:
                won = selectors.winner_of(f, selectors.match_result(f))
                if won is None:
                    raise Locked(_("A play-off has no winner yet: %(match)s.") % {"match": str(f)})
                if won == Side.AWAY:  # the lower division's team takes the upper place
                    swaps.append((f.away_id, f.home_id))
        finals = [[r.team_id for r in t.rows] for t in tables]
        movement = tl.promote_relegate(
            finals, up=season.promoted, down=season.relegated, swaps=swaps
        )
        entries = {e.team_id: e for e in Entry.objects.filter(season=season)}
        for t in tables:
            for r in t.rows:
                e = entries[r.team_id]
                e.position = r.position
                e.moved = (
                    "up"
                    if r.team_id in movement.promoted
                    else "down"
                    if r.team_id in movement.relegated
                    else ""
                )
        Entry.objects.bulk_update(list(entries.values()), ["position", "moved"])
        season.state = SeasonState.CLOSED
        season.save(update_fields=["state"])
        nxt = TeamSeason.objects.create(
            league=season.league,
            name=next_name,
            promoted=season.promoted,
            relegated=season.relegated,
            playoffs=season.playoffs,
            tiebreaks=season.tiebreaks,
            draw_seed=season.draw_seed,
            previous=season,
        )
        teams = {
            e.team_id: e.team for e in Entry.objects.filter(season=season).select_related("team")
        }
        for t, ids in zip(tables, movement.divisions, strict=True):
            division = Division.objects.create(
                season=nxt, name=t.division.name, level=t.division.level
            )
            Entry.objects.bulk_create(
                Entry(division=division, season=nxt, team=teams[i]) for i in ids
            )
        audit_log(
            actor=user,
            action=AuditAction.TEAM_SEASON_CLOSE,
            obj=season,
            after={
                "next": next_name,
                "promoted": [teams[i].name for i in movement.promoted],
                "relegated": [teams[i].name for i in movement.relegated],
                "divisions": [[teams[i].name for i in d] for d in movement.divisions],
            },
        )
    return nxt
