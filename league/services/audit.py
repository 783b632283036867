"""Writing the audit trail."""

from __future__ import annotations

from typing import Any

from league.models import AuditEntry


def audit_log(
    *,
    actor: Any,
    action: str,
    obj: Any,
    game: Any = None,
    season: Any = None,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """Record one change; call it inside the transaction that makes the change."""
    return AuditEntry.objects.create(
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        object_type=type(obj).__name__,
        object_id=str(obj.pk),
        game=game,
        season=season,
        before=before,
        after=after,
        reason=reason,
    )
