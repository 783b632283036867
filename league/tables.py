"""django-tables2 tables: sortable, exportable to CSV."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    team = tables.Column(verbose_name=_("Team"))
    played = tables.Column(verbose_name=_("Played"), attrs={"td": {"class": "num"}})
    won = tables.Column(verbose_name=_("Won"), attrs={"td": {"class": "num"}})
    lost = tables.Column(verbose_name=_("Lost"), attrs={"td": {"class": "num"}})
    points = tables.Column(verbose_name=_("Points"), attrs={"td": {"class": "num"}})
    weeks_won = tables.Column(verbose_name=_("Weeks won"), attrs={"td": {"class": "num"}})
    skunks = tables.Column(verbose_name=_("Skunks"), attrs={"td": {"class": "num"}})
    skunks_against = tables.Column(verbose_name=_("Skunked"), attrs={"td": {"class": "num"}})
    double_skunks = tables.Column(verbose_name=_("Double skunks"), attrs={"td": {"class": "num"}})
    spread = tables.Column(verbose_name=_("Spread"), attrs={"td": {"class": "num"}})
    decided_by = tables.Column(verbose_name=_("Placed by"), orderable=False)

    class Meta:
        attrs = {"class": "standings"}
        template_name = "django_tables2/table.html"
        orderable = True
