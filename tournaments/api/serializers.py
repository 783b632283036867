"""How tournaments look over the API: read serializers shaped like the archive format where it
has a shape (standings, bracket), and the strict request bodies of a scorecard, a checker's
settlement and a playoff game. Rules about what may be written live in the services."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.kernel.api import (
    KEY_MESSAGES,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
    write_access,
)
from league.kernel.permissions import Action
from tournaments.models import PlayoffMatch, Round, TableGame, Tournament


class EntrantRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class TournamentSerializer(serializers.ModelSerializer):
    """An event and its rules, named as the archive format names them."""

    rules = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = ["id", "name", "date", "kind", "variant", "stage", "games_per_entrant", "rules"]

    @extend_schema_field(serializers.DictField())
    def get_rules(self, tournament: Tournament) -> dict[str, Any]:
        """The event's rules, as the archive's ``rules`` object."""
        return tournament.rules.as_archive()


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entrant = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    game_points = serializers.IntegerField()
    skunks = serializers.IntegerField()
    spread = serializers.IntegerField()


class TournamentStandingsSerializer(serializers.Serializer):
    """What ``manage.py tournament_standings NAME --format json`` prints (the format's shape)."""

    tournament = serializers.CharField()
    standings = StandingRowSerializer(many=True)
    qualifiers = serializers.ListField(child=serializers.CharField())
    bracket = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(allow_null=True)),
        help_text="First-round slots in bracket order: the two seeds that meet (null: a bye).",
    )


class TableSerializer(serializers.ModelSerializer):
    """One qualifying game at a numbered table. ``state``: open, entered (one side's card is
    in), verified, mismatch (with the checkers) or settled (by a checker). The cards' numbers
    are not shown: each side writes its own. Expects ``selectors.table_rows()``."""

    tournament = serializers.IntegerField(source="round.tournament_id")
    round = serializers.IntegerField(source="round.number")
    first = EntrantRefSerializer()
    second = EntrantRefSerializer()
    winner = EntrantRefSerializer(allow_null=True)
    state = serializers.SerializerMethodField()
    cards_in = serializers.SerializerMethodField()
    can_enter = serializers.SerializerMethodField()
    can_settle = serializers.SerializerMethodField()

    class Meta:
        model = TableGame
        fields = [
            "id",
            "tournament",
            "round",
            "table",
            "first",
            "second",
            "status",
            "state",
            "winner",
            "loser_score",
            "verified_at",
            "cards_in",
            "can_enter",
            "can_settle",
        ]

    @extend_schema_field(
        serializers.ChoiceField(choices=["open", "entered", "verified", "mismatch", "settled"])
    )
    def get_state(self, game: TableGame) -> str:
        return str(game.state)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_cards_in(self, game: TableGame) -> list[str]:
        """The entrants whose side's card is in (a checker's entry is not a side's)."""
        names = {0: game.first.name, 1: game.second.name}
        return [names[c.side] for c in game.cards if c.side is not None]

    def get_can_enter(self, game: TableGame) -> bool:
        """Whether you may enter a card for this table now (your side's, or as a checker)."""
        return write_access(self.context["request"], Action.ENTER_SCORECARD, game)

    def get_can_settle(self, game: TableGame) -> bool:
        """Whether you may settle this table now, as a checker."""
        return write_access(self.context["request"], Action.CHECK_SCORECARDS, game)


class TournamentRoundSerializer(serializers.ModelSerializer):
    """A round's seating: its tables (with ``TableSerializer``'s fields) and byes."""

    tables = serializers.SerializerMethodField()
    byes = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["id", "number", "status", "tables", "byes"]

    @extend_schema_field(TableSerializer(many=True))
    def get_tables(self, rnd: Round) -> list[dict[str, Any]]:
        return TableSerializer(rnd.games.all(), many=True, context=self.context).data  # type: ignore[return-value]

    @extend_schema_field(EntrantRefSerializer(many=True))
    def get_byes(self, rnd: Round) -> list[dict[str, Any]]:
        return [{"id": b.entrant_id, "name": b.entrant.name} for b in rnd.byes.all()]


class PlayoffGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    winner = serializers.CharField(source="winner.name")
    loser_score = serializers.IntegerField()


class PlayoffMatchSerializer(serializers.ModelSerializer):
    """A bracket slot: ``round`` from 1, ``position`` from 0 in bracket order, its games."""

    top = EntrantRefSerializer(allow_null=True)
    bottom = EntrantRefSerializer(allow_null=True)
    winner = EntrantRefSerializer(allow_null=True)
    top_seed = serializers.IntegerField(source="top.seed", allow_null=True, default=None)
    bottom_seed = serializers.IntegerField(source="bottom.seed", allow_null=True, default=None)
    games = PlayoffGameSerializer(many=True)

    class Meta:
        model = PlayoffMatch
        fields = [
            "id",
            "tournament",
            "round",
            "position",
            "top",
            "bottom",
            "top_seed",
            "bottom_seed",
            "is_bye",
            "winner",
            "games",
        ]


class TournamentBracketSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    rounds = serializers.ListField(child=PlayoffMatchSerializer(many=True))
    champion = serializers.CharField(allow_null=True)


# --- Request bodies ------------------------------------------------------------------------------


class ScorecardRequestSerializer(StrictSerializer):
    """``POST /api/tournament-tables/{id}/scorecards/``: your side's card. Either the winner
    (an entrant's id) and the loser's score, or the game deal by deal (``deals``, each in the
    league's deal shape; seats: singles, 0 the table's first entrant and 1 the second;
    partnerships, 0 and 2 the first entrant's players, 1 and 3 the second's), from which the
    scorer takes both. A checker keying in a paper card names its ``side``."""

    key = StrictCharField(
        required=False,
        allow_null=True,
        min_length=1,
        max_length=64,
        help_text="A client-made id (a UUID): the same card sent again is stored once.",
        error_messages=KEY_MESSAGES,
    )
    winner = StrictIntegerField(
        required=False, allow_null=True, min_value=1, max_value=2**63 - 1, help_text="Entrant id."
    )
    loser_score = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    side = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**63 - 1,
        help_text="A checker's paper card: the id of the entrant whose card it is.",
    )
    deals = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        allow_null=True,
        max_length=60,
        help_text="The game deal by deal, first deal first (optional).",
    )
    first_dealer = StrictIntegerField(required=False, default=0, min_value=0, max_value=3)


class ResultRequestSerializer(StrictSerializer):
    """A checker's settlement or a playoff game: who won (an entrant's id), the loser's score."""

    winner = StrictIntegerField(min_value=1, max_value=2**63 - 1, help_text="Entrant id.")
    loser_score = StrictIntegerField(min_value=0, max_value=999)


class PlayoffGameRequestSerializer(ResultRequestSerializer):
    """``POST /api/playoff-matches/{id}/games/``: who won the next game, the loser's score, and
    a ``key`` so that the same game sent twice is stored once."""

    key = StrictCharField(
        required=False,
        allow_null=True,
        min_length=1,
        max_length=64,
        help_text="A client-made id (a UUID): the same game sent again is stored once.",
        error_messages=KEY_MESSAGES,
    )
