"""The REST API: thin views that parse a request, call a service or a selector, and serialize.

Lists fetch their related rows up front (``select_related``/``prefetch_related``), so their
query counts stay flat however many rows there are; tests pin them.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Prefetch, QuerySet
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from league.api import serializers as s
from league.api.permissions import my_matches
from league.kernel.api import REFUSALS, ReadOnlyViewSet
from league.kernel.errors import ValidationFailed
from league.kernel.throttles import DealEntryThrottle
from league.models import (
    Deal,
    Dispute,
    Game,
    GameSeat,
    League,
    Match,
    Player,
    Season,
    Team,
    Week,
)
from league.selectors.disputes import disputes_visible_to
from league.selectors.playoffs import playoff_bracket
from league.selectors.schedule import season_schedule
from league.selectors.standings import standings_for_season
from league.services.disputes import dispute_raise, dispute_withdraw, game_reject
from league.services.games import (
    deal_correct,
    deal_record,
    game_cancel,
    game_confirm,
    game_start,
    rival_withdraw,
)

# --- Querysets -----------------------------------------------------------------------------------


def current_deals() -> Prefetch:
    return Prefetch(
        "deals",
        queryset=Deal.objects.filter(is_current=True)
        .select_related("entered_by")
        .order_by("number"),
        to_attr="current_deals",
    )


def game_rows() -> QuerySet[Game]:
    """Games with everything ``GameSerializer`` reads, in a fixed number of queries."""
    return (
        Game.objects.filter(match__week__season__importing=False)
        .select_related("match__week__season__league", "match__home", "match__away", "winner")
        .prefetch_related(
            Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat")),
            current_deals(),
        )
    )


def match_rows() -> QuerySet[Match]:
    return (
        Match.objects.filter(week__season__importing=False)
        .select_related("week", "home", "away")
        .prefetch_related(
            Prefetch("games", queryset=Game.objects.select_related("winner").order_by("number"))
        )
    )


def team_list_rows() -> QuerySet[Team]:
    return (
        Team.objects.filter(season__importing=False)
        .select_related("captain")
        .prefetch_related(Prefetch("players", queryset=Player.objects.only("id", "name")))
    )


def week_list_rows() -> QuerySet[Week]:
    return (
        Week.objects.filter(season__importing=False)
        .select_related("venue")
        .annotate(match_count=Count("matches"))
    )


def match_list_rows() -> QuerySet[Match]:
    return (
        Match.objects.filter(week__season__importing=False)
        .select_related("week", "home", "away")
        .prefetch_related(
            Prefetch("games", queryset=Game.objects.only("id", "match_id").order_by("number"))
        )
    )


def game_list_rows() -> QuerySet[Game]:
    return Game.objects.filter(match__week__season__importing=False).select_related(
        "match__home", "match__away"
    )


def week_rows() -> QuerySet[Week]:
    return (
        Week.objects.filter(season__importing=False)
        .select_related("venue")
        .prefetch_related(
            Prefetch("matches", queryset=Match.objects.select_related("home", "away"))
        )
    )


# --- Filters -------------------------------------------------------------------------------------


# An id beyond a 64-bit integer is refused (400) before SQLite is asked: it raises OverflowError.
ID_RANGE = {"min_value": -(2**63), "max_value": 2**63 - 1}


class MineFilter(filters.FilterSet):
    mine = filters.BooleanFilter(method="filter_mine", label="Only the matches your team plays in")

    def filter_mine(self, queryset: QuerySet[Any], name: str, value: bool) -> QuerySet:
        if not value:
            return queryset
        if queryset.model is Match:
            return my_matches(queryset, self.request.user)
        match_ids = my_matches(Match.objects.all(), self.request.user).values("pk")
        return queryset.filter(match__in=match_ids)


class MatchFilter(MineFilter):
    season = filters.NumberFilter(field_name="week__season", **ID_RANGE)

    class Meta:
        model = Match
        fields = ["season", "week", "home", "away", "mine"]


class GameFilter(MineFilter):
    season = filters.NumberFilter(field_name="match__week__season", **ID_RANGE)

    class Meta:
        model = Game
        fields = ["season", "match", "status", "mine"]


class DealFilter(filters.FilterSet):
    history = filters.BooleanFilter(
        method="filter_history", label="Include corrected (replaced) versions"
    )

    def filter_history(self, queryset: QuerySet[Deal], name: str, value: bool) -> QuerySet:
        return queryset if value else queryset.filter(is_current=True)

    def filter_queryset(self, queryset: QuerySet[Deal]) -> QuerySet[Deal]:
        if self.form.cleaned_data.get("history") is None:  # current versions unless asked
            queryset = queryset.filter(is_current=True)
        return super().filter_queryset(queryset)

    class Meta:
        model = Deal
        fields = ["game", "history"]


# --- Views ---------------------------------------------------------------------------------------


class LeagueViewSet(ReadOnlyViewSet):
    """Leagues and the rules each one plays by."""

    queryset = League.objects.all()
    serializer_class = s.LeagueSerializer


class SeasonViewSet(ReadOnlyViewSet):
    """Seasons; each has a schedule and standings."""

    queryset = Season.objects.shown().select_related("league")
    serializer_class = s.SeasonSerializer
    filterset_fields = ["league", "is_current"]

    @extend_schema(responses=s.StandingsSerializer)
    @action(detail=True, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The season's standings and playoff seeding."""
        return Response(standings_for_season(self.get_object()))

    @extend_schema(responses=s.SeedingSerializer)
    @action(detail=True, filter_backends=[])
    def seeding(self, request: Request, pk: str | None = None) -> Response:
        """Playoff seeding: every team, first seed first, with what placed each."""
        season = self.get_object()
        data = standings_for_season(season)
        return Response(
            {
                "season": season.name,
                "playoff_teams": season.playoff_teams,
                "seeding": data["seeding"],
                "decided_by": data["seeding_decided_by"],
            }
        )

    @extend_schema(responses=s.BracketSerializer)
    @action(detail=True, filter_backends=[])
    def bracket(self, request: Request, pk: str | None = None) -> Response:
        """The playoff bracket as it stands (empty until the playoffs are drawn)."""
        return Response(playoff_bracket(self.get_object()))

    @extend_schema(responses=s.ScheduleWeekSerializer(many=True))
    @action(detail=True, filter_backends=[], pagination_class=None)
    def schedule(self, request: Request, pk: str | None = None) -> Response:
        """Every week of the season with its matches (teams as ids and names)."""
        return Response(season_schedule(self.get_object()))


