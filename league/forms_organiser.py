"""Forms of the organiser's workspace. They only read what was typed, pasted or uploaded; the
services decide what is allowed and say why not."""

from __future__ import annotations

import codecs
import datetime as dt
import io
import re
import zipfile
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.db.models import Field
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.models import League, Match, Player, Season, Venue, Week
from league.models.rules import LEAGUE_VARIANTS, NUMBER_RULES, RULE_FIELDS
from league.ranking import TIEBREAKS
from league.rules_reference import IRREGULARITIES
from league.services.people import PlayerLine
from league.services.seasons import WEEKDAYS

UPLOAD_LIMIT = 2 * 1024 * 1024  # bytes: a roster is a few kilobytes
LINES_LIMIT = 500  # players or teams in one paste
# An .xlsx is a zip: a roster unzips to well under a megabyte, a zip bomb to gigabytes. Its
# uncompressed size is read from the zip's directory before anything is inflated.
XLSX_UNZIPPED_LIMIT = 20 * 1024 * 1024
XLSX_MEMBERS_LIMIT = 200


class SeasonForm(forms.Form):
    league = forms.ModelChoiceField(
        League.objects.all(), label=gettext_lazy("League"), empty_label=None
    )
    name = forms.CharField(
        label=gettext_lazy("Season name"),
        max_length=120,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. Spring 2027")}),
    )


class RulesForm(forms.Form):
    """A season's rules, as the season's fields label them; tie-breaks as an ordered list."""

    TIEBREAK_SLOTS = 4

    def __init__(self, *args: Any, season: Season, started: bool, **kwargs: Any) -> None:
        initial = {name: getattr(season, name) for name in RULE_FIELDS if name != "tiebreaks"}
        initial["irregularities"] = list(season.irregularities)
        for i, key in enumerate(season.tiebreaks[: self.TIEBREAK_SLOTS]):
            initial[f"tiebreak_{i}"] = key
        super().__init__(*args, initial=initial, **kwargs)  # type: ignore[misc]  # args: data, files
        self.season = season
        meta = Season._meta
        self.fields["variant"] = forms.ChoiceField(
            label=meta.get_field("variant").verbose_name, choices=LEAGUE_VARIANTS
        )
        for name in NUMBER_RULES:
            f = meta.get_field(name)
            assert isinstance(f, Field)  # the rules are the season's own columns
            self.fields[name] = forms.IntegerField(
                label=f.verbose_name, help_text=f.help_text, min_value=0, max_value=999
            )
        choices = [("", "—")] + [(key, _(str(tb.name))) for key, tb in TIEBREAKS.items()]
        for i in range(self.TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": i + 1}, choices=choices, required=False
            )
        self.fields["requires_confirmation"] = forms.BooleanField(
            label=meta.get_field("requires_confirmation").verbose_name, required=False
        )
        self.fields["irregularities"] = forms.MultipleChoiceField(
            label=meta.get_field("irregularities").verbose_name,
            help_text=meta.get_field("irregularities").help_text,
            choices=[(rule.id, f"{rule.id} {rule.title}") for rule in IRREGULARITIES],
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )
        self.fields["publish_rulings"] = forms.BooleanField(
            label=meta.get_field("publish_rulings").verbose_name,
            help_text=meta.get_field("publish_rulings").help_text,
            required=False,
        )
        if started:
            self.fields["reason"] = forms.CharField(
                label=_("Why do the rules of a season under way change?"),
                widget=forms.Textarea(attrs={"rows": 2}),
                max_length=1000,
            )

    def changes(self) -> dict[str, Any]:
        """The settings that differ from the season's."""
        data = self.cleaned_data
        values = {name: data[name] for name in RULE_FIELDS if name != "tiebreaks"}
        chain: list[str] = []
        for i in range(self.TIEBREAK_SLOTS):
            key = data.get(f"tiebreak_{i}")
            if key and key not in chain:
                chain.append(key)
        values["tiebreaks"] = chain
        order = [rule.id for rule in IRREGULARITIES]
        values["irregularities"] = sorted(values["irregularities"], key=order.index)
        return {k: v for k, v in values.items() if getattr(self.season, k) != v}


def _split_player_line(text: str) -> tuple[str, str]:
    """ "Ann Smith, ann@example.org", "Ann Smith<TAB>ann@...", "Ann Smith <ann@...>": the part
    with an @ is the email, the rest the name."""
    text = text.strip()
    angle = re.match(r"^(.*?)<([^>]*)>\s*$", text)
    if angle:
        return angle.group(1).strip(" ,;\t\"'"), angle.group(2).strip()
    parts = [p.strip(" \"'") for p in re.split(r"[\t,;]", text)]
    emails = [p for p in parts if "@" in p]
    names = [p for p in parts if p and "@" not in p]
    return " ".join(names), (emails[0] if emails else "")


