"""The cut and the bracket: who qualifies, the draw, playoff games and the champion."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from contest import brackets
from league.kernel.audit import AuditAction, audit_log
from league.kernel.errors import Locked, ValidationFailed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.kernel.permissions import Action, Actor, actor_of
from tournaments import logic
from tournaments.models import (
    Entrant,
    PlayoffGame,
    PlayoffMatch,
    TableGame,
    TableState,
    Tournament,
    TournamentStage,
)
from tournaments.selectors import (
    standings_for_tournament,
)
from tournaments.services._common import _changed, _lock, _require
from tournaments.services.notify import notify_club_night_standing


def bracket_draw(*, user: Actor, tournament: Tournament) -> list[PlayoffMatch]:
    """Draw the bracket from the standings: seeds, byes to the top seeds, every round's slots."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.stage != TournamentStage.QUALIFYING:
            raise Locked(_("The bracket is drawn once, at the end of the qualifying rounds."))
        open_games = TableGame.objects.filter(round__tournament=tournament).exclude(
            status=TableState.VERIFIED
        )
        if open_games.exists():
            g = open_games.select_related("round").first()
            assert g is not None
            raise Locked(
                _("Table %(table)s of round %(round)s has no verified result yet.")
                % {"table": g.table, "round": g.round.number}
            )
        data = standings_for_tournament(tournament)
        if not data["qualifiers"]:
            raise ValidationFailed(_("Nobody has qualified yet."))
        if data["playoff_due"]:
            raise Locked(
                _(
                    "%(names)s are level on every tie-break at the cut: they play a one-game "
                    "playoff first, and its winner is recorded before the draw."
                )
                % {"names": ", ".join(data["playoff_due"])}
            )
        matches = _store_bracket(tournament, data["qualifiers"])
        tournament.stage = TournamentStage.PLAYOFFS
        tournament.save(update_fields=["stage"])
        audit_log(
            actor=user,
            action=AuditAction.BRACKET_DRAW,
            obj=tournament,
            after={"qualifiers": data["qualifiers"], "bracket": data["bracket"]},
        )
    _changed(tournament.pk)
    return matches


def tiebreak_playoff_record(
    *, user: Actor, tournament: Tournament, winner: str, loser: str
) -> Tournament:
    """The winner of a one-game playoff between two entrants level at the cut, where the
    event's tie-breaks end in a playoff (scheduled, never drawn). Only entrants the standings
    name as due may play it; the standings then rank the winner above."""
    _require(user, Action.RUN_TOURNAMENT, tournament)
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.stage != TournamentStage.QUALIFYING:
            raise Locked(_("A tie-break playoff is played after the qualifying rounds only."))
        due = standings_for_tournament(tournament)["playoff_due"]
        if winner == loser or winner not in due or loser not in due:
            raise ValidationFailed(
                _("No playoff is due between %(a)s and %(b)s; due: %(due)s.")
                % {"a": winner, "b": loser, "due": ", ".join(due) or _("nobody")},
                field="winner",
            )
        before = list(tournament.tiebreak_playoffs or [])
        tournament.tiebreak_playoffs = [*before, [winner, loser]]
        tournament.save(update_fields=["tiebreak_playoffs"])
        audit_log(
            actor=user,
            action=AuditAction.TOURNAMENT_UPDATE,
            obj=tournament,
            before={"tiebreak_playoffs": before},
            after={"tiebreak_playoffs": tournament.tiebreak_playoffs},
            reason=f"tie-break playoff: {winner} beat {loser}",
        )
    _changed(tournament.pk)
    return tournament


def _store_bracket(tournament: Tournament, qualifiers: list[str]) -> list[PlayoffMatch]:
    by_name = {e.name: e for e in tournament.entrants.all()}
    seeds: dict[int, Entrant] = {}
    for i, name in enumerate(qualifiers, start=1):
        entrant = by_name[name]
        entrant.seed = i
        entrant.save(update_fields=["seed"])
        seeds[i] = entrant
    slots = brackets.bracket(len(qualifiers))
    matches: list[PlayoffMatch] = []
    size = len(slots)
    rnd = 1
    while size >= 1:
        for pos in range(size):
            match = PlayoffMatch(tournament=tournament, round=rnd, position=pos)
            if rnd == 1:
                high, low = slots[pos]
                match.top = seeds[high]
                match.bottom = seeds[low] if low is not None else None
                match.is_bye = low is None
            matches.append(match)
        size //= 2
        rnd += 1
    PlayoffMatch.objects.bulk_create(matches)
    stored = list(tournament.playoff_matches.order_by("round", "position"))
    for match in stored:
        if match.is_bye:
            _decide(tournament, match, match.top)
    return stored


