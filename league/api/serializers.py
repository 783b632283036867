"""How the league looks over the API: read serializers, and the strict parsing of request bodies.

Serializers only shape data. Every rule about what may be written (who, when, which numbers)
lives in ``league.services``; request bodies are parsed just enough to call a service with the
right Python types, and a parse error reads like any other refusal: ``{"detail", "field"}``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.checks import standing_forfeit
from league.kernel.api import (  # noqa: F401  (the league's API reads them as s.X)
    KEY_MESSAGES,
    ErrorSerializer,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
    parse,
    read_deal_request,
    write_access,
)
from league.kernel.entries import DEAL_FIELDS
from league.kernel.lifecycle import awaiting_teams
from league.kernel.permissions import Action, can
from league.models import (
    Deal,
    Dispute,
    Forfeit,
    Game,
    League,
    Match,
    Postponement,
    Season,
    Team,
    Week,
)
from league.models.disputes import CLAIM_LIMIT
from league.models.rules import RULE_FIELDS
from league.selectors.closing import closes_at
from league.selectors.schedule import MATCH_FIELDS as SCHEDULE_MATCH_FIELDS
from league.standings_row import STANDINGS_ROW, Column

# --- Small references ----------------------------------------------------------------------------


class TeamRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


# --- Leagues, seasons, teams ---------------------------------------------------------------------


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "name", *RULE_FIELDS]


class SeasonSerializer(serializers.ModelSerializer):
    """A season with its state on today's date: ``draft`` (league admins only), ``published``
    (next season), ``running`` (being played: "current") or ``finished``."""

    league_name = serializers.CharField(source="league.name")
    state = serializers.SerializerMethodField()
    is_current = serializers.SerializerMethodField()
    first_night = serializers.SerializerMethodField()

    class Meta:
        model = Season
        fields = [
            "id",
            "league",
            "league_name",
            "name",
            "playoff_teams",
            "state",
            "is_current",
            "first_night",
            "finished_reason",
        ]

    def get_state(self, season: Season) -> str:
        return str(season.state_on(timezone.localdate()).value)

    def get_is_current(self, season: Season) -> bool:
        """Running today (kept for older apps; derived from ``state``)."""
        return season.is_current_on(timezone.localdate())

    def get_first_night(self, season: Season) -> dt.date | None:
        return season.first_night()


class ReasonRequestSerializer(StrictSerializer):
    """A change that goes on record with its reason (finishing or reopening a season)."""

    reason = StrictCharField(
        max_length=500, trim_whitespace=True, required=False, allow_blank=True, default=""
    )


class FinishRequestSerializer(ReasonRequestSerializer):
    """Finishing a season: while disputes are open or games unconfirmed, ``confirm`` says the
    organiser finishes it as it stands, in their name."""

    confirm = serializers.BooleanField(required=False, default=False)


class SubSerializer(serializers.Serializer):
    """A player on a season's sub list."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class SubLineSerializer(StrictSerializer):
    name = StrictCharField(max_length=120, trim_whitespace=True)
    email = StrictCharField(
        max_length=254, required=False, allow_blank=True, default="", trim_whitespace=True
    )


class SubsAddRequestSerializer(StrictSerializer):
    """``POST /api/seasons/{id}/subs/``: players for the sub list, new ones created (with a
    login when an email is given, like any player)."""

    players = serializers.ListField(child=SubLineSerializer(), min_length=1, max_length=200)


class SubRemoveRequestSerializer(StrictSerializer):
    """``POST /api/seasons/{id}/subs/remove/``: the player to take off the sub list."""

    player = StrictIntegerField(min_value=1)


class SubAskSerializer(serializers.Serializer):
    asked = serializers.IntegerField(help_text="How many subs were told.")


class AvailabilitySerializer(serializers.Serializer):
    """One player's answer for a night: ``in``, ``out``, ``maybe``, or ``""`` (none yet)."""

    player = serializers.IntegerField(source="player.pk")
    player_name = serializers.CharField(source="player.name")
    team = serializers.IntegerField(source="team.pk")
    answer = serializers.CharField()


