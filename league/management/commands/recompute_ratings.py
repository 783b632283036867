"""``manage.py recompute_ratings``: replay every confirmed game and verified table into fresh
ratings, and say what they hold."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from league.services.ratings import ratings_recompute


class Command(BaseCommand):
    help = (
        "Recompute every player's and pair's rating from the results that stand (confirmed "
        "league games, verified tournament tables), in the one canonical order. Ratings are "
        "information only: the standings never read them."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        done = ratings_recompute()
        threshold = settings.PEGBOARD_RATING_PROVISIONAL_GAMES
        self.stdout.write(
            f"{done.results} result(s) rated: {done.players} player(s) "
            f"({done.provisional_players} provisional, under {threshold} games), "
            f"{done.pairs} pair(s)."
        )
