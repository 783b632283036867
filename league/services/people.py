"""Players and their logins: a league admin adds players (one, a pasted list or a spreadsheet),
each with a login of their own, and invites them by email to choose a password.

Semantics chosen where the issue is silent:
- A list is taken whole or not at all: every line is checked first and every problem is named
  with its line, so the organiser fixes the list and pastes it again.
- A name that is already a player is that player (last season's roster can be pasted again):
  they are kept, and given a login if they had none and the line has an email.
- A login's user name is the player's first name in lower case (``ann``), else first and last
  names (``ann.smith``), else with a number; the invitation says which.
- The invitation is Django's password-reset machinery with a salt of its own and a longer life
  (``INVITATION_DAYS``): the link works once, until the player sets a password.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage, get_connection
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_encode
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import ValidationFailed
from league.kernel.parsers import name_from
from league.kernel.permissions import PLAYERS, Action, Actor, refuse_unless
from league.models import AuditEntry, Game, HeldInvitation, Player, Season, SeasonState
from league.services.records import records_forget

log = logging.getLogger(__name__)

INVITATION_DAYS = 14
NAME_MAX = 120


class InvitationTokenGenerator(PasswordResetTokenGenerator):
    """Password-reset tokens of their own kind, valid for ``INVITATION_DAYS``: a player may
    open the invitation a week later. Like a reset token, it dies once a password is set."""

    key_salt = "pegboard.services.people.invitation"

    def check_token(self, user: User | None, token: str | None) -> bool:
        if not (user and token):
            return False
        try:
            ts_b36, _hash = token.split("-")
            ts = base36_to_int(ts_b36)
        except ValueError:
            return False
        for secret in [self.secret, *self.secret_fallbacks]:
            if constant_time_compare(self._make_token_with_timestamp(user, ts, secret), token):
                break
        else:
            return False
        age = self._num_seconds(self._now()) - ts
        return age <= INVITATION_DAYS * 24 * 3600


invitation_tokens = InvitationTokenGenerator()


@dataclass(frozen=True)
class PlayerLine:
    """One player as the organiser listed them: a name, maybe an email, and where it was."""

    name: str
    email: str = ""
    line: int = 0


@dataclass
class PlayersAdded:
    created: list[Player] = field(default_factory=list)  # new players, with a login if emailed
    logins: list[Player] = field(default_factory=list)  # players already known, given a login
    known: list[Player] = field(default_factory=list)  # players already known, left as they were

    @property
    def to_invite(self) -> list[Player]:
        return [p for p in [*self.created, *self.logins] if p.user is not None and p.user.email]


def _where(line: PlayerLine) -> str:
    return _("Line %(n)s") % {"n": line.line} if line.line else line.name or _("A player")


def _check_lines(lines: Sequence[PlayerLine]) -> list[str]:
    """Every problem of the list, each a sentence naming its line (nothing is looked up)."""
    problems: list[str] = []
    names: dict[str, PlayerLine] = {}
    emails: dict[str, PlayerLine] = {}
    for line in lines:
        where = _where(line)
        if not line.name:
            problems.append(_("%(where)s has no name.") % {"where": where})
            continue
        try:
            name_from(line.name, field="names", label=where, limit=10**6)
        except ValidationFailed as exc:
            problems.append(exc.message)
            continue
        if len(line.name) > NAME_MAX:
            problems.append(
                _("%(where)s: a name has at most %(n)s characters.")
                % {"where": where, "n": NAME_MAX}
            )
        if line.email:
            try:
                validate_email(line.email)
            except ValidationError:
                problems.append(
                    _("%(where)s: “%(email)s” is not an email address.")
                    % {"where": where, "email": line.email}
                )
            else:
                earlier = emails.get(line.email.lower())
                if earlier is not None:
                    problems.append(
                        _("%(where)s: %(email)s is also %(name)s's email (%(earlier)s).")
                        % {
                            "where": where,
                            "email": line.email,
                            "name": earlier.name,
                            "earlier": _where(earlier).lower(),
                        }
                    )
                emails.setdefault(line.email.lower(), line)
        earlier = names.get(line.name.casefold())
        if earlier is not None:
            problems.append(
                _("%(where)s: %(name)s is listed twice (%(earlier)s too).")
                % {"where": where, "name": line.name, "earlier": _where(earlier).lower()}
            )
        names.setdefault(line.name.casefold(), line)
    return problems


def _username_for(name: str, taken: set[str]) -> str:
    """``ann``, else ``ann.smith``, else ``ann.smith2``...: short enough to type on a phone."""
    words = [slugify(w).replace("-", "") for w in name.split()]
    words = [w for w in words if w] or ["player"]
    candidates = [words[0][:30], ".".join(words)[:140]]
    for candidate in candidates:
        if candidate.lower() not in taken:
            return candidate
    n = 2
    while f"{candidates[-1]}{n}".lower() in taken:
        n += 1
    return f"{candidates[-1]}{n}"


def players_add(*, user: Actor, lines: Sequence[PlayerLine]) -> PlayersAdded:
    """Add the players of ``lines`` (each with a login when an email is given), all or none.

    Refused, naming each line at fault, when a line has no name or a bad email, a name or
    email is listed twice, or an email is already another player's login."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    lines = [
        PlayerLine(name=" ".join(ln.name.split()), email=ln.email.strip(), line=ln.line)
        for ln in lines
    ]
    lines = [ln for ln in lines if ln.name or ln.email]
    if not lines:
        raise ValidationFailed(_("List at least one player: a name, then an email."), field="names")
    problems = _check_lines(lines)
    User = get_user_model()
    result = PlayersAdded()
    with transaction.atomic():
        by_name = Q()
        for line in lines:
            if "\x00" not in line.name:  # refused by _check_lines; PostgreSQL can't even look
                by_name |= Q(name__iexact=line.name)
        found = Player.objects.select_related("user").filter(by_name) if by_name else []
        existing = {p.name.casefold(): p for p in found}
        by_email = Q()
        for line in lines:
            if line.email and "\x00" not in line.email:
                by_email |= Q(email__iexact=line.email)
        owners = {u.email.lower(): u for u in User.objects.filter(by_email)} if by_email else {}
        for line in lines:
            if not line.email or not line.name:
                continue
            owner = owners.get(line.email.lower())
            player = existing.get(line.name.casefold())
            if owner is not None and (player is None or player.user_id != owner.pk):
                owner_player = Player.objects.filter(user=owner).first()
                who = owner_player.name if owner_player else owner.get_username()
                problems.append(
                    _("%(where)s: %(email)s is already the email of %(who)s's login.")
                    % {"where": _where(line), "email": line.email, "who": who}
                )
        if problems:
            summary = ngettext(
                "Nothing was added: %(n)s problem to fix first.",
                "Nothing was added: %(n)s problems to fix first.",
                len(problems),
            ) % {"n": len(problems)}
            raise ValidationFailed(
                " ".join([summary, *problems]),
                field="names",
                summary=summary,
                problems=problems,
            )
        group, _created = Group.objects.get_or_create(name=PLAYERS)
        taken = {u.lower() for u in User.objects.values_list("username", flat=True)}
        for line in lines:
            player = existing.get(line.name.casefold())
            if player is not None and (player.user_id or not line.email):
                result.known.append(player)
                continue
            account = None
            if line.email:
                username = _username_for(line.name, taken)
                taken.add(username.lower())
                first, _sep, last = line.name.partition(" ")
                account = User(
                    username=username,
                    email=line.email,
                    first_name=first[:150],
                    last_name=last[:150],
                )
                account.set_unusable_password()
                account.save()
                account.groups.add(group)
            if player is None:
                player = Player.objects.create(name=line.name, user=account)
                result.created.append(player)
                audit_log(
                    actor=user,
                    action=AuditAction.PLAYER_CREATE,
                    obj=player,
                    after={"name": player.name, "login": account.username if account else None},
                )
            else:
                player.user = account
                player.save(update_fields=["user"])
                result.logins.append(player)
                audit_log(
                    actor=user,
                    action=AuditAction.PLAYER_LOGIN_CREATE,
                    obj=player,
                    after={"login": account.username if account else None},
                )
    return result