class AvailabilityRequestSerializer(StrictSerializer):
    """``POST /api/weeks/{id}/availability/``: your answer for the night, or (a captain, an
    organiser) a player's, naming ``player`` by id."""

    answer = StrictCharField(max_length=8, required=False, default="", allow_blank=True)
    player = StrictIntegerField(required=False, allow_null=True, min_value=1, max_value=2**63 - 1)


class TeamSerializer(serializers.ModelSerializer):
    captain = PlayerRefSerializer()
    players = PlayerRefSerializer(many=True)

    class Meta:
        model = Team
        fields = ["id", "season", "name", "captain", "players"]


# --- Deals and games -----------------------------------------------------------------------------


class DealSerializer(serializers.ModelSerializer):
    """One deal as stored. Immutable once written, so a replayed request gets the same body.
    ``is_rival``: the other team's entry of a deal already stored, with other numbers (kept,
    shown to both teams until settled: a dispute, a correction, or its team accepting the stored
    one); the entering team's own second entry is a correction (a new ``version``)."""

    # The fields declare the answer for the schema; the answer itself is built in one function
    # (``to_representation``), not field by field: a deal's answer is the API's most sent.

    starter = serializers.CharField(read_only=True, allow_null=True)  # "" stored: None shown
    entered_by = serializers.CharField(
        source="entered_by.get_username", default=None, allow_null=True, read_only=True
    )
    pegging = serializers.ListField(child=serializers.IntegerField())
    shows = serializers.DictField(child=serializers.IntegerField())
    cards = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), allow_null=True
    )
    home_after = serializers.IntegerField(
        read_only=True,
        help_text="The home team's running total after this deal, at most the game hole.",
    )
    away_after = serializers.IntegerField(
        read_only=True,
        help_text="The away team's running total after this deal, at most the game hole.",
    )
    reason = serializers.SerializerMethodField(
        help_text="Why the deal was corrected: a ruling's words, shown only to whoever may read "
        "the season's rulings (judges and league admins, everyone if the season publishes them); "
        "empty otherwise."
    )

    class Meta:
        model = Deal
        fields = [
            "id",
            "game",
            "number",
            "version",
            "is_current",
            *DEAL_FIELDS,
            "home_after",
            "away_after",
            "key",
            "reason",
            "is_rival",
            "settled_at",
            "entered_by",
            "created_at",
        ]

    def get_reason(self, deal: Deal) -> str:
        """A correction's reason is a judge's written ruling: ``can(VIEW_PRECEDENTS)`` only.
        One the system wrote reads in the reader's language."""
        if not deal.reason and not deal.reason_code:
            return ""
        seasons: dict[int, Season] = self.context.setdefault("_seasons", {})
        if deal.game_id not in seasons:
            seasons[deal.game_id] = Season.objects.only("id", "publish_rulings").get(
                weeks__matches__games__id=deal.game_id
            )
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if not can(user, Action.VIEW_PRECEDENTS, seasons[deal.game_id]):
            return ""
        return deal.reason_text

    def to_representation(self, deal: Deal) -> dict[str, Any]:
        """The deal as stored, in ``Meta.fields``' order, built directly: the deal service
        stored every field already checked (whole numbers, card texts), so nothing is converted
        item by item. The starter is None when none was cut; the running totals after this deal
        are at most the game hole (a winner is counted at the hole, as the game's result shows
        it). The hole: annotated on a list of deals (``season_target``), given by a game's
        serializer (``context["target"]``), else read from the deal's game (loaded with its
        season by the service that made it)."""
        target = getattr(deal, "season_target", None) or self.context.get("target")
        home_after, away_after = deal.after_at_hole(
            int(target or deal.game.match.week.season.target)
        )
        entered_by, settled = deal.entered_by, deal.settled_at
        return {
            "id": deal.pk,
            "game": deal.game_id,
            "number": deal.number,
            "version": deal.version,
            "is_current": deal.is_current,
            "dealer": deal.dealer,
            "starter": deal.starter or None,
            "heels": deal.heels,
            "pegging": deal.pegging,
            "shows": deal.shows,
            "crib": deal.crib,
            "cards": deal.cards,
            "home_after": home_after,
            "away_after": away_after,
            "key": deal.key,
            # a ruling's words, for whoever may read them (most deals have none: no call)
            "reason": self.get_reason(deal) if deal.reason or deal.reason_code else "",
            "is_rival": deal.is_rival,
            "settled_at": None if settled is None else _WHEN.to_representation(settled),
            "entered_by": None if entered_by is None else entered_by.get_username(),
            "created_at": _WHEN.to_representation(deal.created_at),
        }


