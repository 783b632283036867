"""The director's workspace's own writes: a club's members and night defaults, "Tonight", a
field entered at once (members tapped or names pasted, walk-ins made members), everyone
checked in, and a playoff no-show forfeited by the ACC's timing. Each is one transaction and
calls the event services for what they already do, so every door refuses the same things.

Semantics chosen where the issue is silent:

- A club's director is a user the club names among its directors who may run tournaments
  (the "Tournament directors" group); league admins direct every club (the rule is
  ``tournaments.selectors.clubs.directs``, which the federation asks too).
- A pasted name is a member of the club when a player of that name exists (the same person
  across nights, as the club's season standings count them); otherwise it is a walk-in: a
  new player, made a member of the club on the spot.
- A no-show in the playoffs (ACC forfeiture timing): nothing is forfeited before 5 minutes;
  at 5 minutes the first game is, and one more game every 15 minutes after that, never more
  than the match still needs. A forfeited game is recorded as won by the entrant present with
  the absent one on 0, so the bracket moves on exactly as if it had been played.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from contest import brackets
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Locked, NotAllowed, ValidationFailed
from league.kernel.parsers import name_from
from league.kernel.permissions import (
    TOURNAMENT_DIRECTORS,
    Action,
    Actor,
    actor_of,
)
from league.shared import Player
from tournaments.models import (
    Club,
    Entrant,
    EntrantStatus,
    PlayoffGame,
    PlayoffMatch,
    SidePotKind,
    Tournament,
    TournamentStage,
)
from tournaments.selectors.clubs import directs
from tournaments.services._common import _changed, _lock, _require
from tournaments.services.bracket import _where_in_bracket, after_game
from tournaments.services.clubs import club_create, night_assign_season
from tournaments.services.events import entrant_check_in, entrant_register, tournament_create
from tournaments.services.money import pot_hands_check, purse_set, side_pot_set

FORFEIT_FIRST_MINUTES = 5  # ACC: the first game is forfeited after 5 minutes' absence
FORFEIT_EVERY_MINUTES = 15  # ... and one more game every 15 minutes after that
MAX_NAME = 120  # a player's name (Player.name)


def _require_club(user: Actor, club: Club) -> None:
    _require(user, Action.RUN_TOURNAMENT)
    if not directs(user, club):
        raise NotAllowed(
            _("Only the directors of %(club)s and league admins run its nights.")
            % {"club": club.name}
        )


def club_found(*, user: Actor, name: str) -> Club:
    """A new club, directed by whoever makes it."""
    with transaction.atomic():
        club = club_create(user=user, name=name)
        director = actor_of(user)
        if director is not None:
            club.directors.add(director)
    return club


def names_from(text: str) -> list[str]:
    """The names of a pasted list, one a line, blanks and repeats left out, in order.

    >>> names_from("Ann\\n  Bob \\n\\nann\\nCy")
    ['Ann', 'Bob', 'Cy']
    """
    seen: set[str] = set()
    out: list[str] = []
    for line in text.splitlines():
        name = " ".join(line.split())
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            out.append(name)
    return out


def _check_names(names: Sequence[str]) -> None:
    for number, name in enumerate(names, start=1):
        name_from(name, field="names", label=_("Line %(n)s") % {"n": number}, limit=10**6)
        if len(name) > MAX_NAME:
            raise ValidationFailed(
                _("Line %(n)s is too long for a name (%(max)s letters at most).")
                % {"n": number, "max": MAX_NAME},
                field="names",
            )


def _player_named(name: str) -> tuple[Player, bool]:
    player = Player.objects.filter(name__iexact=name).first()
    if player is not None:
        return player, False
    return Player.objects.create(name=name), True


def club_members_add(*, user: Actor, club: Club, names: Sequence[str]) -> list[Player]:
    """Make these people members of the club (new players for names never seen)."""
    _require_club(user, club)
    names = names_from("\n".join(names))
    if not names:
        raise ValidationFailed(_("Type at least one name, one a line."), field="names")
    _check_names(names)
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        players, new = [], []
        for name in names:
            player, created = _player_named(name)
            players.append(player)
            if created:
                new.append(player.name)
        club.members.add(*players)
        audit_log(
            actor=user,
            action=AuditAction.CLUB_MEMBERS_ADD,
            obj=club,
            after={"members": [p.name for p in players], "new": new},
        )
    return players


def club_director_add(*, user: Actor, club: Club, username: str) -> Any:
    """Name another director of the club (an account that exists): they join the club's
    directors and the "Tournament directors" group, so the workspace and its services let
    them in."""
    _require_club(user, club)
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    username = name_from(username, field="username", label=_("The login"), limit=150)
    account = (
        get_user_model().objects.filter(username__iexact=username).first() if username else None
    )
    if account is None:
        raise ValidationFailed(
            _("Nobody has the login %(name)s: they need an account first.") % {"name": username},
            field="username",
        )
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        club.directors.add(account)
        account.groups.add(Group.objects.get_or_create(name=TOURNAMENT_DIRECTORS)[0])
        audit_log(
            actor=user,
            action=AuditAction.CLUB_UPDATE,
            obj=club,
            after={"director_added": account.get_username()},
        )
    return account


CLUB_DEFAULTS = (
    "night_games",
    "round_minutes",
    "entry_fee",
    "house_percent",
    "pot_hands",
    "pot_fee",
    "pot_rolls_over",
    "send_night_story",
)


def club_defaults_set(*, user: Actor, club: Club, changes: dict[str, Any]) -> Club:
    """Change a club's night defaults (games a night, minutes per round, entry fee in cents,
    house share, and the special-hand pot: its hands, entry in cents, whether an unclaimed
    one rolls over): the next "Tonight" uses them; nights already made keep theirs. Also
    whether each night's story goes to the club's members when the night is closed."""
    _require_club(user, club)
    unknown = set(changes) - set(CLUB_DEFAULTS)
    if unknown:
        raise ValidationFailed(
            _("These are not a club's night settings: %(names)s.")
            % {"names": ", ".join(sorted(unknown))}
        )
    limits = {
        "night_games": (1, 40, _("A night has from 1 to 40 games.")),
        "round_minutes": (0, 180, _("A round lasts from 0 (no clock) to 180 minutes.")),
        "entry_fee": (0, 1_000_000, _("The entry fee is whole cents, from 0 to 1000000.")),
        "house_percent": (0, 100, _("The house share is a percent from 0 to 100.")),
        "pot_fee": (0, 1_000_000, _("The pot's entry is whole cents, from 0 to 1000000.")),
    }
    changes = dict(changes)
    if "pot_hands" in changes:
        hands = changes["pot_hands"]
        if not isinstance(hands, list | tuple) or not all(isinstance(h, str) for h in hands):
            raise ValidationFailed(_("Tick the hands that win the pot."), field="pot_hands")
        checked = pot_hands_check(SidePotKind.BIG_HAND, hands) if hands else ()
        changes["pot_hands"] = list(checked or ())
    if "pot_rolls_over" in changes and not isinstance(changes["pot_rolls_over"], bool):
        raise ValidationFailed(_("Rolling over is yes or no."), field="pot_rolls_over")
    if "send_night_story" in changes and not isinstance(changes["send_night_story"], bool):
        raise ValidationFailed(
            _("Sending the night's story is yes or no."), field="send_night_story"
        )
    for field, value in changes.items():
        if field in ("pot_hands", "pot_rolls_over", "send_night_story"):
            continue
        low, high, message = limits[field]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValidationFailed(message, field=field)
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        before = {f: getattr(club, f) for f in changes}
        for field, value in changes.items():
            setattr(club, field, value)
        club.save(update_fields=list(changes) or None)
        audit_log(
            actor=user, action=AuditAction.CLUB_UPDATE, obj=club, before=before, after=changes
        )
    return club


def _night_name(club: Club, date: dt.date) -> str:
    base = f"{club.name} · {date.isoformat()}"
    name, n = base, 1
    while Tournament.objects.filter(name=name).exists():
        n += 1
        name = f"{base} ({n})"
    return name


def night_tonight(*, user: Actor, club: Club, date: dt.date | None = None) -> Tournament:
    """Tonight's club night from the club's defaults: its games, round clock, entry fee and
    house share, its special-hand pot (holding what the club's last night carried over),
    counted toward the club's latest season if it has one."""
    _require_club(user, club)
    date = date or timezone.localdate()
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        night = tournament_create(
            user=user,
            name=_night_name(club, date),
            date=date,
            games_per_entrant=club.night_games,
        )
        night.club = club
        night.round_minutes = club.round_minutes
        night.save(update_fields=["club", "round_minutes"])
        pot_wanted = bool(club.pot_hands and club.pot_fee)
        if club.entry_fee or pot_wanted:  # a pot alone keeps money too
            purse_set(
                user=user,
                tournament=night,
                entry_fee=club.entry_fee,
                house_percent=club.house_percent,
            )
        if pot_wanted:  # with what the club's last night carried over
            side_pot_set(
                user=user,
                tournament=night,
                kind=SidePotKind.BIG_HAND,
                fee=club.pot_fee,
                hands=club.pot_hands,
                rolls_over=club.pot_rolls_over,
            )
        season = club.seasons.order_by("-starts", "-pk").first()
        if season is not None:
            night_assign_season(user=user, tournament=night, season=season)
        audit_log(
            actor=user,
            action=AuditAction.NIGHT_TONIGHT,
            obj=night,
            after={"club": club.name, "date": date.isoformat()},
        )
    return night


def entrants_add(
    *,
    user: Actor,
    tournament: Tournament,
    names: Sequence[str] = (),
    players: Sequence[Player] = (),
    check_in: bool = True,
) -> list[Entrant]:
    """Enter members (tapped) and names (pasted) at once; at a club's night a name nobody
    has is a walk-in, made a member. Someone already entered is refused by name, and then
    nobody is entered."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    club = tournament.club
    if club is not None:
        _require_club(user, club)
    names = names_from("\n".join(names))
    _check_names(names)
    if not names and not players:
        raise ValidationFailed(
            _("Tap the members who play tonight or type their names, one a line."),
            field="names",
        )
    with transaction.atomic():
        _lock(tournament)
        roster = list(players)
        for name in names:
            roster.append(_player_named(name)[0])
        if club is not None:
            club.members.add(*roster)
        entered: list[Entrant] = []
        seen: set[int] = set()
        for player in roster:
            if player.pk in seen:
                continue
            seen.add(player.pk)
            entered.append(
                entrant_register(
                    user=user,
                    tournament=tournament,
                    name=player.name,
                    players=[player],
                    check_in=check_in,
                )
            )
    return entered


def entrants_check_in_all(*, user: Actor, tournament: Tournament) -> list[Entrant]:
    """Check in every registered entrant (the withdrawn stay out)."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        waiting = list(tournament.entrants.filter(status=EntrantStatus.REGISTERED))
        if not waiting:
            raise ValidationFailed(_("Everyone entered is checked in already."))
        return [entrant_check_in(user=user, entrant=e) for e in waiting]


def forfeit_games(minutes: int) -> int:
    """How many games an absent player has forfeited after ``minutes`` (ACC timing).

    >>> [forfeit_games(m) for m in (0, 4, 5, 19, 20, 35)]
    [0, 0, 1, 1, 2, 3]
    """
    if minutes < FORFEIT_FIRST_MINUTES:
        return 0
    return 1 + (minutes - FORFEIT_FIRST_MINUTES) // FORFEIT_EVERY_MINUTES


def playoff_forfeit(
    *, user: Actor, match: PlayoffMatch, absent: Entrant, minutes: Any
) -> tuple[PlayoffMatch, int]:
    """A playoff no-show: the games ``absent`` forfeits after ``minutes`` away from the table
    (ACC timing), recorded as won by the other entrant, no more than the match needs."""
    _require(user, Action.RUN_TOURNAMENT, match.tournament)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
        raise ValidationFailed(
            _("Say how many minutes the player has been away, as a whole number."),
            field="minutes",
        )
    games = forfeit_games(minutes)
    if games == 0:
        raise ValidationFailed(
            _("Nothing is forfeited before %(n)s minutes: wait, then try again.")
            % {"n": FORFEIT_FIRST_MINUTES},
            field="minutes",
        )
    with transaction.atomic():
        tournament = _lock(match.tournament)
        match = PlayoffMatch.objects.select_related("top", "bottom", "winner").get(pk=match.pk)
        where = _where_in_bracket(match, tournament)
        if tournament.stage != TournamentStage.PLAYOFFS or match.winner_id is not None:
            raise Locked(_("The match (%(where)s) is decided already.") % {"where": where})
        if match.top is None or match.bottom is None:
            raise Locked(_("The match (%(where)s) waits for its two entrants.") % {"where": where})
        if absent.pk not in (match.top_id, match.bottom_id):
            raise ValidationFailed(
                _("%(name)s does not play in this match (%(where)s).")
                % {"name": absent.name, "where": where},
                field="absent",
            )
        present = match.bottom if absent.pk == match.top_id else match.top
        assert present is not None
        winners = list(match.games.order_by("number").values_list("winner_id", flat=True))
        recorded = 0
        best_of = match.best_of or tournament.playoff_best_of
        while recorded < games and brackets.match_winner(winners, best_of=best_of) is None:
            PlayoffGame.objects.create(
                match=match,
                number=len(winners) + 1,
                winner=present,
                loser_score=0,
                entered_by=actor_of(user),
            )
            winners.append(present.pk)
            recorded += 1
        after_game(tournament, match, brackets.match_winner(winners, best_of=best_of), present)
        audit_log(
            actor=user,
            action=AuditAction.PLAYOFF_FORFEIT,
            obj=match,
            after={"absent": absent.name, "minutes": minutes, "games": recorded},
        )
    _changed(tournament.pk)
    return PlayoffMatch.objects.get(pk=match.pk), recorded


def round_clock_end(started_at: dt.datetime | None, minutes: int) -> dt.datetime | None:
    """When a round started at ``started_at`` runs out of time (None: no clock)."""
    if started_at is None or not minutes:
        return None
    return started_at + dt.timedelta(minutes=minutes)