def invitation_link(*, player: Player, base_url: str) -> str:
    """The link that lets ``player`` choose a password (works once, for ``INVITATION_DAYS``)."""
    account = player.user
    assert account is not None  # a player invited has a login
    uid = urlsafe_base64_encode(force_bytes(account.pk))
    token = invitation_tokens.make_token(account)
    path = reverse("league:welcome", kwargs={"uidb64": uid, "token": token})
    return base_url.rstrip("/") + path


def invitations_send(
    *, user: Actor, players: Iterable[Player], base_url: str, season: Season | None = None
) -> int:
    """Email each of ``players`` an invitation with a link to set their password. Players
    without a login or an email, and players who already chose a password, are passed over.
    Returns how many were sent; each is on record. Refused, sending none, if the mail server
    cannot be reached."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    messages: list[tuple[Player, EmailMessage]] = []
    fresh = Player.objects.select_related("user").filter(pk__in=[p.pk for p in players])
    for player in fresh.order_by("name"):
        account = player.user
        if account is None or not account.email or account.has_usable_password():
            continue
        body = render_to_string(
            "organiser/invitation_email.txt",
            {
                "player": player,
                "username": account.get_username(),
                "link": invitation_link(player=player, base_url=base_url),
                "days": INVITATION_DAYS,
                "login": base_url.rstrip("/") + reverse("login"),
            },
        )
        # The subject names the league the player is invited to (the season's, else the one
        # of their newest team).
        league = season.league.name if season is not None else None
        if league is None:
            team = player.teams.select_related("season__league").order_by("-season_id").first()
            league = team.season.league.name if team is not None else None
        subject = (
            _("Your Pegboard login for %(league)s") % {"league": league}
            if league
            else _("Your Pegboard login for the cribbage league")
        )
        messages.append((player, EmailMessage(subject, body, None, [account.email])))
    if not messages:
        return 0
    try:
        connection = get_connection()
        sent = connection.send_messages([m for _p, m in messages]) or 0
    except OSError as exc:  # smtplib's errors are OSErrors too
        log.warning("invitations not sent", exc_info=True)
        raise ValidationFailed(
            _(
                "The invitations could not be sent: the mail server did not answer (%(error)s). "
                "The players are saved; send the invitations again later."
            )
            % {"error": exc}
        ) from None
    with transaction.atomic():
        for player, _message in messages:
            assert player.user is not None  # sent to the players with a login
            audit_log(
                actor=user,
                action=AuditAction.INVITATION_SEND,
                obj=player,
                after={"email": player.user.email, "login": player.user.get_username()},
            )
    return sent


@dataclass
class Invited:
    """What ``season_invite`` did: invitations sent now, and invitations held until the
    season (a draft) is published."""

    sent: int = 0
    held: int = 0


def _invitable(players: Iterable[Player]) -> list[Player]:
    """The players of ``players`` an invitation can reach: a login with an email, and no
    password chosen yet (read fresh)."""
    fresh = Player.objects.select_related("user").filter(pk__in=[p.pk for p in players])
    return [
        p
        for p in fresh.order_by("name")
        if p.user is not None and p.user.email and not p.user.has_usable_password()
    ]


def season_invite(
    *, user: Actor, season: Season, players: Iterable[Player], base_url: str
) -> Invited:
    """Invite ``players`` for ``season``. A draft is the organiser's alone, so its players
    hear nothing of it yet: their invitations are held (on record) and ``season_publish``
    sends them, once. A season already published sends them now (``invitations_send``), and
    any invitation held for these players is then done with."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    players = list(players)
    if not Season.objects.filter(pk=season.pk, state=SeasonState.DRAFT).exists():
        sent = invitations_send(user=user, players=players, base_url=base_url, season=season)
        HeldInvitation.objects.filter(
            season=season, player__in=players, sent_at__isnull=True
        ).update(sent_at=timezone.now())
        return Invited(sent=sent)
    result = Invited()
    with transaction.atomic():
        for player in _invitable(players):
            row, created = HeldInvitation.objects.get_or_create(
                season=season, player=player, defaults={"base_url": base_url}
            )
            if not created:  # asked again: held again, to be sent at the next publishing
                row.base_url, row.sent_at = base_url, None
                row.save(update_fields=["base_url", "sent_at"])
            result.held += 1
            assert player.user is not None  # _invitable keeps players with a login
            audit_log(
                actor=user,
                action=AuditAction.INVITATION_HOLD,
                obj=season,
                after={"player": player.name, "email": player.user.email},
            )
    return result


