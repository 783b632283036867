"""How the league looks over the API: read serializers, and the strict parsing of request bodies.

Serializers only shape data. Every rule about what may be written (who, when, which numbers)
lives in ``league.services``; request bodies are parsed just enough to call a service with the
right Python types, and a parse error reads like any other refusal: ``{"detail", "field"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.api.permissions import write_access
from league.errors import ValidationFailed
from league.models import Deal, Dispute, Game, League, Match, Season, Team, Week
from league.standings_row import STANDINGS_ROW, Column
from scoring.variants import get_variant

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
        fields = [
            "id",
            "name",
            "variant",
            "target",
            "games_per_match",
            "points_per_win",
            "skunk_margin",
            "skunk_bonus",
            "double_skunk_margin",
            "double_skunk_bonus",
            "tiebreaks",
            "requires_confirmation",
        ]


class SeasonSerializer(serializers.ModelSerializer):
    league_name = serializers.CharField(source="league.name")

    class Meta:
        model = Season
        fields = ["id", "league", "league_name", "name", "playoff_teams", "is_current"]


class TeamSerializer(serializers.ModelSerializer):
    captain = PlayerRefSerializer()
    players = PlayerRefSerializer(many=True)

    class Meta:
        model = Team
        fields = ["id", "season", "name", "captain", "players"]


# --- Deals and games -----------------------------------------------------------------------------


class DealSerializer(serializers.ModelSerializer):
    """One deal as stored. Immutable once written, so a replayed request gets the same body."""

    starter = serializers.SerializerMethodField()
    pegging = serializers.ListField(child=serializers.IntegerField())
    shows = serializers.DictField(child=serializers.IntegerField())
    cards = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), allow_null=True
    )

    class Meta:
        model = Deal
        fields = [
            "id",
            "game",
            "number",
            "version",
            "is_current",
            "dealer",
            "starter",
            "heels",
            "pegging",
            "shows",
            "crib",
            "cards",
            "home_after",
            "away_after",
            "key",
            "reason",
            "created_at",
        ]

    def get_starter(self, deal: Deal) -> str | None:
        return deal.starter or None


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    side = serializers.IntegerField()
    team = serializers.CharField()
    team_id = serializers.IntegerField()


class GameSummarySerializer(serializers.ModelSerializer):
    """A game's result without its seats and deals (for lists of matches)."""

    winner = TeamRefSerializer(allow_null=True)

    class Meta:
        model = Game
        fields = [
            "id",
            "number",
            "status",
            "home_score",
            "away_score",
            "winner",
            "margin",
            "skunk_level",
            "home_points",
            "away_points",
            "deal_count",
            "version",
        ]


class GameSerializer(GameSummarySerializer):
    """A game with who sits where and its current deals.

    Expects the queryset of ``league.api.views.game_rows()``: seats and current deals prefetched.
    """

    home = TeamRefSerializer(source="match.home")
    away = TeamRefSerializer(source="match.away")
    seats = serializers.SerializerMethodField()
    deals = serializers.SerializerMethodField()
    can_record = serializers.SerializerMethodField()

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
            "home_score",
            "away_score",
            "winner",
            "margin",
            "skunk_level",
            "home_points",
            "away_points",
            "deal_count",
            "version",
            "finished_at",
            "confirmed_at",
            "can_record",
            "deals",
        ]

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game: Game) -> list[dict[str, Any]]:
        variant = get_variant(game.match.week.season.league.variant)
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
                }
            )
        return SeatSerializer(rows, many=True).data

    @extend_schema_field(DealSerializer(many=True))
    def get_deals(self, game: Game) -> list[dict[str, Any]]:
        return DealSerializer(game.current_deals, many=True).data

    def get_can_record(self, game: Game) -> bool:
        """Whether the requesting user's role lets them enter this game's deals."""
        return write_access(self.context["request"]).can_record(game.match)


# --- Schedule ------------------------------------------------------------------------------------


class MatchSerializer(serializers.ModelSerializer):
    """A match with its teams and its games' results."""

    season = serializers.IntegerField(source="week.season_id")
    week_number = serializers.IntegerField(source="week.number")
    date = serializers.DateField(source="week.date", allow_null=True)
    home = TeamRefSerializer()
    away = TeamRefSerializer()
    games = GameSummarySerializer(many=True)
    can_record = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "season",
            "week",
            "week_number",
            "date",
            "table",
            "home",
            "away",
            "playoff_round",
            "playoff_slot",
            "can_record",
            "games",
        ]

    def get_can_record(self, match: Match) -> bool:
        """Whether the requesting user's role lets them start games and enter scores here."""
        return write_access(self.context["request"]).can_record(match)


