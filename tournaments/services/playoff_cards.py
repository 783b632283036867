"""Playoff games reported by the players' own cards, like qualifying ones: each side sends its
card for the match's next game; two that agree record the game (the bracket moves on), two
that differ wait for the director, whose entry of the game (``playoff_game_record``) decides
it. A side sends one card a game; the same card sent again with its key is stored once."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from league.kernel.errors import Locked, NotAllowed
from league.kernel.idempotency import checked_key, replay, stored_by_key
from league.kernel.permissions import Action, Actor, Trusted, actor_of, player_of
from tournaments.models import Entrant, PlayoffCard, PlayoffMatch, TableState, TournamentStage
from tournaments.services._common import _changed, _lock, _require
from tournaments.services.bracket import (
    _playoff_game_store,
    _where_in_bracket,
    playoff_game_check,
)


def side_in_match(user: Actor, match: PlayoffMatch) -> Entrant | None:
    """The entrant of ``match`` that ``user`` plays for, or None."""
    account = user.user if isinstance(user, Trusted) else user
    player = player_of(account) if account is not None else None
    if player is None:
        return None
    for entrant in (match.top, match.bottom):
        if entrant is not None and entrant.players.filter(pk=player.pk).exists():
            return entrant
    return None


def open_cards(match: PlayoffMatch) -> list[PlayoffCard]:
    """The cards sent for the match's next game (none once it is recorded)."""
    number = match.games.count() + 1
    return list(match.cards.filter(number=number).select_related("side", "winner").order_by("pk"))


def playoff_card_enter(
    *,
    user: Actor,
    match: PlayoffMatch,
    winner: Entrant,
    loser_score: Any,
    side: Entrant | None = None,
    key: Any = None,
) -> tuple[PlayoffMatch, TableState]:
    """Your side's card for the next game of your playoff match."""
    key = checked_key(key)
    _require(user, Action.ENTER_SCORECARD)
    mine = side_in_match(user, match)
    if side is not None and isinstance(user, Trusted):
        mine = side
    if mine is None:
        raise NotAllowed(_("You do not play in this match."))
    stored = replay(
        stored_by_key(PlayoffCard, key),
        same=lambda card: (
            card.match_id == match.pk
            and card.side_id == mine.pk
            and card.result == (winner.pk, loser_score)
        ),
        conflict=_("This key was already used for another card."),
    )
    if stored is not None:
        return PlayoffMatch.objects.get(pk=match.pk), TableState.ENTERED
    try:
        answer = _enter(user, match, mine, winner, loser_score, key)
    except IntegrityError:  # the same card, stored meanwhile by a request that raced this one
        raise Locked(_("Your card for this game is in already.")) from None
    _changed(match.tournament_id)  # the director's live view shows the card
    return answer


def _enter(
    user: Actor, match: PlayoffMatch, mine: Entrant, winner: Entrant, loser_score: Any, key: Any
) -> tuple[PlayoffMatch, TableState]:
    with transaction.atomic():
        tournament = _lock(match.tournament)
        match = PlayoffMatch.objects.select_related("top", "bottom").get(pk=match.pk)
        where = _where_in_bracket(match)
        if tournament.stage != TournamentStage.PLAYOFFS or match.winner_id is not None:
            raise Locked(
                _("The match (%(where)s) is decided: no game may follow.") % {"where": where}
            )
        # Entrants known, the winner one of them, the score below the target: the director's
        # entry's checks, with their words.
        score = playoff_game_check(tournament, match, winner, loser_score)
        number = match.games.count() + 1
        cards = {c.side_id: c for c in match.cards.filter(number=number)}
        if mine.pk in cards:
            other = match.bottom if mine.pk == match.top_id else match.top
            raise Locked(
                _("Your card for game %(n)s is in: waiting for the card from %(other)s.")
                % {"n": number, "other": other.name if other else ""}
            )
        PlayoffCard.objects.create(
            match=match,
            number=number,
            side=mine,
            winner=winner,
            loser_score=score,
            entered_by=actor_of(user),
            key=key,
        )
        theirs = next((c for s, c in cards.items() if s != mine.pk), None)
        if theirs is None:
            return match, TableState.ENTERED
        if theirs.result != (winner.pk, score):
            return match, TableState.MISMATCH
        # Both sides agree: the game is recorded as the director's entry would record it,
        # answered for by the two cards.
        match, _created = _playoff_game_store(
            Trusted(actor_of(user), "both players' cards agree"), match, winner, score, None
        )
    return match, TableState.VERIFIED