#: A moment as every answer writes it (DRF's ``DATETIME_FORMAT``, in the current time zone).
_WHEN = serializers.DateTimeField()


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    side = serializers.IntegerField()
    team = serializers.CharField()
    team_id = serializers.IntegerField()
    sub = serializers.BooleanField(help_text="Sat from the season's sub list for the team.")


# A game's result, as every game serializer shows it.
RESULT_FIELDS = (
    "home_score",
    "away_score",
    "winner",
    "margin",
    "skunk_level",
    "home_points",
    "away_points",
    "deal_count",
    "version",
)


def _at_hole(game: Game, own: int, other: int) -> int:
    """A side's score as every page shows it: the winner's at the game hole (the loser's score
    plus the margin, that is the target), whatever was pegged past it (124 -> 121)."""
    if game.winner_id is not None and game.margin is not None and own > other:
        return other + game.margin
    return own


class AtHoleScores(serializers.Serializer):
    """``home_score`` and ``away_score`` at the game hole, as the pages show them."""

    home_score = serializers.SerializerMethodField(
        help_text="The home side's score; a winner's is shown at the game hole (121)."
    )
    away_score = serializers.SerializerMethodField(
        help_text="The away side's score; a winner's is shown at the game hole (121)."
    )

    def get_home_score(self, game: Game) -> int:
        return _at_hole(game, game.home_score, game.away_score)

    def get_away_score(self, game: Game) -> int:
        return _at_hole(game, game.away_score, game.home_score)


class GameSummarySerializer(AtHoleScores, serializers.ModelSerializer):
    """A game's result without its seats and deals (for lists of matches)."""

    winner = TeamRefSerializer(allow_null=True)
    forfeit = serializers.BooleanField(
        source="is_forfeit", read_only=True, help_text="Won by forfeit: no deal was played."
    )

    class Meta:
        model = Game
        fields = ["id", "number", "status", *RESULT_FIELDS, "forfeit"]


class GameSerializer(GameSummarySerializer):
    """A game with who sits where and its current deals.

    Expects the queryset of ``league.api.views.game_rows()``: seats and current deals prefetched.
    """

    home = TeamRefSerializer(source="match.home")
    away = TeamRefSerializer(source="match.away")
    seats = serializers.SerializerMethodField()
    deals = serializers.SerializerMethodField()
    awaiting = serializers.SerializerMethodField()
    can_record = serializers.SerializerMethodField()
    can_confirm = serializers.SerializerMethodField()
    can_cancel = serializers.SerializerMethodField()
    closes_at = serializers.SerializerMethodField()

    class Meta(GameSummarySerializer.Meta):
        fields = [
            "id",
            "match",
            "number",
            "status",
            "first_dealer",
            "home_side",
            "home",
            "away",
            "seats",
            *RESULT_FIELDS,
            "forfeit",
            "finished_at",
            "confirmed_at",
            "closes_at",
            "awaiting",
            "can_record",
            "can_confirm",
            "can_cancel",
            "deals",
        ]

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game: Game) -> list[dict[str, Any]]:
        variant = game.match.week.season.game_variant
        rows = []
        for seat in game.seats.all():
            side = variant.side_of(seat.seat)
            team = game.team_for_side(side)
            rows.append(
                {
                    "seat": seat.seat,
                    "player": seat.player.name,
                    "player_id": seat.player_id,
                    "side": side,
                    "team": team.name,
                    "team_id": team.pk,
                    "sub": seat.is_sub,
                }
            )
        return SeatSerializer(rows, many=True).data  # type: ignore[return-value]  # a ReturnList

    @extend_schema_field(DealSerializer(many=True))
    def get_deals(self, game: Game) -> list[dict[str, Any]]:
        target = game.match.week.season.target
        deals = DealSerializer(
            game.current_deals,
            many=True,
            context={"target": target, "request": self.context.get("request")},
        )
        return deals.data  # type: ignore[return-value]

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_closes_at(self, game: Game) -> str | None:
        """When the league confirms this finished game if nobody confirms or disputes it
        first (null: it does not close by itself)."""
        at = closes_at(game)
        return None if at is None else serializers.DateTimeField().to_representation(at)

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_awaiting(self, game: Game) -> list[int]:
        """Ids of the teams that still have to vouch for this finished game."""
        return sorted(awaiting_teams(game))

    def get_can_record(self, game: Game) -> bool:
        """Whether you may enter this game's deals now."""
        return write_access(self.context["request"], Action.RECORD_DEAL, game)

    def get_can_confirm(self, game: Game) -> bool:
        """Whether you may confirm (or reject) this game now: your team is the one asked."""
        return write_access(self.context["request"], Action.CONFIRM_GAME, game)

    def get_can_cancel(self, game: Game) -> bool:
        """Whether you may cancel this game: started by mistake, no deal entered yet."""
        return write_access(self.context["request"], Action.CANCEL_GAME, game)


