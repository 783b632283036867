"""How the league looks over the API: read serializers, and the strict parsing of request bodies.

Serializers only shape data. Every rule about what may be written (who, when, which numbers)
lives in ``league.services``; request bodies are parsed just enough to call a service with the
right Python types, and a parse error reads like any other refusal: ``{"detail", "field"}``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.kernel.api import (  # noqa: F401  (the league's API reads them as s.X)
    KEY_MESSAGES,
    ErrorSerializer,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
    parse,
    write_access,
)
from league.kernel.entries import DEAL_FIELDS
from league.kernel.lifecycle import awaiting_teams
from league.kernel.permissions import Action
from league.models import Deal, Dispute, Game, League, Match, Season, Team, Week
from league.models.disputes import CLAIM_LIMIT
from league.models.rules import RULE_FIELDS
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


class StoredListField(serializers.ListField):
    """A list the deal service stored already checked (whole numbers, card texts): given back
    as stored, not converted item by item (a third of a 200-deal list's time). The child still
    documents the items in the schema."""

    def to_representation(self, data: Any) -> Any:
        return data


class StoredDictField(serializers.DictField):
    """A mapping stored already checked, given back as stored (see :class:`StoredListField`)."""

    def to_representation(self, value: Any) -> Any:
        return value


class DealSerializer(serializers.ModelSerializer):
    """One deal as stored. Immutable once written, so a replayed request gets the same body.
    ``is_rival``: the other team's entry of a deal already stored, with other numbers (kept,
    shown to both teams until settled: a dispute, a correction, or its team accepting the stored
    one); the entering team's own second entry is a correction (a new ``version``)."""

    starter = serializers.SerializerMethodField()
    entered_by = serializers.CharField(
        source="entered_by.get_username", default=None, allow_null=True, read_only=True
    )
    pegging = StoredListField(child=serializers.IntegerField())
    shows = StoredDictField(child=serializers.IntegerField())
    cards = StoredDictField(
        child=serializers.ListField(child=serializers.CharField()), allow_null=True
    )
    home_after = serializers.SerializerMethodField()
    away_after = serializers.SerializerMethodField()

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

    def get_starter(self, deal: Deal) -> str | None:
        return deal.starter or None

    def _target(self, deal: Deal) -> int:
        """The game hole: annotated on a list of deals, given by a game's serializer, else
        read from the deal's game (loaded with its season by the service that made it)."""
        target = getattr(deal, "season_target", None) or self.context.get("target")
        return int(target or deal.game.match.week.season.target)

    def get_home_after(self, deal: Deal) -> int:
        """The home team's running total after this deal, at most the game hole (a winner is
        counted at the hole, as the game's result shows it)."""
        return deal.after_at_hole(self._target(deal))[0]

    def get_away_after(self, deal: Deal) -> int:
        """The away team's running total after this deal, at most the game hole."""
        return deal.after_at_hole(self._target(deal))[1]


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    side = serializers.IntegerField()
    team = serializers.CharField()
    team_id = serializers.IntegerField()


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


class GameSummarySerializer(serializers.ModelSerializer):
    """A game's result without its seats and deals (for lists of matches)."""

    winner = TeamRefSerializer(allow_null=True)

    class Meta:
        model = Game
        fields = ["id", "number", "status", *RESULT_FIELDS]


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
            "finished_at",
            "confirmed_at",
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
                }
            )
        return SeatSerializer(rows, many=True).data  # type: ignore[return-value]  # a ReturnList

    @extend_schema_field(DealSerializer(many=True))
    def get_deals(self, game: Game) -> list[dict[str, Any]]:
        target = game.match.week.season.target
        deals = DealSerializer(game.current_deals, many=True, context={"target": target})
        return deals.data  # type: ignore[return-value]

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
        """Whether you may start games and enter scores in this match."""
        return write_access(self.context["request"], Action.KEEP_SCORE, match)


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
    date = serializers.DateField(source="week.date", allow_null=True)
    home_name = serializers.CharField(source="home.name")
    away_name = serializers.CharField(source="away.name")
    games = serializers.PrimaryKeyRelatedField(many=True, read_only=True)  # type: ignore[var-annotated]
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
            "home_name",
            "away",
            "away_name",
            "playoff_round",
            "playoff_slot",
            "can_record",
            "games",
        ]

    def get_can_record(self, match: Match) -> bool:
        """Whether you may start games and enter scores in this match."""
        return write_access(self.context["request"], Action.KEEP_SCORE, match)


class GameListSerializer(serializers.ModelSerializer):
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


class DealEnvelopeSerializer(StrictSerializer):
    """What is read of a deal request here: the key and the number. The deal's own fields go,
    untouched, to the one deal reader, which refuses a wrong one naming it."""

    allow_extra = DEAL_FIELDS
    key = StrictCharField(
        required=False, allow_null=True, min_length=1, max_length=64, error_messages=KEY_MESSAGES
    )
    number = StrictIntegerField(required=False, allow_null=True, min_value=1, max_value=999)


class CorrectionRequestSerializer(StrictSerializer):
    """``POST /api/games/{id}/corrections/``: the team that entered a deal corrects it (before
    the game is confirmed); the whole game is replayed."""

    number = StrictIntegerField(min_value=1, max_value=999)
    deal = serializers.DictField(help_text="The whole corrected deal, in the deal shape.")
    reason = StrictCharField(max_length=2000, help_text="Why: a judge may read it.")


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
