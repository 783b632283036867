"""Make a VAPID key pair for Web Push and print it as environment lines (keep the private one
secret; changing the pair makes every phone subscribe again)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.kernel.push import vapid_pair_new


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as PEGBOARD_VAPID_* environment lines."

    def handle(self, *args: Any, **options: Any) -> None:
        pair = vapid_pair_new()
        self.stdout.write(f"PEGBOARD_VAPID_PUBLIC_KEY={pair['public']}")
        self.stdout.write(f"PEGBOARD_VAPID_PRIVATE_KEY={pair['private']}")
