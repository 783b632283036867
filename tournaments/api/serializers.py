"""How tournaments look over the API: read serializers shaped like the archive format where it
has a shape (standings, bracket), and the strict request bodies of a scorecard, a checker's
settlement and a playoff game. Rules about what may be written live in the services."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from contest.tiebreaks import TOURNAMENT_TIEBREAKS
from league.kernel.api import (
    KEY_MESSAGES,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
    write_access,
)
from league.kernel.permissions import Action
from tournaments.models import Club, Entrant, PlayoffMatch, Round, TableGame, TableState, Tournament


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


class PlacedBySerializer(serializers.Serializer):
    entrant = serializers.CharField()
    placed_by = serializers.ChoiceField(choices=list(TOURNAMENT_TIEBREAKS))


class TournamentCutSerializer(serializers.Serializer):
    """Who stands where around the cut, beside the standings (whose format stays as it is)."""

    settled = serializers.BooleanField(
        help_text="Every entrant has a result: until then no one is marked in or out."
    )
    qualifiers = serializers.ListField(
        child=serializers.CharField(), help_text="Empty until settled."
    )
    first_out = serializers.CharField(allow_null=True, help_text="Null until settled.")
    placed_by = PlacedBySerializer(
        many=True,
        help_text="For each entrant around the cut, the tie-break that placed it, in standings "
        "order.",
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
    acc_rule = serializers.SerializerMethodField()

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
            "acc_rule",
            "first_spread",
            "second_spread",
        ]
        extra_kwargs = {
            "first_spread": {
                "help_text": "The first entrant's own signed spread when ACC Rule 12.2 gave "
                "each side its own figure (12.2(b), 12.2(e): then winner may be null, a loss "
                "for both); null for a table with one result."
            },
            "second_spread": {"help_text": "The second entrant's, as first_spread."},
        }

    @extend_schema_field(
        serializers.CharField(
            help_text='The ACC Rule 12.2 clause that settled the table ("12.2(a)"), or "".'
        )
    )
    def get_acc_rule(self, game: TableGame) -> str:
        rulings = [c for c in game.scorecards.all() if c.by_checker]
        return rulings[-1].acc_clause if rulings else ""

    @extend_schema_field(serializers.ChoiceField(choices=TableState.values))
    def get_state(self, game: TableGame) -> str:
        return str(game.state)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_cards_in(self, game: TableGame) -> list[str]:
        """The entrants whose side's card is in (a checker's entry is not a side's)."""
        names = {0: game.first.name, 1: game.second.name}
        return [names[c.side] for c in game.cards if c.side is not None]

    def _may(self, action: Action, game: TableGame) -> bool:
        """``can()`` for the requesting user, or what the context's ``access`` already says of
        this one table (``checks.table_access``: a card's answer asks no groups)."""
        known = self.context.get("access")
        if known is not None:
            return bool(known[action])
        return write_access(self.context["request"], action, game)

    def get_can_enter(self, game: TableGame) -> bool:
        """Whether you may enter a card for this table now (your side's, or as a checker)."""
        return self._may(Action.ENTER_SCORECARD, game)

    def get_can_settle(self, game: TableGame) -> bool:
        """Whether you may settle this table now, as a checker."""
        return self._may(Action.CHECK_SCORECARDS, game)


#: A moment as every answer writes it (DRF's ``DATETIME_FORMAT``, in the current time zone).
_WHEN = serializers.DateTimeField()


def table_answer(game: TableGame, access: dict[str, bool]) -> dict[str, Any]:
    """``TableSerializer``'s answer for a card (``access``: ``checks.table_access``), built
    directly: a serializer instance per card built its fields each time, a tenth of a card's
    CPU. The same keys and values, in ``TableSerializer.Meta.fields``' order
    (tests/tournaments/test_card_path.py compares the two); the serializer stays the schema."""
    cards = game.scorecards.all()
    names = {0: game.first.name, 1: game.second.name}
    rulings = [c for c in cards if c.by_checker]
    winner = game.winner
    return {
        "id": game.pk,
        "tournament": game.round.tournament_id,
        "round": game.round.number,
        "table": game.table,
        "first": {"id": game.first.pk, "name": game.first.name},
        "second": {"id": game.second.pk, "name": game.second.name},
        "status": game.status,
        "state": str(game.state),
        "winner": None if winner is None else {"id": winner.pk, "name": winner.name},
        "loser_score": game.loser_score,
        "verified_at": None
        if game.verified_at is None
        else _WHEN.to_representation(game.verified_at),
        "cards_in": [names[c.side] for c in game.cards if c.side is not None],
        "can_enter": bool(access[Action.ENTER_SCORECARD]),
        "can_settle": bool(access[Action.CHECK_SCORECARDS]),
        "acc_rule": rulings[-1].acc_clause if rulings else "",
        "first_spread": game.first_spread,
        "second_spread": game.second_spread,
    }


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
            "side",
            "round",
            "position",
            "best_of",
            "top",
            "bottom",
            "top_seed",
            "bottom_seed",
            "is_bye",
            "winner",
            "games",
        ]


