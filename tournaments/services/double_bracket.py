"""A double-elimination bracket played out: its matches stored at the draw, each with its side
(winners', losers', grand final) and best-of; after every game the whole bracket is replayed by
``contest.double_elimination`` from the seeds and the matches won, so a winner goes on, a loser
drops into the right losers' round and a void takes both back, from one rule.

Called by :mod:`tournaments.services.bracket` inside its transactions (the event locked)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from contest import brackets
from contest import double_elimination as de
from league.kernel.errors import Locked, ValidationFailed
from tournaments.models import (
    BracketSide,
    Entrant,
    PlayoffMatch,
    Tournament,
    TournamentStage,
)
from tournaments.services.notify import notify_club_night_standing


def schedule_of(tournament: Tournament) -> tuple[int, ...]:
    """The event's best-of per round (empty: its one best-of for every round)."""
    try:
        return brackets.parse_best_of(tournament.playoff_best_of_rounds or "")
    except ValueError:
        return ()  # refused when saved; an old row holding anything else plays the one best-of


def check_schedule(text: str) -> str:
    """The best-of schedule as the director typed it, tidied, or a refusal in words."""
    try:
        schedule = brackets.parse_best_of(text or "")
    except ValueError as exc:
        raise ValidationFailed(
            _(
                "Best of, round by round: %(bad)s is not 1, 3, 5 or 7. Write the rounds' "
                "best-of separated by commas, the final last (for example 1,3,3,5)."
            )
            % {"bad": str(exc) or _("an empty entry")},
            field="playoff_best_of_rounds",
        ) from None
    return ",".join(str(n) for n in schedule)


def key_of(match: PlayoffMatch) -> de.Key:
    return de.Key(match.side, match.round, match.position)


def store(tournament: Tournament, seeds: dict[int, Entrant]) -> list[PlayoffMatch]:
    """Every match of the double-elimination layout for ``seeds`` (seed -> entrant, from 1),
    each with its best-of, then the byes played through."""
    if len(seeds) < 2:
        raise ValidationFailed(_("A double-elimination bracket needs two qualifiers or more."))
    schedule = schedule_of(tournament)
    rows = [
        PlayoffMatch(
            tournament=tournament,
            side=m.key.side,
            round=m.key.round,
            position=m.key.position,
            best_of=de.best_of(schedule, m.key, len(seeds), default=tournament.playoff_best_of),
        )
        for m in de.layout(len(seeds), reset=tournament.grand_final_reset)
    ]
    PlayoffMatch.objects.bulk_create(rows)
    replay(tournament)
    return list(tournament.playoff_matches.order_by("side", "round", "position"))


def _rows(tournament: Tournament) -> list[PlayoffMatch]:
    return list(
        tournament.playoff_matches.select_related("top", "bottom", "winner").prefetch_related(
            "games"
        )
    )


def _seeds(tournament: Tournament) -> dict[int, Entrant]:
    return {e.seed: e for e in tournament.entrants.filter(seed__isnull=False) if e.seed}


def results(
    rows: list[PlayoffMatch], seed_of: dict[int, int], *, leave_out: int | None = None
) -> dict[de.Key, int]:
    """Each decided match's winning seed, from its games (the game ``leave_out`` not counted:
    how the bracket would stand without it)."""
    out: dict[de.Key, int] = {}
    for row in rows:
        games = sorted(row.games.all(), key=lambda g: g.number)
        winners = [g.winner_id for g in games if g.pk != leave_out]
        won = brackets.match_winner(winners, best_of=row.plays_best_of)
        if won is not None:
            out[key_of(row)] = seed_of[won]
    return out


def replay(tournament: Tournament, *, rows: list[PlayoffMatch] | None = None) -> de.State:
    """Write the bracket as the replay of its results has it: every match's two entrants, its
    winner, whether it is a bye; the event finished once a champion is known (and back in its
    playoffs when a void takes the champion away)."""
    rows = _rows(tournament) if rows is None else rows
    seeds = _seeds(tournament)
    seed_of = {e.pk: s for s, e in seeds.items()}
    state = de.play(len(seeds), results(rows, seed_of), reset=tournament.grand_final_reset)
    for row in rows:
        m = state.match(key_of(row))
        top = seeds.get(m.top or 0)
        bottom = seeds.get(m.bottom or 0)
        winner = seeds.get(m.winner or 0) if m.status in (de.DECIDED, de.BYE) else None
        is_bye = m.status in (de.BYE, de.EMPTY, de.UNNEEDED)
        now = (top, bottom, winner, is_bye)
        if now != (row.top, row.bottom, row.winner, row.is_bye):
            row.top, row.bottom, row.winner, row.is_bye = now
            row.save(update_fields=["top", "bottom", "winner", "is_bye"])
    finished = state.champion is not None
    if finished and tournament.stage != TournamentStage.FINISHED:
        tournament.stage = TournamentStage.FINISHED
        tournament.save(update_fields=["stage"])
        notify_club_night_standing(tournament)  # after commit, to each entrant's players
    elif not finished and tournament.stage == TournamentStage.FINISHED:
        tournament.stage = TournamentStage.PLAYOFFS
        tournament.save(update_fields=["stage"])
    return state


def check_void(tournament: Tournament, game_pk: int) -> None:
    """Refuse a void that would change who plays in a match that already has games: those
    games must be voided first (the bracket never rewrites a match being played)."""
    rows = _rows(tournament)
    seeds = _seeds(tournament)
    seed_of = {e.pk: s for s, e in seeds.items()}
    after = de.play(
        len(seeds),
        results(rows, seed_of, leave_out=game_pk),
        reset=tournament.grand_final_reset,
        strict=False,
    )
    for row in rows:
        played = [g for g in row.games.all() if g.pk != game_pk]
        if not played:
            continue
        m = after.match(key_of(row))
        if (seeds.get(m.top or 0), seeds.get(m.bottom or 0)) != (row.top, row.bottom):
            raise Locked(
                _("%(names)s have played on (%(where)s): void the games of that match first.")
                % {
                    "names": " / ".join(e.name for e in (row.top, row.bottom) if e is not None),
                    "where": where(row),
                }
            )


def where(match: PlayoffMatch) -> str:
    """A match's place in words: "winners' bracket, round 2, match 1", "grand final"."""
    if match.side == BracketSide.FINAL:
        return _("grand final") if match.round == 1 else _("grand final, deciding match")
    if match.side == BracketSide.LOSERS:
        text = _("losers' bracket, round %(round)s, match %(match)s")
    else:
        text = _("winners' bracket, round %(round)s, match %(match)s")
    return text % {"round": match.round, "match": match.position + 1}
