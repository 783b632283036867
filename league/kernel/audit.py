"""Writing the audit trail: who changed what, from what to what, and why."""

from __future__ import annotations

from typing import Any

from league.kernel.permissions import Trusted, actor_of
from league.models import AuditEntry, Game, Season


def _where(obj: Any) -> tuple[Game | None, int | None]:
    """The game and the season an object belongs to, found from the object itself."""
    if isinstance(obj, Season):
        return None, obj.pk
    if isinstance(obj, Game):
        return obj, obj.match.week.season_id
    game = getattr(obj, "game", None)
    if isinstance(game, Game):
        return game, game.match.week.season_id
    for path in ("season_id", "week.season_id", "match.week.season_id"):
        value: Any = obj
        for part in path.split("."):
            value = getattr(value, part, None)
        if isinstance(value, int):
            return None, value
    return None, None


def audit_log(
    *,
    actor: Any,
    action: str,
    obj: Any,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """Record one change; call it inside the transaction that makes the change. The game and
    season it concerns are worked out from ``obj``; a trusted caller's reason is kept."""
    entry = audit_entry(
        actor=actor, action=action, obj=obj, before=before, after=after, reason=reason
    )
    entry.save(force_insert=True)
    return entry


def audit_entry(
    *,
    actor: Any,
    action: str,
    obj: Any,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """The entry :func:`audit_log` writes, unsaved: a bulk writer saves many with one
    ``bulk_create`` in the transaction that makes the changes (``obj`` must have its key)."""
    game, season_id = _where(obj)
    if isinstance(actor, Trusted) and actor.why not in reason:
        reason = f"{reason} ({actor.why})" if reason else actor.why
    return AuditEntry(
        actor=actor_of(actor),
        action=action,
        object_type=type(obj).__name__,
        object_id=str(obj.pk),
        game=game,
        season_id=season_id,
        before=before,
        after=after,
        reason=reason,
    )