def _decide(tournament: Tournament, match: PlayoffMatch, winner: Entrant | None) -> None:
    """Set a match's winner and send them on to the next round (or end the event)."""
    assert winner is not None
    match.winner = winner
    match.save(update_fields=["winner"])
    nxt = PlayoffMatch.objects.filter(
        tournament=tournament, round=match.round + 1, position=match.position // 2
    ).first()
    if nxt is None:
        tournament.stage = TournamentStage.FINISHED
        tournament.save(update_fields=["stage"])
        notify_club_night_standing(tournament)  # after commit, to each entrant's players
        return
    if match.position % 2 == 0:
        nxt.top = winner
        nxt.save(update_fields=["top"])
    else:
        nxt.bottom = winner
        nxt.save(update_fields=["bottom"])


def _where_in_bracket(match: PlayoffMatch) -> str:
    return _("playoff round %(round)s, match %(match)s") % {
        "round": match.round,
        "match": match.position + 1,
    }


def _replayed_game(
    key: str | None, match: PlayoffMatch, user: Any, winner: Entrant, loser_score: Any
) -> bool:
    """Whether ``key`` already stored this very game (a retry, a double tap on the admin's
    save); a key that stored another game is a conflict, and nothing is stored."""
    stored = replay(
        stored_by_key(PlayoffGame, key),
        same=lambda game: (
            game.match_id == match.pk
            and game.winner_id == winner.pk
            and game.loser_score == loser_score
            and game.entered_by_id == getattr(actor_of(user), "pk", None)
        ),
        conflict=_("This key was already used for another playoff game."),
    )
    return stored is not None


def playoff_game_record(
    *,
    user: Actor,
    match: PlayoffMatch,
    winner: Entrant,
    loser_score: Any,
    key: str | None = None,
) -> tuple[PlayoffMatch, bool]:
    """One game of a playoff match; the match ends at a majority, and no game may follow.
    The same ``key`` sent again stores nothing more and returns the match (``created``
    False), so a retry or a second tap cannot decide a best-of-3 from one game played."""
    key = checked_key(key)
    _require(user, Action.RUN_TOURNAMENT, match.tournament)
    if _replayed_game(key, match, user, winner, loser_score):
        return PlayoffMatch.objects.get(pk=match.pk), False
    try:
        return _playoff_game_store(user, match, winner, loser_score, key)
    except IntegrityError:  # the same key, stored meanwhile by a request that raced this one
        if _replayed_game(key, match, user, winner, loser_score):
            return PlayoffMatch.objects.get(pk=match.pk), False
        raise


def playoff_game_check(
    tournament: Tournament, match: PlayoffMatch, winner: Entrant, loser_score: Any
) -> int:
    """The checks of :func:`playoff_game_record` on a game of ``match`` (not decided, its two
    entrants known, the winner one of them, the score below the target): the loser's score.
    Reads only the objects given (no query), so the tournament archive's importer checks its
    playoff games with it too, on matches it has not stored yet."""
    where = _where_in_bracket(match)
    if match.winner is not None:
        raise Locked(
            _("The match (%(where)s) is decided: %(winner)s won it; no game may follow.")
            % {"where": where, "winner": match.winner.name}
        )
    if match.top is None or match.bottom is None:
        raise Locked(_("The match (%(where)s) waits for its two entrants.") % {"where": where})
    if winner not in (match.top, match.bottom):
        raise ValidationFailed(
            _("The winner must be %(a)s or %(b)s (%(where)s).")
            % {"a": match.top.name, "b": match.bottom.name, "where": where},
            field="winner",
        )
    try:
        return logic.check_loser_score(tournament.rules, loser_score)
    except ValueError:
        raise ValidationFailed(
            _("The loser's score must be a whole number from 0 to %(top)s.")
            % {"top": tournament.target - 1},
            field="loser_score",
        ) from None


