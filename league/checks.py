"""Who may do what to a league match, game, deal or dispute, and why not: the league's object
checks, registered with ``permissions.register_check`` by ``LeagueConfig.ready()``.

Each check answers the role first (a 403: "only the players of these two teams ...") and then
the game's state, from ``lifecycle`` (a 409 with the state's sentence). A game's facts are
``lifecycle.game_facts``, the ones its state was settled from, so a button and the service that
takes its press read the same. The rules in words are in ``league.kernel.permissions``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from contest import brackets
from league.kernel import lifecycle
from league.kernel.errors import Conflict, Locked, Refusal, ValidationFailed
from league.kernel.lifecycle import Event
from league.kernel.permissions import (
    Action,
    Actor,
    Trusted,
    add_role,
    add_warm,
    is_judge,
    is_league_admin,
    is_official,
    not_allowed,
    register_check,
)
from league.models import Deal, Dispute, Game, GameStatus, Match, Postponement, Team

START = Refusal(
    "not_players_start", _("Only the players of these two teams can start their games.")
)
UNDER_WAY = (
    "game_under_way",
    _(
        "Game %(n)s is still being played: finish it before starting the next one (or cancel "
        "it, if no deal was entered)."
    ),
)
ALL_STARTED = "all_started", _("All %(n)s games of this match have started.")
DECIDED = "match_decided", _("This match is decided: %(team)s has won it.")
CANCEL = Refusal(
    "not_players_cancel", _("Only the players of these two teams can cancel their games.")
)
CANCEL_DEALS = Refusal(
    "game_has_deals",
    _("A deal of this game was entered: it can no longer be cancelled, only voided by a judge."),
    error=Locked,
)
ENTER = Refusal(
    "not_players_enter", _("Only the players of these two teams can enter their scores.")
)
CORRECT = Refusal(
    "not_entering_team",
    _("Only the team that entered a deal can correct it; otherwise raise a dispute."),
)
WITHDRAW_RIVAL = Refusal(
    "not_sending_team", _("Only the team that sent this entry can withdraw it.")
)
RIVAL_SETTLED = Refusal("rival_settled", _("This entry is already settled."), error=Conflict)
CONFIRM = Refusal(
    "not_asked_team", _("Only a player of the team asked to confirm can confirm a game.")
)
CONFIRM_RIVAL = Refusal(
    "rival_first",
    _(
        "Your team entered a deal differently: raise a dispute about it, or accept the other "
        "numbers, before confirming."
    ),
    error=ValidationFailed,
)
VOUCHED = Refusal(
    "already_vouched",
    _("Your team has vouched for this game (it entered it), so the other team must confirm it."),
)
NOT_ASKED = Refusal(
    "not_asked",
    _("This season asks no confirmation of your team: the game waits for the other team."),
)
REJECT = Refusal("not_asked_reject", _("Only the team asked to confirm this game can reject it."))
DISPUTE = Refusal(
    "not_players_dispute", _("Only the players of these two teams can dispute this game.")
)
WITHDRAW_DISPUTE = Refusal(
    "not_raising_team", _("Only the team that raised a dispute can withdraw it.")
)
DISPUTE_SETTLED = Refusal("dispute_settled", _("This dispute is already settled."), error=Conflict)
RULE = Refusal("not_a_judge", _("Only a judge can rule on a dispute."))
RULE_OWN = Refusal(
    "own_team_dispute", _("A judge cannot rule on a dispute involving their own team.")
)
VOID = Refusal(
    "not_official_void",
    _("Only a judge or a league admin whose team does not play in it can void a game."),
)


FORFEIT = Refusal(
    "not_official_forfeit",
    _("Only a judge or a league admin whose team does not play in it can record a forfeit."),
)
FORFEITED = Refusal(
    "match_forfeited",
    _("This match is already forfeited: a judge can undo the forfeit first."),
    error=Locked,
)
NOTHING_TO_FORFEIT = Refusal(
    "nothing_to_forfeit",
    _("Every game of this match is played: there is nothing left to forfeit."),
    error=Conflict,
)
UNDO_FORFEIT = Refusal(
    "not_judge_forfeit", _("Only a judge whose team does not play in it can undo a forfeit.")
)
NO_FORFEIT = Refusal("no_forfeit", _("This match has no forfeit to undo."), error=Conflict)


POSTPONE = Refusal(
    "not_players_postpone",
    _("Only the players of these two teams, or a league admin, can postpone this match."),
)
POSTPONE_PLAYED = Refusal(
    "postpone_played",
    _("A game of this match has been played: it can no longer be postponed."),
    error=Conflict,
)
POSTPONE_FORFEITED = Refusal(
    "postpone_forfeited",
    _("This match is forfeited: there is nothing to postpone."),
    error=Conflict,
)
POSTPONE_CANCELLED = Refusal(
    "night_cancelled",
    _("This night is cancelled: the organiser moves it to a new date."),
    error=Conflict,
)
POSTPONE_ASKED = Refusal(
    "postponement_asked",
    _("A postponement of this match is already asked: the other team answers it first."),
    error=Conflict,
)
POSTPONE_LATE = Refusal(
    "postpone_too_late",
    _("No make-up dates in the last two weeks: ask the organiser."),
    error=Conflict,
)
ANSWER = Refusal(
    "not_other_team_answer",
    _("Only the other team's players can accept or decline this postponement."),
)
ANSWERED = Refusal(
    "postponement_answered", _("This postponement has already been answered."), error=Conflict
)
ANSWER_LATE = _(
    "The time to answer this postponement ran out on %(when)s: the organiser decides now."
)
#: How long the other team has to accept or decline a postponement; after it, the request
#: waits for the organiser (their match page decides, ``postponements.match_postpone``).
ANSWER_HOURS = 48


def postponement_answer_by(postponement: Any) -> dt.datetime:
    """When the other team's time to answer ``postponement`` runs out."""
    return postponement.created_at + dt.timedelta(hours=ANSWER_HOURS)


