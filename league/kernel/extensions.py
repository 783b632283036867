"""Where one competition adds to pages and commands that the other owns, without either importing
the other: an app registers its parts in its ``AppConfig.ready()``, and the owner asks here.

- A **player section** is a part of a player's page (``/players/<id>/``): a template and a
  function that gives its context for one player (``None`` leaves the section out). The league
  owns the page; the tournaments add the player's tournament record.
- A **demo** builds one competition's part of ``manage.py seed_demo`` and says what it made, one
  line per call of ``say``; the league's demo runs first, then each registered one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Say = Callable[[str], None]


@dataclass(frozen=True)
class PlayerSection:
    template: str
    context: Callable[[Any], dict[str, Any] | None]


_player_sections: list[PlayerSection] = []
_demos: list[Callable[[str, Say], None]] = []


def add_player_section(template: str, context: Callable[[Any], dict[str, Any] | None]) -> None:
    """Show ``template`` on every player's page, with ``context(player)``."""
    _player_sections.append(PlayerSection(template, context))


def player_sections(player: Any) -> list[tuple[str, dict[str, Any]]]:
    """The registered sections of ``player``'s page: ``(template, context)`` in order."""
    out = []
    for section in _player_sections:
        context = section.context(player)
        if context is not None:
            out.append((section.template, context))
    return out


def add_demo(build: Callable[[str, Say], None]) -> None:
    """Run ``build(url, say)`` after the league's demo in ``manage.py seed_demo``."""
    _demos.append(build)


def demos() -> list[Callable[[str, Say], None]]:
    return list(_demos)
