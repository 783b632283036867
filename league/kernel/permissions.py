"""Roles and permissions as data, and the one question every door asks: ``can(user, action,
obj)``. Views, templates (``{% can %}``), the API, the admin and the services all ask it, so a
button is offered exactly when the service will accept the press.

The rules, in words:
- a player of either team starts games, enters deals and raises disputes on their games; the
  team that raised a dispute may withdraw it while it is open;
- the team that entered a deal may correct it until the game is confirmed; after that only a
  judge can, through a ruling;
- a team that still has to vouch for a finished game confirms or rejects it (``lifecycle``);
- the players of a game's two teams, judges and league admins read its disputes and rulings;
- judges rule on disputes; judges and league admins void games;
- judges and league admins read the rulings listed under the rules they cite (precedents);
  everyone does, visitors included, for a season that publishes its rulings;
- nobody acts as judge, confirmer or admin on a game their own team plays: a role never lets
  anyone vouch for the other team;
- tournaments: league admins and tournament directors run them (entrants, seating, the bracket,
  playoff games); a player enters their side's scorecard of a table they sit at, once, until
  the result stands (``lifecycle``, on the table's scorecard facts); judges and league admins
  are the checkers who settle scorecards that disagree and key in paper cards, never at a
  table they play at;
- an event's money (entry fees, payouts, side pots, the ledger) is seen and kept by its
  directors and league admins only; they also manage clubs and club seasons.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from league.kernel import lifecycle

JUDGES = "Judges"
LEAGUE_ADMINS = "League admins"
CAPTAINS = "Captains"
PLAYERS = "Players"
TOURNAMENT_DIRECTORS = "Tournament directors"


class Action(models.TextChoices):
    START_GAME = "start_game", _("start a game")
    RECORD_DEAL = "record_deal", _("record a deal")
    CORRECT_DEAL = "correct_deal", _("correct a deal")
    WITHDRAW_RIVAL = "withdraw_rival", _("accept the other team's numbers")
    CONFIRM_GAME = "confirm_game", _("confirm a game")
    REJECT_GAME = "reject_game", _("reject a game")
    VOID_GAME = "void_game", _("void a game")
    RAISE_DISPUTE = "raise_dispute", _("raise a dispute")
    WITHDRAW_DISPUTE = "withdraw_dispute", _("withdraw a dispute")
    VIEW_DISPUTES = "view_disputes", _("read disputes and rulings")
    RULE_DISPUTE = "rule_dispute", _("rule on a dispute")
    VIEW_PRECEDENTS = "view_precedents", _("read the rulings that cited a rule")
    CHANGE_PLAYED_RULES = "change_played_rules", _("change the rules of a season under way")
    MANAGE_LEAGUE = "manage_league", _("manage leagues, seasons and teams")
    RUN_TOURNAMENT = "run_tournament", _("run a tournament (entrants, rounds, the bracket)")
    ENTER_SCORECARD = "enter_scorecard", _("enter a scorecard for one's own table")
    CHECK_SCORECARDS = "check_scorecards", _("settle scorecards as a checker")
    KEEP_MONEY = "keep_money", _("see and keep an event's money (fees, payouts, side pots)")
    MANAGE_CLUBS = "manage_clubs", _("manage clubs and their seasons")


class Trusted:
    """A caller that answers for the write itself (a season import, a management command, a
    scheduled task): ``can()`` lets it do anything, and the audit trail records the user it
    acts for (None on the command line) and why. Pass it where a service takes ``user``.

    >>> Trusted(None, "season import")
    Trusted(None, 'season import')
    """

    is_authenticated = True
    is_active = True
    is_superuser = False

    def __init__(self, user: Any, why: str) -> None:
        self.user = user if getattr(user, "is_authenticated", False) else None
        self.why = why
        self.pk = getattr(self.user, "pk", None)

    def __repr__(self) -> str:
        return f"Trusted({self.user!r}, {self.why!r})"


def actor_of(user: Any) -> Any:
    """The account a write is recorded under (None for a visitor or the command line)."""
    if isinstance(user, Trusted):
        return user.user
    return user if getattr(user, "is_authenticated", False) else None


def _in_group(user: Any, name: str) -> bool:
    cache = getattr(user, "_pegboard_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        user._pegboard_groups = cache
    return name in cache


def is_league_admin(user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, LEAGUE_ADMINS)))


def is_judge(user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or _in_group(user, JUDGES)))


def is_official(user: Any) -> bool:
    """A judge or a league admin, the league's officials: they read every dispute and ruling,
    void games, change a played season's rules and check tournament scorecards (asked only
    where a rule needs it: a player entering a deal costs no query of groups)."""
    return is_judge(user) or is_league_admin(user)


def player_of(user: Any) -> Any:
    """The Player linked to ``user``, or None."""
    if not user.is_authenticated:
        return None
    try:
        return user.player
    except Exception:  # RelatedObjectDoesNotExist
        return None


def _team_ids(user: Any) -> frozenset[int]:
    """Every team ``user`` plays for, fetched once per user object (like its groups), so
    checking a page of matches costs no query per row."""
    cache = getattr(user, "_pegboard_teams", None)
    if cache is None:
        from league.models import Team

        # Through the player's account in one query (not the player, then their teams).
        teams = Team.objects.filter(players__user_id=user.pk).values_list("pk", flat=True)
        cache = frozenset(teams) if user.is_authenticated else frozenset()
        user._pegboard_teams = cache
    return cache


def warm_permissions(user: Any) -> None:
    """Fetch now what ``can()`` needs of ``user`` (groups, teams), for a page of many checks."""
    if user is not None and user.is_authenticated and user.is_active:
        is_league_admin(user)
        is_judge(user)
        _team_ids(user)


def teams_of(user: Any, match: Any) -> set[int]:
    """Ids of the teams of ``match`` that ``user`` plays for."""
    if isinstance(user, Trusted):
        user = user.user
    if user is None or not user.is_authenticated:
        return set()
    return {match.home_id, match.away_id} & _team_ids(user)


def team_of(user: Any, match: Any) -> int | None:
    """The team of ``match`` that ``user`` plays for (a player is on one team a season)."""
    mine = teams_of(user, match)
    return next(iter(sorted(mine)), None)


def roster_of(match: Any) -> dict[int, int]:
    """user id -> team id for the players of ``match``'s two teams, fetched once per match
    object (one query), so asking about each deal's enterer costs nothing more."""
    cache = getattr(match, "_pegboard_roster", None)
    if cache is None:
        from league.models import Team

        rows = Team.objects.filter(
            pk__in=(match.home_id, match.away_id), players__user__isnull=False
        ).values_list("players__user_id", "pk")
        cache = dict(rows)
        match._pegboard_roster = cache
    return cache