def _playoff_game_store(
    user: Any, match: PlayoffMatch, winner: Entrant, loser_score: Any, key: str | None
) -> tuple[PlayoffMatch, bool]:
    with transaction.atomic():
        tournament = _lock(match.tournament)
        match = PlayoffMatch.objects.select_related("top", "bottom").get(pk=match.pk)
        if _replayed_game(key, match, user, winner, loser_score):  # raced, and lost the lock
            return match, False
        score = playoff_game_check(tournament, match, winner, loser_score)
        number = match.games.count() + 1
        PlayoffGame.objects.create(
            match=match,
            number=number,
            winner=winner,
            loser_score=score,
            entered_by=actor_of(user),
            key=key,
        )
        winners = list(match.games.order_by("number").values_list("winner_id", flat=True))
        decided = brackets.match_winner(winners, best_of=tournament.playoff_best_of)
        if decided is not None:
            _decide(tournament, match, winner)
        audit_log(
            actor=user,
            action=AuditAction.PLAYOFF_GAME_RECORD,
            obj=match,
            after={"game": number, "winner": winner.name, "loser_score": score},
        )
    _changed(tournament.pk)
    return match, True


def playoff_game_void(*, user: Any, game: PlayoffGame, reason: str = "") -> PlayoffMatch:
    """Void a wrongly recorded playoff game: it leaves the match (the later games move up a
    number), and a match it had decided is open again, its winner taken back out of the next
    round (or the event's champion out of the final). Refused once the next match has games of
    its own: void those first. The audit keeps the game as it was."""
    match = game.match
    _require(user, Action.RUN_TOURNAMENT, match.tournament)
    with transaction.atomic():
        tournament = _lock(match.tournament)
        match = PlayoffMatch.objects.select_related("winner").get(pk=match.pk)
        game = PlayoffGame.objects.select_related("winner").get(pk=game.pk, match=match)
        if match.winner_id is not None:
            nxt = PlayoffMatch.objects.filter(
                tournament=tournament, round=match.round + 1, position=match.position // 2
            ).first()
            if nxt is not None and nxt.games.exists():
                raise Locked(
                    _("%(winner)s has played on (%(where)s): void the games of that match first.")
                    % {
                        "winner": match.winner.name if match.winner else "",
                        "where": _where_in_bracket(nxt),
                    }
                )
            _undecide(tournament, match, nxt)
        before = {
            "game": game.number,
            "winner": game.winner.name,
            "loser_score": game.loser_score,
            "key": game.key,
        }
        number = game.number
        game.delete()
        match.cards.filter(number__gte=number).delete()  # its players' cards go with it
        for later in match.games.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        audit_log(
            actor=user,
            action=AuditAction.PLAYOFF_GAME_VOID,
            obj=match,
            before=before,
            reason=reason,
        )
    _changed(tournament.pk)
    return match


def _undecide(tournament: Tournament, match: PlayoffMatch, nxt: PlayoffMatch | None) -> None:
    """Take a match's decision back: no winner, the next round's slot empty again, or the
    event back in its playoffs when this was the final."""
    match.winner = None
    match.save(update_fields=["winner"])
    if nxt is None:
        tournament.stage = TournamentStage.PLAYOFFS
        tournament.save(update_fields=["stage"])
        return
    slot = "top" if match.position % 2 == 0 else "bottom"
    setattr(nxt, slot, None)
    nxt.save(update_fields=[slot])


def table_entrant(game: TableGame, entrant_id: int | None, *, field: str) -> Entrant | None:
    """The entrant of this table with id ``entrant_id`` (a client's reference), else a refusal
    naming the table's two entrants."""
    if entrant_id is None:
        return None
    for entrant in (game.first, game.second):
        if entrant.pk == entrant_id:
            return entrant
    if field == "side":
        raise ValidationFailed(_("That scorecard is not from this table."), field=field)
    raise ValidationFailed(
        _("The winner must be one of the two entrants at table %(table)s: %(a)s or %(b)s.")
        % {"table": game.table, "a": game.first.name, "b": game.second.name},
        field=field,
    )


def match_entrant(match: PlayoffMatch, entrant_id: int) -> Entrant:
    """The entrant of this playoff match with id ``entrant_id``, else a refusal naming both."""
    for entrant in (match.top, match.bottom):
        if entrant is not None and entrant.pk == entrant_id:
            return entrant
    names = [e.name for e in (match.top, match.bottom) if e is not None]
    raise ValidationFailed(
        _("The winner must be one of this match's entrants: %(names)s.")
        % {"names": " / ".join(names) or "-"},
        field="winner",
    )
