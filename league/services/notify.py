"""The league's triggers of notifications: one function per event of ``league.notify_events``,
called where the thing happens (inside its transaction: the message goes after commit), plus
the scheduled ones (beat's ``notify_scheduled``, or ``manage.py notify_scheduled`` from cron),
the players' own choices and the organiser's announcements."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from league import checks
from league import notify_events as events
from league.kernel import lifecycle
from league.kernel import notify as kernel
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Conflict, NotAllowed, ValidationFailed
from league.kernel.notify import MAX_DEVICES, notify, said, written_in_each_language
from league.kernel.permissions import Action, Actor, actor_of, can
from league.kernel.push import endpoint_allowed
from league.kernel.recap import recap_text
from league.models import (
    Announcement,
    Category,
    Channel,
    Delivery,
    Dispute,
    Forfeit,
    Game,
    GameSeat,
    GameStatus,
    Match,
    NotifyChoice,
    NotifyProfile,
    Player,
    Postponement,
    PushSubscription,
    Season,
    SeasonState,
    Team,
    Week,
)
from league.selectors.closing import games_closing_soon
from league.selectors.recap import week_recap, weeks_over
from league.services.availability import availability_link

ANNOUNCEMENT_LIMIT = 1000


# --- Who and what ------------------------------------------------------------------------------


def match_words(match: Match) -> dict[str, Any]:
    """``Match.__str__`` said in the reader's language."""
    return said(
        gettext_noop("%(home)s v %(away)s (week %(week)s)"),
        home=match.home.name,
        away=match.away.name,
        week=match.week.number,
    )


def game_words(game: Game) -> dict[str, Any]:
    """``Game.__str__`` said in the reader's language."""
    return said(
        gettext_noop("%(match)s, game %(number)s"),
        match=match_words(game.match),
        number=game.number,
    )


def _players(team: Team) -> list[int]:
    return [p.pk for p in team.players.all()]


def _season_context(season: Season) -> dict[str, Any]:
    return {"league": season.league.name, "season": season.name, "season_id": season.pk}


def _score(game: Game) -> str:
    return f"{game.match.home.name} {game.home_score}, {game.match.away.name} {game.away_score}"


def _match_sides(match: Match) -> list[tuple[Team, Team]]:
    return [(match.home, match.away), (match.away, match.home)]


def _match_context(match: Match, team: Team, opponent: Team) -> dict[str, Any]:
    week = match.week
    return {
        **_season_context(week.season),
        "team": team.name,
        "opponent": opponent.name,
        "date": match.when,  # its own date when it is postponed, else its night's
        "week_id": week.pk,
        "venue": week.venue.name if week.venue else "",
        "table": match.table,
        "match_id": match.pk,
    }


# --- The league's events -----------------------------------------------------------------------


def notify_result_to_confirm(game: Game) -> None:
    """A game just finished: the team(s) that have not vouched for it are asked to confirm."""
    if game.pk is None:
        return
    waiting = lifecycle.awaiting_teams(game)
    teams = [t for t in game.match.teams() if t.pk in waiting]
    notify(
        events.RESULT_TO_CONFIRM,
        [pid for team in teams for pid in _players(team)],
        {
            **_season_context(game.match.week.season),
            "game": game_words(game),
            "score": _score(game),
            "game_id": game.pk,
        },
        key=f"game:{game.pk}",
    )


def notify_dispute(dispute: Dispute, *, ruled: bool) -> None:
    """A dispute was raised on a game, or ruled on: both teams' players hear it."""
    game = dispute.game
    context: dict[str, Any] = {
        **_season_context(game.match.week.season),
        "game": game_words(game),
        "game_id": game.pk,
    }
    if ruled:
        event = events.DISPUTE_RULED
        context.update(
            status=said(_STATUS_WORDS.get(dispute.status, dispute.status)),
            rule=dispute.rule_reference or "-",
            ruling=dispute.ruling,
        )
    else:
        event = events.DISPUTE_RAISED
        # Said in each reader's language when the system wrote it (rival entries); as typed else.
        stored = {"_stored": dispute.claim_code, "params": dispute.claim_params}
        context.update(claim={**stored, "fallback": dispute.claim})
    recipients = [pid for team in game.match.teams() for pid in _players(team)]
    notify(event, recipients, context, key=f"dispute:{dispute.pk}")


_STATUS_WORDS = {"resolved": gettext_noop("resolved"), "dismissed": gettext_noop("dismissed")}


