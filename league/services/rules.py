"""A season's rules: made from its league's defaults, checked as a whole, editable until the
season's first game is played, and after that changed only by a judge or league admin with a
reason on record (the season's finished games are then re-scored under the new rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Field
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from contest.points import skunk_defaults
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.parsers import name_from
from league.kernel.permissions import Action, Actor, refuse_unless
from league.models import DealtCards, Game, GameStatus, League, Season
from league.models.rules import (
    GAME_NAMES,
    LEAGUE_VARIANTS,
    NON_SCORING_FIELDS,
    NUMBER_RULES,
    RULE_FIELDS,
    UNFROZEN_FIELDS,
    targets_of,
)
from league.ranking import TIEBREAKS, chain_of
from league.rules_reference import IRREGULARITY_IDS
from scoring.variants import VARIANTS

# Settings that must be at least 1 (the rest may be 0: a league may pay no skunk bonus).
_AT_LEAST_ONE = ("target", "games_per_match", "playoff_games_per_match", "skunk_margin")


def rules_check(rules: Mapping[str, Any]) -> None:
    """Refuse rules that cannot be played, naming the setting in words an organiser reads."""
    variant = rules["variant"]
    if variant not in dict(LEAGUE_VARIANTS):
        raise ValidationFailed(
            _("Pegboard does not know the game %(game)s.") % {"game": variant}, field="variant"
        )
    for name in NUMBER_RULES:
        value = rules[name]
        if type(value) is not int or value < (1 if name in _AT_LEAST_ONE else 0):
            raise ValidationFailed(
                _("%(setting)s must be a whole number of at least %(min)s.")
                % {"setting": _label(name), "min": 1 if name in _AT_LEAST_ONE else 0},
                field=name,
            )
    game = VARIANTS[variant]
    targets = targets_of(variant)
    if rules["target"] not in targets:
        if len(targets) > 1:
            raise ValidationFailed(
                _("%(game)s is played to %(target)s or %(short)s, not %(asked)s.")
                % {
                    "game": capfirst(str(GAME_NAMES[variant])),
                    "target": targets[0],
                    "short": targets[1],
                    "asked": rules["target"],
                },
                field="target",
            )
        raise ValidationFailed(
            _("%(game)s is played to %(target)s, not %(asked)s.")
            % {"game": game.name, "target": game.target, "asked": rules["target"]},
            field="target",
        )
    if rules["skunk_margin"] >= rules["target"]:
        raise ValidationFailed(
            _("A skunk margin of %(margin)s can never happen in a game to %(target)s.")
            % {"margin": rules["skunk_margin"], "target": rules["target"]},
            field="skunk_margin",
        )
    if rules["double_skunk_margin"] <= rules["skunk_margin"]:
        raise ValidationFailed(
            _("A double skunk must need a bigger win than a skunk (more than %(margin)s).")
            % {"margin": rules["skunk_margin"]},
            field="double_skunk_margin",
        )
    if rules["playoff_games_per_match"] % 2 == 0:
        raise ValidationFailed(
            _(
                "A playoff match needs an odd number of games (3 or 5), so it cannot end level: "
                "%(n)s games could end %(half)s-%(half)s."
            )
            % {
                "n": rules["playoff_games_per_match"],
                "half": rules["playoff_games_per_match"] // 2,
            },
            field="playoff_games_per_match",
        )
    tiebreaks = rules["tiebreaks"]
    if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
        raise ValidationFailed(_("List the tie-breaks by name."), field="tiebreaks")
    unknown = [key for key in tiebreaks if key not in TIEBREAKS]
    if unknown:  # the ranking's own refusal is in English: say it in the reader's language
        raise ValidationFailed(
            _("%(key)s is not a tie-break; the tie-breaks are %(known)s.")
            % {"key": unknown[0], "known": ", ".join(TIEBREAKS)},
            field="tiebreaks",
        )
    chain_of(tiebreaks)
    played = rules.get("irregularities", [])
    if not isinstance(played, list) or not all(isinstance(i, str) for i in played):
        raise ValidationFailed(
            _("List the irregularity rules played by their ids (X-1, X-2, ...)."),
            field="irregularities",
        )
    unknown = [i for i in played if i not in IRREGULARITY_IDS]
    if unknown:
        raise ValidationFailed(
            _("There is no irregularity rule %(id)s: the rules reference has %(ids)s.")
            % {"id": unknown[0], "ids": ", ".join(IRREGULARITY_IDS)},
            field="irregularities",
        )


def _label(name: str) -> str:
    field = Season._meta.get_field(name)
    assert isinstance(field, Field)  # a rule is a column of the season
    return str(field.verbose_name).capitalize()


def rules_for_variant(variant: str, target: int | None = None) -> dict[str, Any]:
    """Sensible defaults for a new league of ``variant`` played to ``target`` (the variant's
    own by default): the skunk margins of ``contest.points.skunk_defaults``. Only new leagues
    read them: a season keeps the margins it was made with."""
    game = VARIANTS[variant]
    defaults = {
        f.name: f.get_default()
        for f in League._meta.get_fields()
        if f.name in RULE_FIELDS and isinstance(f, Field)  # the rules are columns: all of them
    }
    defaults["variant"] = variant
    defaults["target"] = target = game.target if target is None else target
    skunks = skunk_defaults(target if type(target) is int else game.target)  # one table for both
    defaults["skunk_margin"] = skunks.skunk_margin
    defaults["double_skunk_margin"] = skunks.double_skunk_margin
    return defaults


def season_create(
    *,
    league: League,
    user: Actor,
    name: str,
    rules: Mapping[str, Any] | None = None,
    playoff_teams: int = 4,
    draw_seed: int = 0,
    trusted: bool = False,
) -> Season:
    """A new season of ``league``, its rules copied from the league's defaults (``rules``
    overrides some of them). It starts as a draft, seen only by the organisers, until it is
    published (``league.services.season_life.season_publish``), so preparing next season never
    changes the one being played. ``trusted`` is for callers that checked the role (an
    import)."""
    if not trusted:
        refuse_unless(user, Action.MANAGE_LEAGUE)
    name = name_from(name or "", field="name", label=_("The season's name"))
    if not name:
        raise ValidationFailed(_("A season needs a name."), field="name")
    values = {**league.rules_dict(), **(rules or {})}
    rules_check(values)
    with transaction.atomic():
        if league.seasons.filter(name=name).exists():
            raise ValidationFailed(
                _("%(league)s already has a season called %(name)s.")
                % {"league": league.name, "name": name},
                field="name",
            )
        season = Season.objects.create(
            league=league,
            name=name,
            playoff_teams=playoff_teams,
            draw_seed=draw_seed,
            **values,
        )
        audit_log(
            actor=user, action=AuditAction.SEASON_CREATE, obj=season, after=season.rules_dict()
        )
    return season


def season_details_update(
    *,
    season: Season,
    user: Actor,
    name: str | None = None,
    playoff_teams: int | None = None,
    draw_seed: int | None = None,
) -> Season:
    """A season's name, playoff places and draw seed, on record. The name changes at any time;
    the playoff places until the playoffs are drawn; the draw seed until the first game starts
    (the draw breaks ties in a way anyone can repeat, so it never moves under results)."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        fields = ("name", "playoff_teams", "draw_seed")
        before = {k: getattr(season, k) for k in fields}
        after = dict(before)
        if name is not None:
            name = name_from(name, field="name", label=_("The season's name"))
            if not name:
                raise ValidationFailed(_("A season needs a name."), field="name")
            if season.league.seasons.filter(name=name).exclude(pk=season.pk).exists():
                raise ValidationFailed(
                    _("%(league)s already has a season called %(name)s.")
                    % {"league": season.league.name, "name": name},
                    field="name",
                )
            after["name"] = name
        if playoff_teams is not None and playoff_teams != season.playoff_teams:
            if season.playoff_seeding is not None:
                raise ValidationFailed(
                    _("The playoffs are drawn: their number of places no longer changes."),
                    field="playoff_teams",
                )
            after["playoff_teams"] = playoff_teams
        if draw_seed is not None and draw_seed != season.draw_seed:
            if season_has_games(season):
                raise ValidationFailed(
                    _("A game has started: the season's draw seed no longer changes."),
                    field="draw_seed",
                )
            after["draw_seed"] = draw_seed
        if after == before:
            return season
        for key, value in after.items():
            setattr(season, key, value)
        season.save(update_fields=[k for k in fields if after[k] != before[k]])
        audit_log(
            actor=user, action=AuditAction.SEASON_UPDATE, obj=season, before=before, after=after
        )
    return season


