"""The audit trail: who changed what, when, from what to what, and why. Rows are never edited."""

from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("when"))
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who"),
    )
    action = models.CharField(max_length=64, verbose_name=_("action"))
    object_type = models.CharField(max_length=64, verbose_name=_("kind of record"))
    object_id = models.CharField(max_length=64, verbose_name=_("record number"))
    game = models.ForeignKey(
        "league.Game",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit",
        verbose_name=_("game"),
    )
    season = models.ForeignKey(
        "league.Season",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="audit",
        verbose_name=_("season"),
    )
    before = models.JSONField(null=True, blank=True, verbose_name=_("before"))
    after = models.JSONField(null=True, blank=True, verbose_name=_("after"))
    reason = models.TextField(blank=True, verbose_name=_("reason"))

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.record_kind} {self.object_id}"

    @property
    def reason_text(self) -> str:
        """Why, in the reader's language when the system wrote it (a correction's reason stored
        as a code in ``after``, or one of the sentences stored whole); a person's words as
        written."""
        from league.kernel.stored_texts import fixed, render

        after = self.after if isinstance(self.after, dict) else {}
        return render(
            after.get("reason_code") or "", after.get("reason_params"), fixed(self.reason)
        )

    @property
    def record_kind(self) -> str:
        """The kind of record changed, in the reader's language (``object_type`` keeps the
        model's class name, which the trail stores as written)."""
        for app in ("league", "tournaments"):
            try:
                model = apps.get_model(app, self.object_type)
            except LookupError:
                continue
            return str(model._meta.verbose_name)
        return self.object_type
