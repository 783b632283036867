"""A team's "reject" that lands just after its own confirmation (review: 20 ms apart) leaves
the confirmed game confirmed: the state is asked again under the game's lock."""

from __future__ import annotations

import pytest

from league import models
from league.kernel.errors import DomainError
from league.services import disputes
from league.services.disputes import game_reject
from league.services.games import game_confirm
from tests.factories import play_until_over


def test_a_reject_a_moment_after_the_teams_own_confirmation_changes_nothing(
    monkeypatch, game, ann, cat
):
    play_until_over(game, ann)  # Fifteen Two entered it: Nobs confirms or rejects
    seen_before = models.Game.objects.get(pk=game.pk)  # what Dan's page read, a moment ago
    dan = models.Player.objects.get(name="Dan").user
    game_confirm(game=game, user=cat)  # Cat confirms for Nobs first
    monkeypatch.setattr(disputes, "_fresh", lambda g: seen_before)  # Dan's checks ran before

    with pytest.raises(DomainError, match="already confirmed"):
        game_reject(game=game, user=dan, claim="Deal 3 was wrong")

    game.refresh_from_db()
    assert game.status == models.GameStatus.CONFIRMED
    assert not models.Dispute.objects.filter(game=game).exists()
