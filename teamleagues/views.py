"""The team leagues' pages: a league, a season's divisions and tables (with the organiser's
close-season action), a fixture where the captains name their boards and enter legs, a team's
history, a cup. Each press is one service call; a refusal's sentence is shown as a message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from contest import teamleague as tl
from league.kernel.errors import DomainError
from league.kernel.parsers import whole_number
from league.shared import Player
from teamleagues import cups, roles, selectors, services
from teamleagues.models import Cup, Fixture, Member, Side, Team, TeamLeague, TeamSeason

AVERAGES_SHOWN = 30  # the top of the averages on the season's page


def leagues(request: HttpRequest) -> HttpResponse:
    return render(request, "teamleagues/leagues.html", {"leagues": TeamLeague.objects.all()})


def league(request: HttpRequest, pk: int) -> HttpResponse:
    the_league = get_object_or_404(TeamLeague.objects.select_related("format"), pk=pk)
    seasons = list(the_league.seasons.order_by("-pk"))
    return render(
        request,
        "teamleagues/league.html",
        {
            "league": the_league,
            "format": the_league.format,
            "boards": list(the_league.format.boards.all()),
            "seasons": seasons,
            "teams": list(the_league.teams.select_related("captain")),
        },
    )


def season(request: HttpRequest, pk: int) -> HttpResponse:
    the_season = get_object_or_404(TeamSeason.objects.select_related("league__format"), pk=pk)
    tables = selectors.division_tables(the_season)
    fixtures = selectors.fixtures_of(the_season)
    by_division: dict[int | None, list[Fixture]] = {}
    for f in fixtures:
        by_division.setdefault(f.division_id, []).append(f)
    for t in tables:
        t.fixtures = by_division.get(t.division.pk, [])  # type: ignore[attr-defined]
        for row in t.rows:
            row.placed_name = _(tl.TEAM_METRICS[row.placed_by].placed) if row.placed_by else ""  # type: ignore[attr-defined]
    return render(
        request,
        "teamleagues/season.html",
        {
            "season": the_season,
            "league": the_season.league,
            "tables": tables,
            "chain": [_(tl.TEAM_METRICS[k].name) for k in (the_season.tiebreaks or [])],
            "cups": list(the_season.cups.all()),
            "organiser": roles.is_organiser(request.user, the_season.league),
            "playoffs": [f for f in by_division.get(None, []) if f.playoff],
            "averages": [a for a in selectors.averages(the_season) if a.legs][:AVERAGES_SHOWN],
        },
    )


@login_required
@require_POST
def season_close(request: HttpRequest, pk: int) -> HttpResponse:
    the_season = get_object_or_404(TeamSeason, pk=pk)
    try:
        nxt = services.season_close(
            user=request.user, season=the_season, next_name=request.POST.get("next_name", "")
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("teamleagues:season", pk=pk)
    messages.success(
        request,
        _("%(season)s is closed: the promoted and relegated teams are in %(next)s's divisions.")
        % {"season": the_season.name, "next": nxt.name},
    )
    return redirect("teamleagues:season", pk=nxt.pk)


def _board_rows(fixture: Fixture, my_side: str | None) -> list[dict[str, Any]]:
    rules = fixture.season.league.format.rules()
    rows = []
    for board in fixture.boards.all():
        players = list(board.players.all())
        result = selectors.board_result(board, rules)
        legs = list(board.legs.all())
        next_leg = None
        if my_side and not board.forfeited_by and not result.over:
            mine = [x for x in legs if getattr(x, f"{my_side}_winner") or x.stands]
            own = [x.winner if x.stands else getattr(x, f"{my_side}_winner") for x in mine]
            if not tl.board_result(own, rules=rules).over:  # type: ignore[arg-type]
                next_leg = len(mine) + 1
        rows.append(
            {
                "board": board,
                "home": [bp for bp in players if bp.side == Side.HOME],
                "away": [bp for bp in players if bp.side == Side.AWAY],
                "legs": legs,
                "result": result,
                "next_leg": next_leg,
                "named": {s for s in (bp.side for bp in players)},
            }
        )
    return rows


def fixture(request: HttpRequest, pk: int) -> HttpResponse:
    the_fixture = get_object_or_404(selectors.fixtures_with_play(Fixture.objects.all()), pk=pk)
    sides = roles.captain_sides(request.user, the_fixture)
    organiser = roles.is_organiser(request.user, the_fixture.season.league)
    my_side = sides[0] if sides else None
    if my_side is None and organiser and request.GET.get("side") in Side.values:
        my_side = request.GET["side"]
    rows = _board_rows(the_fixture, my_side)
    members: list[Member] = []
    if my_side:
        team = the_fixture.team_of(my_side)
        members = list(Member.objects.filter(team=team).select_related("player"))
        for row in rows:
            chosen = [bp.player_id for bp in row[my_side]]
            row["slots"] = [
                chosen[i] if i < len(chosen) else None for i in range(row["board"].size)
            ]
    return render(
        request,
        "teamleagues/fixture.html",
        {
            "fixture": the_fixture,
            "result": selectors.match_result(the_fixture),
            "rows": rows,
            "my_side": my_side,
            "organiser": organiser,
            "members": members,
            "open": the_fixture.season.state == "open",
        },
    )


def _side_param(request: HttpRequest) -> str | None:
    side = request.POST.get("side") or None
    return side if side in Side.values else None


@login_required
@require_POST
def fixture_names(request: HttpRequest, pk: int) -> HttpResponse:
    the_fixture = get_object_or_404(Fixture.objects.select_related("home", "away"), pk=pk)
    side = _side_param(request)
    names: dict[int, list[Player]] = {}
    wanted: dict[int, list[int]] = {}
    for key in request.POST:
        value = request.POST.get(key, "")
        if not key.startswith("b") or "_" not in key or not value:
            continue
        board_raw, _slot = key[1:].split("_", 1)
        if not (
            board_raw.isascii() and board_raw.isdigit() and value.isascii() and value.isdigit()
        ):
            continue
        wanted.setdefault(int(board_raw), []).append(int(value))
    found = Player.objects.in_bulk({pid for ids in wanted.values() for pid in ids})
    for number, ids in sorted(wanted.items()):
        if all(pid in found for pid in ids):
            names[number] = [found[pid] for pid in ids]
    after = f"?side={side}" if side else ""
    if not names:
        messages.error(request, _("Choose the players of at least one board."))
        return redirect(f"{the_fixture.get_absolute_url()}{after}")
    try:
        services.boards_name(user=request.user, fixture=the_fixture, names=names, side=side)
        messages.success(request, _("The names are in."))
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect(f"{the_fixture.get_absolute_url()}{after}")


@login_required
@require_POST
def fixture_leg(request: HttpRequest, pk: int) -> HttpResponse:
    the_fixture = get_object_or_404(Fixture.objects.select_related("home", "away"), pk=pk)
    side = _side_param(request)
    after = f"?side={side}" if side else ""
    try:
        message = _("Give the loser's score as a whole number.")
        board = whole_number(request.POST.get("board", ""), field="board", message=message)
        leg = whole_number(request.POST.get("leg", ""), field="leg", message=message)
        loser = whole_number(
            request.POST.get("loser_score", ""), field="loser_score", message=message
        )
        entered = services.leg_enter(
            user=request.user,
            fixture=the_fixture,
            board=board,
            leg=leg,
            winner=request.POST.get("winner", ""),
            loser_score=loser,
            side=side,
        )
        messages.success(
            request,
            _("Board %(board)s, leg %(leg)s: %(state)s.")
            % {"board": board, "leg": leg, "state": entered.get_state_display()},
        )
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect(f"{the_fixture.get_absolute_url()}{after}")


@login_required
@require_POST
def fixture_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    the_fixture = get_object_or_404(Fixture.objects.select_related("home", "away"), pk=pk)
    side = _side_param(request)
    after = f"?side={side}" if side else ""
    try:
        board = whole_number(
            request.POST.get("board", ""), field="board", message=_("Choose a board.")
        )
        services.board_forfeit(user=request.user, fixture=the_fixture, board=board, side=side)
        messages.success(request, _("Board %(n)s is forfeited.") % {"n": board})
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect(f"{the_fixture.get_absolute_url()}{after}")


def team(request: HttpRequest, pk: int) -> HttpResponse:
    the_team = get_object_or_404(Team.objects.select_related("league", "captain"), pk=pk)
    return render(
        request,
        "teamleagues/team.html",
        {
            "team": the_team,
            "history": selectors.team_history(the_team),
            "members": list(the_team.members.select_related("player")),
        },
    )


def cup(request: HttpRequest, pk: int) -> HttpResponse:
    the_cup = get_object_or_404(Cup.objects.select_related("season__league"), pk=pk)
    rounds = []
    for rnd in the_cup.rounds.all():
        fixtures = list(selectors.fixtures_with_play(rnd.fixtures.all()).order_by("slot"))
        rounds.append(
            {
                "round": rnd,
                "matches": [(f, selectors.match_result(f)) for f in fixtures],
            }
        )
    winner = cups.cup_winner(the_cup)
    return render(
        request,
        "teamleagues/cup.html",
        {"cup": the_cup, "rounds": rounds, "winner": winner},
    )