def notify_playoffs_drawn(season: Season, matches: Iterable[Match]) -> None:
    """The playoffs are drawn: every player of the season hears it, and each team of a
    first-round match hears whom it plays."""
    players = Player.objects.filter(teams__season=season).values_list("pk", flat=True)
    notify(
        events.PLAYOFFS_DRAWN,
        list(players),
        _season_context(season),
        key=f"season:{season.pk}:{season.playoff_seeding}",
    )
    notify_playoff_matches(matches)


def notify_playoff_matches(matches: Iterable[Match]) -> None:
    """Each new playoff match: its two teams hear whom they play."""
    for match in matches:
        for team, opponent in _match_sides(match):
            notify(
                events.PLAYOFF_MATCH,
                _players(team),
                {**_match_context(match, team, opponent), "round": match.playoff_round},
                key=f"match:{match.pk}",
            )


def notify_match_moved(match: Match, *, was: Any) -> None:
    """For the trigger of moving a match (or its night) to another date: ``was`` the old date."""
    for team, opponent in _match_sides(match):
        notify(
            events.MATCH_MOVED,
            _players(team),
            {**_match_context(match, team, opponent), "was": was},
            key=f"match:{match.pk}:{match.when}",
        )


def notify_match_postponed(match: Match, *, was: Any) -> None:
    """For the trigger of postponing a match: ``was`` the date it was planned for."""
    for team, opponent in _match_sides(match):
        notify(
            events.MATCH_POSTPONED,
            _players(team),
            {**_match_context(match, team, opponent), "was": was},
            key=f"match:{match.pk}:{was}:{match.when}",
        )


def notify_night_cancelled(week: Week) -> None:
    """For the trigger of cancelling a whole night: every player with a match that night."""
    players = Player.objects.filter(teams__home_matches__week=week).values_list("pk", flat=True)
    players_away = Player.objects.filter(teams__away_matches__week=week).values_list(
        "pk", flat=True
    )
    notify(
        events.NIGHT_CANCELLED,
        {*players, *players_away},
        {**_season_context(week.season), "week": week.number, "was": week.date},
        key=f"week:{week.pk}:{week.date}",
    )


def notify_forfeit(forfeit: Forfeit, *, undone: bool) -> None:
    """A forfeit recorded (or undone by a judge): both teams' players hear it."""
    match = forfeit.match
    for team, opponent in _match_sides(match):
        notify(
            events.FORFEIT_UNDONE if undone else events.FORFEIT_RECORDED,
            _players(team),
            {
                **_match_context(match, team, opponent),
                "forfeiter": forfeit.team.name,
                "reason": forfeit.undo_reason if undone else forfeit.reason,
            },
            key=f"forfeit:{forfeit.pk}",
        )


def notify_result_closed(game: Game) -> None:
    """The league closed a game nobody confirmed or disputed: the players who sat at its table
    (a sub who played included, a team's player who sat out not) and both captains hear it."""
    seated = list(GameSeat.objects.filter(game=game).values_list("player_id", flat=True))
    captains = [team.captain_id for team in game.match.teams() if team.captain_id]
    notify(
        events.RESULT_CLOSED,
        seated + captains if seated else [p for t in game.match.teams() for p in _players(t)],
        {
            **_season_context(game.match.week.season),
            "game": game_words(game),
            "score": _score(game),
            "hours": game.match.week.season.close_after_hours,
            "game_id": game.pk,
        },
        key=f"game:{game.pk}",
    )


def notify_sub_asked(match: Match, team: Team, subs: Iterable[Player | int]) -> None:
    """For the trigger of a captain asking for a sub: ``subs`` the players asked."""
    opponent = match.away if team.pk == match.home_id else match.home
    notify(
        events.SUB_ASKED,
        subs,
        {**_match_context(match, team, opponent), "captain": team.captain.name},
        key=f"match:{match.pk}:team:{team.pk}",
    )


def notify_week_stories(*, season_id: int) -> int:
    """Where the season sends the week's story (``Season.send_week_story``), tell every player
    of the season the story of each regular week once all its matches are over (confirmed or
    closed by the league), in each player's language. A week over before the setting was
    turned on is not sent; each week reaches each player once however often this runs (the
    deliveries' keys). Run after each recompute of the standings. Returns the weeks told."""
    season = Season.objects.select_related("league").get(pk=season_id)
    since = season.week_story_since
    if not season.send_week_story or since is None or season.state == SeasonState.DRAFT:
        return 0
    told = {
        key.split(":")[2]
        for key in Delivery.objects.filter(season=season, event=events.WEEK_STORY.code).values_list(
            "key", flat=True
        )
    }
    due = [pk for pk, last in weeks_over(season).items() if last >= since and str(pk) not in told]
    if not due:
        return 0
    players = list(
        Player.objects.filter(teams__season=season).values_list("pk", flat=True).distinct()
    )
    for week in Week.objects.filter(pk__in=due).select_related("season__league").order_by("number"):
        recap = week_recap(week)
        notify(
            events.WEEK_STORY,
            players,
            {
                **_season_context(season),
                "week": week.number,
                "week_id": week.pk,
                "story": written_in_each_language(partial(recap_text, recap)),
            },
            key=f"week:{week.pk}",
        )
    return len(due)