def _entered_by_team(obj: Any, match: Any) -> int | None:
    """The team of ``match`` whose player entered the deal ``obj``."""
    user_id = getattr(obj, "entered_by_id", None)
    return None if user_id is None else roster_of(match).get(user_id)


def game_facts(game: Any) -> lifecycle.Facts:
    """The vouching facts a game row holds (no query): enough for ``awaiting``."""
    return lifecycle.Facts(
        deals=game.deal_count,
        finished=game.status != "in_progress" and game.winner_id is not None,
        void=game.status == "void",
        open_disputes=1 if game.status == "disputed" else 0,
        home=lifecycle.Side(vouched=game.home_vouched, rival=game.home_rival),
        away=lifecycle.Side(vouched=game.away_vouched, rival=game.away_rival),
        needs_confirmation=True,
    )


def awaiting_teams(game: Any) -> set[int]:
    """Ids of the teams that still have to vouch for ``game`` (empty unless it is finished)."""
    if game.status != "finished":
        return set()
    home, away = lifecycle.awaiting(game_facts(game))
    return {t for t, waiting in ((game.match.home_id, home), (game.match.away_id, away)) if waiting}


def _game_of(obj: Any) -> Any:
    """The game an object belongs to (a Game, a Deal or a Dispute), else None."""
    if obj is None:
        return None
    if hasattr(obj, "deal_count"):
        return obj
    return getattr(obj, "game", None)


def _match_of(obj: Any) -> Any:
    game = _game_of(obj)
    if game is not None:
        return game.match
    return obj if hasattr(obj, "home_id") else None


def _is_table(obj: Any) -> bool:
    return hasattr(obj, "side_of_player")  # a tournament table, not a league game


def table_side_of(user: Any, table_game: Any) -> int | None:
    """Which side of tournament table ``table_game`` ``user`` plays for (0: its first entrant,
    1: its second), or None."""
    player = player_of(user)
    if player is None or not _is_table(table_game):
        return None
    entrant = table_game.side_of_player(player)
    if entrant is None:
        return None
    return 0 if entrant.pk == table_game.first_id else 1


def _may_enter_card(user: Any, table_game: Any) -> bool:
    """A player of the table while lifecycle lets their side enter (not after their card is
    in, not once the result stands); a checker who does not play there while any side may
    (a paper card). ``None`` asks the role question "a player, at any table"."""
    if table_game is None:
        return player_of(user) is not None
    if not _is_table(table_game):  # a league game: not a tournament table
        return False
    facts = table_game.facts
    side = table_side_of(user, table_game)
    if side is not None:
        return lifecycle.allows_side(lifecycle.Event.ENTER_SCORECARD, facts, side)
    return is_official(user) and any(
        lifecycle.allows_side(lifecycle.Event.ENTER_SCORECARD, facts, s) for s in (0, 1)
    )