HEADER_NAMES = {"name", "nom", "player", "joueur", "joueuse", "full name"}
HEADER_EMAILS = {"email", "e-mail", "mail", "courriel", "adresse électronique"}


def lines_from_text(text: str) -> list[PlayerLine]:
    """Players pasted one a line (from a spreadsheet, an email, a list typed by hand)."""
    lines: list[PlayerLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        fields = {p.strip().lower() for p in re.split(r"[\t,;]", raw)} - {""}
        if not lines and fields <= HEADER_NAMES | HEADER_EMAILS:
            continue  # a heading row copied with the list
        name, email = _split_player_line(raw)
        lines.append(PlayerLine(name=name, email=email, line=number))
    return lines


def csv_text(content: bytes) -> str:
    """A CSV file's text, however a spreadsheet saved it: UTF-8 (with or without Excel's
    byte-order mark), UTF-16 with its mark (Excel's "Unicode text"), else Windows-1252 (Excel's
    plain "CSV" on Windows). UTF-16 without a mark reads as text full of NULs, refused after.

    >>> csv_text(codecs.BOM_UTF16_LE + "Zoë,z@x.org".encode("utf-16-le"))
    'Zoë,z@x.org'
    >>> csv_text("Zoë".encode("cp1252")), csv_text("Zoë".encode("utf-8-sig"))
    ('Zoë', 'Zoë')
    """
    if content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return content.decode("utf-16", errors="replace")
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("cp1252", errors="replace")


def check_xlsx_size(content: bytes) -> None:
    """Refuse, in words, an .xlsx whose parts would unzip past ``XLSX_UNZIPPED_LIMIT`` (or
    that holds more parts than a workbook does), before any of it is inflated (security review, L12:
    a 558 KB file unzipping to 190 MB held a worker until gunicorn killed it)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        raise forms.ValidationError(
            _("This file could not be read as a spreadsheet: save it again as CSV or .xlsx.")
        ) from None
    unzipped = sum(max(0, m.file_size) for m in members)
    if len(members) > XLSX_MEMBERS_LIMIT or unzipped > XLSX_UNZIPPED_LIMIT:
        raise forms.ValidationError(
            _(
                "This spreadsheet is far too big once opened (%(size)s MB) for a list of "
                "players: save just the names and emails as CSV or a new .xlsx."
            )
            % {"size": unzipped // (1024 * 1024)}
        )


def lines_from_file(upload: UploadedFile) -> list[PlayerLine]:
    """Players from a CSV or XLSX file: a column of names and one of emails (found by their
    headings, else the first two columns). Read with tablib."""
    import tablib

    name = (getattr(upload, "name", "") or "").lower()
    content = upload.read(UPLOAD_LIMIT + 1)
    if len(content) > UPLOAD_LIMIT:
        raise forms.ValidationError(_("This file is too big for a list of players (2 MB at most)."))
    data = tablib.Dataset()
    try:
        if name.endswith((".xlsx", ".xlsm")):
            check_xlsx_size(content)
            data.load(io.BytesIO(content), format="xlsx", headers=False)
        elif name.endswith((".csv", ".txt")):
            data.load(csv_text(content), format="csv", headers=False)
        else:
            raise forms.ValidationError(
                _("Upload a spreadsheet saved as CSV or Excel (.xlsx): “%(name)s” is neither.")
                % {"name": getattr(upload, "name", "")}
            )
    except forms.ValidationError:
        raise
    except Exception:
        raise forms.ValidationError(
            _("This file could not be read as a spreadsheet: save it again as CSV or .xlsx.")
        ) from None
    rows = [["" if c is None else str(c).strip() for c in row] for row in data]
    for number, row in enumerate(rows, start=1):
        if any("\x00" in cell for cell in row):
            raise forms.ValidationError(
                _(
                    "Line %(line)s of this file holds a NUL character, which cannot be stored: "
                    "save it again as CSV UTF-8 or .xlsx."
                )
                % {"line": number}
            )
    if not rows:
        return []
    name_col, email_col, start = 0, 1, 0
    head = [c.lower() for c in rows[0]]
    if any(h in HEADER_NAMES for h in head) or any(h in HEADER_EMAILS for h in head):
        start = 1
        name_col = next((i for i, h in enumerate(head) if h in HEADER_NAMES), 0)
        email_col = next((i for i, h in enumerate(head) if h in HEADER_EMAILS), -1)
    lines = []
    for number, row in enumerate(rows[start:], start=start + 1):
        if not any(row):
            continue
        player = row[name_col] if name_col < len(row) else ""
        email = row[email_col] if 0 <= email_col < len(row) else ""
        if "@" in player and not email:
            player, email = email, player
        lines.append(PlayerLine(name=player, email=email, line=number))
    return lines


class PlayerForm(forms.Form):
    """One player by hand."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    email = forms.CharField(
        label=gettext_lazy("Email (for their login)"), max_length=254, required=False
    )
    invite = forms.BooleanField(
        label=gettext_lazy("Email the invitation now"), required=False, initial=True
    )

    def lines(self) -> list[PlayerLine]:
        return [PlayerLine(name=self.cleaned_data["name"], email=self.cleaned_data["email"])]