# --- Schedule ------------------------------------------------------------------------------------


class ForfeitSerializer(serializers.ModelSerializer):
    """A forfeit: the team that forfeited, why, when; ``undone_at`` once a judge undid it."""

    team = TeamRefSerializer()
    games = serializers.SerializerMethodField()

    class Meta:
        model = Forfeit
        fields = [
            "id",
            "match",
            "team",
            "reason",
            "created_at",
            "undone_at",
            "undo_reason",
            "games",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_games(self, forfeit: Forfeit) -> list[int]:
        """The numbers of the games it awarded."""
        return sorted(g.number for g in forfeit.games.all())


class PostponementSerializer(serializers.ModelSerializer):
    """A postponement: asked by a team (null: the organiser's decision), the date, why, and
    where it stands."""

    class Meta:
        model = Postponement
        fields = ["id", "match", "team", "date", "reason", "status", "created_at", "answered_at"]
        read_only_fields = fields


class PostponeRequestSerializer(StrictSerializer):
    """A new date for the match, and why."""

    date = serializers.DateField()
    reason = StrictCharField(max_length=CLAIM_LIMIT, trim_whitespace=True)


class NightCancelRequestSerializer(StrictSerializer):
    """Why the night is cancelled."""

    reason = StrictCharField(max_length=CLAIM_LIMIT, trim_whitespace=True)


class ForfeitRequestSerializer(StrictSerializer):
    """``POST /api/matches/{id}/forfeit/``: which team forfeits (its id), and why."""

    team = StrictIntegerField(min_value=1, max_value=2**63 - 1)
    reason = StrictCharField(max_length=CLAIM_LIMIT, trim_whitespace=True)


class ForfeitUndoRequestSerializer(StrictSerializer):
    """``POST /api/matches/{id}/forfeit/undo/``: why the forfeit is undone."""

    reason = StrictCharField(max_length=CLAIM_LIMIT, trim_whitespace=True)


class MatchSerializer(serializers.ModelSerializer):
    """A match with its teams and its games' results."""

    season = serializers.IntegerField(source="week.season_id")
    week_number = serializers.IntegerField(source="week.number")
    date = serializers.DateField(
        source="when", allow_null=True, help_text="The date it is played: its own, else its week's."
    )
    postponed = serializers.BooleanField(
        source="is_postponed", help_text="Played on a date of its own, not its week's."
    )
    cancelled = serializers.SerializerMethodField()
    home = TeamRefSerializer()
    away = TeamRefSerializer()
    games = GameSummarySerializer(many=True)
    can_record = serializers.SerializerMethodField()
    forfeit = serializers.SerializerMethodField()
    can_forfeit = serializers.SerializerMethodField()
    can_undo_forfeit = serializers.SerializerMethodField()
    postponement = serializers.SerializerMethodField()
    can_postpone = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "season",
            "week",
            "week_number",
            "date",
            "postponed",
            "cancelled",
            "table",
            "home",
            "away",
            "playoff_round",
            "playoff_slot",
            "can_record",
            "postponement",
            "can_postpone",
            "forfeit",
            "can_forfeit",
            "can_undo_forfeit",
            "games",
        ]

    def get_can_record(self, match: Match) -> bool:
        """Whether you may start games and enter scores in this match."""
        return write_access(self.context["request"], Action.KEEP_SCORE, match)

    @extend_schema_field(ForfeitSerializer(allow_null=True))
    def get_forfeit(self, match: Match) -> dict[str, Any] | None:
        """The match's forfeit that stands (null: none)."""
        forfeit = standing_forfeit(match)
        return None if forfeit is None else ForfeitSerializer(forfeit).data  # type: ignore[return-value]

    def get_cancelled(self, match: Match) -> str | None:
        """Why its night is cancelled (null: it is not)."""
        return match.week.cancelled_reason or None

    @extend_schema_field(PostponementSerializer(allow_null=True))
    def get_postponement(self, match: Match) -> dict[str, Any] | None:
        """A postponement asked and waiting for the other team (null: none)."""
        asked = next((p for p in match.postponements.all() if p.status == "asked"), None)
        return None if asked is None else PostponementSerializer(asked).data  # type: ignore[return-value]

    def get_can_postpone(self, match: Match) -> bool:
        """Whether you may ask to postpone it (its players) or decide it (a league admin)."""
        return write_access(self.context["request"], Action.POSTPONE_MATCH, match)

    def get_can_forfeit(self, match: Match) -> bool:
        """Whether you may record a forfeit of this match now (a judge or league admin)."""
        return write_access(self.context["request"], Action.RECORD_FORFEIT, match)

    def get_can_undo_forfeit(self, match: Match) -> bool:
        """Whether you may undo this match's forfeit now (a judge)."""
        return write_access(self.context["request"], Action.UNDO_FORFEIT, match)