def _may_settle(user: Any, table_game: Any) -> bool:
    """Judges and league admins settle a table they do not play at, until its result stands."""
    if not is_official(user):
        return False
    if table_game is None:
        return True
    if not _is_table(table_game) or table_side_of(user, table_game) is not None:
        return False
    status = lifecycle.status_of(table_game.facts)
    return lifecycle.allows(lifecycle.Event.SETTLE_SCORECARDS, status)


def can(user: Any, action: str, obj: Any = None) -> bool:
    """Whether ``user`` may do ``action`` on ``obj`` now. The one check.

    ``obj`` is what the action is about: a Match (start a game), a Game (enter, confirm,
    reject, dispute, void, read disputes), a Deal (correct it, withdraw a rival entry), a
    Dispute (rule on it, withdraw it), a Season (change its rules once played, read its
    rulings under the rules they cite), or None (a
    role question: "may this user ever ...").
    """
    if isinstance(user, Trusted):
        return True
    if action == Action.VIEW_PRECEDENTS and getattr(obj, "publish_rulings", False):
        return True  # a season that publishes its rulings shows them to everyone
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if action == Action.VIEW_PRECEDENTS:  # obj is a Season (or None: "may this user ever")
        return is_official(user)
    if action == Action.MANAGE_LEAGUE:
        return is_league_admin(user)
    if action == Action.CHANGE_PLAYED_RULES:
        return is_official(user)
    if action in (Action.RUN_TOURNAMENT, Action.KEEP_MONEY, Action.MANAGE_CLUBS):
        return is_league_admin(user) or _in_group(user, TOURNAMENT_DIRECTORS)
    if action == Action.CHECK_SCORECARDS:
        return _may_settle(user, obj)
    if action == Action.ENTER_SCORECARD:
        return _may_enter_card(user, obj)
    match = _match_of(obj)
    game = _game_of(obj)
    if match is None:  # a role question, not about one game
        if action == Action.RULE_DISPUTE:
            return is_judge(user)
        if action == Action.VOID_GAME:
            return is_official(user)
        if action == Action.VIEW_DISPUTES:  # judges and admins all, players their teams'
            return is_official(user) or bool(_team_ids(user))
        return False
    mine = teams_of(user, match)
    if action == Action.START_GAME:
        return bool(mine) or is_league_admin(user)
    if action == Action.VIEW_DISPUTES:
        return bool(mine) or is_official(user)
    if game is None:
        return False
    status = game.status
    if action == Action.RECORD_DEAL:
        return lifecycle.allows(lifecycle.Event.RECORD_DEAL, status) and (
            bool(mine) or is_league_admin(user)
        )
    if action == Action.CORRECT_DEAL:
        # The team that entered a deal corrects it before confirmation (obj is the Deal).
        return (
            obj is not game
            and lifecycle.allows(lifecycle.Event.CORRECT_DEAL, status)
            and _entered_by_team(obj, match) in mine
        )
    if action == Action.WITHDRAW_RIVAL:
        return (
            obj is not game
            and lifecycle.allows(lifecycle.Event.WITHDRAW_RIVAL, status)
            and getattr(obj, "is_rival", False)
            and getattr(obj, "settled_at", None) is None
            and _entered_by_team(obj, match) in mine
        )
    if action in (Action.CONFIRM_GAME, Action.REJECT_GAME):
        event = lifecycle.Event.CONFIRM if action == Action.CONFIRM_GAME else lifecycle.Event.REJECT
        if not lifecycle.allows(event, status):
            return False
        waiting = mine & awaiting_teams(game)
        if action == Action.CONFIRM_GAME:  # a team with an unsettled rival entry settles first
            rivals = {game.match.home_id: game.home_rival, game.match.away_id: game.away_rival}
            waiting = {t for t in waiting if not rivals[t]}
        return bool(waiting)
    if action == Action.RAISE_DISPUTE:
        if mine:
            return lifecycle.allows(lifecycle.Event.RAISE_DISPUTE, status)
        # Judges and league admins open a review of any game but their own team's, a
        # confirmed one included (it then waits for a judge's ruling).
        return is_official(user) and lifecycle.allows(lifecycle.Event.RULE, status)
    if action == Action.WITHDRAW_DISPUTE:  # obj is the Dispute
        return (
            obj is not game
            and not getattr(obj, "is_closed", True)
            and getattr(obj, "raised_by_team_id", None) in mine
        )
    if action == Action.RULE_DISPUTE:
        return is_judge(user) and not mine and lifecycle.allows(lifecycle.Event.RULE, status)
    if action == Action.VOID_GAME:
        return is_official(user) and not mine and lifecycle.allows(lifecycle.Event.VOID, status)
    return False
