"""The tournament API: events, standings in the archive format's shape, rounds with seating,
scorecards (with an idempotency key, like the league's deals), a checker's settlement, the
bracket and playoff games. Thin views: they parse, call a service or a selector, serialize;
``can()`` and ``league.kernel.lifecycle`` decide, in the services, as at every other door."""

from __future__ import annotations

from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from league.kernel.api import REFUSALS, ErrorSerializer, ReadOnlyViewSet, parse
from league.kernel.throttles import DealEntryThrottle, TooManyRequests
from tournaments import selectors, services
from tournaments.api import serializers as ts
from tournaments.models import Tournament


class ScorecardThrottle(DealEntryThrottle):
    """The score-entry limit of the league's deals (scope ``deals``), said of a card."""

    def throttle_failure(self) -> bool:
        wait = self.wait()
        seconds = max(1, int(wait + 0.999)) if wait is not None else 1
        message = ngettext(
            "Scores are coming in faster than anyone can play: nothing was stored. "
            "Wait %(n)s second, then send the card again.",
            "Scores are coming in faster than anyone can play: nothing was stored. "
            "Wait %(n)s seconds, then send the card again.",
            seconds,
        ) % {"n": seconds}
        raise TooManyRequests(message, code="throttled", wait=wait)


class TournamentViewSet(ReadOnlyViewSet):
    """Tournaments (club nights, ACC-style events) and their rules."""

    queryset = Tournament.objects.order_by("-date", "name")
    serializer_class = ts.TournamentSerializer
    filterset_fields = ["stage", "kind"]

    @extend_schema(responses=ts.TournamentStandingsSerializer)
    @action(detail=True, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings, the qualifiers and the first-round bracket, exactly as
        ``manage.py tournament_standings NAME --format json`` prints them."""
        return Response(selectors.standings_document(self.get_object()))

    @extend_schema(responses=ts.TournamentRoundSerializer(many=True))
    @action(detail=True, filter_backends=[], pagination_class=None)
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        """Every qualifying round with its seating: tables (their state, whether you may enter
        a card) and byes."""
        rows = selectors.rounds_for_api(self.get_object())
        return Response(
            ts.TournamentRoundSerializer(rows, many=True, context={"request": request}).data
        )

    @extend_schema(responses=ts.TournamentBracketSerializer)
    @action(detail=True, filter_backends=[])
    def bracket(self, request: Request, pk: str | None = None) -> Response:
        """The playoff bracket by round, with each match's games (empty until drawn)."""
        return Response(
            ts.TournamentBracketSerializer(selectors.bracket_document(self.get_object())).data
        )


class TableViewSet(ReadOnlyViewSet):
    """Qualifying games at their tables; a player's side enters its card here."""

    queryset = selectors.table_rows()
    serializer_class = ts.TableSerializer
    filterset_fields = ["round__tournament", "round", "status"]
    throttle_scope: str | None = None  # set per action: "deals" counts score entry

    @extend_schema(
        request=ts.ScorecardRequestSerializer,
        responses={
            201: ts.TableSerializer,
            200: OpenApiResponse(ts.TableSerializer, description="The same card, sent again."),
            **REFUSALS,
            429: OpenApiResponse(
                ErrorSerializer,
                description="Too many entries in a short time; nothing stored.",
            ),
        },
        description=(
            "Enter your side's scorecard: the winner and the loser's score, or the game deal by "
            "deal. Send a `key` (a UUID made by your device): the same card sent again with it "
            "returns the table (200) instead of a refusal. Two matching cards verify the game; "
            "two that disagree go to the checkers."
        ),
    )
    @action(
        detail=True,
        methods=["post"],
        filter_backends=[],
        throttle_classes=[ScorecardThrottle],
        throttle_scope="deals",
    )
    def scorecards(self, request: Request, pk: str | None = None) -> Response:
        game = self.get_object()
        body = parse(ts.ScorecardRequestSerializer, request.data)
        game, created = services.scorecard_enter(
            user=request.user,
            game=game,
            winner=services.table_entrant(game, body.get("winner"), field="winner"),
            loser_score=body.get("loser_score"),
            side=services.table_entrant(game, body.get("side"), field="side"),
            deals=body.get("deals"),
            first_dealer=body.get("first_dealer", 0),
            key=body.get("key"),
        )
        answer = ts.TableSerializer(
            selectors.table_rows().get(pk=game.pk), context={"request": request}
        ).data
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @extend_schema(
        request=ts.ResultRequestSerializer, responses={200: ts.TableSerializer, **REFUSALS}
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def settle(self, request: Request, pk: str | None = None) -> Response:
        """A checker's entry: it settles the table, whatever the two cards say."""
        game = self.get_object()
        body = parse(ts.ResultRequestSerializer, request.data)
        winner = services.table_entrant(game, body["winner"], field="winner")
        assert winner is not None
        game = services.scorecard_settle(
            user=request.user, game=game, winner=winner, loser_score=body["loser_score"]
        )
        return Response(
            ts.TableSerializer(
                selectors.table_rows().get(pk=game.pk), context={"request": request}
            ).data
        )


class PlayoffMatchViewSet(ReadOnlyViewSet):
    """Playoff matches of the bracket; the director records each game."""

    queryset = selectors.playoff_match_rows()
    serializer_class = ts.PlayoffMatchSerializer
    filterset_fields = ["tournament", "round"]

    @extend_schema(
        request=ts.PlayoffGameRequestSerializer,
        responses={
            201: ts.PlayoffMatchSerializer,
            200: OpenApiResponse(
                ts.PlayoffMatchSerializer,
                description="This key's game was stored before: the match as it stands.",
            ),
            **REFUSALS,
        },
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def games(self, request: Request, pk: str | None = None) -> Response:
        """Record the next game of the match; the match ends at a majority, and no game may
        follow (409). Send a ``key`` (a UUID made by your device): the same game sent again
        with it returns the match (200) instead of storing a second game."""
        match = self.get_object()
        body = parse(ts.PlayoffGameRequestSerializer, request.data)
        match, created = services.playoff_game_record(
            user=request.user,
            match=match,
            winner=services.match_entrant(match, body["winner"]),
            loser_score=body["loser_score"],
            key=body.get("key"),
        )
        answer = ts.PlayoffMatchSerializer(selectors.playoff_match_rows().get(pk=match.pk)).data
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)