class WeekMatchSerializer(serializers.ModelSerializer):
    home = TeamRefSerializer()
    away = TeamRefSerializer()

    class Meta:
        model = Match
        fields = ["id", "table", "home", "away", "playoff_round", "playoff_slot"]


class WeekSerializer(serializers.ModelSerializer):
    venue = serializers.CharField(source="venue.name", allow_null=True, default=None)
    matches = WeekMatchSerializer(many=True)
    cancelled = serializers.CharField(
        source="cancelled_reason", help_text="Why the night is cancelled (empty: it is not)."
    )

    class Meta:
        model = Week
        fields = ["id", "season", "number", "date", "venue", "is_playoff", "cancelled", "matches"]


# --- Lists --------------------------------------------------------------------------------------
# A list endpoint gives each row's own fields, the ids of what it points to and the few names a
# list shows; nothing nested is built per row (at 200 rows, nested serializers were most of the
# time). The detail endpoint (``/api/games/{id}/`` ...) keeps the whole object.


class TeamListSerializer(serializers.ModelSerializer):
    """A team in a list: its captain and players as ids, with their names beside."""

    captain_name = serializers.CharField(source="captain.name", allow_null=True, default=None)
    players = serializers.PrimaryKeyRelatedField(many=True, read_only=True)  # type: ignore[var-annotated]
    player_names = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "season", "name", "captain", "captain_name", "players", "player_names"]

    def get_player_names(self, team: Team) -> list[str]:
        return [player.name for player in team.players.all()]


class WeekListSerializer(serializers.ModelSerializer):
    """A week in a list: how many matches it has, not the matches (see the season's schedule)."""

    venue = serializers.CharField(source="venue.name", allow_null=True, default=None)
    match_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Week
        fields = ["id", "season", "number", "date", "venue", "is_playoff", "match_count"]