class TournamentBracketSerializer(serializers.Serializer):
    """The bracket: ``rounds`` (a double elimination's winners' bracket), ``losers`` and
    ``final`` (a double elimination's; empty for a single elimination), the champion."""

    tournament = serializers.CharField()
    format = serializers.CharField()
    rounds = serializers.ListField(child=PlayoffMatchSerializer(many=True))
    losers = serializers.ListField(child=PlayoffMatchSerializer(many=True))
    final = serializers.ListField(child=PlayoffMatchSerializer(many=True))
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


PLAYOFF_KEY_REQUIRED = gettext_lazy(
    "Send a key with the game (a UUID your device makes): without one, the same game sent "
    "twice would be stored twice."
)


class PlayoffGameRequestSerializer(ResultRequestSerializer):
    """``POST /api/playoff-matches/{id}/cards/``: who won the next game, the loser's score, and
    a ``key`` so that the same card sent twice is stored once."""

    key = StrictCharField(
        required=False,
        allow_null=True,
        min_length=1,
        max_length=64,
        help_text="A client-made id (a UUID): the same game sent again is stored once.",
        error_messages=KEY_MESSAGES,
    )


class PlayoffGameKeyedRequestSerializer(ResultRequestSerializer):
    """``POST /api/playoff-matches/{id}/games/``: the director's game, with the ``key`` that
    makes the same game sent twice stored once. The key is required: two posts of one game
    without it (a retrying phone, two taps) would store two games, and a best of 3 would be
    decided by one game played."""

    key = StrictCharField(
        required=True,
        min_length=1,
        max_length=64,
        help_text="A client-made id (a UUID), required: the same game sent again is stored once.",
        error_messages={
            **KEY_MESSAGES,
            "required": PLAYOFF_KEY_REQUIRED,
            "null": PLAYOFF_KEY_REQUIRED,
        },
    )


# --- The director's workspace ---------------------------------------------------------------


class ClubSerializer(serializers.ModelSerializer):
    """A club and the defaults its "Tonight" makes a night from (entry fee in cents)."""

    class Meta:
        model = Club
        fields = [
            "id",
            "name",
            "venue",
            "night_games",
            "round_minutes",
            "entry_fee",
            "house_percent",
        ]


class NamesRequestSerializer(StrictSerializer):
    """``POST /api/clubs/{id}/members/``: names, one a string; new names become players."""

    names = serializers.ListField(
        child=StrictCharField(max_length=120), min_length=1, max_length=500
    )


class EntrantsRequestSerializer(StrictSerializer):
    """``POST /api/tournaments/{id}/entrants/``: the names (and player ids) to enter; at a
    club's night, a name nobody has is a walk-in made a member."""

    names = serializers.ListField(
        child=StrictCharField(max_length=120), required=False, default=list, max_length=500
    )
    players = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        default=list,
        max_length=500,
    )
    check_in = serializers.BooleanField(required=False, default=False)


class EntrantSerializer(serializers.ModelSerializer):
    class Meta:
        model = Entrant
        fields = ["id", "name", "number", "status"]


class RoundStartRequestSerializer(StrictSerializer):
    """``POST /api/tournaments/{id}/start/``: the round to start (its number)."""

    number = StrictIntegerField(min_value=1, max_value=999)


class PlayoffForfeitRequestSerializer(StrictSerializer):
    """``POST /api/playoff-matches/{id}/forfeit/``: the absent entrant and the minutes they
    have been away (ACC: a game after 5 minutes, one more every 15)."""

    absent = StrictIntegerField(min_value=1, max_value=2**63 - 1, help_text="Entrant id.")
    minutes = StrictIntegerField(min_value=0, max_value=10_000)


class NightRecapSectionSerializer(serializers.Serializer):
    """A part of a club night's story: its heading and its lines."""

    heading = serializers.CharField()
    lines = serializers.ListField(child=serializers.CharField())


class NightRecapSerializer(serializers.Serializer):
    """A club night's story in one language (information only)."""

    tournament = serializers.IntegerField()
    language = serializers.CharField(help_text="The language it is said in, e.g. en or fr.")
    over = serializers.BooleanField(help_text="The night's final is decided.")
    heading = serializers.CharField()
    sections = NightRecapSectionSerializer(many=True)
    notes = serializers.ListField(child=serializers.CharField())
    text = serializers.CharField(help_text="The whole story as plain text, ready to paste.")
