"""The tournament API: events, standings in the archive format's shape, rounds with seating,
scorecards (with an idempotency key, like the league's deals), a checker's settlement, the
bracket and playoff games. Thin views: they parse, call a service or a selector, serialize;
``can()`` and ``league.kernel.lifecycle`` decide, in the services, as at every other door."""

from __future__ import annotations

from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from league.kernel.api import REFUSALS, ErrorSerializer, ReadOnlyViewSet, parse
from league.kernel.errors import ValidationFailed
from league.kernel.ids import number_from
from league.kernel.permissions import Action, refuse_unless
from league.kernel.recap import recap_document, recap_language
from league.kernel.throttles import DealEntryThrottle, TooManyRequests
from league.shared import Player
from tournaments import cutline, selectors, services
from tournaments.api import serializers as ts
from tournaments.checks import table_access
from tournaments.models import Club, Round, TableGame, Tournament
from tournaments.recap import night_recap


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

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "lang", str, description="The story's language (en, fr); the request's else."
            )
        ],
        responses={200: ts.NightRecapSerializer, **REFUSALS},
    )
    @action(detail=True, filter_backends=[], pagination_class=None)
    def recap(self, request: Request, pk: str | None = None) -> Response:
        """The night's story (its winner, top finishers, special hands and skunks) in one
        language, as sections and as plain text: information only."""
        tournament = self.get_object()
        language = recap_language(request.query_params.get("lang"))
        recap = night_recap(tournament)
        with translation.override(language):
            return Response({"tournament": tournament.pk, **recap_document(recap)})

    @extend_schema(responses=ts.TournamentStandingsSerializer)
    @action(detail=True, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The standings, the qualifiers and the first-round bracket, exactly as
        ``manage.py tournament_standings NAME --format json`` prints them."""
        return Response(selectors.standings_document(self.get_object()))

    @extend_schema(responses=ts.TournamentCutSerializer)
    @action(detail=True, filter_backends=[])
    def cut(self, request: Request, pk: str | None = None) -> Response:
        """Who stands where around the cut: no one is in or out before every entrant has a
        result; each entrant around the cut with the tie-break that placed it."""
        data = selectors.standings_for_tournament(self.get_object())
        found = cutline.marks(data)
        order = [row["entrant"] for row in data["standings"]]
        placed = [
            {"entrant": name, "placed_by": found["placed_by"][name]}
            for name in order
            if name in found["placed_by"]
        ]
        return Response(ts.TournamentCutSerializer({**found, "placed_by": placed}).data)

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

    @extend_schema(
        request=ts.EntrantsRequestSerializer,
        responses={201: ts.EntrantSerializer(many=True), **REFUSALS},
    )
    @action(detail=True, methods=["post"], filter_backends=[], pagination_class=None)
    def entrants(self, request: Request, pk: str | None = None) -> Response:
        """Enter names and players at once (all or none); ``check_in`` checks them in."""
        night = self.get_object()
        refuse_unless(request.user, Action.RUN_TOURNAMENT, night)  # before reading the body
        body = parse(ts.EntrantsRequestSerializer, request.data)
        players = list(Player.objects.filter(pk__in=body["players"]))
        made = services.entrants_add(
            user=request.user,
            tournament=night,
            names=body["names"],
            players=players,
            check_in=body["check_in"],
        )
        return Response(ts.EntrantSerializer(made, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: ts.EntrantSerializer(many=True), **REFUSALS})
    @action(detail=True, methods=["post"], url_path="check-in", filter_backends=[])
    def check_in(self, request: Request, pk: str | None = None) -> Response:
        """Check in every entrant still waiting."""
        done = services.entrants_check_in_all(user=request.user, tournament=self.get_object())
        return Response(ts.EntrantSerializer(done, many=True).data)

    @extend_schema(request=None, responses={201: ts.TournamentRoundSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def seat(self, request: Request, pk: str | None = None) -> Response:
        """Seat the next qualifying round."""
        rnd = services.round_seat_next(user=request.user, tournament=self.get_object())
        row = selectors.rounds_for_api(rnd.tournament).get(pk=rnd.pk)
        answer = ts.TournamentRoundSerializer(row, context={"request": request}).data
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ts.RoundStartRequestSerializer,
        responses={200: ts.TournamentRoundSerializer, **REFUSALS},
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Start a seated round: its clock runs, its seats are final."""
        night = self.get_object()
        refuse_unless(request.user, Action.RUN_TOURNAMENT, night)  # before reading the body
        body = parse(ts.RoundStartRequestSerializer, request.data)
        rnd = Round.objects.filter(tournament=night, number=body["number"]).first()
        if rnd is None:
            raise ValidationFailed(
                _("Round %(n)s is not seated yet.") % {"n": body["number"]}, field="number"
            )
        services.round_start(user=request.user, round=rnd)
        row = selectors.rounds_for_api(night).get(pk=rnd.pk)
        return Response(ts.TournamentRoundSerializer(row, context={"request": request}).data)

    @extend_schema(request=None, responses={201: ts.TournamentBracketSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], url_path="draw", filter_backends=[])
    def draw(self, request: Request, pk: str | None = None) -> Response:
        """The cut and the bracket, from the standings of verified games."""
        night = self.get_object()
        services.bracket_draw(user=request.user, tournament=night)
        answer = ts.TournamentBracketSerializer(selectors.bracket_document(night)).data
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: ts.TournamentSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def close(self, request: Request, pk: str | None = None) -> Response:
        """Record the payouts by the table if none are, then close the night's books."""
        night = self.get_object()
        services.night_close(user=request.user, tournament=night)
        return Response(ts.TournamentSerializer(night).data)


class ClubViewSet(ReadOnlyViewSet):
    """Clubs and their night defaults; "Tonight" and members for their directors."""

    queryset = Club.objects.order_by("name")
    serializer_class = ts.ClubSerializer

    @extend_schema(request=None, responses={201: ts.TournamentSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[], permission_classes=[IsAuthenticated])
    def tonight(self, request: Request, pk: str | None = None) -> Response:
        """Make tonight's night from the club's defaults."""
        night = services.night_tonight(user=request.user, club=self.get_object())
        return Response(ts.TournamentSerializer(night).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ts.NamesRequestSerializer, responses={201: None, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[], permission_classes=[IsAuthenticated])
    def members(self, request: Request, pk: str | None = None) -> Response:
        """Add members by name (new names become players)."""
        club = self.get_object()
        refuse_unless(request.user, Action.RUN_TOURNAMENT, club)  # before reading the body
        body = parse(ts.NamesRequestSerializer, request.data)
        added = services.club_members_add(user=request.user, club=club, names=body["names"])
        return Response(
            [{"id": p.pk, "name": p.name} for p in added], status=status.HTTP_201_CREATED
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
        # Not ``get_object()``: the service reads the table (or 404) with what the card needs,
        # and the answer is the table it wrote, with no read of its own (the card path,
        # tests/tournaments/test_card_path.py).
        table_id = number_from(pk)
        if table_id is None:
            raise Http404
        body = parse(ts.ScorecardRequestSerializer, request.data)
        try:
            game, created = services.scorecard_enter(
                user=request.user,
                game=table_id,
                winner=body.get("winner"),
                loser_score=body.get("loser_score"),
                side=body.get("side"),
                deals=body.get("deals"),
                first_dealer=body.get("first_dealer", 0),
                key=body.get("key"),
            )
        except TableGame.DoesNotExist:
            raise Http404 from None
        answer = ts.table_answer(game, table_access(request.user, game))
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

    @extend_schema(request=None, responses={200: ts.TableSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], url_path="acc-undo", filter_backends=[])
    def acc_undo(self, request: Request, pk: str | None = None) -> Response:
        """A checker undoes the ACC Rule 12.2 ruling of a table (``acc_rule``): the two cards
        go back to the checkers' queue."""
        game = services.scorecard_acc_reverse(user=request.user, game=self.get_object())
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
        request=ts.PlayoffGameKeyedRequestSerializer,
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
        follow (409). A ``key`` (a UUID made by your device) is required: the same game sent
        again with it returns the match (200) instead of storing a second game."""
        match = self.get_object()
        body = parse(ts.PlayoffGameKeyedRequestSerializer, request.data)
        match, created = services.playoff_game_record(
            user=request.user,
            match=match,
            winner=services.match_entrant(match, body["winner"]),
            loser_score=body["loser_score"],
            key=body["key"],
        )
        answer = ts.PlayoffMatchSerializer(selectors.playoff_match_rows().get(pk=match.pk)).data
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @extend_schema(
        request=ts.PlayoffGameRequestSerializer,
        responses={201: ts.PlayoffMatchSerializer, **REFUSALS},
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def cards(self, request: Request, pk: str | None = None) -> Response:
        """Your side's card for the match's next game: two that agree record it; two that
        differ wait for the director. The answer says which (``card``: waiting, recorded,
        disagree)."""
        match = self.get_object()
        body = parse(ts.PlayoffGameRequestSerializer, request.data)
        match, outcome = services.playoff_card_enter(
            user=request.user,
            match=match,
            winner=services.match_entrant(match, body["winner"]),
            loser_score=body["loser_score"],
            key=body.get("key"),
        )
        answer = ts.PlayoffMatchSerializer(selectors.playoff_match_rows().get(pk=match.pk)).data
        return Response({**answer, "card": outcome.card_word}, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ts.PlayoffForfeitRequestSerializer,
        responses={200: ts.PlayoffMatchSerializer, **REFUSALS},
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def forfeit(self, request: Request, pk: str | None = None) -> Response:
        """A no-show: the games the absent entrant forfeits after so many minutes (ACC: the
        first after 5, one more every 15), no more than the match needs."""
        match = self.get_object()
        refuse_unless(
            request.user, Action.RUN_TOURNAMENT, match.tournament
        )  # before reading the body
        body = parse(ts.PlayoffForfeitRequestSerializer, request.data)
        services.playoff_forfeit(
            user=request.user,
            match=match,
            absent=services.match_entrant(match, body["absent"]),
            minutes=body["minutes"],
        )
        answer = ts.PlayoffMatchSerializer(selectors.playoff_match_rows().get(pk=match.pk)).data
        return Response(answer)
