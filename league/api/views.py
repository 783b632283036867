"""The REST API: thin views that parse a request, call a service or a selector, and serialize.

Lists fetch their related rows up front (``select_related``/``prefetch_related``), so their
query counts stay flat however many rows there are; tests pin them.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Prefetch, QuerySet
from django.http import Http404
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from league.api import serializers as s
from league.api.permissions import my_matches
from league.kernel.api import REFUSALS, ReadOnlyViewSet
from league.kernel.errors import NotAllowed, ValidationFailed
from league.kernel.ids import number_from
from league.kernel.permissions import Action, can
from league.kernel.recap import recap_document, recap_language
from league.kernel.throttles import DealEntryThrottle
from league.models import (
    Deal,
    Dispute,
    Forfeit,
    Game,
    GameSeat,
    League,
    Match,
    Player,
    Postponement,
    Season,
    SeasonState,
    Team,
    Week,
)
from league.selectors.availability import match_availability, may_see_availability, player_of
from league.selectors.disputes import disputes_visible_to
from league.selectors.playoffs import playoff_bracket, playoff_ineligible
from league.selectors.ratings import provisional_games, team_ratings
from league.selectors.recap import recap_week, week_recap
from league.selectors.schedule import season_schedule
from league.selectors.seasons import drafts_hidden, state_filter
from league.selectors.standings import standings_for_season
from league.selectors.subs import subs_of
from league.selectors.winprob import game_chance, game_swing
from league.services.availability import availability_answer, team_of
from league.services.corrections import deal_correct, rival_withdraw
from league.services.deals import deal_record
from league.services.discards import dealt_hand_record
from league.services.disputes import dispute_raise, dispute_withdraw, game_reject
from league.services.forfeits import forfeit_undo, match_forfeit
from league.services.games import game_cancel, game_confirm, game_start
from league.services.people import PlayerLine
from league.services.postponements import (
    match_postpone,
    postponement_answer,
    postponement_ask,
    week_cancel,
    week_move,
)
from league.services.season_life import (
    season_finish,
    season_publish,
    season_reopen,
    season_unpublish,
)
from league.services.subs import sub_ask, sub_remove, subs_add

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
        .select_related("week__season", "home", "away")
        .prefetch_related(
            Prefetch("games", queryset=Game.objects.select_related("winner").order_by("number")),
            Prefetch(
                "forfeits",
                queryset=Forfeit.objects.select_related("team").prefetch_related("games"),
            ),
            "postponements",
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


class SeasonFilter(filters.FilterSet):
    state = filters.ChoiceFilter(
        choices=SeasonState.choices,
        method="filter_state",
        label="draft, published (next season), running (current) or finished",
    )

    def filter_state(self, queryset: QuerySet[Season], name: str, value: str) -> QuerySet:
        return queryset.filter(state_filter(value, today=timezone.localdate()))

    class Meta:
        model = Season
        fields = ["league", "state"]


class DraftsHidden:
    """A list and its objects without the rows of draft seasons, unless you are a league
    admin (a draft is seen by organisers only, at every door). ``season_path`` leads from a
    row to its season."""

    season_path = "season"

    def get_queryset(self) -> QuerySet[Any]:
        queryset = super().get_queryset()  # type: ignore[misc]
        return drafts_hidden(self.request.user, queryset, self.season_path)  # type: ignore[attr-defined]


class SeasonViewSet(ReadOnlyViewSet):
    """Seasons, each with its state (``?state=running`` for the seasons being played); each
    has a schedule and standings. League admins publish, finish and reopen them here."""

    queryset = Season.objects.shown().select_related("league").with_first_night()
    serializer_class = s.SeasonSerializer
    filterset_class = SeasonFilter

    def get_queryset(self) -> QuerySet[Any]:
        queryset = super().get_queryset()
        if can(self.request.user, Action.MANAGE_LEAGUE):
            return queryset
        return queryset.exclude(state=SeasonState.DRAFT)

    def _moved(self, season: Season) -> Response:
        fresh = Season.objects.select_related("league").with_first_night().get(pk=season.pk)
        return Response(s.SeasonSerializer(fresh).data)

    @extend_schema(request=None, responses={200: s.SeasonSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def publish(self, request: Request, pk: str | None = None) -> Response:
        """Publish a draft: the league's next season, running from its first night."""
        return self._moved(season_publish(season=self.get_object(), user=request.user))

    @extend_schema(request=None, responses={200: s.SeasonSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def unpublish(self, request: Request, pk: str | None = None) -> Response:
        """Take a published season with no game back to draft."""
        return self._moved(season_unpublish(season=self.get_object(), user=request.user))

    @extend_schema(
        request=s.FinishRequestSerializer, responses={200: s.SeasonSerializer, **REFUSALS}
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        """Finish a season early, with the reason on record (``confirm``: as it stands, while
        disputes are open or games unconfirmed)."""
        data = s.parse(s.FinishRequestSerializer, request.data)
        return self._moved(
            season_finish(
                season=self.get_object(),
                user=request.user,
                reason=data["reason"],
                confirm=data["confirm"],
            )
        )

    @extend_schema(
        request=s.ReasonRequestSerializer, responses={200: s.SeasonSerializer, **REFUSALS}
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        """Reopen a finished season, with the reason on record."""
        data = s.parse(s.ReasonRequestSerializer, request.data)
        return self._moved(
            season_reopen(season=self.get_object(), user=request.user, reason=data["reason"])
        )

    @extend_schema(
        methods=["POST"],
        request=s.SubsAddRequestSerializer,
        responses={200: s.SubSerializer(many=True), **REFUSALS},
        description="A league admin adds players to the sub list (new names become players).",
    )
    @extend_schema(methods=["GET"], responses=s.SubSerializer(many=True))
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def subs(self, request: Request, pk: str | None = None) -> Response:
        """The season's sub list: players on no team of it, who sit for an absent partner."""
        season = self.get_object()
        if request.method == "POST":
            data = s.parse(s.SubsAddRequestSerializer, request.data)
            lines = [
                PlayerLine(name=row["name"], email=row["email"], line=n)
                for n, row in enumerate(data["players"], start=1)
            ]
            subs_add(user=request.user, season=season, lines=lines)
        return Response(s.SubSerializer(subs_of(season), many=True).data)

    @extend_schema(
        request=s.SubRemoveRequestSerializer,
        responses={200: s.SubSerializer(many=True), **REFUSALS},
    )
    @action(detail=True, methods=["post"], filter_backends=[], url_path="subs/remove")
    def subs_remove(self, request: Request, pk: str | None = None) -> Response:
        """A league admin takes a player off the sub list (the games they sat in keep them)."""
        season = self.get_object()
        data = s.parse(s.SubRemoveRequestSerializer, request.data)
        player = Player.objects.filter(pk=data["player"]).first()
        if player is None:
            raise ValidationFailed(_("No such player."), field="player")
        sub_remove(user=request.user, season=season, player=player)
        return Response(s.SubSerializer(subs_of(season), many=True).data)

    @extend_schema(responses=s.StandingsSerializer)
    @action(detail=True, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """The season's standings and playoff seeding."""
        return Response(standings_for_season(self.get_object()))

    @extend_schema(responses=s.SeedingSerializer)
    @action(detail=True, filter_backends=[])
    def seeding(self, request: Request, pk: str | None = None) -> Response:
        """Playoff seeding: every team, first seed first, with what placed each, and the teams
        the nights-played rule keeps out of the playoffs, with who is short and why."""
        season = self.get_object()
        data = standings_for_season(season)
        ineligible = playoff_ineligible(season)
        return Response(
            {
                "season": season.name,
                "playoff_teams": season.playoff_teams,
                # Once drawn, the teams in the playoffs in their seeds' order (not the
                # standings', which may name a team the draw left out).
                "seeding": list(season.playoff_seeding or data["seeding"]),
                "decided_by": data["seeding_decided_by"],
                "min_nights": ineligible["needed"],
                "drawn": ineligible["drawn"],
                "not_eligible": [
                    {
                        "team": row.team,
                        "players": [{"name": p[0], "nights": p[1]} for p in row.players],
                        "reasons": row.reasons,
                    }
                    for row in ineligible["teams"]
                ],
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


class TeamViewSet(DraftsHidden, ReadOnlyViewSet):
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

    @extend_schema(responses=s.TeamRatingsSerializer)
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def ratings(self, request: Request, pk: str | None = None) -> Response:
        """The team's pair rating and its players' own ratings (openskill): information only,
        never used for results, standings or seeding."""
        data = team_ratings(self.get_object())
        pair = data.pair
        return Response(
            {
                "informational": True,
                "provisional_games": provisional_games(),
                "pair": pair.as_dict() if pair else None,
                "players": [
                    {"id": p.pk, "name": p.name, "rating": r.as_dict() if r else None}
                    for p, r in data.players
                ],
            }
        )


class WeekViewSet(DraftsHidden, ReadOnlyViewSet):
    """Weeks of the schedule with their matches."""

    queryset = week_rows()
    serializer_class = s.WeekSerializer
    list_queryset = week_list_rows()
    list_serializer_class = s.WeekListSerializer
    filterset_fields = ["season", "is_playoff"]

    @extend_schema(
        request=s.PostponeRequestSerializer,
        responses={200: s.WeekSerializer, **REFUSALS},
        description="A league admin moves the whole night (every match of the week) to a date.",
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def move(self, request: Request, pk: str | None = None) -> Response:
        body = s.parse(s.PostponeRequestSerializer, request.data)
        week = week_move(
            week=self.get_object(), user=request.user, date=body["date"], reason=body["reason"]
        )
        return Response(s.WeekSerializer(week_rows().get(pk=week.pk)).data)

    @extend_schema(
        request=s.NightCancelRequestSerializer,
        responses={200: s.WeekSerializer, **REFUSALS},
        description="A league admin cancels the whole night; it stays in the schedule.",
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        body = s.parse(s.NightCancelRequestSerializer, request.data)
        week = week_cancel(week=self.get_object(), user=request.user, reason=body["reason"])
        return Response(s.WeekSerializer(week_rows().get(pk=week.pk)).data)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "lang", str, description="The story's language (en, fr); the request's else."
            )
        ],
        responses={200: s.WeekRecapSerializer, **REFUSALS},
    )
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def recap(self, request: Request, pk: str | None = None) -> Response:
        """The week's story (results, upsets, special hands, skunks, standings moves) in one
        language, as sections and as plain text: information only."""
        week = self.get_object()
        language = recap_language(request.query_params.get("lang"))
        recap = week_recap(recap_week(week.pk))
        with translation.override(language):
            data = {"week": week.pk, **recap_document(recap)}
        return Response(data)


class PostponementViewSet(ReadOnlyViewSet):
    """Postponements asked, answered or decided; the other team answers one asked."""

    queryset = Postponement.objects.filter(match__week__season__importing=False).order_by("pk")
    serializer_class = s.PostponementSerializer
    filterset_fields = ["match", "status"]

    @extend_schema(request=None, responses={200: s.PostponementSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def accept(self, request: Request, pk: str | None = None) -> Response:
        """The other team accepts: the match is played on the date asked."""
        done = postponement_answer(postponement=self.get_object(), user=request.user, accept=True)
        return Response(s.PostponementSerializer(done).data)

    @extend_schema(request=None, responses={200: s.PostponementSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[])
    def decline(self, request: Request, pk: str | None = None) -> Response:
        """The other team declines: the match stays on its date."""
        done = postponement_answer(postponement=self.get_object(), user=request.user, accept=False)
        return Response(s.PostponementSerializer(done).data)


@extend_schema_view(
    list=extend_schema(description="Matches; `?mine=1` keeps those your team plays in."),
)
class MatchViewSet(DraftsHidden, ReadOnlyViewSet):
    """Matches with their games; ``can_record`` says whether you may enter their scores."""

    season_path = "week__season"
    queryset = match_rows()
    serializer_class = s.MatchSerializer
    list_queryset = match_list_rows()
    list_serializer_class = s.MatchListSerializer
    filterset_class = MatchFilter

    def get_queryset(self) -> QuerySet[Any]:
        if self.action == "games":  # the games are read apart: the match row alone
            return Match.objects.filter(week__season__importing=False).select_related(
                "week__season", "home", "away"
            )
        return super().get_queryset()

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
        if request.method == "GET":
            match = self.get_object()
            rows = game_rows().filter(match=match).order_by("number")
            return Response(s.GameSerializer(rows, many=True, context={"request": request}).data)
        # Not ``get_object()``: the service finds the match (or 404) in the statement that
        # locks it, and answers with the game, its seats and match attached.
        match_id = number_from(pk)
        if match_id is None:
            raise Http404
        body = s.parse(s.GameStartRequestSerializer, request.data)
        try:
            game = game_start(match=match_id, user=request.user, **body)
        except Match.DoesNotExist:
            raise Http404 from None
        if getattr(game, "current_deals", None) is None:  # a retry: the game as it stands now
            game = game_rows().get(pk=game.pk)
        answer = s.GameSerializer(game, context={"request": request}).data
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["POST"],
        request=s.AvailabilityRequestSerializer,
        responses={200: s.AvailabilitySerializer, **REFUSALS},
        description=(
            "Answer in, out or maybe for this match's night (yours, or, for a captain or an "
            "organiser, a player's by id)."
        ),
    )
    @extend_schema(request=None, responses={200: s.SubAskSerializer, **REFUSALS})
    @action(detail=True, methods=["post"], filter_backends=[], url_path="ask-sub")
    def ask_sub(self, request: Request, pk: str | None = None) -> Response:
        """A player of the match asks the season's sub list for a sub (each told once)."""
        return Response({"asked": sub_ask(user=request.user, match=self.get_object())})

    @extend_schema(methods=["GET"], responses=s.AvailabilitySerializer(many=True))
    @action(detail=True, methods=["get", "post"], filter_backends=[], pagination_class=None)
    def availability(self, request: Request, pk: str | None = None) -> Response:
        """Who is coming: both teams' players with their answers (for the players of the
        match and league admins); POST answers for the match's night."""
        match = self.get_object()
        week = match.week
        if not may_see_availability(request.user, match):
            raise NotAllowed(_("Only the players of this match and organisers see who is coming."))
        if request.method == "POST":
            data = s.parse(s.AvailabilityRequestSerializer, request.data)
            player = (
                Player.objects.filter(pk=data["player"]).first()
                if data.get("player")
                else player_of(request.user)
            )
            if player is None:
                raise ValidationFailed(
                    _("Name the player: your login is not linked to one."), field="player"
                )
            if team_of(player, week) not in (match.home, match.away):
                raise NotAllowed(
                    _("%(player)s does not play in this match.") % {"player": player.name}
                )
            row = availability_answer(
                user=request.user, player=player, week=week, answer=data["answer"]
            )
            team = team_of(player, week)
            return Response(
                s.AvailabilitySerializer(
                    {"player": player, "team": team, "answer": row.answer}
                ).data
            )
        rows = [
            {"player": row["player"], "team": side["team"], "answer": row["answer"]}
            for side in match_availability(match)
            for row in side["players"]
        ]
        return Response(s.AvailabilitySerializer(rows, many=True).data)

    @extend_schema(
        request=s.ForfeitRequestSerializer,
        responses={201: s.MatchSerializer, **REFUSALS},
        description=(
            "Record that a team forfeits this match (a judge or a league admin): the other team "
            "wins the games not yet played by the season's forfeit rule."
        ),
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def forfeit(self, request: Request, pk: str | None = None) -> Response:
        body = s.parse(s.ForfeitRequestSerializer, request.data)
        match = self.get_object()
        match_forfeit(match=match, team=body["team"], reason=body["reason"], user=request.user)
        answer = s.MatchSerializer(match_rows().get(pk=match.pk), context={"request": request})
        return Response(answer.data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.PostponeRequestSerializer,
        responses={201: s.PostponementSerializer, **REFUSALS},
        description=(
            "A player of one of the two teams asks to play the match on another date; the "
            "other team accepts or declines it (`/api/postponements/{id}/accept/`)."
        ),
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def postponements(self, request: Request, pk: str | None = None) -> Response:
        body = s.parse(s.PostponeRequestSerializer, request.data)
        asked = postponement_ask(
            match=self.get_object(), user=request.user, date=body["date"], reason=body["reason"]
        )
        return Response(s.PostponementSerializer(asked).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.PostponeRequestSerializer,
        responses={200: s.MatchSerializer, **REFUSALS},
        description="A league admin decides the date the match is played (its week stays).",
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def postpone(self, request: Request, pk: str | None = None) -> Response:
        body = s.parse(s.PostponeRequestSerializer, request.data)
        match = self.get_object()
        match_postpone(match=match, user=request.user, date=body["date"], reason=body["reason"])
        answer = s.MatchSerializer(match_rows().get(pk=match.pk), context={"request": request})
        return Response(answer.data)

    @extend_schema(
        request=s.ForfeitUndoRequestSerializer,
        responses={200: s.MatchSerializer, **REFUSALS},
        description="A judge undoes the match's forfeit: the games it awarded no longer count.",
    )
    @action(detail=True, methods=["post"], filter_backends=[], url_path="forfeit/undo")
    def forfeit_undo(self, request: Request, pk: str | None = None) -> Response:
        body = s.parse(s.ForfeitUndoRequestSerializer, request.data)
        match = self.get_object()
        forfeit_undo(match=match, reason=body["reason"], user=request.user)
        answer = s.MatchSerializer(match_rows().get(pk=match.pk), context={"request": request})
        return Response(answer.data)


@extend_schema_view(
    list=extend_schema(description="Games; `?mine=1` keeps those your team plays in."),
)
class GameViewSet(DraftsHidden, ReadOnlyViewSet):
    """Games with seats, scores, result, league points and current deals."""

    season_path = "match__week__season"
    queryset = game_rows()
    serializer_class = s.GameSerializer
    list_queryset = game_list_rows()
    list_serializer_class = s.GameListSerializer
    filterset_class = GameFilter
    throttle_scope: str | None = None  # set per action: "deals" counts score entry

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
        if request.method == "GET":
            game = self.get_object()
            target = game.match.week.season.target
            deals = s.DealSerializer(
                game.current_deals, many=True, context={"target": target, "request": request}
            )
            return Response(deals.data)
        # Not ``get_object()``: the service finds the game (or 404) in the statement that locks
        # it, so a deal costs no read of its own here (docs/architecture.md, the deal path).
        game_id = number_from(pk)
        if game_id is None:
            raise Http404
        key, number = s.read_deal_request(request.data)
        try:
            deal, created = deal_record(
                game=game_id,
                user=request.user,
                number=number,
                data=request.data,  # the deal reader skips the envelope's key and number
                key=key,
            )
        except Game.DoesNotExist:
            raise Http404 from None
        return Response(
            s.DealSerializer(deal, context={"request": request}).data,
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
            reason=body.get("reason") or "",
            reason_code=body.get("reason_code") or "",
            rival=body.get("rival"),
        )
        return Response(
            s.DealSerializer(deal, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        request=s.DealtHandRequestSerializer, responses={201: s.DealtHandSerializer, **REFUSALS}
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def dealt(self, request: Request, pk: str | None = None) -> Response:
        """The cards dealt to a seat for an entered deal, where the league records them (the
        score-entry page asks for them after each deal where the league asks): a player's own,
        or their team's seats. Private to each player; changes nothing of the game."""
        body = s.parse(s.DealtHandRequestSerializer, request.data)
        hand = dealt_hand_record(
            user=request.user,
            game=self.get_object(),
            number=body["number"],
            cards=body["cards"],
            seat=body.get("seat"),
        )
        return Response(s.DealtHandSerializer(hand).data, status=status.HTTP_201_CREATED)

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

    @extend_schema(responses=s.GameOddsSerializer)
    @action(detail=True, methods=["get"], filter_backends=[], pagination_class=None)
    def odds(self, request: Request, pk: str | None = None) -> Response:
        """The game's win probability from the board, now and after each deal: information
        only, never used for results, standings or seeding (null for a game it does not
        cover: the three-player game, a forfeit, a void game)."""
        game = self.get_object()
        season = game.match.week.season
        current = game_chance(game, variant=season.variant, target=season.target)
        swing = game_swing(game, game.current_deals, variant=season.variant, target=season.target)
        return Response(
            {
                "informational": True,
                "current": current.as_dict() if current else None,
                "deals": [c.as_dict() for c in swing],
            }
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


class DealViewSet(DraftsHidden, ReadOnlyViewSet):
    """Deals; corrected versions and rival entries are listed with ``?history=1``."""

    season_path = "game__match__week__season"
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
