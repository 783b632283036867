"""A runner's paper card: a table without a phone hands in its paper scorecard, and a runner
types its number and the two scores as fast as they can read them. The card stands for each
side whose card is not in yet (a checker's paper card for that side, as ``scorecard_enter``
takes it), so it verifies the table, or meets a phone's card and agrees or disagrees with it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.kernel.errors import Locked, ValidationFailed
from league.kernel.idempotency import checked_key
from league.kernel.permissions import Actor
from tournaments.models import RoundStatus, Scorecard, TableGame, Tournament
from tournaments.services.scorecards import scorecard_enter


@dataclass(frozen=True)
class PaperCard:
    """What the runner's card did: the table, and how many side cards it entered (0: the same
    card sent again, already in)."""

    game: TableGame
    entered: int


def _whole(value: Any, *, field: str, words: str) -> int:
    text = str(value if value is not None else "").strip()
    if not text.isdigit():
        raise ValidationFailed(words, field=field)
    return int(text)


def paper_card_enter(
    *,
    user: Actor,
    tournament: Tournament,
    table: Any,
    first_score: Any,
    second_score: Any,
    key: Any = None,
) -> PaperCard:
    """Enter table ``table``'s paper card in the round under way: ``first_score`` is the first
    named entrant's score (as the seating lists them), ``second_score`` the second's; one of
    them is the target (the winner's), the other below it. The sides whose card is not in get
    this card, in one transaction, each asking ``can()`` as a checker's paper card does; a
    table with both cards in is refused (a checker settles a card that is wrong). The same
    ``key`` sent again (a double tap) enters nothing more."""
    key = checked_key(key)
    number = _whole(table, field="table", words=_("Type the table's number."))
    first = _whole(first_score, field="first_score", words=_("Type the first named's score."))
    second = _whole(second_score, field="second_score", words=_("Type the second named's score."))
    rnd = tournament.rounds.order_by("-number").first()
    if rnd is None or rnd.status not in (RoundStatus.SEATED, RoundStatus.STARTED):
        raise ValidationFailed(_("No round is under way: there is no table to enter a card for."))
    row = (
        TableGame.objects.filter(round=rnd, table=number)
        .values_list("pk", "first_id", "second_id")
        .first()
    )
    if row is None:
        raise ValidationFailed(
            _("Round %(round)s has no table %(table)s.") % {"round": rnd.number, "table": number},
            field="table",
        )
    pk, first_id, second_id = row
    target = tournament.target
    if first == target and second < target:
        winner, loser_score = first_id, second
    elif second == target and first < target:
        winner, loser_score = second_id, first
    else:
        raise ValidationFailed(
            _(
                "One score must be %(target)s, the winner's, and the other below it: "
                "%(first)s and %(second)s were typed."
            )
            % {"target": target, "first": first, "second": second},
            field="first_score",
        )
    with transaction.atomic():
        sides = set(
            Scorecard.objects.filter(game_id=pk, by_checker=False).values_list("side_id", "key")
        )
        if key and any(k and k.startswith(f"{key}-") for _side, k in sides):
            return PaperCard(TableGame.objects.get(pk=pk), 0)  # this card, sent again
        missing = [s for s in (first_id, second_id) if s not in {side for side, _k in sides}]
        if not missing:
            raise Locked(
                _(
                    "Both cards of table %(table)s are in already. If one is wrong, settle the "
                    "table in the checkers' queue."
                )
                % {"table": number},
                current={"table": number, "round": rnd.number},
            )
        game: TableGame | None = None
        for side in missing:
            game, _created = scorecard_enter(
                user=user,
                game=pk,
                winner=winner,
                loser_score=loser_score,
                side=side,
                key=f"{key}-{side}" if key else None,
            )
    assert game is not None
    return PaperCard(game, len(missing))
