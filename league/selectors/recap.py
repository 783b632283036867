"""The week's story: a league night told from its results (``league.kernel.recap`` says it in
each language). Information only: nothing here is read by the standings, seeding or results.

- **Results**: each match of the week, the games each team won (confirmed games only).
- **Upsets**: a confirmed game whose winner's chance from the board (``league.selectors.
  winprob``, the game's swing) was under ``UPSET_BELOW`` (30%) at some point of the game, the
  start included: the lowest chance and after which deal. Two-sided games with deals only.
- **Special hands**: the 24, 28 and 29 hands and fours of a kind (``contest.special_hands``) of
  the deals entered with their cards.
- **Skunks** and double skunks of the confirmed games.
- **The standings**: each team's place counting the weeks up to this one beside its place up
  to the week before (regular-season weeks by number, the season's own tie-breaks), the teams
  that moved.

:func:`week_recap` reads six queries once the week is read (``recap_week``), whatever the
week's size (pinned by ``tests/league/test_recap.py``).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from django.db.models import Count, Max, Q
from django.utils.translation import gettext_noop

from contest.special_hands import special_hands
from league.kernel.recap import UPSET_BELOW, Hand, MatchLine, Move, Recap, Skunk, Upset
from league.models import Deal, Game, GameSeat, GameStatus, Match, Season, Week
from league.models.games import AWAITING_STATUSES
from league.ranking import rank_teams
from league.selectors.standings import records_through
from league.selectors.winprob import game_swing, modelled
from scoring.variants import VARIANTS


def recap_week(week_id: int) -> Week:
    """The week with its season and league (raises ``Week.DoesNotExist``)."""
    return Week.objects.select_related("season__league").get(pk=week_id)


def week_recap(week: Week) -> Recap:
    """The story of ``week`` (read with its season and league: ``recap_week``)."""
    season = week.season
    matches = list(
        Match.objects.filter(week=week).select_related("home", "away").order_by("table", "pk")
    )
    games = list(
        Game.objects.filter(match__week=week)
        .exclude(status=GameStatus.VOID)
        .select_related("match__home", "match__away")
        .order_by("match__table", "match_id", "number")
    )
    confirmed = [g for g in games if g.status == GameStatus.CONFIRMED]
    played = [g for g in confirmed if g.forfeit_id is None]
    deals: dict[int, list[Deal]] = defaultdict(list)
    for deal in Deal.objects.filter(
        game__in=[g.pk for g in played], is_current=True, is_rival=False
    ).order_by("game_id", "number"):
        deals[deal.game_id].append(deal)
    seats: dict[int, dict[int, str]] = defaultdict(dict)
    for game_id, seat, name in GameSeat.objects.filter(game__in=[g.pk for g in played]).values_list(
        "game_id", "seat", "player__name"
    ):
        seats[game_id][seat] = name

    return Recap(
        title=gettext_noop("%(league)s, %(season)s: week %(number)s"),
        params={
            "league": season.league.name,
            "season": season.name,
            "number": week.number,
        },
        when=week.date,
        over=_week_over(week, matches, confirmed),
        matches=_match_lines(matches, confirmed, season.games_per_match),
        upsets=_upsets(played, deals, variant=season.variant, target=season.target),
        hands=_hands(played, deals, seats, variant=season.variant),
        skunks=[
            Skunk(*_sides(g), margin=g.margin or 0, double=g.is_double_skunk)
            for g in played
            if g.is_skunk and g.winner_id is not None
        ],
        moves=[] if week.is_playoff else _moves(week),
        waiting=sum(1 for g in games if g.status in AWAITING_STATUSES),
        disputed=sum(1 for g in games if g.status == GameStatus.DISPUTED),
    )


def weeks_over(season: Season) -> dict[int, datetime]:
    """The season's regular weeks whose every match is over (as ``Recap.over`` says), each
    with when its last game was confirmed: one query."""
    rows = (
        Match.objects.filter(week__season=season, week__is_playoff=False)
        .annotate(
            counted=Count("games", filter=Q(games__status=GameStatus.CONFIRMED)),
            forfeited=Count(
                "games",
                filter=Q(games__status=GameStatus.CONFIRMED, games__forfeit__isnull=False),
            ),
            last=Max("games__confirmed_at", filter=Q(games__status=GameStatus.CONFIRMED)),
        )
        .values_list("week_id", "week__cancelled_reason", "counted", "forfeited", "last")
        .order_by()
    )
    over: dict[int, datetime] = {}
    not_over: set[int] = set()
    for week_id, cancelled, counted, forfeited, last in rows:
        if cancelled or not (forfeited or counted >= season.games_per_match) or last is None:
            not_over.add(week_id)
        elif week_id not in over or last > over[week_id]:
            over[week_id] = last
    return {pk: last for pk, last in over.items() if pk not in not_over}


def _match_over(match: Match, games: list[Game], games_per_match: int) -> bool:
    mine = [g for g in games if g.match_id == match.pk]
    return any(g.forfeit_id is not None for g in mine) or len(mine) >= games_per_match


def _week_over(week: Week, matches: list[Match], confirmed: list[Game]) -> bool:
    """Every match of the week is over: all its games confirmed (or closed), or forfeited. A
    cancelled night, or one with no match, is never over."""
    if week.cancelled_reason or not matches:
        return False
    return all(_match_over(m, confirmed, week.season.games_per_match) for m in matches)


def _match_lines(matches: list[Match], confirmed: list[Game], per_match: int) -> list[MatchLine]:
    lines = []
    for match in matches:
        mine = [g for g in confirmed if g.match_id == match.pk]
        if not mine:
            continue
        lines.append(
            MatchLine(
                home=match.home.name,
                away=match.away.name,
                home_won=sum(1 for g in mine if g.winner_id == match.home_id),
                away_won=sum(1 for g in mine if g.winner_id == match.away_id),
                over=_match_over(match, confirmed, per_match),
                # A forfeited game's loser is the team that forfeited.
                forfeited_by=next(
                    (
                        match.away.name if g.winner_id == match.home_id else match.home.name
                        for g in mine
                        if g.forfeit_id is not None
                    ),
                    "",
                ),
            )
        )
    return lines


def _sides(game: Game) -> tuple[str, str]:
    """``(winner, loser)`` names."""
    home, away = game.match.home.name, game.match.away.name
    return (home, away) if game.winner_id == game.match.home_id else (away, home)


def _upsets(
    played: list[Game], deals: dict[int, list[Deal]], *, variant: str, target: int
) -> list[Upset]:
    if not modelled(variant):
        return []
    found = []
    for game in played:
        if game.winner_id is None or not deals.get(game.pk):
            continue
        swing = game_swing(game, deals[game.pk], variant=variant, target=target)
        home_won = game.winner_id == game.match.home_id
        # The winner's chance before each deal (the last point is the game won: 100%).
        chances = [(c.home if home_won else c.away, c.deal) for c in swing[:-1]]
        if not chances:
            continue
        chance, deal = min(chances)
        if chance < UPSET_BELOW:
            winner, loser = _sides(game)
            found.append(Upset(winner, loser, game.number, chance, deal))
    return sorted(found, key=lambda u: u.chance)


def _hands(
    played: list[Game],
    deals: dict[int, list[Deal]],
    seats: dict[int, dict[int, str]],
    *,
    variant: str,
) -> list[Hand]:
    v = VARIANTS[variant]
    found = []
    for game in played:
        rows = deals.get(game.pk, [])
        shaped = [{"dealer": d.dealer, "starter": d.starter, "cards": d.cards} for d in rows]
        for hand in special_hands(shaped):
            deal = rows[hand.deal - 1]
            side = v.side_of(hand.seat)
            team = game.match.home if side == game.home_side else game.match.away
            cards = (deal.cards or {})["crib" if hand.crib else str(hand.seat)]
            found.append(
                Hand(
                    player=seats.get(game.pk, {}).get(hand.seat, team.name),
                    team=team.name,
                    points=hand.points,
                    kinds=hand.kinds,
                    crib=hand.crib,
                    cards=tuple(cards),
                    starter=deal.starter,
                )
            )
    return sorted(found, key=lambda h: -h.points)


def _moves(week: Week) -> list[Move]:
    """The teams whose place after this week differs from their place after the week
    before (none in the first week: there was no table before it)."""
    season = week.season
    numbers = dict(Week.objects.filter(season=season, is_playoff=False).values_list("pk", "number"))
    before = {pk for pk, n in numbers.items() if n < week.number}
    if not before:
        return []
    through = before | {pk for pk, n in numbers.items() if n == week.number}
    then, now = (
        {
            row.record.team_id: (row.rank, row.record.name)
            for row in rank_teams(records, tiebreaks=season.tiebreaks, draw_seed=season.draw_seed)[
                0
            ]
        }
        for records in records_through(season, [before, through])
    )
    moves = [
        Move(team=name, place=place, was=then[team][0])
        for team, (place, name) in now.items()
        if team in then and then[team][0] != place
    ]
    return sorted(moves, key=lambda m: (-m.by, m.place, m.team))
