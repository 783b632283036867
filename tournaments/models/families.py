"""A weekend (or a day) of events: a main, its consolation, satellites and side events that
share entrants, money and the venue's TV, each event with its own rules and bracket."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class EventFamily(models.Model):
    name = models.CharField(_("name"), max_length=160, unique=True)
    starts = models.DateField(_("first day"), null=True, blank=True)
    ends = models.DateField(_("last day"), null=True, blank=True)
    club = models.ForeignKey(
        "Club",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="families",
        verbose_name=_("club"),
        help_text=_("The club running the weekend, if any."),
    )
    tv_rotate_seconds = models.PositiveSmallIntegerField(
        _("TV: seconds per event"),
        default=20,
        help_text=_("The weekend's TV shows each running event in turn for this long."),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        ordering = ["-starts", "name"]
        verbose_name = _("weekend of events")
        verbose_name_plural = _("weekends of events")

    def __str__(self) -> str:
        return self.name