# --- Whose team -----------------------------------------------------------------------------------


def team_ids(user: Any) -> frozenset[int]:
    """Every team ``user`` plays for, fetched once per user object (like its groups), so
    checking a page of matches costs no query per row."""
    cache = getattr(user, "_pegboard_teams", None)
    if cache is None:
        # Through the player's account in one query (not the player, then their teams).
        teams = Team.objects.filter(players__user_id=user.pk).values_list("pk", flat=True)
        cache = frozenset(teams) if user.is_authenticated else frozenset()
        user._pegboard_teams = cache
    return cache


def teams_of(user: Any, match: Any) -> set[int]:
    """Ids of the teams of ``match`` that ``user`` plays for."""
    if isinstance(user, Trusted):
        user = user.user
    if user is None or not user.is_authenticated:
        return set()
    return {match.home_id, match.away_id} & team_ids(user)


def team_of(user: Any, match: Any) -> int | None:
    """The team of ``match`` that ``user`` plays for (a player is on one team a season)."""
    mine = teams_of(user, match)
    return next(iter(sorted(mine)), None)


def may_view_disputes(user: Any) -> bool:
    """Judges and league admins read every dispute; a player their own teams'."""
    return is_official(user) or bool(team_ids(user))


#: A match read with the teams of the user who asks (``league.services.deals`` reads them in
#: the statement that locks the game): ``(user id, team ids)``. ``_mine`` answers from it
#: instead of asking ``teams_of``, so a deal's refusal costs no query of teams.
ASKER_TEAMS = "_pegboard_asker_teams"


def _mine(user: Actor, match: Match) -> set[int]:
    """``teams_of(user, match)``, from the match when it was read with them."""
    known = getattr(match, ASKER_TEAMS, None)
    if known is not None and known[0] == getattr(user, "pk", None):
        return set(known[1])
    return teams_of(user, match)