class PlayersPasteForm(forms.Form):
    names = forms.CharField(
        label=gettext_lazy("Players, one a line: name, then email"),
        widget=forms.Textarea(
            attrs={
                "rows": 8,
                "placeholder": gettext_lazy(
                    "Ann Smith, ann@example.org\nBob Jones, bob@example.org"
                ),
            }
        ),
        max_length=60_000,
    )
    invite = forms.BooleanField(
        label=gettext_lazy("Email the invitations now"), required=False, initial=True
    )

    def lines(self) -> list[PlayerLine]:
        lines = lines_from_text(self.cleaned_data["names"])
        if len(lines) > LINES_LIMIT:
            raise forms.ValidationError(_("Add at most 500 players at a time."))
        return lines


class PlayersUploadForm(forms.Form):
    sheet = forms.FileField(label=gettext_lazy("Or upload a spreadsheet (CSV or .xlsx)"))
    invite = forms.BooleanField(
        label=gettext_lazy("Email the invitations now"), required=False, initial=True
    )

    def lines(self) -> list[PlayerLine]:
        lines = lines_from_file(self.cleaned_data["sheet"])
        if len(lines) > LINES_LIMIT:
            raise forms.ValidationError(_("Add at most 500 players at a time."))
        return lines


class TeamForm(forms.Form):
    """A team by hand: its name, its captain and the captain's partner. Players already on a
    team are listed too (apart), so the refusal says who and where."""

    name = forms.CharField(label=gettext_lazy("Team name"), max_length=120)

    def __init__(
        self, *args: Any, season: Season, free: list[Player], taken: list[Player], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        variant = season.game_variant
        self.size = variant.players // variant.sides
        choices: list[tuple[Any, Any]] = [("", "—")]
        if free:
            choices.append((_("Not on a team yet"), [(p.pk, p.name) for p in free]))
        if taken:
            choices.append((_("Already on a team"), [(p.pk, p.name) for p in taken]))
        labels = [_("Captain")] + [_("Partner")] * (self.size - 1)
        for i, label in enumerate(labels):
            self.fields[f"player_{i}"] = forms.TypedChoiceField(
                label=label if self.size > 1 else _("Player"), choices=choices, coerce=int
            )

    def player_ids(self) -> list[int]:
        return [self.cleaned_data[f"player_{i}"] for i in range(self.size)]


class TeamsPasteForm(forms.Form):
    teams = forms.CharField(
        label=gettext_lazy("Teams, one a line: team name, captain, partner"),
        widget=forms.Textarea(
            attrs={"rows": 8, "placeholder": gettext_lazy("Fifteen Two, Ann Smith, Bob Jones")}
        ),
        max_length=60_000,
    )

    def rows(self) -> list[tuple[int, str, list[str]]]:
        """(line number, team name, player names) for each line that has something."""
        rows = []
        for number, raw in enumerate(self.cleaned_data["teams"].splitlines(), start=1):
            if not raw.strip():
                continue
            parts = [p.strip() for p in re.split(r"[\t,;:]|\s+&\s+", raw)]
            parts = [p for p in parts if p]
            rows.append((number, parts[0] if parts else "", parts[1:]))
        if len(rows) > LINES_LIMIT:
            raise forms.ValidationError(_("Add at most 500 teams at a time."))
        return rows


def parse_dates(text: str) -> list[dt.date]:
    """Dates one a line, or separated by commas or semicolons, in ISO form (2026-11-26) or as
    the language of the page writes them."""
    field = forms.DateField()
    dates: list[dt.date] = []
    for chunk in re.split(r"[\n;]", text or ""):
        chunk = chunk.strip()
        if not chunk:
            continue
        try:
            day = field.to_python(chunk)
            assert day is not None  # None only for an empty chunk
            dates.append(day)
            continue
        except forms.ValidationError:
            pass
        for token in chunk.split(","):
            token = token.strip()
            if not token:
                continue
            try:
                day = field.to_python(token)
                assert day is not None  # None only for an empty token
                dates.append(day)
            except forms.ValidationError:
                raise forms.ValidationError(
                    _("“%(text)s” is not a date: write dates like 2026-11-26, one a line.")
                    % {"text": token}
                ) from None
    return dates


class ScheduleForm(forms.Form):
    start = forms.DateField(
        label=gettext_lazy("First night"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    weekday = forms.TypedChoiceField(
        label=gettext_lazy("Night of the week"),
        choices=[("", gettext_lazy("the first night's"))]
        + [(str(i), d) for i, d in enumerate(WEEKDAYS)],
        coerce=int,
        required=False,
        empty_value=None,
    )
    skip = forms.CharField(
        label=gettext_lazy("Nights to skip (holidays), one a line"),
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "2026-11-26"}),
        required=False,
        max_length=2000,
    )
    weeks = forms.IntegerField(
        label=gettext_lazy("Weeks"),
        help_text=gettext_lazy("Leave empty to have every team meet every other once."),
        required=False,
        min_value=1,
        max_value=99,
    )
    venue = forms.ModelChoiceField(
        Venue.objects.all(),
        label=gettext_lazy("Venue"),
        required=False,
        empty_label=gettext_lazy("— none or new —"),
    )
    new_venue = forms.CharField(
        label=gettext_lazy("Or a new venue"), max_length=120, required=False
    )
    tables = forms.IntegerField(
        label=gettext_lazy("Tables at the venue"), required=False, min_value=1, max_value=999
    )

    def clean_skip(self) -> list[dt.date]:
        return parse_dates(self.cleaned_data.get("skip") or "")


class MoveMatchForm(forms.Form):
    week = forms.ModelChoiceField(
        Week.objects.none(),
        label=gettext_lazy("Move to"),
        required=False,
        empty_label=gettext_lazy("— a new night —"),
    )
    date = forms.DateField(
        label=gettext_lazy("New night's date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    reason = forms.CharField(
        label=gettext_lazy("Why (needed once a game is played)"), max_length=1000, required=False
    )

    def __init__(self, *args: Any, match: Match, weeks: list[Week] | None, **kwargs: Any) -> None:
        """``weeks``: the season's weeks when already fetched (a page of many matches)."""
        super().__init__(*args, **kwargs)
        field = self.fields["week"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Week.objects.filter(season_id=match.week.season_id).exclude(
            pk=match.week_id
        )
        field.label_from_instance = _week_label  # type: ignore[method-assign,assignment]  # per field
        if weeks is not None:  # drawn from the weeks in hand: no query per match
            field.choices = [("", field.empty_label)] + [
                (w.pk, _week_label(w)) for w in weeks if w.pk != match.week_id
            ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean() returns cleaned_data
        if not data.get("week") and not data.get("date"):
            raise forms.ValidationError(
                _("Choose the night the match moves to, or give a new date.")
            )
        return data


def _week_label(week: Week) -> str:
    from django.utils.formats import date_format

    when = date_format(week.date, "DATE_FORMAT") if week.date else _("no date")
    return _("Week %(n)s, %(date)s") % {"n": week.number, "date": when}


class SeasonOpsForm(forms.Form):
    """The season's night settings (``league.services.season_ops``): what a forfeit is worth,
    and when results nobody confirmed close. Labelled as the season's fields are."""

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        from league.services.season_ops import BOOL_FIELDS, OPS_FIELDS

        initial = {name: getattr(season, name) for name in OPS_FIELDS}
        super().__init__(*args, initial=initial, **kwargs)  # type: ignore[misc]  # args: data
        self.season = season
        meta = Season._meta
        for name in OPS_FIELDS:
            f = meta.get_field(name)
            assert isinstance(f, Field)
            if name in BOOL_FIELDS:
                self.fields[name] = forms.BooleanField(
                    label=f.verbose_name, help_text=f.help_text, required=False
                )
            else:
                self.fields[name] = forms.IntegerField(
                    label=f.verbose_name,
                    help_text=f.help_text,
                    min_value=0,
                    max_value=9999,
                    required=False,
                )

    def changes(self) -> dict[str, Any]:
        return {k: v for k, v in self.cleaned_data.items() if getattr(self.season, k) != v}