def invitations_release(*, user: Actor, season: Season) -> int:
    """Send the invitations held for ``season`` (asked while it was a draft), each once: a
    row is marked sent in the transaction that sent it, and a player who has chosen a
    password since is passed over. Refused, sending none and keeping them held, if the mail
    server cannot be reached. Returns how many were sent."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        rows = list(
            HeldInvitation.objects.select_for_update()
            .filter(season=season, sent_at__isnull=True)
            .select_related("player")
            .order_by("base_url", "player__name")
        )
        sent = 0
        for base_url in dict.fromkeys(row.base_url for row in rows):
            players = [row.player for row in rows if row.base_url == base_url]
            sent += invitations_send(user=user, players=players, base_url=base_url, season=season)
        HeldInvitation.objects.filter(pk__in=[row.pk for row in rows]).update(
            sent_at=timezone.now()
        )
    return sent


def player_rename(*, player: Player, name: str, user: Actor) -> Player:
    """A player's name corrected (a typo, a married name), audited. Names stay unique, without
    regard to case: a game's seats are typed by name and must find one player."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    name = " ".join(
        name_from(name or "", field="name", label=_("A player's name"), limit=10**6).split()
    )
    if not name:
        raise ValidationFailed(_("A player needs a name."), field="name")
    if len(name) > 120:
        raise ValidationFailed(_("A player's name has at most 120 characters."), field="name")
    if "\x00" in name:
        raise ValidationFailed(_("A player's name holds a NUL character."), field="name")
    with transaction.atomic():
        row = Player.objects.select_for_update().get(pk=player.pk)
        if row.name == name:
            return row
        if Player.objects.filter(name__iexact=name).exclude(pk=row.pk).exists():
            raise ValidationFailed(
                _("Another player is already called %(name)s.") % {"name": name}, field="name"
            )
        before = {"name": row.name}
        row.name = name
        row.save(update_fields=["name"])
        records_forget()  # the records store names with their figures
        audit_log(
            actor=user,
            action=AuditAction.PLAYER_RENAME,
            obj=row,
            before=before,
            after={"name": name},
        )
    return row


