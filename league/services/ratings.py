"""Ratings, written: after a result comes to stand (a league game confirmed, a tournament
table verified) or stops standing, ``ratings_update`` adds what is new, or replays the whole
history when that is the only way to get what a replay would (a result left, changed, or comes
before one already rated in the canonical order). ``ratings_recompute`` always replays it all
(``manage.py recompute_ratings``, the ``recompute_ratings`` task).

Both are one transaction, safe to run twice, and leave the ratings exactly as a full replay of
the results standing now would (``league.ratings.replay``), so the order in which updates ran
never shows. The ratings are a cache of the results, like the tallies: no audit entry (nobody
decides anything here); nothing in the standings reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction

from contest.ratings import RatedResult, canonical_key, is_provisional
from league.models import RatedGame, Rating
from league.ratings import Book, Pair, Standing, replay
from league.selectors.ratings import standing_results


@dataclass(frozen=True)
class RatingsSummary:
    """What an update or a recompute did."""

    replayed: bool  # the whole history, rather than the new results only
    added: int  # results rated by this run
    results: int  # results rated in all
    players: int
    pairs: int
    provisional_players: int


def _serialize() -> None:
    """One ratings writer at a time (PostgreSQL; SQLite has one writer anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext('pegboard.ratings'))")


def _stored_book() -> Book:
    book = Book()
    for row in Rating.objects.all():
        standing = Standing(row.mu, row.sigma, row.games)
        if row.partner_id is None:
            book.players[row.player_id] = standing
        else:
            book.pairs[(row.player_id, row.partner_id)] = standing
    return book


def _summary(*, replayed: bool, added: int) -> RatingsSummary:
    threshold = settings.PEGBOARD_RATING_PROVISIONAL_GAMES
    players = Rating.objects.filter(partner__isnull=True)
    return RatingsSummary(
        replayed=replayed,
        added=added,
        results=RatedGame.objects.count(),
        players=players.count(),
        pairs=Rating.objects.filter(partner__isnull=False).count(),
        provisional_players=sum(
            is_provisional(n, threshold=threshold) for n in players.values_list("games", flat=True)
        ),
    )


def _log(results: list[RatedResult]) -> None:
    RatedGame.objects.bulk_create(
        RatedGame(source=r.source, ref=r.ref, at=r.at, fingerprint=r.fingerprint) for r in results
    )


def _write_all(book: Book, results: list[RatedResult]) -> None:
    Rating.objects.all().delete()
    RatedGame.objects.all().delete()
    rows = [
        Rating(player_id=pk, mu=s.mu, sigma=s.sigma, games=s.games)
        for pk, s in book.players.items()
    ]
    rows += [
        Rating(player_id=a, partner_id=b, mu=s.mu, sigma=s.sigma, games=s.games)
        for (a, b), s in book.pairs.items()
    ]
    Rating.objects.bulk_create(rows)
    _log(results)


def _write_moved(book: Book, moved: set[int | Pair]) -> None:
    existing = {
        (r.player_id, r.partner_id): r
        for r in Rating.objects.filter(
            player_id__in={m if isinstance(m, int) else m[0] for m in moved}
        )
    }
    changed, made = [], []
    for unit in moved:
        key = (unit, None) if isinstance(unit, int) else unit
        standing = book.players[unit] if isinstance(unit, int) else book.pairs[unit]
        row = existing.get(key)
        if row is None:
            made.append(
                Rating(
                    player_id=key[0],
                    partner_id=key[1],
                    mu=standing.mu,
                    sigma=standing.sigma,
                    games=standing.games,
                )
            )
        else:
            row.mu, row.sigma, row.games = standing.mu, standing.sigma, standing.games
            changed.append(row)
    Rating.objects.bulk_update(changed, ["mu", "sigma", "games", "updated_at"])
    Rating.objects.bulk_create(made)


def ratings_recompute() -> RatingsSummary:
    """Replay every result standing now into fresh ratings."""
    with transaction.atomic():
        _serialize()
        results = standing_results()
        _write_all(replay(results), results)
        return _summary(replayed=True, added=len(results))


def ratings_update() -> RatingsSummary:
    """Rate the results that came to stand since the last run; replay everything instead when
    one was rated and no longer stands or says something else, or when a new one comes before
    the last rated in the canonical order (so the figures are always a full replay's)."""
    with transaction.atomic():
        _serialize()
        current = {r.key: r for r in standing_results()}
        logged = dict(
            ((source, ref), fingerprint)
            for source, ref, fingerprint in RatedGame.objects.values_list(
                "source", "ref", "fingerprint"
            )
        )
        new = [r for key, r in current.items() if key not in logged]
        stale = any(
            key not in current or current[key].fingerprint != fp for key, fp in logged.items()
        )
        if not new and not stale:
            return _summary(replayed=False, added=0)
        if not stale:
            last = max((canonical_key(current[key]) for key in logged), default=None)
            stale = last is not None and min(canonical_key(r) for r in new) < last
        if stale:
            results = list(current.values())
            _write_all(replay(results), results)
            return _summary(replayed=True, added=len(results))
        book = _stored_book()
        moved: set[int | Pair] = set()
        for result in sorted(new, key=canonical_key):
            moved |= book.apply(result)
        _write_moved(book, moved)
        _log(new)
        return _summary(replayed=False, added=len(new))
