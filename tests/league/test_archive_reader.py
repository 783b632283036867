"""The one archive reader both archives use: the place in every refusal, each archive's own
refusal class and limits."""

from __future__ import annotations

import pytest

from league.kernel.archive_reader import Reader, check_shape
from league.kernel.errors import ValidationFailed
from league.services.archive import ArchiveRefused
from league.services.archive_import import archive_parse
from tournaments.archive import TournamentArchiveRefused


def test_a_services_refusal_inside_a_place_is_the_archives_own_with_the_place():
    r = Reader(TournamentArchiveRefused)
    with pytest.raises(TournamentArchiveRefused) as info, r.at("Round 2"), r.at("table 3"):
        raise ValidationFailed("The loser's score must be a whole number from 0 to 120.")
    assert info.value.message == (
        "Round 2, table 3: The loser's score must be a whole number from 0 to 120."
    )
    assert r.where == []


def test_each_archive_keeps_its_own_limits():
    season = Reader(ArchiveRefused, name_limit=120, number_limit=32_767)
    tournament = Reader(TournamentArchiveRefused)
    with pytest.raises(ArchiveRefused, match="at most 120 characters"):
        season.text("N" * 121, "A team's name")
    assert tournament.text("N" * 121, "The entrant's name") == "N" * 121
    with pytest.raises(ArchiveRefused, match="at most 32767"):
        season.int(40_000, "A week's number", minimum=1)
    assert tournament.int(40_000, "The table", minimum=1) == 40_000


def test_hostile_input_is_refused_with_the_class_asked_for(settings):
    deep: list = []
    for _ in range(20):
        deep = [deep]
    with pytest.raises(TournamentArchiveRefused, match="it is not a tournament"):
        check_shape({"x": deep}, refusal=TournamentArchiveRefused, what="a tournament")
    with pytest.raises(ArchiveRefused, match="this number is too large"):
        check_shape({"draw_seed": 2**63}, refusal=ArchiveRefused)
    with pytest.raises(ArchiveRefused, match="not UTF-8 text"):
        archive_parse(b'{"a": "\xff"}')
