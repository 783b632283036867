"""The demo club night: 30 entrants, 9 qualifying rounds seated by the generator and settled
as a checker would, and the bracket drawn (8 qualifiers); and the club season it belongs to,
with three nights played before it (the last one's money kept and closed). Seeded, so every
run is the same; results are drawn, not dealt (a tournament records winners and losers'
scores only)."""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable

from django.db import transaction

from league.kernel.permissions import Trusted
from tournaments import services
from tournaments.models import ClubSeason, PlayoffMatch, Tournament

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


CLUB_NAME = "Crooked Peg ACC Club"
CLUB_SEASON_NAME = "Fall 2026"
CLUB_NIGHTS = (dt.date(2026, 10, 24), dt.date(2026, 10, 31), dt.date(2026, 11, 7))
CLUB_FIELD = 12  # entrants a night, drawn from the club's 16 regulars
CLUB_FEE = 500  # cents
SKUNK_POT = 100  # cents


def build_demo_club_season(*, seed: int = NIGHT_SEED) -> ClubSeason:
    """The club's season: three finished nights before the demo club night (12 of the 16
    regulars each, 9 rounds, the bracket played to a champion), the demo night attached as
    the one still to finish; the last finished night keeps its money (fees, a skunk pot,
    payouts by the table) and is closed with its books balanced."""
    rng = random.Random(seed + 1)
    user = Trusted(None, "demo club season")
    regulars = [f"{f} {s}" for s in LAST for f in FIRST][:16]
    with transaction.atomic():
        club = services.club_create(user=user, name=CLUB_NAME, venue="The Crooked Peg")
        season = services.club_season_create(
            user=user, club=club, name=CLUB_SEASON_NAME, starts=CLUB_NIGHTS[0]
        )
        for i, date in enumerate(CLUB_NIGHTS):
            night = services.tournament_create(
                user=user,
                name=f"{CLUB_NAME} night, {date:%d %b %Y}",
                date=date,
                games_per_entrant=ROUNDS,
                draw_seed=seed + i,
            )
            services.night_assign_season(user=user, tournament=night, season=season)
            for name in sorted(rng.sample(regulars, CLUB_FIELD)):
                services.entrant_register(user=user, tournament=night, name=name, check_in=True)
            _play_night(user, night, rng)
            if i == len(CLUB_NIGHTS) - 1:
                _keep_money(user, night, rng)
        demo_night = Tournament.objects.filter(name=NIGHT_NAME).first()
        if demo_night is not None:
            services.night_assign_season(user=user, tournament=demo_night, season=season)
    return season


def _play_night(user: Trusted, night: Tournament, rng: random.Random) -> None:
    for _ in range(ROUNDS):
        rnd = services.round_seat_next(user=user, tournament=night)
        for game in rnd.games.select_related("first", "second"):
            services.scorecard_settle(
                user=user,
                game=game,
                winner=game.first if rng.random() < 0.5 else game.second,
                loser_score=rng.randint(70, 119) if rng.random() < 0.85 else rng.randint(30, 89),
            )
    services.bracket_draw(user=user, tournament=night)
    while True:
        match = (
            PlayoffMatch.objects.filter(tournament=night, winner__isnull=True)
            .exclude(top__isnull=True)
            .exclude(bottom__isnull=True)
            .select_related("top", "bottom")
            .order_by("round", "position")
            .first()
        )
        if match is None:
            break
        winner = match.top if rng.random() < 0.6 else match.bottom
        assert winner is not None
        services.playoff_game_record(
            user=user, match=match, winner=winner, loser_score=rng.randint(80, 119)
        )


def _keep_money(user: Trusted, night: Tournament, rng: random.Random) -> None:
    services.purse_set(user=user, tournament=night, entry_fee=CLUB_FEE, house_percent=10)
    services.fees_collect(user=user, tournament=night)
    pot = services.side_pot_set(user=user, tournament=night, kind="skunk", fee=SKUNK_POT)
    entrants = list(night.entrants.order_by("number"))
    buyers = rng.sample(entrants, 8)
    services.side_pot_enter(user=user, pot=pot, entrants=buyers)
    services.side_pot_award(user=user, pot=pot, winners=rng.sample(buyers, 2))
    services.payouts_record(user=user, tournament=night)
    services.night_close(user=user, tournament=night)


def seed_demo(url: str, say: Callable[[str], None]) -> None:
    """The tournaments' part of ``manage.py seed_demo``: the club night and its club season,
    each unless it exists; ``say`` gets one line per part made."""
    if not Tournament.objects.filter(name=NIGHT_NAME).exists():
        started = time.monotonic()
        night = build_demo_night()
        say(
            f"Seeded {night.name}: {night.entrants.count()} entrants, "
            f"{night.rounds.count()} rounds, the bracket drawn "
            f"({time.monotonic() - started:.1f} s); {url}tournaments/{night.pk}/"
        )
    if not ClubSeason.objects.exists():
        started = time.monotonic()
        season = build_demo_club_season()
        say(
            f"Seeded {season}: {season.nights.count()} nights, the last played one's "
            f"money kept and closed ({time.monotonic() - started:.1f} s); "
            f"{url}tournaments/clubs/seasons/{season.pk}/"
        )