def season_has_games(season: Season) -> bool:
    """Whether a game of the season has started (void ones included: they were played)."""
    return Game.objects.filter(match__week__season=season).exists()


def season_rules_update(
    *, season: Season, user: Actor, changes: Mapping[str, Any], reason: str = ""
) -> Season:
    """Change a season's rules. Before its first game a league admin changes them freely; after
    it, only a judge or league admin, with a reason, and every finished game is re-scored under
    the new rules (an audited decision, like a correction). Whether rulings are published is no
    rule of play: a league admin changes it at any time, and no game is re-scored for it or for
    the irregularity rules played."""
    unknown = sorted(set(changes) - set(RULE_FIELDS))
    if unknown:
        raise ValidationFailed(_("There is no setting called %(name)s.") % {"name": unknown[0]})
    started = season_has_games(season)
    frozen = [name for name in changes if name not in UNFROZEN_FIELDS]
    if started and frozen:
        refuse_unless(user, Action.CHANGE_PLAYED_RULES, season)
        if not reason.strip():
            raise ValidationFailed(
                _("Say why the rules of a season under way are changed."), field="reason"
            )
        if "variant" in changes and changes["variant"] != season.variant:
            raise ValidationFailed(
                _("The game played cannot change once the season has started."), field="variant"
            )
    else:
        refuse_unless(user, Action.MANAGE_LEAGUE)
    before = season.rules_dict()
    after = {**before, **changes}
    rules_check(after)
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        for name, value in changes.items():
            setattr(season, name, value)
        season.save(update_fields=list(changes))
        audit_log(
            actor=user,
            action=AuditAction.SEASON_RULES_UPDATE,
            obj=season,
            before={k: before[k] for k in changes},
            after=dict(changes),
            reason=reason,
        )
        if started and any(name not in NON_SCORING_FIELDS for name in changes):
            from league.services.games import game_rescore

            for game in Game.objects.filter(match__week__season=season).exclude(
                status=GameStatus.VOID
            ):
                game_rescore(game=game)
    return season


