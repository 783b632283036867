"""Registration for an event from its public page: the desk (open or not, capacity, venue,
whether the director approves each player) and each player's registration, with its place,
the waiting list and the entry it became."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from league.shared import Player
from tournaments.models.clubs import MemberStatus
from tournaments.models.events import Entrant, Tournament


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", _("waiting for the director")
    ACCEPTED = "accepted", _("place confirmed")
    WAITLISTED = "waitlisted", _("on the waiting list")
    PAIRED = "paired", _("paired into a partner's entry")
    REFUSED = "refused", _("refused")
    WITHDRAWN = "withdrawn", _("withdrawn")


#: A registration still in the event: it holds a place, waits for one or for the director.
ACTIVE = (
    RegistrationStatus.PENDING,
    RegistrationStatus.ACCEPTED,
    RegistrationStatus.WAITLISTED,
    RegistrationStatus.PAIRED,
)


class RegistrationDesk(models.Model):
    """An event's public page and its registration: open or closed, how many entries it takes
    (0: no limit; a doubles entry is a team), and whether the director approves each one."""

    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        related_name="desk",
        verbose_name=_("tournament"),
    )
    is_open = models.BooleanField(_("registration open"), default=True)
    capacity = models.PositiveIntegerField(
        _("entries it takes"), default=0, help_text=_("0: no limit.")
    )
    venue = models.CharField(_("venue"), max_length=160, blank=True)
    details = models.TextField(
        _("format and times"),
        blank=True,
        help_text=_("What the players read on the event page: games, start time, prizes."),
    )
    needs_approval = models.BooleanField(
        _("the director approves each registration"), default=False
    )

    class Meta:
        verbose_name = _("registration desk")
        verbose_name_plural = _("registration desks")

    def __str__(self) -> str:
        return str(self.tournament)


class Registration(models.Model):
    """One player signing up (with a partner named, or wanting one, for a doubles event). An
    accepted registration is an entrant of the event; its fee is owed from then until the
    director records it paid in the event's ledger."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    name = models.CharField(_("name"), max_length=120)
    email = models.EmailField(_("e-mail"))
    acc_number = models.CharField(_("ACC number"), max_length=12, blank=True)
    member_status = models.CharField(
        _("ACC standing"), max_length=8, choices=MemberStatus.choices, default=MemberStatus.MEMBER
    )
    partner = models.CharField(_("partner"), max_length=120, blank=True)
    partner_wanted = models.BooleanField(_("partner wanted"), default=False)
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=RegistrationStatus.choices,
        default=RegistrationStatus.PENDING,
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    entrant = models.OneToOneField(
        Entrant,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registration",
        verbose_name=_("entrant"),
    )
    paired_with = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("paired with"),
    )
    fee_owed = models.PositiveIntegerField(_("entry fee owed (cents)"), default=0)
    token = models.CharField(max_length=43, unique=True, editable=False)
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    queued_at = models.DateTimeField(_("on the waiting list since"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                "tournament",
                condition=Q(status__in=[s.value for s in ACTIVE]),
                name="registration_email_once",
            ),
            models.UniqueConstraint(
                Lower("name"),
                "tournament",
                condition=Q(status__in=[s.value for s in ACTIVE]),
                name="registration_name_once",
            ),
        ]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")

    def __str__(self) -> str:
        return f"{self.name} · {self.tournament}"

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE
