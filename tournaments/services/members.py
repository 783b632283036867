"""A club's members as its director keeps them at ``/direct/``: every player's ACC number and
standing (member, guest, visitor) from one form, so the ACC report is complete without the
admin. One rule for a membership (``clubs.member_store``), asked of each row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.errors import ValidationFailed
from league.kernel.permissions import Actor
from league.shared import Player
from tournaments.models import Club
from tournaments.services.clubs import member_store
from tournaments.services.workspace import _require_club


def club_members_set(*, user: Actor, club: Club, rows: Sequence[tuple[Player, Any, str]]) -> int:
    """Each ``(player, acc_number, status)`` stored at ``club`` in one transaction (a player
    not yet a member becomes one), or none of them: a refusal names the player whose row it
    is. Returns how many rows were stored."""
    _require_club(user, club)
    with transaction.atomic():
        for player, number, status in rows:
            try:
                member_store(user=user, club=club, player=player, acc_number=number, status=status)
            except ValidationFailed as exc:
                raise ValidationFailed(
                    _("%(name)s: %(why)s") % {"name": player.name, "why": exc.message},
                    field=exc.field,
                ) from None
    return len(rows)