class TeamViewSet(ReadOnlyViewSet):
    """Teams with their players and captain."""

    queryset = (
        Team.objects.filter(season__importing=False)
        .select_related("captain")
        .prefetch_related("players")
    )
    serializer_class = s.TeamSerializer
    list_queryset = team_list_rows()
    list_serializer_class = s.TeamListSerializer
    filterset_fields = ["season"]


class WeekViewSet(ReadOnlyViewSet):
    """Weeks of the schedule with their matches."""

    queryset = week_rows()
    serializer_class = s.WeekSerializer
    list_queryset = week_list_rows()
    list_serializer_class = s.WeekListSerializer
    filterset_fields = ["season", "is_playoff"]


@extend_schema_view(
    list=extend_schema(description="Matches; `?mine=1` keeps those your team plays in."),
)
class MatchViewSet(ReadOnlyViewSet):
    """Matches with their games; ``can_record`` says whether you may enter their scores."""

    queryset = match_rows()
    serializer_class = s.MatchSerializer
    list_queryset = match_list_rows()
    list_serializer_class = s.MatchListSerializer
    filterset_class = MatchFilter

    @extend_schema(
        methods=["POST"],
        request=s.GameStartRequestSerializer,
        responses={201: s.GameSerializer, **REFUSALS},
        description="Start the next game of this match, players seated clockwise.",
    )
    @extend_schema(methods=["GET"], responses=s.GameSerializer(many=True))
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def games(self, request: Request, pk: str | None = None) -> Response:
        """The match's games; POST starts the next one."""
        match = self.get_object()
        if request.method == "GET":
            rows = game_rows().filter(match=match).order_by("number")
            return Response(s.GameSerializer(rows, many=True, context={"request": request}).data)
        game = game_start(
            match=match, user=request.user, **s.parse(s.GameStartRequestSerializer, request.data)
        )
        answer = s.GameSerializer(game_rows().get(pk=game.pk), context={"request": request}).data
        return Response(answer, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(description="Games; `?mine=1` keeps those your team plays in."),
)
class GameViewSet(ReadOnlyViewSet):
    """Games with seats, scores, result, league points and current deals."""

    queryset = game_rows()
    serializer_class = s.GameSerializer
    list_queryset = game_list_rows()
    list_serializer_class = s.GameListSerializer
    filterset_class = GameFilter
    throttle_scope: str | None = None  # set per action: "deals" counts score entry

    def get_queryset(self) -> QuerySet[Any]:
        if self.action == "deals" and self.request.method == "POST":
            # Recording a deal reads the game afresh and locks it (``deal_record``): here it
            # is only found (or 404), not drawn, so none of the serializer's joins and
            # prefetches (three queries a deal at every table of a venue night).
            return Game.objects.filter(match__week__season__importing=False)
        return super().get_queryset()

    @extend_schema(
        methods=["POST"],
        request=s.DealRequestSerializer,
        responses={
            201: s.DealSerializer,
            200: OpenApiResponse(s.DealSerializer, description="The same entry, sent again."),
            **REFUSALS,
            429: OpenApiResponse(
                s.ErrorSerializer, description="Too many entries in a short time; nothing stored."
            ),
        },
        description=(
            "Record the next deal. Send a `key` (a UUID made by your device): sending the same "
            "deal again with it returns the stored deal (200) instead of adding a second one."
        ),
    )
    @extend_schema(methods=["GET"], responses=s.DealSerializer(many=True))
    @action(
        detail=True,
        methods=["get", "post"],
        filter_backends=[],
        pagination_class=None,
        throttle_classes=[DealEntryThrottle],
        throttle_scope="deals",
    )
    def deals(self, request: Request, pk: str | None = None) -> Response:
        """The game's current deals; POST records the next one."""
        game = self.get_object()
        if request.method == "GET":
            target = game.match.week.season.target
            deals = s.DealSerializer(game.current_deals, many=True, context={"target": target})
            return Response(deals.data)
        envelope = s.parse(s.DealEnvelopeSerializer, request.data)
        deal, created = deal_record(
            game=game,
            user=request.user,
            number=envelope.get("number"),
            data={k: v for k, v in request.data.items() if k not in ("key", "number")},
            key=envelope.get("key"),
        )
        return Response(
            s.DealSerializer(deal).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(
        request=s.CorrectionRequestSerializer, responses={201: s.DealSerializer, **REFUSALS}
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def corrections(self, request: Request, pk: str | None = None) -> Response:
        """The team that entered a deal corrects it before the game is confirmed (a new
        version; the whole game is replayed; the other team is asked to look again)."""
        body = s.parse(s.CorrectionRequestSerializer, request.data)
        deal = deal_correct(
            game=self.get_object(),
            number=body["number"],
            user=request.user,
            data=body["deal"],
            reason=body["reason"],
        )
        return Response(s.DealSerializer(deal).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["POST"],
        request=s.DisputeRequestSerializer,
        responses={201: s.DisputeSerializer, **REFUSALS},
    )
    @extend_schema(methods=["GET"], responses=s.DisputeSerializer(many=True))
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def disputes(self, request: Request, pk: str | None = None) -> Response:
        """Disputes on this game (for its teams, judges and admins); POST raises one."""
        game = self.get_object()
        if request.method == "GET":
            rows = visible_disputes(request.user, game=game)
            return Response(s.DisputeSerializer(rows, many=True).data)
        body = s.parse(s.DisputeRequestSerializer, request.data)
        rival = None
        if body.get("rival") is not None:
            rival = Deal.objects.filter(pk=body["rival"], game=game, is_rival=True).first()
            if rival is None:
                raise ValidationFailed(_("That entry is not part of this game."), field="rival")
        dispute = dispute_raise(
            game=game,
            user=request.user,
            claim=body["claim"],
            deal_number=body.get("deal_number"),
            rival=rival,
        )
        return Response(s.DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.DisputeRequestSerializer, responses={201: s.DisputeSerializer, **REFUSALS}
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def reject(self, request: Request, pk: str | None = None) -> Response:
        """The other team refuses to confirm: this raises a dispute for a judge."""
        body = s.parse(s.DisputeRequestSerializer, request.data)
        dispute = game_reject(
            game=self.get_object(),
            user=request.user,
            claim=body["claim"],
            deal_number=body.get("deal_number"),
        )
        return Response(s.DisputeSerializer(dispute).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.GameSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        """Either team cancels a game started by mistake, before its first deal: it is voided
        and its number is free for the next start."""
        game = game_cancel(game=self.get_object(), user=request.user)
        return Response(
            s.GameSerializer(game_rows().get(pk=game.pk), context={"request": request}).data
        )

    @extend_schema(request=None, responses={200: s.GameSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """The other team confirms a finished game."""
        game = game_confirm(game=self.get_object(), user=request.user)
        return Response(
            s.GameSerializer(game_rows().get(pk=game.pk), context={"request": request}).data
        )


def visible_disputes(user: Any, *, game: Game | None = None) -> QuerySet[Dispute]:
    """The disputes ``user`` may read (``can(VIEW_DISPUTES)``), of one game or of all."""
    return disputes_visible_to(user, game=game).select_related("raised_by", "judge")


class DisputeViewSet(ReadOnlyViewSet):
    """Disputes, visible to both teams' players, judges and league admins."""

    queryset = Dispute.objects.none()
    serializer_class = s.DisputeSerializer

    def get_queryset(self) -> QuerySet[Dispute]:
        if self.action == "withdraw":  # the service says who may: 403, not a hidden 404
            return Dispute.objects.select_related("game__match")
        return visible_disputes(self.request.user)

    @extend_schema(request=None, responses={200: s.DisputeSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """The team that raised a dispute takes it back."""
        dispute = dispute_withdraw(dispute=self.get_object(), user=request.user)
        return Response(s.DisputeSerializer(dispute).data)


class DealViewSet(ReadOnlyViewSet):
    """Deals; corrected versions and rival entries are listed with ``?history=1``."""

    # By the game's id, not "game" (which sorts by week and table through three joins): the
    # unique index on (game, number, version) then gives the order, no sort of every deal.
    queryset = (
        Deal.objects.filter(game__match__week__season__importing=False)
        .select_related("entered_by")
        .annotate(season_target=F("game__match__week__season__target"))
        .order_by("game_id", "number", "version")
    )
    serializer_class = s.DealSerializer
    filterset_class = DealFilter

    @extend_schema(request=None, responses={200: s.GameSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Your team accepts the stored numbers of a deal it entered differently: its rival
        entry is settled (kept on record), and your team can confirm again."""
        game = rival_withdraw(rival=self.get_object(), user=request.user)
        return Response(
            s.GameSerializer(game_rows().get(pk=game.pk), context={"request": request}).data
        )