class WeekMatchSerializer(serializers.ModelSerializer):
    home = TeamRefSerializer()
    away = TeamRefSerializer()

    class Meta:
        model = Match
        fields = ["id", "table", "home", "away", "playoff_round", "playoff_slot"]


class WeekSerializer(serializers.ModelSerializer):
    venue = serializers.CharField(source="venue.name", allow_null=True, default=None)
    matches = WeekMatchSerializer(many=True)

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


class ErrorSerializer(serializers.Serializer):
    """Every refusal: a sentence for the person at the table and, where it helps, the field."""

    detail = serializers.CharField()
    code = serializers.CharField(
        required=False, help_text="Absent on DRF's own refusals (malformed JSON, not signed in)."
    )
    field = serializers.CharField(required=False)
    current = serializers.DictField(required=False, help_text="How the game stands now (409).")


# --- Request bodies ------------------------------------------------------------------------------


class GameStartRequestSerializer(serializers.Serializer):
    """``POST /api/matches/{id}/games/``: the players clockwise, by name or id."""

    seats = serializers.ListField(
        child=serializers.JSONField(), help_text="Players clockwise from seat 0: names or ids."
    )
    first_dealer = serializers.IntegerField(required=False, default=0)
    number = serializers.IntegerField(required=False, help_text="Defaults to the next game.")


class DealRequestSerializer(serializers.Serializer):
    """``POST /api/games/{id}/deals/``: one deal; the scorer checks every number."""

    key = serializers.CharField(
        required=False, max_length=64, help_text="A client-made id (a UUID); makes retries safe."
    )
    number = serializers.IntegerField(required=False, help_text="Which deal of the game this is.")
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


def _whole_number(value: Any) -> bool:
    return type(value) is int  # JSON integers only: not True, not 1.0, not "1"


def parse_game_start(data: Any) -> dict[str, Any]:
    """The arguments of ``game_start`` from a request body, with JSON's types checked."""
    if not isinstance(data, Mapping):
        raise ValidationFailed(_("Send the game as a JSON object."))
    seats = data.get("seats")
    if not isinstance(seats, list):
        raise ValidationFailed(_("List the players clockwise, by name or id."), field="seats")
    for index, seat in enumerate(seats):
        if not (_whole_number(seat) or (isinstance(seat, str) and seat.strip())):
            raise ValidationFailed(_("Name each player, or give their id."), field=f"seats.{index}")
    first_dealer = data.get("first_dealer", 0)
    if not _whole_number(first_dealer):
        raise ValidationFailed(
            _("The first dealer is a seat number, like 0."), field="first_dealer"
        )
    parsed: dict[str, Any] = {"seats": seats, "first_dealer": first_dealer}
    if data.get("number") is not None:
        if not _whole_number(data["number"]):
            raise ValidationFailed(_("The game number must be a whole number."), field="number")
        parsed["number"] = data["number"]
    return parsed


def parse_deal_request(data: Any) -> tuple[str | None, Any, Mapping[str, Any]]:
    """``(key, number, deal)`` from a request body; the deal service checks the deal itself."""
    if not isinstance(data, Mapping):
        raise ValidationFailed(_("A deal must be a JSON object."))
    key = data.get("key")
    if key is not None and not (isinstance(key, str) and 0 < len(key) <= 64):
        raise ValidationFailed(
            _("The entry key is a short text made by your device, like a UUID."), field="key"
        )
    return key, data.get("number"), data


class SeedingSerializer(serializers.Serializer):
    season = serializers.CharField()
    playoff_teams = serializers.IntegerField()
    seeding = serializers.ListField(child=serializers.CharField())
    decided_by = serializers.ListField(child=serializers.CharField(allow_null=True))


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
            "claim",
            "status",
            "judge",
            "ruling",
            "rule_reference",
            "created_at",
            "ruled_at",
        ]
        read_only_fields = fields


class DisputeRequestSerializer(serializers.Serializer):
    claim = serializers.CharField()
    deal_number = serializers.IntegerField(required=False, allow_null=True)


def parse_dispute_request(data: Any) -> tuple[str, int | None]:
    """The claim and optional deal number, strictly typed (the service checks the rest)."""
    if not isinstance(data, Mapping):
        raise ValidationFailed(_("Send a JSON object."))
    claim = data.get("claim")
    if not isinstance(claim, str):
        raise ValidationFailed(_("Say what you think is wrong."), field="claim")
    deal_number = data.get("deal_number")
    if deal_number is not None and not _whole_number(deal_number):
        raise ValidationFailed(_("The deal number must be a whole number."), field="deal_number")
    return claim, deal_number