class MatchListSerializer(serializers.ModelSerializer):
    """A match in a list: teams as ids and names, its games as ids (the games' results are on
    ``/api/matches/{id}/``); ``can_record`` says whether you may enter its scores, so a
    captain's app can offer tonight's match straight from the list."""

    season = serializers.IntegerField(source="week.season_id")
    week_number = serializers.IntegerField(source="week.number")
    date = serializers.DateField(source="when", allow_null=True)
    home_name = serializers.CharField(source="home.name")
    away_name = serializers.CharField(source="away.name")
    games = serializers.PrimaryKeyRelatedField(many=True, read_only=True)  # type: ignore[var-annotated]
    can_record = serializers.SerializerMethodField()

    class Meta:
        model = Match
        # the schedule's match fields (league.selectors.schedule), with its week and date
        fields = [
            "id",
            "season",
            "week",
            "week_number",
            "date",
            *(name for name in SCHEDULE_MATCH_FIELDS if name != "id"),
            "can_record",
            "games",
        ]

    def get_can_record(self, match: Match) -> bool:
        """Whether you may start games and enter scores in this match."""
        return write_access(self.context["request"], Action.KEEP_SCORE, match)


class GameListSerializer(AtHoleScores, serializers.ModelSerializer):
    """A game in a list: its result with teams as ids and names, and whether you may enter its
    deals (seats, deals and the rest of what you may do are on ``/api/games/{id}/``)."""

    home = serializers.IntegerField(source="match.home_id")
    home_name = serializers.CharField(source="match.home.name")
    away = serializers.IntegerField(source="match.away_id")
    away_name = serializers.CharField(source="match.away.name")
    can_record = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "match",
            "number",
            "status",
            "first_dealer",
            "home_side",
            "home",
            "home_name",
            "away",
            "away_name",
            *RESULT_FIELDS,
            "finished_at",
            "confirmed_at",
            "can_record",
        ]

    def get_can_record(self, game: Game) -> bool:
        """Whether you may enter this game's deals now."""
        return write_access(self.context["request"], Action.RECORD_DEAL, game)


class ScheduleMatchSerializer(serializers.ModelSerializer):
    """A match in the season's schedule: teams as ids with their names."""

    home_name = serializers.CharField(source="home.name")
    away_name = serializers.CharField(source="away.name")

    class Meta:
        model = Match
        fields = list(SCHEDULE_MATCH_FIELDS)  # what league.selectors.schedule builds


class ScheduleWeekSerializer(serializers.ModelSerializer):
    """A week of the season's schedule with its matches as flat rows (a season at 1,024 teams
    has 512 matches a week)."""

    venue = serializers.CharField(source="venue.name", allow_null=True, default=None)
    matches = ScheduleMatchSerializer(many=True)

    class Meta:
        model = Week
        fields = ["id", "season", "number", "date", "venue", "is_playoff", "matches"]


# --- Standings (documentation of what league.services.standings returns) -------------------------


