"""Clubs, their members and the club seasons a night counts toward."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.shared import Player
from tournaments import logic


class Club(models.Model):
    """A club that runs a series of nights (an ACC Grass Roots club, a bar's weekly night)."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    venue = models.CharField(_("where it plays"), max_length=160, blank=True)
    guest_nights = models.PositiveSmallIntegerField(
        _("nights a guest may play"),
        default=3,
        help_text=_("ACC clubs let a guest play a few weeks before joining: past this, say so."),
    )
    # Who plays at the club; each membership (``ClubMember``) keeps the ACC number and status.
    members: models.ManyToManyField[Player, ClubMember] = models.ManyToManyField(
        Player, through="ClubMember", related_name="clubs", blank=True, verbose_name=_("members")
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="directed_clubs",
        blank=True,
        verbose_name=_("directors"),
        help_text=_("Who runs the club's nights from the director's workspace."),
    )
    # A night's defaults: "Tonight" makes a night with these.
    night_games = models.PositiveSmallIntegerField(_("games a night"), default=9)
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), default=20)
    entry_fee = models.PositiveIntegerField(_("entry fee (cents)"), default=0)
    house_percent = models.PositiveSmallIntegerField(
        _("house / club share (% of entry fees)"), default=10
    )
    # The night's special-hand pot, opened by "Tonight" when it names hands and an entry.
    pot_hands = models.JSONField(
        _("special hands that win the pot"),
        default=list,
        blank=True,
        help_text=_('Any of "24", "28", "29" and "four_of_a_kind"; none: no pot.'),
    )
    pot_fee = models.PositiveIntegerField(_("special-hand pot entry (cents)"), default=0)
    pot_rolls_over = models.BooleanField(
        _("an unclaimed special-hand pot rolls over to the next night"), default=True
    )
    send_night_story = models.BooleanField(
        _("send the night's story"),
        default=False,
        help_text=_(
            "When a night is closed, send its story (winner, final, upsets, special hands, "
            "skunks) to the club's members with an account, each in their language."
        ),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class MemberStatus(models.TextChoices):
    MEMBER = "member", _("ACC member")
    GUEST = "guest", _("guest")
    VISITOR = "visitor", _("visitor (a member of another club)")


class ClubMember(models.Model):
    """A player's standing at a club: their ACC number (for the director's online entry) and
    whether they are a member, a guest (whose nights are counted) or a visiting member."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    acc_number = models.CharField(_("ACC number"), max_length=12, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=MemberStatus.choices, default=MemberStatus.MEMBER
    )

    class Meta:
        ordering = ["club__name", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")
        ]
        verbose_name = _("club member")
        verbose_name_plural = _("club members")

    def __str__(self) -> str:
        return f"{self.player} · {self.club}"


class ClubPointsMode(models.TextChoices):
    GAME_POINTS = "game_points", _("the night's game points, from a threshold")
    TABLE = "table", _("points by place (a table: 1st, 2nd, ...)")


def default_points_table() -> list[int]:
    return list(logic.ClubPoints().table)


class ClubSeason(models.Model):
    """A club's season: its nights (tournaments linked to it) and how a night earns points."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts = models.DateField(_("first night"), null=True, blank=True)
    points_mode = models.CharField(
        _("points per night"),
        max_length=16,
        choices=ClubPointsMode.choices,
        default=ClubPointsMode.GAME_POINTS,
    )
    threshold = models.PositiveSmallIntegerField(
        _("game points needed to score"),
        default=logic.ClubPoints().threshold,
        help_text=_("With game points: an entrant below this scores 0 that night."),
    )
    points_table = models.JSONField(
        _("points by place"),
        default=default_points_table,
        blank=True,
        help_text=_("With points by place: the points for 1st, 2nd, ... in order."),
    )

    class Meta:
        ordering = ["club__name", "-starts", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="club_season_name_unique")
        ]
        verbose_name = _("club season")
        verbose_name_plural = _("club seasons")

    def __str__(self) -> str:
        return f"{self.club} · {self.name}"

    @property
    def scheme(self) -> logic.ClubPoints:
        return logic.ClubPoints(
            mode=self.points_mode,
            threshold=self.threshold,
            table=tuple(int(p) for p in self.points_table or ()),
        )
