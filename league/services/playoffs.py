"""The playoff bracket: seeds from the standings, single elimination, winners advance."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from contest import brackets
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Action, Actor, refuse_unless
from league.models import Game, GameStatus, Match, Season, Team, Week
from league.selectors.playoffs import playoff_bracket, playoff_shortfalls, shortfall_sentence
from league.selectors.playoffs import playoff_exclusions as playoff_exclusions  # read here too
from league.selectors.standings import standings_for_season
from league.services.notify import notify_playoff_matches, notify_playoffs_drawn


def regular_season_open(season: Season) -> int:
    """How many regular-season matches are not finished: a game left to play, or a result not
    yet confirmed."""
    open_matches = 0
    matches = Match.objects.filter(week__season=season, week__is_playoff=False).prefetch_related(
        "games"
    )
    for match in matches:
        games = [g for g in match.games.all() if g.status != GameStatus.VOID]
        if len(games) < season.games_per_match or any(
            g.status != GameStatus.CONFIRMED for g in games
        ):
            open_matches += 1
    return open_matches


def playoffs_create(*, season: Season, user: Actor, reason: str = "") -> list[Match]:
    """Seed the playoffs from the current standings: round one's matches, byes to top seeds.

    Drawn before every regular-season match is finished and confirmed, the seeding may still
    change: that needs a reason, which goes on record. A draw can be undone until the first
    playoff game starts (``playoffs_undo``).

    With the season's playoff rule (``playoff_min_nights``), a team with a player who played
    fewer regular-season nights is left out and the next team takes its place; the audit entry
    names each team left out and who was short (``playoff_exclusions`` reads it back)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    still_open = regular_season_open(season)
    if still_open and not (reason or "").strip():
        raise ValidationFailed(
            ngettext(
                "%(n)s regular-season match is not finished and confirmed, so the seeding may "
                "still change. Give a reason to draw the playoffs now.",
                "%(n)s regular-season matches are not finished and confirmed, so the seeding "
                "may still change. Give a reason to draw the playoffs now.",
                still_open,
            )
            % {"n": still_open},
            field="reason",
        )
    ranked = standings_for_season(season)["seeding"]
    # The season's playoff rule: a team with a player short of the nights is left out of the
    # draw, and the next team in the standings takes its place (the seeds close up).
    short = playoff_shortfalls(season)
    seeding = [name for name in ranked if name not in short][: season.playoff_teams]
    full = len(seeding) == season.playoff_teams
    passed_over = ranked[: ranked.index(seeding[-1])] if seeding and full else ranked
    excluded = {name: [list(row) for row in short[name]] for name in passed_over if name in short}
    if len(seeding) < 2:
        why = [shortfall_sentence(n, short[n], season.playoff_min_nights or 0) for n in excluded]
        raise ValidationFailed(" ".join([_("The playoffs need at least two teams."), *why]))
    teams = {t.name: t for t in season.teams.all()}
    order = brackets.slot_order(brackets.bracket_size(len(seeding)))
    with transaction.atomic():
        if season.weeks.filter(is_playoff=True).exists():
            raise ValidationFailed(_("The playoffs have already been drawn."))
        last = season.weeks.aggregate(n=Max("number"))["n"] or 0
        week = Week.objects.create(season=season, number=last + 1, is_playoff=True)
        season.playoff_seeding = seeding
        season.playoff_slots = order  # the bracket reads its layout from here, ever after
        season.save(update_fields=["playoff_seeding", "playoff_slots"])
        matches: list[Match] = []
        for slot, (high, low) in enumerate(brackets.pairings(order, len(seeding))):
            if low is None:
                continue  # the higher seed has a bye into round two
            matches.append(
                Match.objects.create(
                    week=week,
                    home=teams[seeding[high - 1]],
                    away=teams[seeding[low - 1]],
                    table=slot + 1,
                    playoff_round=1,
                    playoff_slot=slot,
                )
            )
        audit_log(
            actor=user,
            action=AuditAction.PLAYOFFS_CREATE,
            obj=season,
            after={
                "seeding": seeding,
                "open_matches": still_open,
                **(
                    {"excluded": excluded, "min_nights": season.playoff_min_nights}
                    if excluded
                    else {}
                ),
            },
            reason=reason,
        )
        notify_playoffs_drawn(season, matches)  # after commit: the season, then each match
    return matches


def playoffs_undo(*, season: Season, user: Actor, reason: str = "") -> None:
    """Take back a playoff draw, until the first playoff game starts."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        weeks = season.weeks.filter(is_playoff=True)
        if not weeks.exists():
            raise ValidationFailed(_("The playoffs have not been drawn."))
        if Game.objects.filter(match__week__in=weeks).exists():
            raise ValidationFailed(
                _("A playoff game has started: the draw stands. Void games to change results.")
            )
        before = {"seeding": season.playoff_seeding}
        Match.objects.filter(week__in=weeks).delete()
        weeks.delete()
        season.playoff_seeding = None
        season.playoff_slots = None
        season.save(update_fields=["playoff_seeding", "playoff_slots"])
        audit_log(
            actor=user, action=AuditAction.PLAYOFFS_UNDO, obj=season, before=before, reason=reason
        )


def playoffs_advance(*, season: Season, user: Actor | None = None) -> list[Match]:
    """Create every next-round match whose two feeders are decided (safe to call any time)."""
    bracket = playoff_bracket(season)
    created: list[Match] = []
    if not bracket["rounds"]:
        return created
    try:
        with transaction.atomic():
            _advance(season, bracket, created, user)
    except IntegrityError:
        return []  # another worker advanced the bracket at the same moment
    return created


def _advance(
    season: Season, bracket: dict[str, Any], created: list[Match], user: Actor | None
) -> None:
    """Create the matches of later rounds whose two teams are known and that do not exist."""
    for rnd in bracket["rounds"][1:]:
        for slot in rnd["slots"]:
            if slot["match_id"] is None and slot["home"] and slot["away"]:
                created.append(
                    Match.objects.create(
                        week=_playoff_week(season, rnd["round"]),
                        home=Team.objects.get(season=season, name=slot["home"]),
                        away=Team.objects.get(season=season, name=slot["away"]),
                        table=slot["slot"] + 1,
                        playoff_round=rnd["round"],
                        playoff_slot=slot["slot"],
                    )
                )
    if created:
        audit_log(
            actor=user,
            action=AuditAction.PLAYOFFS_ADVANCE,
            obj=season,
            after={"matches": [str(m) for m in created]},
        )
        notify_playoff_matches(created)


def _playoff_week(season: Season, round_number: int) -> Week:
    first = season.weeks.filter(is_playoff=True).order_by("number").first()
    assert first is not None
    number = first.number + round_number - 1
    week, _ = Week.objects.get_or_create(
        season=season, number=number, defaults={"is_playoff": True}
    )
    return week