class StandingsRowSerializer(serializers.Serializer):
    """One team's row, field for field the declaration in ``league.standings_row``."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {column.key: _row_field(column) for column in STANDINGS_ROW}


def _row_field(column: Column) -> serializers.Field:
    help_text = column.help or None
    if column.numeric:
        return serializers.IntegerField(help_text=help_text)
    return serializers.CharField(allow_null=column.nullable, help_text=help_text)


class StandingsSerializer(serializers.Serializer):
    season = serializers.CharField()
    season_id = serializers.IntegerField()
    results_version = serializers.IntegerField()
    computed_at = serializers.DateTimeField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    draw_seed = serializers.IntegerField()
    playoff_teams = serializers.IntegerField()
    standings = StandingsRowSerializer(many=True)
    seeding = serializers.ListField(child=serializers.CharField())
    seeding_decided_by = serializers.ListField(child=serializers.CharField(allow_null=True))
    seeding_decided_by_key = serializers.ListField(
        child=serializers.CharField(), help_text="The keys of the tie-breaks that placed each seed."
    )


class SeatField(serializers.JSONField):
    """A player by name (text) or by id (a whole number)."""

    def to_internal_value(self, data: Any) -> Any:
        if type(data) is int or (isinstance(data, str) and data.strip()):
            return data
        raise serializers.ValidationError(_("Name each player, or give their id."))


class GameStartRequestSerializer(StrictSerializer):
    """``POST /api/matches/{id}/games/``: the players clockwise, by name or id."""

    seats = serializers.ListField(
        child=SeatField(), max_length=8, help_text="Players clockwise from seat 0: names or ids."
    )
    first_dealer = StrictIntegerField(required=False, default=0, min_value=0, max_value=7)
    number = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=99,
        help_text="Which game of the match (default: the first one free).",
    )
    key = StrictCharField(
        required=False,
        allow_null=True,
        min_length=1,
        max_length=64,
        help_text="A client-made id (a UUID): the same key starts the game once.",
        error_messages=KEY_MESSAGES,
    )


class DealRequestSerializer(StrictSerializer):
    """``POST /api/games/{id}/deals/``: one deal in the one deal shape; the scorer checks every
    number. Sending a deal already entered compares it: the same numbers vouch for it, other
    numbers are kept as a rival entry (``is_rival``) for both teams to see."""

    key = StrictCharField(
        required=False,
        allow_null=True,
        min_length=1,
        max_length=64,
        help_text="A client-made id (a UUID); makes retries safe.",
        error_messages=KEY_MESSAGES,
    )
    number = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=999,
        help_text="Which deal of the game this is.",
    )
    dealer = serializers.IntegerField(help_text="The dealer's seat.")
    starter = serializers.CharField(required=False, allow_null=True, help_text="Like JH or 10D.")
    heels = serializers.BooleanField(required=False, allow_null=True)
    pegging = serializers.ListField(child=serializers.IntegerField(), help_text="Per side.")
    shows = serializers.DictField(child=serializers.IntegerField(), help_text="Per seat.")
    crib = serializers.IntegerField(required=False, allow_null=True)
    cards = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        allow_null=True,
        help_text='Optional: cards per seat and "crib".',
    )


class CorrectionRequestSerializer(StrictSerializer):
    """``POST /api/games/{id}/corrections/``: the team that entered a deal corrects it (before
    the game is confirmed); the whole game is replayed."""

    number = StrictIntegerField(min_value=1, max_value=999)
    deal = serializers.DictField(help_text="The whole corrected deal, in the deal shape.")
    reason = StrictCharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        help_text="Why, in the captain's words: a judge may read it. Or ``reason_code``.",
    )
    reason_code = StrictCharField(
        max_length=32,
        required=False,
        allow_blank=True,
        help_text='A reason Pegboard words in each reader\'s language: "took_rival" (the deal '
        "takes the numbers of the other entry of this deal, ``rival``).",
    )
    rival = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**63 - 1,
        help_text='With ``reason_code: "took_rival"``: the id of the other entry taken.',
    )


class PlayoffShortPlayerSerializer(serializers.Serializer):
    """A player short of the nights the playoffs' rule asks, with the nights they played."""

    name = serializers.CharField()
    nights = serializers.IntegerField()


class PlayoffIneligibleSerializer(serializers.Serializer):
    """A team the playoffs' nights rule keeps out, who is short, and why in the reader's
    language."""

    team = serializers.CharField()
    players = PlayoffShortPlayerSerializer(many=True)
    reasons = serializers.ListField(
        child=serializers.CharField(), help_text='"Dan played 1 of the 2 nights required"'
    )


class SeedingSerializer(serializers.Serializer):
    season = serializers.CharField()
    playoff_teams = serializers.IntegerField()
    seeding = serializers.ListField(child=serializers.CharField())
    decided_by = serializers.ListField(child=serializers.CharField(allow_null=True))
    min_nights = serializers.IntegerField(
        allow_null=True, help_text="The nights each player must play (null: no such rule)."
    )
    drawn = serializers.BooleanField(help_text="Whether the playoffs have been drawn.")
    not_eligible = PlayoffIneligibleSerializer(
        many=True,
        help_text="Teams the nights rule keeps out: so far before the draw, as drawn after it.",
    )


class BracketSlotSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    slot = serializers.IntegerField()
    home = serializers.CharField(allow_null=True)
    away = serializers.CharField(allow_null=True)
    home_seed = serializers.IntegerField(allow_null=True)
    away_seed = serializers.IntegerField(allow_null=True)
    match_id = serializers.IntegerField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    bye = serializers.BooleanField()


class BracketRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    slots = BracketSlotSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    size = serializers.IntegerField()
    rounds = BracketRoundSerializer(many=True)
    champion = serializers.CharField(allow_null=True, required=False)


