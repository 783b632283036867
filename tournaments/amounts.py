"""Money as people read it: whole cents in the database, dollars and cents on the page and in
messages, written the way the reader's language writes numbers ("$12.50", « 12,50 $ »)."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _


def dollars(cents: int) -> str:
    """``1250`` -> ``"$12.50"`` (in French, ``"12,50 $"``); a Decimal, never a float."""
    sign = "-" if cents < 0 else ""
    amount = number_format(Decimal(abs(cents)) / 100, 2, force_grouping=True)
    return sign + _("$%(amount)s") % {"amount": amount}
