"""The standings row, declared once.

Every place that shows or writes a standings row derives its columns from :data:`STANDINGS_ROW`:
the rows :func:`~league.selectors.standings.compute_standings` stores, the page's table, its
sortable headings and its CSV, the season archive's ``standings`` rows and the ``standings``
command (the columns marked ``archived``, in this order: a format other tools read), and the API's
``StandingsRowSerializer``. A new column is one line here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from league.ranking import METRICS, RankedTeam


@dataclass(frozen=True)
class Column:
    key: str  # the row's key: the JSON, API and archive field
    label: Promise  # the heading on the page and in the CSV
    value: Callable[[RankedTeam], Any]  # the stored value, from the ranked record
    numeric: bool = True
    row_header: bool = False  # the cell that names the row (a link to the team's page)
    strong: bool = False  # in bold on the page
    shown: bool = True  # a column of the page and the CSV
    sortable: bool = True  # the page sorts by it
    low_first: bool = False  # its first sort is ascending (texts always are)
    archived: str = ""  # its heading in the command's table; set: part of the archive's rows
    display: Callable[[Mapping[str, Any]], Any] | None = None  # page/CSV value, if not the stored
    nullable: bool = False  # the API may give null
    help: str = ""  # the API's description
    # On the page: 1 always shown; 2 hidden on a phone (below 600 px); 3 shown only on a wide
    # screen (1280 px and more). The CSV, the API and the archive have every column.
    priority: int = 1
    short: Promise | None = None  # the heading on a phone, where the full one does not fit

    def shown_value(self, row: Mapping[str, Any]) -> Any:
        return self.display(row) if self.display else row[self.key]


def _count(name: str) -> Callable[[RankedTeam], int]:
    return lambda ranked: getattr(ranked.record, name)


def _placed_by(row: Mapping[str, Any]) -> Any:
    """What placed the team, in the reader's language (stored as the metric's key)."""
    metric = METRICS.get(row["decided_by_key"])
    return metric.name if metric else row["decided_by"]


STANDINGS_ROW: tuple[Column, ...] = (
    Column("rank", _("Rank"), lambda r: r.rank, low_first=True, archived="#", short=_("#")),
    Column("team_id", _("Team id"), lambda r: r.record.team_id, shown=False, sortable=False),
    Column(
        "team", _("Team"), lambda r: r.record.name, numeric=False, row_header=True, archived="Team"
    ),
    Column(
        "played",
        _("Played"),
        _count("played"),
        archived="P",
        short=pgettext_lazy("played, on a phone", "P"),
    ),
    Column(
        "won", _("Won"), _count("won"), archived="W", short=pgettext_lazy("won, on a phone", "W")
    ),
    Column("lost", _("Lost"), _count("lost"), priority=2, archived="L"),
    Column(
        "points",
        _("Points"),
        _count("points"),
        strong=True,
        archived="Pts",
        short=pgettext_lazy("points, on a phone", "Pts"),
    ),
    Column(
        "weeks_won",
        _("Weeks won"),
        _count("weeks_won"),
        archived="WW",
        short=pgettext_lazy("weeks won, on a phone", "WW"),
    ),
    Column("skunks", _("Skunks"), _count("skunks"), priority=2, archived="Sk"),
    Column("skunks_against", _("Skunked"), _count("skunks_against"), priority=3),
    Column("double_skunks", _("Double skunks"), _count("double_skunks"), priority=3),
    Column("spread", _("Spread"), _count("spread"), priority=2, archived="Spread"),
    Column(
        "pending",
        _("Unconfirmed"),
        _count("pending"),
        priority=3,
        help="Finished games waiting for a team to confirm them: not counted above.",
    ),
    Column(
        "disputed",
        _("Disputed"),
        _count("disputed"),
        priority=3,
        help="Games waiting for a judge's ruling: not counted above.",
    ),
    Column(
        "decided_by",
        _("Placed by"),
        lambda r: METRICS[r.decided_by].english,
        numeric=False,
        sortable=False,
        display=_placed_by,
        priority=2,
        nullable=True,
        help="What placed the team against those level with it, in English.",
    ),
    Column(
        "decided_by_key",
        _("Placed by"),
        lambda r: r.decided_by,
        numeric=False,
        shown=False,
        sortable=False,
        help="The key of that tie-break, as in the league's tiebreaks.",
    ),
)

ROW_KEYS = tuple(c.key for c in STANDINGS_ROW)
SHOWN = tuple(c for c in STANDINGS_ROW if c.shown)
SORT_KEYS = tuple(c.key for c in STANDINGS_ROW if c.sortable)
ARCHIVED = tuple(c for c in STANDINGS_ROW if c.archived)
# Part of every cache key and checked on stored snapshots: a deploy that changes the row never
# serves rows of the old shape.
ROW_SHAPE = hashlib.sha1(",".join(ROW_KEYS).encode()).hexdigest()[:8]


def standings_row(ranked: RankedTeam) -> dict[str, Any]:
    """The stored row of one ranked team, key for key the declaration."""
    return {column.key: column.value(ranked) for column in STANDINGS_ROW}


def valid_sort(sort: str) -> str:
    """``sort`` if it names a sortable column (``-`` for descending), else ``""`` (by rank).

    >>> valid_sort("-spread"), valid_sort("team"), valid_sort("-x<script>")
    ('-spread', 'team', '')
    """
    return sort if sort.removeprefix("-") in SORT_KEYS else ""