# --- Scheduled: beat or cron -------------------------------------------------------------------


def notify_scheduled(*, now: datetime | None = None) -> dict[str, int]:
    """Everything due now, each sent once however often this runs: the night reminders and
    the last call to confirm. Returns how many matches and games it told about."""
    now = now or timezone.now()
    done = {
        "night_reminders": notify_night_reminders(now=now),
        "confirm_reminders": notify_confirm_reminders(now=now),
    }
    for name, due in kernel.SCHEDULED.items():  # the other app's (club night reminders)
        done[name] = due(now)
    return done


def night_reminder_matches(*, now: datetime) -> list[Match]:
    """The matches played from today to ``PEGBOARD_REMINDER_HOURS`` ahead (on their own date
    when postponed) not yet begun, with all a reminder says, in a fixed number of queries: not
    a cancelled night's, not a forfeited match, never a draft season's."""
    today = timezone.localdate(now)
    until = timezone.localdate(now + timedelta(hours=settings.PEGBOARD_REMINDER_HOURS))
    started = Game.objects.filter(match=OuterRef("pk"))
    forfeited = Forfeit.objects.filter(match=OuterRef("pk"), undone_at__isnull=True)
    only_pk = Player.objects.only("pk")
    return list(
        Match.objects.annotate(played_on=Coalesce("date", "week__date"))  # its own if postponed
        .filter(
            played_on__gte=today,
            played_on__lte=until,
            week__season__importing=False,
            week__cancelled_reason="",
        )
        .exclude(week__season__state=SeasonState.DRAFT)
        .exclude(Exists(started))
        .exclude(Exists(forfeited))
        .select_related("week__season__league", "week__venue", "home", "away")
        .prefetch_related(
            Prefetch("home__players", queryset=only_pk),
            Prefetch("away__players", queryset=only_pk),
        )
    )


def notify_night_reminders(*, now: datetime) -> int:
    """The night reminder for every match due (keyed by the match and its date, so a match
    moved to another night is reminded again)."""
    matches = night_reminder_matches(now=now)
    for match in matches:
        for team, opponent in _match_sides(match):
            notify(
                events.NIGHT_REMINDER,
                _players(team),
                # The start time, in the venue's (or league's) zone as the calendar gives it.
                {**_match_context(match, team, opponent), "starts": settings.PEGBOARD_NIGHT_STARTS},
                key=f"match:{match.pk}:{match.when}",
            )
    return len(matches)


def night_answer_link(row: Delivery) -> str:
    """The reminder's one-tap answer page for its reader: signed for this player and night,
    it works without signing in ("" when the night is gone)."""
    week = Week.objects.filter(pk=row.context.get("week_id")).first()
    if week is None:
        return ""
    return availability_link(player=row.player, week=week, base_url=settings.PEGBOARD_SITE_URL)


kernel.add_personal_link(events.NIGHT_REMINDER, night_answer_link)


CLOSING_CALL = timedelta(hours=24)


def closing_call(season: Season) -> timedelta:
    """How long before the league closes a result its last call goes: 24 hours, or half the
    grace period where that is shorter."""
    hours = season.close_after_hours or 0
    return min(CLOSING_CALL, timedelta(hours=hours) / 2)


