"""The cribbage board as inline SVG: four streets of 30 holes per side, start and game holes.

Hole positions are computed once per target (a league may play to 61, 121 or 181). Each hole
carries ``data-s`` (side lane) and ``data-h`` (hole number), so the score-entry page can move the
pegs in the browser with the same drawing the server made.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()

STREET = 30  # holes per street
SPACING = 10  # between two holes
GROUP_GAP = 5  # extra space after every five holes
LEFT = 30  # room for the start and game holes
TOP = 12
LANE = 9  # between the two lanes of a street
STREET_HEIGHT = 31  # from one street to the next


@dataclass(frozen=True)
class Hole:
    side: int
    number: int  # 0 is a start hole; the game hole is the target
    x: float
    y: float


@dataclass(frozen=True)
class Layout:
    target: int
    streets: int
    width: float
    height: float
    holes: tuple[Hole, ...]  # every hole of both lanes, start holes included
    game_hole: tuple[float, float]
    street_boxes: tuple[tuple[float, float, float, float], ...]  # x, y, w, h per street

    def position(self, side: int, score: int, *, back: bool = False) -> tuple[float, float]:
        """Where a peg on ``score`` stands (0: a start hole; the target or more: the game hole)."""
        if score >= self.target:
            return self.game_hole
        if score <= 0:
            x = 8 if back else 18
            return (x, _lane_y(0, side))
        return _hole_xy(score, side, self.streets)


def _lane_y(street: int, side: int) -> float:
    return TOP + street * STREET_HEIGHT + side * LANE


def _street_width() -> float:
    return (STREET - 1) * SPACING + (STREET // 5 - 1) * GROUP_GAP


def _hole_xy(number: int, side: int, streets: int) -> tuple[float, float]:
    street, index = divmod(number - 1, STREET)
    street = min(street, streets - 1)
    if street % 2:  # streets run back and forth, like a continuous board
        index = STREET - 1 - index
    x = LEFT + index * SPACING + (index // 5) * GROUP_GAP
    return (x, _lane_y(street, side))


@functools.cache
def layout(target: int = 121) -> Layout:
    """The board for a game to ``target`` (121: four streets of 30 and the game hole)."""
    streets = max(1, -(-(target - 1) // STREET))
    holes: list[Hole] = []
    for side in (0, 1):
        holes.append(Hole(side, 0, 8, _lane_y(0, side)))
        holes.append(Hole(side, 0, 18, _lane_y(0, side)))
        for number in range(1, target):
            x, y = _hole_xy(number, side, streets)
            holes.append(Hole(side, number, x, y))
    last = streets - 1
    game_x = 13 if last % 2 else LEFT + _street_width() + 15
    game_hole = (game_x, _lane_y(last, 0) + LANE / 2)
    boxes = tuple(
        (LEFT - 6, _lane_y(s, 0) - 6, _street_width() + 12, LANE + 12) for s in range(streets)
    )
    width = LEFT + _street_width() + 30
    height = TOP + streets * STREET_HEIGHT - 8
    return Layout(target, streets, width, height, tuple(holes), game_hole, boxes)


def _skunk_mark(lay: Layout, line: int) -> dict[str, float] | None:
    """A line just past hole ``line``: a loser who never passes it is skunked."""
    if not 0 < line < lay.target - 1:
        return None
    x, y = _hole_xy(line + 1, 0, lay.streets)
    street = (line) // STREET
    direction = -1 if street % 2 else 1  # the way the pegs travel on this street
    return {"x": x - direction * SPACING / 2, "y1": y - 6, "y2": y + LANE + 6, "ty": y - 7}


def _fmt(value: float) -> str:
    return f"{value:g}"


@functools.cache
def background_svg(target: int) -> str:
    """The board's wood, streets, holes and game hole as SVG elements, made once per target.

    Built as a string, not in the template: 242 holes through the template engine cost
    milliseconds per board, which a TV showing 64 tables every few seconds cannot afford."""
    lay = layout(target)
    parts = [
        f'<rect class="board-wood" x="0" y="0" width="{_fmt(lay.width)}" '
        f'height="{_fmt(lay.height)}" rx="8"/>'
    ]
    for x, y, w, h in lay.street_boxes:
        parts.append(
            f'<rect class="board-street" x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(w)}" '
            f'height="{_fmt(h)}" rx="5"/>'
        )
    parts.append('<g class="board-holes">')
    for hole in lay.holes:
        parts.append(
            f'<circle class="hole hole--{hole.side}" data-s="{hole.side}" data-h="{hole.number}"'
            f' cx="{_fmt(hole.x)}" cy="{_fmt(hole.y)}" r="2.1"/>'
        )
    gx, gy = lay.game_hole
    parts.append("</g>")
    parts.append(
        f'<circle class="hole hole--game" data-h="{target}" cx="{_fmt(gx)}" cy="{_fmt(gy)}" '
        f'r="4"/><text class="board-mark" x="{_fmt(gx)}" y="{_fmt(gy + 11)}" '
        f'text-anchor="middle">{target}</text>'
    )
    return "".join(parts)


@register.simple_tag
def board_defs(target: int = 121) -> str:
    """The board background once, as a symbol that compact boards on the page ``<use>``."""
    lay = layout(target)
    return mark_safe(  # built from numbers only
        f'<svg class="board-defs" aria-hidden="true" focusable="false" width="0" height="0">'
        f'<defs><symbol id="board-bg-{int(target)}" viewBox="0 0 {_fmt(lay.width)} '
        f'{_fmt(lay.height)}">{background_svg(target)}</symbol></defs></svg>'
    )


def board_label(sides: list[dict[str, Any]]) -> str:
    """The board in words: 'Fifteen Two 87, Nobs 64'."""
    return ", ".join(f"{s['name']} {s['score']}" for s in sides)


@register.inclusion_tag("league/_board.html")
def board(
    sides: list[dict[str, Any]],
    *,
    target: int = 121,
    skunk_line: int | None = None,
    size: str = "",
    board_id: str = "",
    compact: bool = False,
) -> dict[str, Any]:
    """Draw a board. ``sides``: two dicts with ``name``, ``score`` and ``back`` (the back peg,
    the score before the last deal), first the top lane. ``skunk_line``: the highest score that
    is still skunked (target - the league's skunk margin)."""
    lay = layout(target)
    pegs = []
    for index, side in enumerate(sides[:2]):
        score = int(side.get("score") or 0)
        back = int(side.get("back") or 0)
        fx, fy = lay.position(index, score)
        bx, by = lay.position(index, back, back=True)
        pegs.append({"side": index, "front": (fx, fy), "back": (bx, by), "name": side["name"]})
    label = board_label(sides)
    if compact:  # the page carries the background once ({% board_defs %})
        background = (
            f'<use href="#board-bg-{int(target)}" x="0" y="0" width="{_fmt(lay.width)}" '
            f'height="{_fmt(lay.height)}"/>'
        )
    else:
        background = background_svg(target)
    return {
        "lay": lay,
        "background": mark_safe(background),  # numbers only
        "pegs": pegs,
        "label": label,
        "skunk": _skunk_mark(lay, skunk_line) if skunk_line else None,
        "skunk_title": _("Skunk line: the loser must pass %(n)s") % {"n": skunk_line},
        "size": size,
        "board_id": board_id,
        "sides": sides[:2],
    }


SUITS = {"S": ("♠", "black"), "H": ("♥", "red"), "D": ("♦", "red"), "C": ("♣", "black")}


@register.simple_tag
def card(text: str) -> str:
    """A card like ``JH`` shown as ``J♥`` in its colour; screen readers get the letters."""
    text = (text or "").strip().upper()
    if len(text) < 2 or text[-1] not in SUITS:
        return text
    symbol, colour = SUITS[text[-1]]
    return format_html(
        '<span class="pc pc--{}"><span aria-hidden="true">{}{}</span>'
        '<span class="visually-hidden">{}</span></span>',
        colour,
        text[:-1],
        symbol,
        text,
    )


@register.simple_tag
def cards(items: list[str] | None) -> str:
    """Several cards, separated by spaces."""
    return format_html_join(" ", "{}", ((card(c),) for c in items or []))


@register.simple_tag(takes_context=True)
def can(context: Any, action: str, obj: Any = None) -> bool:
    """``{% can "confirm_game" game as may_confirm %}``: ``league.kernel.permissions.can`` for the
    signed-in user, so a template offers an action exactly when the service would take it."""
    from league.kernel.permissions import Action
    from league.kernel.permissions import can as can_do

    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return can_do(user, Action(action), obj)


@register.simple_tag
def entry_repr(entry: Any) -> str:
    """An admin log line's object (the admin's "Recent actions") named in the reader's language:
    its name now, as the admin would write it; the name stored when it was logged only when the
    object is gone (a deletion, a removed row)."""
    from django.core.exceptions import ObjectDoesNotExist

    if entry.is_deletion() or entry.content_type_id is None:
        return str(entry.object_repr)
    try:
        return str(entry.get_edited_object())
    except ObjectDoesNotExist:
        return str(entry.object_repr)
