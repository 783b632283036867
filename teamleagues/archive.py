"""A team league season's archive (docs/formats/team-league-archive.md): its export, and its
import, which replays the file through the services (the league and its format, the teams, the
season, each fixture, each captain's names and entries, the organiser's settlements), so every
check a page's press meets holds for a file too. All of it is one transaction: a refusal
stores nothing."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.archive_reader import archive_parse, check_shape
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Actor, actor_of
from league.shared import Player
from teamleagues import selectors, services
from teamleagues.models import Fixture, LegState, TeamLeague, TeamSeason

FORMAT = "pegboard-team-league-season"
VERSION = 1


def season_export(season: TeamSeason) -> dict[str, Any]:
    """The season as the archive's JSON (its cups are not in version 1)."""
    league = season.league
    fmt = league.format
    teams = {e.team for e in season.entries.select_related("team__captain")}
    for f in Fixture.objects.filter(season=season, playoff=True).select_related("home", "away"):
        teams.update((f.home, f.away))
    fixtures = selectors.fixtures_with_play(
        Fixture.objects.filter(season=season, cup_round__isnull=True)
    ).order_by("pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "league": {
            "name": league.name,
            "settings": {f: getattr(fmt, f) for f in services.FORMAT_FIELDS},
            "boards": [[b.kind, b.variant] for b in fmt.boards.order_by("number")],
        },
        "season": {
            "name": season.name,
            "promoted": season.promoted,
            "relegated": season.relegated,
            "playoffs": season.playoffs,
            "tiebreaks": list(season.tiebreaks),
            "draw_seed": season.draw_seed,
            "averages_minimum": season.averages_minimum,
        },
        "teams": [
            {
                "name": t.name,
                "venue": t.venue,
                "captain": t.captain.name,
                "players": [
                    m.player.name for m in t.members.select_related("player") if not m.reserve
                ],
                "reserves": [
                    m.player.name for m in t.members.select_related("player") if m.reserve
                ],
            }
            for t in sorted(teams, key=lambda t: t.name)
        ],
        "divisions": [
            {
                "name": d.name,
                "teams": sorted(e.team.name for e in d.entries.select_related("team")),
            }
            for d in season.divisions.order_by("level")
        ],
        "fixtures": [_fixture(f) for f in fixtures],
    }


def _fixture(f: Fixture) -> dict[str, Any]:
    return {
        "division": f.division.name if f.division_id and f.division else None,
        "round": f.round,
        "home": f.home.name,
        "away": f.away.name,
        "date": f.date.isoformat() if f.date else None,
        "playoff": f.playoff,
        "decided_for": f.decided_for,
        "boards": [
            {
                "number": b.number,
                "forfeited_by": b.forfeited_by,
                "home": [bp.player.name for bp in b.players.all() if bp.side == "home"],
                "away": [bp.player.name for bp in b.players.all() if bp.side == "away"],
                "legs": [
                    {
                        "number": leg.number,
                        "home": [leg.home_winner, leg.home_loser_score],
                        "away": [leg.away_winner, leg.away_loser_score],
                        "settled": (
                            [leg.winner, leg.loser_score] if leg.state == LegState.SETTLED else None
                        ),
                    }
                    for leg in b.legs.all()
                ],
            }
            for b in f.boards.all()
        ],
    }


def season_import(*, user: Actor, raw: bytes | str, league_name: str = "") -> TeamSeason:
    """A new league (named ``league_name``, else the file's) with the archive's season, every
    write through the services as ``user`` (a league admin, or a trusted caller)."""
    data = archive_parse(raw, refusal=ValidationFailed, what="a team league season")
    check_shape(data, refusal=ValidationFailed, what="a team league season")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationFailed(_("This file is not a team league season's archive."))
    if data.get("version") != VERSION:
        raise ValidationFailed(_("This archive's version is not one Pegboard reads."))
    try:
        with transaction.atomic():
            return _replay(user, data, league_name)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValidationFailed(
            _("The archive is not a team league season: %(what)s is missing or of the wrong kind.")
            % {"what": str(exc)}
        ) from None


def _player(name: str) -> Player:
    return Player.objects.get_or_create(name=str(name).strip())[0]


def _replay(user: Actor, data: dict[str, Any], league_name: str) -> TeamSeason:
    lg = data["league"]
    name = league_name or lg["name"]
    if TeamLeague.objects.filter(name=name).exists():
        raise ValidationFailed(_("A team league already has that name."), field="name")
    league = services.league_set(
        user=user,
        name=name,
        boards=[(str(k), str(v)) for k, v in lg["boards"]],
        organisers=[account] if (account := actor_of(user)) is not None else [],
        **{k: lg["settings"][k] for k in services.FORMAT_FIELDS},
    )
    teams = {}
    for t in data["teams"]:
        teams[t["name"]] = services.team_set(
            user=user,
            league=league,
            name=t["name"],
            venue=t.get("venue", ""),
            captain=_player(t["captain"]),
            players=[_player(p) for p in t["players"]],
            reserves=[_player(p) for p in t["reserves"]],
        )
    s = data["season"]
    season = services.season_create(
        user=user,
        league=league,
        name=s["name"],
        divisions=[(d["name"], [teams[n] for n in d["teams"]]) for d in data["divisions"]],
        promoted=int(s["promoted"]),
        relegated=int(s["relegated"]),
        playoffs=bool(s["playoffs"]),
        tiebreaks=list(s["tiebreaks"]),
        draw_seed=int(s["draw_seed"]),
    )
    season.averages_minimum = int(s["averages_minimum"])
    season.save(update_fields=["averages_minimum"])
    divisions = {d.name: d for d in season.divisions.all()}
    for f in data["fixtures"]:
        fixture = services.fixture_add(
            user=user,
            season=season,
            division=divisions[f["division"]] if f["division"] is not None else None,
            home=teams[f["home"]],
            away=teams[f["away"]],
            on=date.fromisoformat(f["date"]) if f["date"] else None,
            round_number=int(f["round"]),
            playoff=bool(f["playoff"]),
        )
        _replay_play(user, fixture, f)
    return season


def _replay_play(user: Actor, fixture: Fixture, f: dict[str, Any]) -> None:
    for b in f["boards"]:
        if b["forfeited_by"]:
            services.board_forfeit(
                user=user, fixture=fixture, board=int(b["number"]), side=b["forfeited_by"]
            )
    for side in ("home", "away"):
        names = {int(b["number"]): [_player(p) for p in b[side]] for b in f["boards"] if b[side]}
        if names:
            services.boards_name(user=user, fixture=fixture, names=names, side=side)
    settle = []
    for side in ("home", "away"):
        legs = [
            (int(b["number"]), int(leg["number"]), leg[side][0], int(leg[side][1]))
            for b in f["boards"]
            for leg in b["legs"]
            if leg[side][0]
        ]
        if legs:
            services.sheet_enter(user=user, fixture=fixture, legs=legs, side=side)
    for b in f["boards"]:
        for leg in b["legs"]:
            if leg["settled"]:
                settle.append((int(b["number"]), int(leg["number"]), leg["settled"]))
    for number, n, (winner, score) in settle:
        row = fixture.boards.get(number=number).legs.get(number=n)
        services.leg_settle(user=user, leg=row, winner=winner, loser_score=int(score))
    if f.get("decided_for"):
        services.match_decide(user=user, fixture=fixture, side=f["decided_for"])