def _state(event: Event, status: str) -> Refusal | None:
    """``lifecycle.state_refusal``, asked only when the lifecycle's table says no (the
    sentence is the lifecycle's): an allowed event costs no call."""
    if status in lifecycle.ALLOWED[event]:
        return None
    return lifecycle.state_refusal(event, status)


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


def entered_by_team(deal: Any, match: Any) -> int | None:
    """The team of ``match`` whose player entered ``deal``."""
    user_id = deal.entered_by_id
    return None if user_id is None else roster_of(match).get(user_id)


def games_per_match(match: Any) -> int:
    season = match.week.season
    return season.playoff_games_per_match if match.playoff_round else season.games_per_match


def playoff_winner(match: Any, games: Iterable[Any]) -> Any:
    """The team that has won a playoff match (``contest.brackets.match_winner`` over
    ``games``, its games that are not void), else None. A league match plays all its games:
    each one earns league points."""
    if not match.playoff_round:
        return None
    won = brackets.match_winner(
        [g.winner_id for g in games if g.winner_id is not None], best_of=games_per_match(match)
    )
    return next((t for t in (match.home, match.away) if t.pk == won), None)


def start_refusal(match: Any, games: Iterable[Any]) -> Refusal | None:
    """Why the next game of ``match`` cannot start, from ``games``, its games that are not void
    (None if it can): games are played in order, one at a time at a table, so a game under way
    is finished (or cancelled) first; a match has its number of games; a decided playoff match
    plays no more."""
    games = list(games)
    if match.week.cancelled_reason:
        return POSTPONE_CANCELLED
    if (early := night_refusal(match)) is not None:
        return early
    playing = [g.number for g in games if g.status == GameStatus.IN_PROGRESS]
    if playing:
        code, text = UNDER_WAY
        return Refusal(code, text, params={"n": min(playing)}, error=Conflict)
    limit = games_per_match(match)
    if len(games) >= limit:
        code, text = ALL_STARTED
        return Refusal(code, text, params={"n": limit}, error=Conflict)
    winner = playoff_winner(match, games)
    if winner is not None:
        code, text = DECIDED
        return Refusal(code, text, params={"team": winner.name}, error=Conflict)
    return None


EARLY = _(
    "This match is played on %(night)s: its games start that night, unless the organiser "
    "allows an earlier start."
)


def night_refusal(match: Any, *, today: dt.date | None = None) -> Refusal | None:
    """Why no game of ``match`` starts yet (None if it may): a game starts on its night, the
    match's own date when it was postponed, else its week's, unless the organiser allowed an
    earlier start for this match (``Match.early_start``). A match with no date yet waits for
    none. A playoff match is drawn when it is due, so it plays when it is drawn."""
    night = match.when
    if night is None or match.early_start or match.playoff_round:
        return None
    today = today or timezone.localdate()
    if today >= night:
        return None
    said = formats.date_format(night, "DATE_FORMAT")
    return Refusal("before_its_night", EARLY, params={"night": said}, error=Conflict)


def forfeit_numbers(match: Any, games: Iterable[Any]) -> list[int]:
    """The numbers of the games a forfeit of ``match`` would award, from ``games``, its games
    that are not void: every game not over yet (one under way included: the forfeit replaces
    it), capped by the season's ``forfeit_games``; none once a playoff match is decided."""
    games = list(games)
    if playoff_winner(match, games) is not None:
        return []
    over = {g.number for g in games if g.status != GameStatus.IN_PROGRESS}
    numbers = [n for n in range(1, games_per_match(match) + 1) if n not in over]
    cap = match.week.season.forfeit_games
    return numbers if cap is None else numbers[:cap]


def standing_forfeit(match: Any) -> Any:
    """The match's forfeit that stands (not undone), or None."""
    return next((f for f in match.forfeits.all() if f.undone_at is None), None)


