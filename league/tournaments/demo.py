"""The demo club night: 30 entrants, 9 qualifying rounds seated by the generator and settled
as a checker would, and the bracket drawn (8 qualifiers). Seeded, so every run is the same;
results are drawn, not dealt (a tournament records winners and losers' scores only)."""

from __future__ import annotations

import datetime as dt
import random

from django.db import transaction

from league.permissions import Trusted
from league.tournaments import services
from league.tournaments.models import Tournament

NIGHT_NAME = "Crooked Peg Club Night, 14 Nov 2026"
NIGHT_SEED = 1114
FIRST = ["Ada", "Bea", "Cal", "Dot", "Eli", "Fay", "Gil", "Hana", "Ike", "Jo"]
LAST = ["Crib", "Nobs", "Peg"]
ROUNDS = 9


def build_demo_night(*, seed: int = NIGHT_SEED, entrants: int = 30) -> Tournament:
    """Build the night through the services (a trusted caller: the demo is the record)."""
    rng = random.Random(seed)
    user = Trusted(None, "demo club night")
    with transaction.atomic():
        night = services.tournament_create(
            user=user,
            name=NIGHT_NAME,
            date=dt.date(2026, 11, 14),
            games_per_entrant=ROUNDS,
            draw_seed=seed,
        )
        names = [f"{f} {s}" for s in LAST for f in FIRST][:entrants]
        for name in names:
            services.entrant_register(user=user, tournament=night, name=name, check_in=True)
        for _ in range(ROUNDS):
            rnd = services.round_seat_next(user=user, tournament=night)
            for game in rnd.games.select_related("first", "second"):
                winner = game.first if rng.random() < 0.5 else game.second
                services.scorecard_settle(
                    user=user,
                    game=game,
                    winner=winner,
                    loser_score=rng.randint(70, 119)
                    if rng.random() < 0.85
                    else rng.randint(30, 89),
                )
        services.bracket_draw(user=user, tournament=night)
    night.refresh_from_db()
    return night