def notify_confirm_reminders(*, now: datetime) -> int:
    """The last call to confirm a finished game still waiting for a team. Where the season
    closes results, it goes ``closing_call`` before the close and says when that is; where the
    season never closes them, ``PEGBOARD_CONFIRM_REMINDER_HOURS`` after the game finished. A
    disputed game, or one whose teams entered a deal differently, gets none."""
    told = 0
    for closing in games_closing_soon(within=CLOSING_CALL, now=now):
        game = closing.game
        if closing.closes_at - now > closing_call(game.match.week.season):
            continue
        notify(
            events.RESULT_CLOSING_SOON,
            _waiting_players(game),
            {
                **_season_context(game.match.week.season),
                "game": game_words(game),
                "score": _score(game),
                "closes": closing.closes_at,
                "game_id": game.pk,
            },
            key=f"game:{game.pk}",
        )
        told += 1
    hours = settings.PEGBOARD_CONFIRM_REMINDER_HOURS
    games = list(
        Game.objects.filter(
            status=GameStatus.FINISHED,
            finished_at__lte=now - timedelta(hours=hours),
            home_rival=0,
            away_rival=0,
        )
        .filter(
            Q(match__week__season__close_after_hours__isnull=True)
            | Q(match__week__season__close_after_hours=0)
        )
        .select_related("match__week__season__league", "match__home", "match__away")
        .prefetch_related("match__home__players", "match__away__players")
    )
    for game in games:
        notify(
            events.RESULT_LAST_REMINDER,
            _waiting_players(game),
            {
                **_season_context(game.match.week.season),
                "game": game_words(game),
                "score": _score(game),
                "hours": hours,
                "game_id": game.pk,
            },
            key=f"game:{game.pk}",
        )
    return told + len(games)


def _waiting_players(game: Game) -> list[int]:
    waiting = lifecycle.awaiting_teams(game)
    return [pid for team in game.match.teams() if team.pk in waiting for pid in _players(team)]


# --- The organiser's announcements -------------------------------------------------------------


def announcement_post(*, user: Actor, season: Season, text: Any, days: Any) -> Announcement:
    """The organiser's word to a season: mailed to every player of it, and shown on the home
    page for ``days`` days."""
    if not can(user, Action.MANAGE_LEAGUE):
        raise NotAllowed(_("Only a league admin can post an announcement."))
    if season.state == SeasonState.DRAFT:
        raise ValidationFailed(
            _("This season is still a draft: publish it before you tell its players anything.")
        )
    if not isinstance(text, str) or not text.strip():
        raise ValidationFailed(_("Write what you want to tell the players."), field="text")
    text = text.strip()
    if len(text) > ANNOUNCEMENT_LIMIT:
        raise ValidationFailed(
            _("Keep it under %(n)s characters.") % {"n": ANNOUNCEMENT_LIMIT}, field="text"
        )
    if type(days) is not int or not 1 <= days <= 60:
        raise ValidationFailed(_("Show it for 1 to 60 days on the home page."), field="days")
    with transaction.atomic():
        announcement = Announcement.objects.create(
            season=season,
            text=text,
            expires_at=timezone.now() + timedelta(days=days),
            created_by=actor_of(user),
        )
        audit_log(
            actor=user,
            action=AuditAction.ANNOUNCEMENT_POST,
            obj=season,
            after={"text": text, "days": days},
        )
        players = Player.objects.filter(teams__season=season).values_list("pk", flat=True)
        notify(
            events.ANNOUNCEMENT,
            list(players),
            {**_season_context(season), "text": text},
            key=f"announcement:{announcement.pk}",
        )
    return announcement


# --- A player's own choices --------------------------------------------------------------------


def _own_player(user: Actor, player: Player) -> None:
    """Only the player chooses what they hear: an organiser or an admin cannot (so nobody can
    turn a player's choices back on for them)."""
    if getattr(user, "pk", None) is None or player.user_id != user.pk:
        raise NotAllowed(_("Only the player chooses what Pegboard sends them."))


def notify_choices_set(
    *, user: Actor, player: Player, off: Iterable[tuple[str, str]], language: Any
) -> None:
    """Set what ``player`` hears: ``off`` the (category, channel) pairs turned off, everything
    else on; ``language`` the language of their mails."""
    _own_player(user, player)
    if language not in {code for code, _name in settings.LANGUAGES}:
        raise ValidationFailed(_("Choose English or French."), field="language")
    wanted = set(off)
    for category, channel in wanted:
        if category not in Category.values or channel not in Channel.values:
            raise ValidationFailed(_("That is not a kind of message Pegboard sends."))
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        before = set(player.notify_off.values_list("category", "channel"))
        player.notify_off.exclude(
            pk__in=[c.pk for c in player.notify_off.all() if (c.category, c.channel) in wanted]
        ).delete()
        NotifyChoice.objects.bulk_create(
            [
                NotifyChoice(player=player, category=category, channel=channel)
                for category, channel in sorted(wanted - before)
            ]
        )
        NotifyProfile.objects.update_or_create(player=player, defaults={"language": language})
        audit_log(
            actor=user,
            action=AuditAction.NOTIFY_CHOICES,
            obj=player,
            before={"off": sorted(map(list, before))},
            after={"off": sorted(map(list, wanted)), "language": language},
        )