def _holder_at(account: Any, act: int) -> int | None:
    """The player ``account`` was linked to when it made audit entry ``act`` (None: nobody),
    read from the links' own audit trail (``PLAYER_LINK``: an account leaves one player before
    it joins another). Acts an account made as this very player are its own, so a mistaken
    re-link can be undone; acts made as anyone else still refuse the link."""
    name = account.get_username()
    links = list(
        AuditEntry.objects.filter(action=AuditAction.PLAYER_LINK)
        .filter(Q(before__account=name) | Q(after__account=name))
        .order_by("pk")
        .values_list("pk", "object_id", "before", "after")
    )
    earlier = [row for row in links if row[0] < act]
    if earlier:
        _pk, player_id, _before, after = earlier[-1]
        return int(player_id) if (after or {}).get("account") == name else None
    if links:  # the first link change after the act says who held the account before it
        _pk, player_id, before, _after = links[0]
        return int(player_id) if (before or {}).get("account") == name else None
    holder = Player.objects.filter(user=account).values_list("pk", flat=True).first()
    return holder


def player_link(*, player: Player, account: Any, user: Actor) -> Player:
    """Link ``account`` to ``player`` (None unlinks it): a league admin's decision, on record.

    An account never vouches for both teams: the link is refused while the player has games in
    a season where the account has acted on a game (entered, confirmed, disputed, ruled on or
    voided one: its audited acts there), whoever it played for then; and an account is one
    player's at a time. A new account, or one that never acted in the player's seasons, links."""
    refuse_unless(user, Action.MANAGE_LEAGUE)
    with transaction.atomic():
        player = (
            Player.objects.select_for_update(of=("self",))  # PostgreSQL locks no outer join
            .select_related("user")
            .get(pk=player.pk)
        )
        before = player.user
        if (before.pk if before else None) == (account.pk if account else None):
            return player
        if account is not None:
            taken = Player.objects.filter(user=account).exclude(pk=player.pk).first()
            if taken is not None:
                raise ValidationFailed(
                    _("This account is already linked to %(name)s: unlink it from %(name)s first.")
                    % {"name": taken.name},
                    field="user",
                )
            seasons = Game.objects.filter(
                Q(match__home__players=player) | Q(match__away__players=player)
            ).values("match__week__season_id")
            acts = AuditEntry.objects.filter(
                actor=account, game__isnull=False, season_id__in=seasons
            ).values_list("pk", flat=True)
            if any(_holder_at(account, act) != player.pk for act in acts):
                raise ValidationFailed(
                    _(
                        "This account has acted on games of a season %(name)s plays in: linked "
                        "to %(name)s it could vouch for both teams of a game."
                    )
                    % {"name": player.name},
                    field="user",
                )
        player.user = account
        player.save(update_fields=["user"])
        audit_log(
            actor=user,
            action=AuditAction.PLAYER_LINK,
            obj=player,
            before={"account": before.get_username() if before else None},
            after={"account": account.get_username() if account else None},
        )
    return player
