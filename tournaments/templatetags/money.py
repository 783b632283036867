"""``{{ cents|dollars }}``: an amount in cents as dollars and cents, in the page's language."""

from __future__ import annotations

from django import template

from tournaments.amounts import dollars as _dollars

register = template.Library()


@register.filter
def dollars(cents: int | None) -> str:
    return "" if cents is None else _dollars(int(cents))
