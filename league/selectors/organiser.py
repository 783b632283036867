"""What the organiser's workspace shows: a season's set-up at a glance (rules in sentences,
players and their logins, teams, the schedule with byes) and the score sheets of a night."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Iterable
from typing import Any

from django.db.models import Count, Min, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league.kernel.audit import AuditAction
from league.models import (
    AuditEntry,
    Forfeit,
    Game,
    HeldInvitation,
    League,
    Match,
    Player,
    Season,
    Week,
)
from league.models.rules import Rules
from league.ranking import TIEBREAKS


def rules_sentences(rules: Rules) -> list[str]:
    """The rules of a season (or a league's defaults) as sentences an organiser checks."""
    sentences = [
        _("%(game)s: a game ends the moment a team reaches %(target)s.")
        % {"game": rules.get_variant_display(), "target": rules.target},
        ngettext(
            "A match is %(n)s game; a playoff match is the best of %(p)s.",
            "A match is %(n)s games; a playoff match is the best of %(p)s.",
            rules.games_per_match,
        )
        % {"n": rules.games_per_match, "p": rules.playoff_games_per_match},
        ngettext(
            "A win is worth %(n)s league point.",
            "A win is worth %(n)s league points.",
            rules.points_per_win,
        )
        % {"n": rules.points_per_win},
        ngettext(
            "A win by %(margin)s or more is a skunk, worth %(n)s more point.",
            "A win by %(margin)s or more is a skunk, worth %(n)s more points.",
            rules.skunk_bonus,
        )
        % {"margin": rules.skunk_margin, "n": rules.skunk_bonus},
    ]
    if rules.double_skunk_bonus:
        sentences.append(
            ngettext(
                "A win by %(margin)s or more is a double skunk, worth %(n)s more point again.",
                "A win by %(margin)s or more is a double skunk, worth %(n)s more points again.",
                rules.double_skunk_bonus,
            )
            % {"margin": rules.double_skunk_margin, "n": rules.double_skunk_bonus}
        )
    else:
        sentences.append(
            _("A win by %(margin)s or more is a double skunk, worth nothing more than a skunk.")
            % {"margin": rules.double_skunk_margin}
        )
    names = [_(str(TIEBREAKS[key].name)) for key in rules.tiebreaks if key in TIEBREAKS]
    if names:
        sentences.append(
            _("Teams level on league points are placed by %(chain)s.")
            % {"chain": _(", then ").join(names)}
        )
    sentences.append(
        _("A result counts once the other team confirms it.")
        if rules.requires_confirmation
        else _("A result counts as soon as it is entered.")
    )
    return sentences


def leagues_overview(*, today: dt.date | None = None) -> list[dict[str, Any]]:
    """Every league with its seasons, newest first, whether each has started and its state on
    ``today`` (draft, next season, running, finished)."""
    today = today or timezone.localdate()
    played = set(
        Game.objects.values_list("match__week__season_id", flat=True).distinct().order_by()
    )
    seasons = (
        Season.objects.shown()
        .annotate(
            team_count=Count("teams", distinct=True),
            week_count=Count("weeks", distinct=True),
            first_night_date=Min("weeks__date", filter=Q(weeks__is_playoff=False)),
        )
        .order_by("-id")
    )
    rows = []
    for league in League.objects.prefetch_related(Prefetch("seasons", queryset=seasons)):
        rows.append(
            {
                "league": league,
                "seasons": [
                    {"season": s, "started": s.pk in played, "state": s.state_on(today)}
                    for s in league.seasons.all()
                ],
            }
        )
    return rows


def invitations_sent(players: Iterable[Player]) -> dict[int, dt.datetime]:
    """When each player was last invited (player id -> time), from the audit trail."""
    ids = [str(p.pk) for p in players]
    rows = AuditEntry.objects.filter(
        action=AuditAction.INVITATION_SEND, object_type="Player", object_id__in=ids
    ).values_list("object_id", "at")
    last: dict[int, dt.datetime] = {}
    for object_id, at in rows:
        pk = int(object_id)
        if pk not in last or at > last[pk]:
            last[pk] = at
    return last


def invitations_held(season: Season) -> set[int]:
    """The players whose invitation is held until ``season`` (a draft) is published, by id."""
    return set(
        HeldInvitation.objects.filter(season=season, sent_at__isnull=True).values_list(
            "player_id", flat=True
        )
    )


def player_logins(
    players: list[Player], teams: dict[int, Any] | None = None, held: Collection[int] = ()
) -> list[dict[str, Any]]:
    """Each player with the state of their login (none, not invited, invited when, held
    until the season is published (``held``: player ids), joined) and their team from
    ``teams`` (player id -> team)."""
    sent = invitations_sent(players)
    rows = []
    for player in players:
        account = player.user
        if account is None:
            state = "none"
        elif account.has_usable_password():
            state = "joined"
        elif player.pk in held:
            state = "held"
        else:
            state = "invited" if player.pk in sent else "not_invited"
        rows.append(
            {
                "player": player,
                "state": state,
                "invited_at": sent.get(player.pk),
                "team": (teams or {}).get(player.pk),
            }
        )
    return rows


def league_players(season: Season) -> QuerySet[Player]:
    """The players an organiser of ``season`` works with: those who were ever on a team of its
    league, and those on no team yet anywhere (just added, not placed). Never another league's
    players (security review)."""
    return Player.objects.filter(
        Q(teams__season__league_id=season.league_id) | Q(teams__isnull=True)
    ).distinct()


def season_setup(season: Season) -> dict[str, Any]:
    """The season's set-up as it stands: teams, players free to form teams, the schedule by
    night with byes, and what can still change (a handful of queries)."""
    teams = list(
        season.teams.select_related("captain").prefetch_related("players").order_by("name")
    )
    on_team = {p.pk: t for t in teams for p in t.players.all()}
    players = list(league_players(season).select_related("user").order_by("name"))
    played_teams: set[int] = set()
    for home, away in (
        Game.objects.filter(match__week__season=season)
        .values_list("match__home_id", "match__away_id")
        .distinct()
    ):
        played_teams.update((home, away))
    weeks = list(
        season.weeks.select_related("venue")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.select_related("home", "away")
                .annotate(game_count=Count("games"))
                .prefetch_related(
                    Prefetch(
                        "forfeits",
                        queryset=Forfeit.objects.filter(undone_at__isnull=True).select_related(
                            "team"
                        ),
                        to_attr="standing_forfeits",
                    )
                )
                .order_by("table"),
            )
        )
        .order_by("number")
    )
    team_names = {t.pk: t.name for t in teams}
    schedule = []
    for week in weeks:
        matches = list(week.matches.all())
        playing = {m.home_id for m in matches} | {m.away_id for m in matches}
        byes = [] if week.is_playoff else [n for pk, n in team_names.items() if pk not in playing]
        schedule.append(
            {
                "week": week,
                "matches": matches,
                "byes": byes,
                "played": any(m.game_count for m in matches),  # type: ignore[attr-defined]
            }
        )
    started = bool(played_teams) or any(row["played"] for row in schedule)
    return {
        "season": season,
        "teams": [{"team": t, "played": t.pk in played_teams} for t in teams],
        "players": players,
        "free_players": [p for p in players if p.pk not in on_team],
        "on_team": on_team,
        "schedule": schedule,
        "started": started,
        "has_schedule": bool(weeks),
        "rules": rules_sentences(season),
    }


