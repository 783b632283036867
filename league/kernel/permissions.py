"""Roles and permissions as data, and the one question every door asks: ``refusal(user, action,
obj)``, why not (or None), and ``can()``, no refusal. Views, templates (``{% can %}``), the API,
the admin and the services all ask it, so a button is offered exactly when the service will
accept the press, and a refused press says the same sentence at every door. Each app registers
the check of its own objects (``register_check``): the league its matches, games, deals and
disputes (``league.checks``), the tournaments their tables (``tournaments.checks``).

The rules, in words:
- a player of either team keeps the score of their match: starts its games, one at a time and
  in order (not while a game of the match is under way), enters deals and raises disputes on
  their games; the team that raised a dispute may withdraw it while it is open; either team
  (or a league admin) cancels a game started by mistake, before its first deal;
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

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from django.db import models
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from league.kernel.errors import Refusal

JUDGES = "Judges"
LEAGUE_ADMINS = "League admins"
CAPTAINS = "Captains"
PLAYERS = "Players"
TOURNAMENT_DIRECTORS = "Tournament directors"


class Action(models.TextChoices):
    KEEP_SCORE = "keep_score", _("keep the score of a match")
    START_GAME = "start_game", _("start a game")
    CANCEL_GAME = "cancel_game", _("cancel a game started by mistake")
    RECORD_DEAL = "record_deal", _("record a deal")
    CORRECT_DEAL = "correct_deal", _("correct a deal")
    WITHDRAW_RIVAL = "withdraw_rival", _("accept the other team's numbers")
    CONFIRM_GAME = "confirm_game", _("confirm a game")
    REJECT_GAME = "reject_game", _("reject a game")
    VOID_GAME = "void_game", _("void a game")
    RECORD_FORFEIT = "record_forfeit", _("record a forfeit")
    UNDO_FORFEIT = "undo_forfeit", _("undo a forfeit")
    POSTPONE_MATCH = "postpone_match", _("ask to postpone a match, or decide it")
    ANSWER_POSTPONEMENT = "answer_postponement", _("accept or decline a postponement")
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


if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

# Who asks a service: a signed-in user, a visitor, or a caller that answers for itself.
Actor: TypeAlias = "AbstractBaseUser | AnonymousUser | Trusted"


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


def in_group(user: Any, name: str) -> bool:
    """Whether ``user`` is in the group ``name``: their groups read once per user object (a
    request asks many role questions; a page of the admin, one for each of its models)."""
    cache = getattr(user, "_pegboard_groups", None)
    if cache is None:
        cache = set(user.groups.values_list("name", flat=True))
        user._pegboard_groups = cache
    return name in cache


def is_league_admin(user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or in_group(user, LEAGUE_ADMINS)))


def is_judge(user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or in_group(user, JUDGES)))


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


#: What an app fetches of a user before a page of many checks (the league: the user's teams),
#: registered in its ``AppConfig.ready()`` (:func:`add_warm`).
_warm: list[Callable[[Any], object]] = []
#: Role questions an app answers about its own people (the league: who may read disputes, the
#: officials and the players of its teams), registered with :func:`add_role`.
_roles: dict[str, Callable[[Any], bool]] = {}


def add_warm(fetch: Callable[[Any], object]) -> None:
    """Let ``warm_permissions()`` call ``fetch(user)`` too (it keeps what it read on the user)."""
    _warm.append(fetch)


def add_role(action: str, may: Callable[[Any], bool]) -> None:
    """Let ``may(user)`` answer the role question ``action`` (asked with no object)."""
    _roles[action] = may


def warm_permissions(user: Any) -> None:
    """Fetch now what ``can()`` needs of ``user`` (groups, teams), for a page of many checks."""
    if user is not None and user.is_authenticated and user.is_active:
        is_league_admin(user)
        is_judge(user)
        for fetch in _warm:
            fetch(user)


# --- Refusals -------------------------------------------------------------------------------------

#: An app's check of its own objects: ``check(user, action, obj)`` -> why not, or None.
ObjectCheck = Callable[[Any, str, Any], Refusal | None]
_checks: dict[type, ObjectCheck] = {}
_resolved: dict[type, ObjectCheck | None] = {}

_NOT_ALLOWED = gettext_lazy("You are not allowed to %(action)s.")


def register_check(model: type, check: ObjectCheck) -> None:
    """Let ``check`` say who may do what to ``model``'s objects (and its subclasses'): each
    app registers its own in its ``AppConfig.ready()``, so the kernel knows no app's models."""
    _checks[model] = check
    _resolved.clear()


#: An app's answer to "whose is this object?" for a role action (run a tournament, keep its
#: money, manage clubs): a director of one club may not run another club's night.
_scopes: dict[type, ObjectCheck] = {}


def register_scope(model: type, scope: ObjectCheck) -> None:
    """Let ``scope`` narrow a role action on ``model``'s objects to the people they belong to
    (a club's night to its directors): asked after the role, by every door through
    ``refusal``, so a service that checks ``(user, action, obj)`` checks the owner too."""
    _scopes[model] = scope


