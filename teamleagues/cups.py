"""Writes of a team league's knockouts: a cup drawn (by the organiser's seeding or the public
draw, byes to the top seeds, through ``contest.brackets``), its rounds dated and made once the
last one is over, and a plate for the cup's first-round losers. One transaction each, as in
``teamleagues/services.py``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _

from contest import brackets
from contest.draw import draw_ticket
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, Locked, ValidationFailed
from league.kernel.permissions import Actor
from teamleagues import selectors
from teamleagues.models import (
    Cup,
    CupKind,
    CupRound,
    Fixture,
    Member,
    Qualification,
    Side,
    Team,
    TeamLeague,
    TeamSeason,
)
from teamleagues.services import make_boards, must_organise


def _seed_order(cup: Cup, teams: Sequence[Team]) -> list[Team]:
    """The organiser's order when seeded; else the draw: each team's ticket, sha256 of
    "season seed:cup name:team name" (:func:`contest.draw.draw_ticket`), the higher first."""
    if cup.seeded:
        return list(teams)
    seed = cup.season.draw_seed
    return sorted(teams, key=lambda t: draw_ticket(seed, f"{cup.name}:{t.name}"), reverse=True)


def cup_create(
    *,
    user: Actor,
    season: TeamSeason,
    name: str,
    teams: Sequence[Team],
    seeded: bool = False,
    first_round: date | None = None,
    plate_name: str = "",
) -> Cup:
    """A knockout cup: the teams in seed order when ``seeded`` (the organiser's order), else
    drawn (a draw anyone can repeat from the season's seed). Byes go to the top seeds so the
    second round is full. With ``plate_name``, a plate for the first round's losers follows."""
    must_organise(user, season.league)
    name = name.strip()
    if not name:
        raise ValidationFailed(_("Give the cup a name."), field="name")
    if len(teams) < 2:
        raise ValidationFailed(_("A cup needs at least two teams."), field="teams")
    if len({t.pk for t in teams}) != len(teams):
        raise ValidationFailed(_("A team is in the cup twice."), field="teams")
    with transaction.atomic():
        TeamSeason.objects.select_for_update().get(pk=season.pk)
        cup = Cup.objects.create(season=season, name=name, seeded=seeded)
        _cup_first_round(user, cup, teams, first_round)
        if plate_name.strip():
            Cup.objects.create(
                season=season, name=plate_name.strip(), kind=CupKind.PLATE, parent=cup, seeded=False
            )
    return cup


def _cup_first_round(user: Actor, cup: Cup, teams: Sequence[Team], on: date | None) -> None:
    ordered = _seed_order(cup, teams)
    size = brackets.bracket_size(len(ordered))
    order = brackets.slot_order(size)
    cup.entrants = [t.pk for t in ordered]
    cup.bracket_order = order
    cup.save(update_fields=["entrants", "bracket_order"])
    rnd = CupRound.objects.create(cup=cup, number=1, date=on)
    fixtures = []
    for slot, (a, b) in enumerate(brackets.pairings(order, len(ordered))):
        if b is None:
            continue
        fixtures.append(
            Fixture.objects.create(
                season=cup.season,
                cup_round=rnd,
                round=1,
                slot=slot,
                home=ordered[a - 1],
                away=ordered[b - 1],
                date=on,
            )
        )
    make_boards(fixtures, cup.season.league.format)
    audit_log(
        actor=user,
        action=AuditAction.TEAM_CUP_DRAW,
        obj=cup,
        after={"teams": [t.name for t in ordered], "order": order},
    )


def cup_standing(cup: Cup) -> tuple[int, list[int | None], bool]:
    """The cup's last round, the team through from each of its slots (None: still to play),
    and whether the cup is won (one team left)."""
    last = cup.rounds.order_by("-number").first()
    if last is None:
        return 0, [], False
    fixtures = {
        f.slot: f for f in selectors.fixtures_with_play(Fixture.objects.filter(cup_round=last))
    }
    if last.number == 1:
        pairs = brackets.pairings(cup.bracket_order, len(cup.entrants))
        slots = len(pairs)
    else:
        slots = _slots_of_round(cup, last.number)
    through: list[int | None] = []
    for slot in range(slots):
        f = fixtures.get(slot)
        if f is None:
            if last.number == 1:
                a, _b = brackets.pairings(cup.bracket_order, len(cup.entrants))[slot]
                through.append(cup.entrants[a - 1])
            else:
                through.append(None)
            continue
        won = selectors.winner_of(f, selectors.match_result(f))
        through.append(None if won is None else (f.home_id if won == Side.HOME else f.away_id))
    return last.number, through, slots == 1 and through[0] is not None


def _slots_of_round(cup: Cup, number: int) -> int:
    size = brackets.bracket_size(len(cup.entrants))
    return max(1, size // (2**number))


def cup_next_round(*, user: Actor, cup: Cup, on: date | None = None) -> CupRound:
    """The next round of a cup once every match of its last round has a winner: the winners
    of neighbouring slots meet, the upper slot at home. A plate's first round is drawn from
    its cup's first-round losers once that round is over."""
    must_organise(user, cup.season.league)
    with transaction.atomic():
        cup = Cup.objects.select_for_update().get(pk=cup.pk)
        if cup.kind == CupKind.PLATE and not cup.rounds.exists():
            return _plate_first_round(user, cup, on)
        number, through, won = cup_standing(cup)
        if won:
            raise Locked(_("The cup is won: there is no next round."))
        teams = [t for t in through if t is not None]
        if len(teams) != len(through):
            raise Locked(_("Every match of round %(n)s needs a winner first.") % {"n": number})
        rnd = CupRound.objects.create(cup=cup, number=number + 1, date=on)
        fixtures = []
        for slot in range(len(teams) // 2):
            home, away = teams[2 * slot], teams[2 * slot + 1]
            fixtures.append(
                Fixture.objects.create(
                    season=cup.season,
                    cup_round=rnd,
                    round=number + 1,
                    slot=slot,
                    home_id=home,
                    away_id=away,
                    date=on,
                )
            )
        make_boards(fixtures, cup.season.league.format)
        audit_log(
            actor=user,
            action=AuditAction.TEAM_CUP_ROUND,
            obj=cup,
            after={"round": number + 1, "matches": len(fixtures)},
        )
    return rnd


def _plate_first_round(user: Actor, plate: Cup, on: date | None) -> CupRound:
    parent = plate.parent
    assert parent is not None
    first = parent.rounds.filter(number=1).first()
    losers: list[Team] = []
    if first is not None:
        for f in selectors.fixtures_with_play(Fixture.objects.filter(cup_round=first)).order_by(
            "slot"
        ):
            won = selectors.winner_of(f, selectors.match_result(f))
            if won is None:
                raise Locked(_("The cup's first round must be over before the plate is drawn."))
            losers.append(f.away if won == Side.HOME else f.home)
    if len(losers) < 2:
        raise Locked(_("The plate needs at least two first-round losers."))
    _cup_first_round(user, plate, losers, on)
    return plate.rounds.get(number=1)


def cup_winner(cup: Cup) -> Team | None:
    _n, through, won = cup_standing(cup)
    return Team.objects.get(pk=through[0]) if won and through[0] is not None else None


def qualifier_enter(*, user: Actor, cup: Cup, into: TeamLeague) -> Team:
    """The Legion's ladder: the organiser of the next level enters a lower level's cup winner
    (zone to provincial, provincial to national) as a team of their league, with its captain
    and list; their own cup is then drawn with it."""
    must_organise(user, into)
    lower = cup.season.league
    if lower.feeds_id != into.pk:
        raise Locked(
            _("%(lower)s does not qualify into %(upper)s.")
            % {"lower": lower.name, "upper": into.name}
        )
    winner = cup_winner(cup)
    if winner is None:
        raise Locked(_("%(cup)s has no winner yet.") % {"cup": cup.name})
    with transaction.atomic():
        TeamLeague.objects.select_for_update().get(pk=into.pk)
        if Qualification.objects.filter(cup=cup, team__league=into).exists():
            raise Conflict(_("The winner of %(cup)s is already entered.") % {"cup": cup.name})
        if Team.objects.filter(league=into, name=winner.name).exists():
            raise Conflict(
                _("%(league)s already has a team called %(team)s.")
                % {"league": into.name, "team": winner.name}
            )
        team = Team.objects.create(
            league=into, name=winner.name, venue=winner.venue, captain=winner.captain
        )
        Member.objects.bulk_create(
            Member(team=team, player_id=m.player_id, reserve=m.reserve)
            for m in winner.members.all()
        )
        Qualification.objects.create(team=team, cup=cup)
        audit_log(
            actor=user,
            action=AuditAction.TEAM_SET,
            obj=team,
            after={"qualified_from": f"{lower.name} · {cup.name}", "captain": winner.captain.name},
        )
    return team
