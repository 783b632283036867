"""What every export a person downloads (CSV, a spreadsheet) shares: cells a spreadsheet shows
as typed. A name beginning ``=``, ``+``, ``-`` or ``@`` could run as a formula when opened
(CSV injection), so every text cell of every export goes through :func:`spreadsheet_safe`,
here once for both competitions: the league's standings and the tournaments' ACC reports."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A cell a spreadsheet shows as typed: text starting with ``= + - @``, a tab or a carriage
    return could run as a formula, so it gets a leading ``'`` (OWASP's advice against CSV
    injection). Numbers stay numbers: a spread of -5 is still the number -5.

    >>> spreadsheet_safe('=HYPERLINK("http://x.io","Nobs")'), spreadsheet_safe(-5)
    ('\\'=HYPERLINK("http://x.io","Nobs")', -5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_response(
    filename: str, header: Sequence[Any], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """A CSV download whose every text cell is :func:`spreadsheet_safe`."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow([spreadsheet_safe(cell) for cell in header])
    for row in rows:
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return response