def _scope_of(kind: type) -> ObjectCheck | None:
    return next((_scopes[k] for k in kind.__mro__ if k in _scopes), None)


def _resolve(kind: type) -> ObjectCheck | None:
    """The check registered for ``kind`` or its nearest base (None: no app checks it),
    remembered for the kind until a check is registered."""
    check = _resolved[kind] = next((_checks[k] for k in kind.__mro__ if k in _checks), None)
    return check


def not_allowed(action: str) -> Refusal:
    """A role refusal in general words: "You are not allowed to run a tournament (...)"."""
    return Refusal("not_allowed", _NOT_ALLOWED, params={"action": Action(action).label})


def _role_refusal(user: Any, action: str) -> Refusal | None:
    """The answer to a role question ("may this user ever ..."), or to an action that is one."""
    if action in (
        Action.VIEW_PRECEDENTS,
        Action.CHANGE_PLAYED_RULES,
        Action.VOID_GAME,
        Action.RECORD_FORFEIT,
    ):
        may = is_official(user)
    elif action == Action.UNDO_FORFEIT:
        may = is_judge(user)
    elif action == Action.MANAGE_LEAGUE:
        may = is_league_admin(user)
    elif action in (Action.RUN_TOURNAMENT, Action.KEEP_MONEY, Action.MANAGE_CLUBS):
        may = is_league_admin(user) or in_group(user, TOURNAMENT_DIRECTORS)
    elif action == Action.CHECK_SCORECARDS:
        may = is_official(user)
    elif action == Action.ENTER_SCORECARD:
        may = player_of(user) is not None
    elif action == Action.RULE_DISPUTE:
        may = is_judge(user)
    elif action in _roles:  # an app's own people (VIEW_DISPUTES: the league's)
        may = _roles[action](user)
    else:
        may = False
    return None if may else not_allowed(action)


_ROLE_ACTIONS = frozenset(
    {
        Action.VIEW_PRECEDENTS,
        Action.MANAGE_LEAGUE,
        Action.CHANGE_PLAYED_RULES,
        Action.RUN_TOURNAMENT,
        Action.KEEP_MONEY,
        Action.MANAGE_CLUBS,
    }
)


def refusal(user: Any, action: str, obj: Any = None) -> Refusal | None:
    """Why ``user`` may not do ``action`` on ``obj`` now, or None if they may. The one check.

    ``obj`` is what the action is about: a Match (start a game), a Game (enter, confirm,
    reject, dispute, void, read disputes), a Deal (correct it, withdraw a rival entry), a
    Dispute (rule on it, withdraw it), a tournament table (enter or settle its scorecards), a
    Season (read its rulings under the rules they cite), or None (a role question: "may this
    user ever ..."). The object's app answers through the check it registered
    (``register_check``): the role first (403), then the state (``lifecycle``: 409 or 400).
    """
    if isinstance(user, Trusted):
        return None
    if action == Action.VIEW_PRECEDENTS and getattr(obj, "publish_rulings", False):
        return None  # a season that publishes its rulings shows them to everyone
    if user is None or not user.is_authenticated or not user.is_active:
        return not_allowed(action)  # a visitor writes nothing (and costs no query of a page)
    if obj is None or action in _ROLE_ACTIONS:
        refused = _role_refusal(user, action)
        if refused is None and obj is not None and (scope := _scope_of(type(obj))) is not None:
            return scope(user, action, obj)
        return refused
    try:  # the app's check of this kind of object: a dictionary read once the kind is known
        check = _resolved[type(obj)]
    except KeyError:
        check = _resolve(type(obj))
    if check is None:
        return _role_refusal(user, action)
    return check(user, action, obj)


@dataclass(frozen=True, slots=True)
class Permit:
    """A service's one question before it writes, answered once: ``refused`` (the refusal, or
    None) and ``actor``, the account the write is recorded under (``actor_of``), so the service
    and its audit entry do not ask again."""

    refused: Refusal | None
    actor: Any


def permit(user: Any, action: str, obj: Any = None) -> Permit:
    """``refusal(user, action, obj)`` with the account the write is recorded under."""
    actor = actor_of(user)
    return Permit(refusal(user, action, obj), actor)


def can(user: Any, action: str, obj: Any = None) -> bool:
    """Whether ``user`` may do ``action`` on ``obj`` now: no ``refusal``."""
    return refusal(user, action, obj) is None


def refuse_unless(
    user: Any,
    action: str,
    obj: Any = None,
    *,
    current: Callable[[], dict[str, Any]] | None = None,
) -> None:
    """Raise the domain error of ``refusal(user, action, obj)``, if there is one: a service's
    one check, whose message is the refusal's sentence at every door. ``current`` says how
    things stand, for a conflict (409)."""
    refused = refusal(user, action, obj)
    if refused is not None:
        raise refused.exception(current=current() if current and refused.status == 409 else None)
