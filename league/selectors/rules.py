"""What the rules reference shows: the rules in force for one season, worded from its settings,
found by any of their names, with the rulings that cited each rule for those allowed to read
them (``can(VIEW_PRECEDENTS)``). Two queries for a visitor, three more for a judge."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from league.kernel.permissions import Action, Actor, can
from league.models import Dispute, DisputeStatus, League, Season
from league.rules_reference import (
    RenderedRule,
    render_every_rule,
    search_rules,
    sections,
)
from league.selectors.seasons import seasons_visible_to

PRECEDENTS_PER_RULE = 10  # the newest; enough to see how a rule has been read


def rules_season(
    season_id: int | None, *, user: Actor | None = None, today: dt.date | None = None
) -> tuple[Season | None, list[Season]]:
    """The season whose rules are shown (the one asked for, else the first running season,
    else the newest), and every season ``user`` may see to choose from. None when there is
    none, or when the one asked for does not exist (the page then answers 404)."""
    today = today or timezone.localdate()
    seasons = list(seasons_visible_to(user).with_first_night().order_by("league__name", "-id"))
    if season_id is not None:
        return next((s for s in seasons if s.pk == season_id), None), seasons
    current = [s for s in seasons if s.is_current_on(today)]
    return next(iter(current or seasons), None), seasons


def precedents_by_rule(*, user: Actor, season: Season, seasons: list[Season]) -> dict[str, list]:
    """Rule id -> the settled disputes that cited it, newest first, among the seasons of
    ``season``'s league whose rulings ``user`` may read. One query (none if they may read none)."""
    readable = [
        s.pk
        for s in seasons
        if s.league_id == season.league_id and can(user, Action.VIEW_PRECEDENTS, s)
    ]
    if not readable:
        return {}
    rows = (
        Dispute.objects.filter(
            game__match__week__season_id__in=readable,
            status__in=(DisputeStatus.RESOLVED, DisputeStatus.DISMISSED),
        )
        .exclude(rule_reference="")
        .select_related("game__match__week__season", "game__match__home", "game__match__away")
        .order_by("-ruled_at", "-pk")
    )
    out: dict[str, list] = {}
    for dispute in rows:
        cited = out.setdefault(dispute.rule_reference, [])
        if len(cited) < PRECEDENTS_PER_RULE:
            cited.append(dispute)
    return out


def rules_page(*, user: Actor, season: Season | None, seasons: list[Season], query: str) -> dict:
    """Everything the rules page draws."""
    # No season yet: a league's defaults (a new league's, before any league is made).
    rules_of: Season | League = season or League.objects.order_by("name").first() or League()
    every: list[RenderedRule] = render_every_rule(rules_of)
    rendered = [r for r in every if r.played]
    # A search looks through every rule, those this season does not play marked with why.
    shown = search_rules(every, query) if query.strip() else rendered
    precedents = precedents_by_rule(user=user, season=season, seasons=seasons) if season else {}
    by_section = [
        (name, [{"rule": r, "precedents": precedents.get(r.id, [])} for r in group])
        for name, group in sections(shown)
    ]
    return {
        "season": season,
        "seasons": seasons,
        "sections": by_section,
        "count": len(shown),
        "total": len(rendered),
        "not_played": [r for r in every if not r.played],
        "can_see_precedents": season is not None and can(user, Action.VIEW_PRECEDENTS, season),
        "q": query,
    }
