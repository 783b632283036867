"""The tables both competitions share, and the only league names the kernel imports
(``tests/test_layers.py`` holds it): a player, the same person at a league night and at a club
night; the audit trail's entry; the notifications' deliveries, push subscriptions and each
player's choices. A competition's own tables (a league's seasons, teams and games; a
tournament's tables) stay its own: the kernel asks about them through what each app registers.
"""

from league.models.audit import AuditEntry
from league.models.notifications import (
    Category,
    Channel,
    Delivery,
    DeliveryStatus,
    NotifyChoice,
    PushSubscription,
)
from league.models.people import Player

__all__ = [
    "AuditEntry",
    "Category",
    "Channel",
    "Delivery",
    "DeliveryStatus",
    "NotifyChoice",
    "Player",
    "PushSubscription",
]
