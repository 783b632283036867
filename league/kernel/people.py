"""The people both competitions share: a player of the league's roster is the same person at a
club night (entrants are players)."""

from league.models.people import Player

__all__ = ["Player"]