def _refuse_league_name(name: str, *, league: League | None = None) -> str:
    name = name_from(name or "", field="name", label=_("The league's name"))
    if not name:
        raise ValidationFailed(_("A league needs a name."), field="name")
    taken = League.objects.filter(name__iexact=name)
    if league is not None:
        taken = taken.exclude(pk=league.pk)
    if taken.exists():
        raise ValidationFailed(
            _("There is already a league called %(name)s.") % {"name": name}, field="name"
        )
    return name


def league_create(*, user: Actor, name: str, rules: Mapping[str, Any] | None = None) -> League:
    """A new league whose default rules (``rules_for_variant`` of its game, ``rules`` overriding
    some) pass the same check as a season's: a season made from them can be played."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    unknown = sorted(set(rules or {}) - set(RULE_FIELDS))
    if unknown:
        raise ValidationFailed(_("There is no setting called %(name)s.") % {"name": unknown[0]})
    variant = (rules or {}).get("variant", League._meta.get_field("variant").get_default())
    if variant not in dict(LEAGUE_VARIANTS):
        raise ValidationFailed(
            _("Pegboard does not know the game %(game)s.") % {"game": variant}, field="variant"
        )
    values = {**rules_for_variant(variant, (rules or {}).get("target")), **(rules or {})}
    rules_check(values)
    with transaction.atomic():
        league = League.objects.create(name=_refuse_league_name(name), **values)
        audit_log(actor=user, action=AuditAction.LEAGUE_CREATE, obj=league, after=values)
    return league


def league_update(
    *,
    league: League,
    user: Actor,
    name: str | None = None,
    changes: Mapping[str, Any],
    dealt_cards: str | None = None,
) -> League:
    """Change a league's name, its default rules (checked as a whole, as a season's are) or
    whether its players record their dealt cards (``dealt_cards``, not a rule of play). A
    season keeps the copy it was made with: no game is re-scored."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    unknown = sorted(set(changes) - set(RULE_FIELDS))
    if unknown:
        raise ValidationFailed(_("There is no setting called %(name)s.") % {"name": unknown[0]})
    before = league.rules_dict()
    rules_check({**before, **changes})
    fields = dict(changes)
    if name is not None and name.strip() != league.name:
        fields["name"] = _refuse_league_name(name, league=league)
        before["name"] = league.name
    if dealt_cards is not None and dealt_cards != league.dealt_cards:
        if dealt_cards not in DealtCards.values:
            raise ValidationFailed(_("Choose off, allowed or asked for the cards dealt."))
        fields["dealt_cards"] = dealt_cards
        before["dealt_cards"] = league.dealt_cards
    if not fields:
        return league
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        for field, value in fields.items():
            setattr(league, field, value)
        league.save(update_fields=list(fields))
        audit_log(
            actor=user,
            action=AuditAction.LEAGUE_UPDATE,
            obj=league,
            before={k: before[k] for k in fields},
            after=fields,
        )
    return league