class DisputeSerializer(serializers.ModelSerializer):
    raised_by = serializers.CharField(source="raised_by.get_username", read_only=True)
    judge = serializers.CharField(
        source="judge.get_username", read_only=True, default=None, allow_null=True
    )

    class Meta:
        model = Dispute
        fields = [
            "id",
            "game",
            "deal_number",
            "raised_by",
            "raised_by_team",
            "rival",
            "claim",
            "status",
            "judge",
            "ruling",
            "rule_reference",
            "created_at",
            "ruled_at",
        ]
        read_only_fields = fields


class DisputeRequestSerializer(StrictSerializer):
    """A dispute: what is wrong (up to 2,000 characters, as at every door), optionally on which
    deal, or on a rival entry (the id of the other team's entry of a deal)."""

    claim = StrictCharField(max_length=CLAIM_LIMIT, trim_whitespace=True)
    deal_number = StrictIntegerField(required=False, allow_null=True, min_value=1, max_value=999)
    rival = StrictIntegerField(required=False, allow_null=True, min_value=1, max_value=2**63 - 1)


class DealtHandRequestSerializer(StrictSerializer):
    """The cards dealt to a seat for an entered deal (the seat: the asker's own when left out;
    a seat of the asker's team otherwise), as codes like ``5H 5D JS 4C KD``."""

    number = StrictIntegerField(min_value=1, max_value=999)
    seat = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=7)
    cards = StrictCharField(max_length=80, trim_whitespace=True)


class DealtHandSerializer(serializers.Serializer):
    """A recorded hand of cards dealt: deal, seat and the cards as the scorer writes them."""

    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())


class WinChanceSerializer(serializers.Serializer):
    """Each team's chance of winning after a deal (``deal`` 0: before the first), from the
    board alone. Information only: never used for results, standings or seeding."""

    deal = serializers.IntegerField()
    home_score = serializers.IntegerField()
    away_score = serializers.IntegerField()
    home = serializers.FloatField(help_text="The home team's chance, 0 to 1.")
    away = serializers.FloatField(help_text="The away team's chance, 0 to 1.")


class RecapSectionSerializer(serializers.Serializer):
    """A part of a night's story: its heading and its lines."""

    heading = serializers.CharField()
    lines = serializers.ListField(child=serializers.CharField())


class WeekRecapSerializer(serializers.Serializer):
    """The week's story in one language (information only)."""

    week = serializers.IntegerField()
    language = serializers.CharField(help_text="The language it is said in, e.g. en or fr.")
    over = serializers.BooleanField(help_text="Every match of the week is over.")
    heading = serializers.CharField()
    sections = RecapSectionSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField())
    text = serializers.CharField(help_text="The whole story as plain text, ready to paste.")


class GameOddsSerializer(serializers.Serializer):
    """A game's win probability now and after each deal (information only)."""

    informational = serializers.BooleanField()
    current = WinChanceSerializer(allow_null=True)
    deals = WinChanceSerializer(many=True)


# --- Ratings (information only) ------------------------------------------------------------------


class RatingFiguresSerializer(serializers.Serializer):
    """One openskill rating: shown as ``rating`` +/- ``uncertainty`` (the mean and sigma times
    40, so a new player is 1000 +/- 333), provisional under the site's number of games."""

    rating = serializers.IntegerField()
    uncertainty = serializers.IntegerField()
    conservative = serializers.IntegerField(help_text="The rating less three uncertainties.")
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()
    mu = serializers.FloatField(help_text="openskill's mean (25 for a new player).")
    sigma = serializers.FloatField(help_text="openskill's uncertainty (25/3 to start).")


class RatedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rating = RatingFiguresSerializer(allow_null=True)


class TeamRatingsSerializer(serializers.Serializer):
    """A team's pair rating (a team of two) and each player's own: information only, never
    used for results, standings or seeding (null: not rated yet)."""

    informational = serializers.BooleanField()
    provisional_games = serializers.IntegerField()
    pair = RatingFiguresSerializer(allow_null=True)
    players = RatedPlayerSerializer(many=True)