def notify_unsubscribe(*, player_id: int, category: str) -> Player | None:
    """A mail's one-click unsubscribe (its signed link stands for the player): that category
    by email is turned off. Returns the player, or None if they are gone."""
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            return None
        _choice, created = NotifyChoice.objects.get_or_create(
            player=player, category=category, channel=Channel.EMAIL
        )
        if created:
            audit_log(
                actor=None,
                action=AuditAction.NOTIFY_UNSUBSCRIBE,
                obj=player,
                after={"off": [[category, Channel.EMAIL.value]]},
                reason="unsubscribe link",
            )
    return player


# --- Web Push subscriptions --------------------------------------------------------------------


def push_subscribe(*, user: Actor, data: Any, user_agent: str = "") -> PushSubscription:
    """Store this device's subscription for the signed-in player (the same device again
    updates its keys). ``data`` is the browser's ``PushSubscription.toJSON()``. The endpoint
    must be a public push service's (``league.kernel.push.endpoint_allowed``); a player keeps
    ``MAX_DEVICES`` devices, the oldest going when another subscribes; a device another player
    subscribed is theirs until they turn it off."""
    player = Player.objects.filter(user=getattr(user, "pk", None)).first()
    if player is None:
        raise NotAllowed(_("Only a league player can get notifications on a phone."))
    keys = data.get("keys") if isinstance(data, dict) else None
    endpoint = data.get("endpoint") if isinstance(data, dict) else None
    if (
        not isinstance(endpoint, str)
        or len(endpoint) > 1000
        or not isinstance(keys, dict)
        or not isinstance(keys.get("p256dh"), str)
        or not isinstance(keys.get("auth"), str)
        or not 0 < len(keys["p256dh"]) <= 200
        or not 0 < len(keys["auth"]) <= 100
        or not endpoint_allowed(endpoint)
    ):
        raise ValidationFailed(_("This browser sent a subscription Pegboard cannot use."))
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        held = PushSubscription.objects.filter(endpoint=endpoint).first()
        if held is not None and held.player_id != player.pk:
            raise Conflict(
                _(
                    "This phone already gets another player's notifications. They turn them "
                    "off on their notifications page first, then you can turn yours on."
                )
            )
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            player=player,
            defaults={
                "p256dh": keys["p256dh"],
                "auth": keys["auth"],
                "user_agent": user_agent[:250],
            },
        )
        oldest = list(
            player.push_subscriptions.order_by("-created_at", "-pk").values_list("pk", flat=True)[
                MAX_DEVICES:
            ]
        )
        PushSubscription.objects.filter(pk__in=oldest).delete()
    return subscription


def push_device_remove(*, user: Actor, device_id: Any) -> int:
    """The player forgets one of their devices from their notifications page (or a league
    admin does, for any player). Returns how many went (0: not theirs, or gone already)."""
    if not isinstance(device_id, int) and not (isinstance(device_id, str) and device_id.isdigit()):
        return 0
    devices = PushSubscription.objects.filter(pk=int(device_id))
    if not can(user, Action.MANAGE_LEAGUE):
        devices = devices.filter(player__user=getattr(user, "pk", None))
    with transaction.atomic():
        removed = list(devices.select_related("player"))
        for device in removed:
            audit_log(
                actor=user,
                action=AuditAction.NOTIFY_CHOICES,
                obj=device.player,
                before={"device": device.user_agent or device.endpoint[:60]},
                reason="push device removed",
            )
        deleted, _rows = devices.delete()
    return deleted


def push_unsubscribe(*, user: Actor, endpoint: Any) -> int:
    """Forget this device (the player turned its notifications off). Returns how many."""
    deleted, _rows = PushSubscription.objects.filter(
        endpoint=endpoint if isinstance(endpoint, str) else "",
        player__user=getattr(user, "pk", None),
    ).delete()
    return deleted


def notify_postponement_asked(asked: Postponement) -> None:
    """The other team's players hear the request at once (after commit), with its deadline."""
    match = asked.match
    season = match.week.season
    other = match.away if asked.team_id == match.home_id else match.home
    notify(
        events.POSTPONEMENT_ASKED,
        [p.pk for p in other.players.all()],
        {
            "league": season.league.name,
            "season": season.name,
            "season_id": season.pk,
            "asker": match.home.name if other == match.away else match.away.name,
            "team": other.name,
            "opponent": match.home.name if other == match.away else match.away.name,
            "date": asked.date,
            "was": match.when,
            "reason": asked.reason,
            "answer_by": checks.postponement_answer_by(asked),
            "match_id": match.pk,
            "postponement_id": asked.pk,
        },
        key=f"postponement:{asked.pk}",
    )