def last_makeup_day(match: Any) -> Any:
    """The last date a postponed ``match`` may be played (None: no dates to go by): within the
    season's ``makeup_days`` of its night, and before the season's last two weeks begin."""
    week = match.week
    if week.date is None:
        return None
    season = week.season
    last = week.date + dt.timedelta(days=season.makeup_days)
    dates = sorted(
        d
        for d in season.weeks.filter(is_playoff=False, date__isnull=False).values_list(
            "date", flat=True
        )
    )
    if len(dates) >= 2:
        last = min(last, dates[-2] - dt.timedelta(days=1))
    return last


def postpone_refusal(match: Any, games: Iterable[Any]) -> Refusal | None:
    """Why ``match`` cannot be postponed now, whoever asks (None if it can)."""
    if any(g.status != GameStatus.VOID for g in games):
        return POSTPONE_PLAYED
    if standing_forfeit(match) is not None:
        return POSTPONE_FORFEITED
    if match.week.cancelled_reason:
        return POSTPONE_CANCELLED
    last = last_makeup_day(match)
    if last is not None and last < match.week.date:
        return POSTPONE_LATE
    return None


def postponement_refusal(user: Actor, action: str, postponement: Any) -> Refusal | None:
    match = postponement.match
    if action == Action.ANSWER_POSTPONEMENT:
        mine = teams_of(user, match)
        if not mine or postponement.team_id in mine:
            return ANSWER
        if postponement.status != "asked":
            return ANSWERED
        answer_by = postponement_answer_by(postponement)
        if timezone.now() > answer_by:
            when = formats.date_format(timezone.localtime(answer_by), "DATETIME_FORMAT")
            return Refusal(
                "postponement_answer_late", ANSWER_LATE, params={"when": when}, error=Conflict
            )
        return None
    return match_refusal(user, action, match)


def _games_of(match: Match) -> list[Game]:
    """The match's games that are not void: from its prefetched games when the page read them
    (the match page), else one query."""
    return [g for g in match.games.all() if g.status != GameStatus.VOID]


def match_refusal(user: Actor, action: str, match: Match) -> Refusal | None:
    mine = _mine(user, match)
    if action == Action.KEEP_SCORE:
        return None if mine or is_league_admin(user) else START
    if action == Action.START_GAME:
        if not mine and not is_league_admin(user):
            return START
        return start_refusal(match, _games_of(match))
    if action == Action.VIEW_DISPUTES:
        return None if mine or is_official(user) else not_allowed(action)
    if action == Action.RECORD_FORFEIT:
        if mine or not is_official(user):
            return FORFEIT
        if standing_forfeit(match) is not None:
            return FORFEITED
        return None if forfeit_numbers(match, _games_of(match)) else NOTHING_TO_FORFEIT
    if action == Action.UNDO_FORFEIT:
        if mine or not is_judge(user):
            return UNDO_FORFEIT
        return None if standing_forfeit(match) is not None else NO_FORFEIT
    if action == Action.POSTPONE_MATCH:
        if not mine and not is_league_admin(user):
            return POSTPONE
        refused = postpone_refusal(match, _games_of(match))
        asked = any(p.status == "asked" for p in match.postponements.all())
        if refused is None and asked and mine and not is_league_admin(user):
            return POSTPONE_ASKED
        return refused
    return not_allowed(action)


