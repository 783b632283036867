"""Where one competition adds to pages and commands that the other owns, without either importing
the other: an app registers its parts in its ``AppConfig.ready()``, and the owner asks here.

- A **player section** is a part of a player's page (``/players/<id>/``): a template and a
  function that gives its context for one player (``None`` leaves the section out). The league
  owns the page; the tournaments add the player's tournament record.
- An **honours section** is a part of the roll of honour (``/records/honours/``) and of
  ``manage.py records``: a template and a function that gives its context (``None`` leaves it
  out) and its lines of plain text. The tournaments add each club night's winner.
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


@dataclass(frozen=True)
class HonoursSection:
    template: str
    context: Callable[[], dict[str, Any] | None]
    lines: Callable[[dict[str, Any]], list[str]]


_honours: list[HonoursSection] = []


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


def add_honours(
    template: str,
    context: Callable[[], dict[str, Any] | None],
    lines: Callable[[dict[str, Any]], list[str]],
) -> None:
    """Show ``template`` on the roll of honour with ``context()``; ``lines(context)`` says it
    in plain text for ``manage.py records``."""
    _honours.append(HonoursSection(template, context, lines))


def honour_sections() -> list[tuple[HonoursSection, dict[str, Any]]]:
    """The registered parts of the roll of honour: ``(section, context)`` in order."""
    out = []
    for section in _honours:
        context = section.context()
        if context is not None:
            out.append((section, context))
    return out


def add_demo(build: Callable[[str, Say], None]) -> None:
    """Run ``build(url, say)`` after the league's demo in ``manage.py seed_demo``."""
    _demos.append(build)


def demos() -> list[Callable[[str, Say], None]]:
    return list(_demos)