def sheet_rows(target: int) -> int:
    """Rows to print for one game's deals: enough for a long game (a game to 121 rarely
    takes more than 12 deals at four players)."""
    return max(10, min(18, target // 9 + 1))


def week_sheets(week: Week) -> list[dict[str, Any]]:
    """One score sheet per table and game of ``week``: the teams, the seats as they are usually
    taken (home, away, home, away clockwise: partners opposite), the counting order and the
    number of rows to print."""
    season = week.season
    variant = season.game_variant
    matches = list(
        week.matches.select_related("home", "away")
        .prefetch_related(
            Prefetch("home__players", queryset=Player.objects.order_by("name")),
            Prefetch("away__players", queryset=Player.objects.order_by("name")),
        )
        .order_by("table")
    )
    if variant.players == 2:
        counting = [_("Pone"), _("Dealer")]
    else:
        counting = [
            _("1 · dealer's left"),
            *[str(n) for n in range(2, variant.players)],
            _("%(n)s · dealer") % {"n": variant.players},
        ]
    sheets = []
    for match in matches:
        home = list(match.home.players.all())
        away = list(match.away.players.all())
        seats = []
        for seat in range(variant.players):
            team, players = (match.home, home) if seat % 2 == 0 else (match.away, away)
            index = seat // 2
            seats.append(
                {
                    "number": seat + 1,
                    "team": team,
                    "player": players[index] if index < len(players) else None,
                }
            )
        for number in range(1, season.games_per_match + 1):
            sheets.append(
                {
                    "match": match,
                    "game": number,
                    "seats": seats,
                    "rows": range(1, sheet_rows(season.target) + 1),
                    "counting": counting,
                }
            )
    return sheets