def game_refusal(user: Actor, action: str, game: Game) -> Refusal | None:
    match = game.match
    if action in (Action.KEEP_SCORE, Action.START_GAME, Action.VIEW_DISPUTES):
        return match_refusal(user, action, match)
    mine = _mine(user, match)
    status = game.status
    if action == Action.CANCEL_GAME:
        if not mine and not is_league_admin(user):
            return CANCEL
        return cancel_refusal(game)
    if action == Action.RECORD_DEAL:
        if not mine and not is_league_admin(user):
            return ENTER
        return _state(Event.RECORD_DEAL, status)
    if action == Action.CORRECT_DEAL:  # "may this user correct deals of this game"
        return _state(Event.CORRECT_DEAL, status) if mine else CORRECT
    if action in (Action.CONFIRM_GAME, Action.REJECT_GAME):
        return _vouch_refusal(action, game, mine)
    if action == Action.RAISE_DISPUTE:
        if mine:
            return _state(Event.RAISE_DISPUTE, status)
        # Judges and league admins open a review of any game but their own team's, a
        # confirmed one included (it then waits for a judge's ruling).
        if is_official(user):
            return _state(Event.RULE, status)
        return DISPUTE
    if action == Action.RULE_DISPUTE:
        if not is_judge(user):
            return RULE
        return RULE_OWN if mine else _state(Event.RULE, status)
    if action == Action.VOID_GAME:
        if mine or not is_official(user):
            return VOID
        return _state(Event.VOID, status)
    return not_allowed(action)


def cancel_refusal(game: Game) -> Refusal | None:
    """Why ``game`` cannot be cancelled now, whoever asks: only a game under way with no deal
    entered can (after its first deal, only a judge's void takes it off the record)."""
    if game.deal_count and game.status != GameStatus.VOID:
        return CANCEL_DEALS
    return lifecycle.state_refusal(Event.CANCEL, game.status)


def _vouch_refusal(action: str, game: Game, mine: set[int]) -> Refusal | None:
    """A team that still has to vouch for a finished game confirms or rejects it; a team with
    an unsettled rival entry settles it before confirming."""
    confirm = action == Action.CONFIRM_GAME
    if not mine:
        return CONFIRM if confirm else REJECT
    refused = lifecycle.state_refusal(Event.CONFIRM if confirm else Event.REJECT, game.status)
    if refused is not None:
        return refused
    facts = lifecycle.game_facts(game)
    rivals = {game.match.home_id: facts.home.rival, game.match.away_id: facts.away.rival}
    if confirm and any(rivals[t] for t in mine):
        return CONFIRM_RIVAL
    if mine & lifecycle.awaiting_teams(game, facts):
        return None
    if not confirm:
        return REJECT
    return VOUCHED if facts.needs_confirmation else NOT_ASKED


def deal_refusal(user: Actor, action: str, deal: Deal) -> Refusal | None:
    game = deal.game
    if action == Action.CORRECT_DEAL:
        # The team that entered a deal corrects it before confirmation.
        mine = teams_of(user, game.match)  # an outsider costs no query of the roster
        if not mine or entered_by_team(deal, game.match) not in mine:
            return CORRECT
        return lifecycle.state_refusal(Event.CORRECT_DEAL, game.status)
    if action == Action.WITHDRAW_RIVAL:
        mine = teams_of(user, game.match)
        if not deal.is_rival or not mine or entered_by_team(deal, game.match) not in mine:
            return WITHDRAW_RIVAL
        refused = lifecycle.state_refusal(Event.WITHDRAW_RIVAL, game.status)
        return refused or (RIVAL_SETTLED if deal.settled_at is not None else None)
    return game_refusal(user, action, game)


def dispute_refusal(user: Actor, action: str, dispute: Dispute) -> Refusal | None:
    game = dispute.game
    if action == Action.WITHDRAW_DISPUTE:
        if dispute.raised_by_team_id not in teams_of(user, game.match):
            return WITHDRAW_DISPUTE
        return DISPUTE_SETTLED if dispute.is_closed else None
    return game_refusal(user, action, game)


def register() -> None:
    """Called by ``LeagueConfig.ready()``."""
    register_check(Match, match_refusal)
    register_check(Game, game_refusal)
    register_check(Deal, deal_refusal)
    register_check(Dispute, dispute_refusal)
    register_check(Postponement, postponement_refusal)
    add_warm(team_ids)  # a page of many checks reads the user's teams once
    add_role(Action.VIEW_DISPUTES, may_view_disputes)
