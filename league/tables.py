"""The standings table: its headings, its fast rows and its CSV, all from the row's declaration
(``league.standings_row``), and a spreadsheet-safe export any table can use."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

import django_tables2 as tables
from django.http import HttpResponse
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django_tables2.export import TableExport
from tablib import Dataset

from league.kernel.exports import spreadsheet_safe
from league.ranking import POINTS
from league.standings_row import SHOWN, SORT_KEYS, Column

# --- Exports -------------------------------------------------------------------------------------

EXPORT_FORMATS = ("csv",)  # what ?_export= may ask for; anything else is refused (400)


class SafeTableExport(TableExport):
    """django-tables2's export with every text cell made :func:`spreadsheet_safe`."""

    def table_to_dataset(
        self, table: tables.Table, exclude_columns: Iterable[str] | None, dataset_kwargs: Any = None
    ) -> Dataset:
        dataset = Dataset(**(dataset_kwargs or {}))
        for i, row in enumerate(table.as_values(exclude_columns=exclude_columns)):
            safe = [spreadsheet_safe(value) for value in row]
            if i == 0:
                dataset.headers = safe
            else:
                dataset.append(safe)
        return dataset


def export_response(table: tables.Table, *, export_format: str, filename: str) -> HttpResponse:
    """The table as a download in ``export_format`` (one of :data:`EXPORT_FORMATS`)."""
    if export_format not in EXPORT_FORMATS:
        raise ValueError(f"unsupported export format {export_format!r}")
    return SafeTableExport(export_format, table).response(f"{filename}.{export_format}")


# --- The standings table -------------------------------------------------------------------------


class DeclaredColumn(tables.Column):
    """A column of the declaration: its label, alignment, sorting and shown value."""

    def __init__(self, declared: Column) -> None:
        self.declared = declared
        super().__init__(
            verbose_name=declared.label,
            attrs={"td": {"class": "num"}} if declared.numeric else {},
            orderable=declared.sortable,
        )

    def render(self, record: Mapping[str, Any]) -> Any:
        return self.declared.shown_value(record)


class StandingsTable(tables.Table):
    class Meta:
        attrs = {"class": "standings"}
        template_name = "django_tables2/table.html"
        orderable = True

    def __init__(self, data: Any, **kwargs: Any) -> None:
        columns = [(c.key, DeclaredColumn(c)) for c in SHOWN]
        super().__init__(data, extra_columns=columns, **kwargs)


# The standings page's rows are built here rather than cell by cell in a template: a 64-team
# table renders in well under a millisecond this way against ~20 ms through the template engine
# (bench/standings.py). Numbers are ints from the selector; texts go through escape() (the
# standard library's, which Django's wraps: same entities, without the lazy-string wrapper).
def _cell(column: Column) -> str:
    if column.row_header:  # the team, and on a phone what placed it (see _placed_note)
        return '<th scope="row"><a href="{}">{}</a>{}</th>'
    classes = " ".join(
        [
            *(["num"] if column.numeric else []),
            *([f"col-p{column.priority}"] * (column.priority > 1)),
        ]
    )
    attrs = f' class="{classes}"' if classes else ""
    return f"<td{attrs}><strong>{{}}</strong></td>" if column.strong else f"<td{attrs}>{{}}</td>"


_ROW = "<tr>" + "".join(_cell(c) for c in SHOWN) + "</tr>"
_PLACED_BY = next(c for c in SHOWN if c.key == "decided_by")


def _placed_note(row: Mapping[str, Any], label: str, translated: dict[int, str]) -> str:
    """Under the team's name, shown only on a phone (where the "Placed by" column is not):
    the tie-break that placed the team, when one did (league points need no note)."""
    if row.get("decided_by_key") in (None, POINTS.key):
        return ""
    value = _PLACED_BY.shown_value(row)
    text = translated.get(id(value))
    if text is None:
        text = translated[id(value)] = escape(str(value))
    return f'<small class="placed-note">{label} {text}</small>'


def standings_rows_html(rows: list[dict[str, Any]]) -> SafeString:
    """The ``<tbody>`` rows of the standings table, in the reader's language."""
    team_url = reverse("league:team", args=[0])[:-2]  # "/teams/" + id + "/"
    # A text column shows one of a few translatable names (what placed the team): each is
    # translated once per table, not once per row. Keyed by the lazy name itself, which lives
    # as long as the module that declares it.
    translated: dict[int, str] = {}
    placed_by = escape(str(_PLACED_BY.label))
    out = []
    for row in rows:
        cells: list[object] = []
        for column in SHOWN:
            if column.row_header:
                cells += (
                    f"{team_url}{int(row['team_id'])}/",
                    escape(str(row[column.key])),
                    _placed_note(row, placed_by, translated),
                )
            elif column.numeric:
                cells.append(int(row[column.key]))
            else:
                value = column.shown_value(row)
                if isinstance(value, Promise):
                    text = translated.get(id(value))
                    if text is None:
                        text = translated[id(value)] = escape(str(value))
                    cells.append(text)
                else:
                    cells.append(escape(str(value)))
        out.append(_ROW.format(*cells))
    return mark_safe("\n".join(out))  # every text went through escape(), the rest are ints


def sort_rows(rows: list[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    """Rows ordered by ``sort`` (a column key, ``-`` for descending); unknown keys keep rank."""
    key = sort.removeprefix("-")
    if key not in SORT_KEYS:
        return rows
    return sorted(rows, key=lambda r: (r[key], r["rank"]), reverse=sort.startswith("-"))


def standings_columns(sort: str) -> list[dict[str, object]]:
    """Header cells: label, whether numeric, and the link that sorts by the column (toggling:
    numbers sort high first, texts and the rank low first)."""
    columns = []
    for column in SHOWN:
        entry: dict[str, object] = {  # translated once here, shown up to three times
            "label": str(column.label),
            "num": column.numeric,
            "key": column.key,
            "priority": column.priority,
            "short": str(column.short) if column.short else None,
        }
        if column.sortable:
            if column.low_first or not column.numeric:
                entry["href"] = f"?sort={'-' if sort == column.key else ''}{column.key}"
            else:
                entry["href"] = f"?sort={'' if sort == '-' + column.key else '-'}{column.key}"
            if sort.removeprefix("-") == column.key:
                entry["aria_sort"] = "descending" if sort.startswith("-") else "ascending"
        columns.append(entry)
    return columns


def standings_header_html(sort: str) -> SafeString:
    """The header cells of the standings table (see :func:`standings_columns`), built here for
    the same reason as its rows: through the template engine, its 15 cells cost a computed page
    more than the rest of its template."""
    cells = []
    for col in standings_columns(sort):
        label = escape(str(col["label"]))
        classes = ("num" if col["num"] else "") + (
            f" col-p{col['priority']}" if int(col["priority"]) > 1 else ""  # type: ignore[call-overload,operator]
        )
        attrs = f' class="{classes}"' if classes else ""
        if col.get("aria_sort"):
            attrs += f' aria-sort="{col["aria_sort"]}"'
        inner = label
        if col["short"]:
            inner = (
                f'<span class="label-long">{label}</span>'
                f'<abbr class="label-short" title="{label}">{escape(str(col["short"]))}</abbr>'
            )
        if col.get("href"):
            inner = f'<a href="{escape(str(col["href"]))}">{inner}</a>'
        cells.append(f'<th scope="col"{attrs}>{inner}</th>')
    return mark_safe("".join(cells))  # every text went through escape()
