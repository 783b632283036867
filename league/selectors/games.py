"""Reading a game deal by deal: a stored deal in the one deal shape, running totals, names,
and the scorer's breakdowns."""

from __future__ import annotations

from typing import Any

from contest.luck import show_percentile
from league.kernel import stored_texts
from league.kernel.scoring_messages import show_sentences
from league.kernel.stored_texts import RIVAL_ENTRIES
from league.models import Deal, Game
from scoring.cards import Card
from scoring.show import score_show


def stored_deal(deal: Deal) -> dict[str, Any]:
    """A stored deal in the one deal shape (what ``normalise`` makes of a submitted deal)."""
    return {
        "dealer": deal.dealer,
        "starter": deal.starter or None,
        "heels": deal.heels,
        "pegging": deal.pegging,
        "shows": deal.shows,
        "crib": deal.crib,
        "cards": deal.cards,
    }


def game_detail(game: Game) -> dict[str, Any]:
    """Everything a judge or a player reads about a game, in a few queries."""
    game = (
        Game.objects.select_related(
            "match__week__season__league",
            "match__home",
            "match__away",
            "winner",
            "entered_by",
            "confirmed_by",
        )
        .prefetch_related("seats__player")
        .get(pk=game.pk)
    )
    variant = game.match.week.season.game_variant
    seats = {s.seat: s.player.name for s in game.seats.all()}
    side_team = {game.home_side: game.match.home.name, 1 - game.home_side: game.match.away.name}
    deals = list(
        Deal.objects.filter(game=game).select_related("entered_by").order_by("number", "version")
    )
    current = [d for d in deals if d.is_current]
    history: dict[int, list[Deal]] = {}
    for d in deals:
        if not d.is_current and not d.is_rival:
            history.setdefault(d.number, []).append(d)
    target = game.match.week.season.target
    rows = [_row(d, variant, seats, side_team, history.get(d.number, []), target) for d in current]
    return {
        "game": game,
        "seats": [seats[s] for s in sorted(seats)],
        "home": game.match.home.name,
        "away": game.match.away.name,
        "deals": rows,
        "deal_rows": current,
        "entered_by": game.entered_by.get_username() if game.entered_by else None,
        "confirmed_by": game.confirmed_by.get_username() if game.confirmed_by else None,
    }


def _row(
    d: Deal,
    variant: Any,
    seats: dict[int, str],
    side_team: dict[int, str],
    earlier: list[Deal],
    target: int,
) -> dict[str, Any]:
    """One deal as the pages show it: names for seats and teams, the scorer's counts, the
    running totals at most the game hole (``target``)."""
    home_after, away_after = d.after_at_hole(target)
    order = variant.show_order(d.dealer)
    shows = [
        {
            "seat": s,
            "player": seats.get(s, f"seat {s}"),
            "points": d.shows[str(s)],
            "breakdown": _breakdown(d, s),
            # information only: where the show stands among every hand and starter
            "percentile": round(show_percentile(d.shows[str(s)], hand_size=variant.hand_size)),
        }
        for s in order
        if str(s) in d.shows
    ]
    return {
        "number": d.number,
        "version": d.version,
        "dealer": seats.get(d.dealer, f"seat {d.dealer}"),
        "starter": d.starter,
        "heels": d.heels,
        "pegging": {side_team[i]: p for i, p in enumerate(d.pegging)},
        "shows": shows,
        "crib": d.crib,
        "crib_breakdown": _breakdown(d, "crib"),
        "crib_percentile": None
        if d.crib is None
        else round(show_percentile(d.crib, hand_size=variant.crib_size, crib=True)),
        "home_after": home_after,
        "away_after": away_after,
        "entered_by": d.entered_by.get_username() if d.entered_by else None,
        "entered_at": d.created_at,
        "reason": d.reason_text,
        "earlier_versions": [
            {
                "version": h.version,
                "shows": h.shows,
                "pegging": h.pegging,
                "crib": h.crib,
                "entered_by": h.entered_by.get_username() if h.entered_by else None,
            }
            for h in earlier
        ],
    }


def pending_rivals(game: Game) -> list[dict[str, Any]]:
    """Each unsettled rival entry beside the stored version of its deal, with a claim written
    for the dispute a tap raises ("Deal 5 was entered twice: ...")."""
    rivals = list(
        Deal.objects.filter(game=game, is_rival=True, settled_at__isnull=True)
        .select_related("entered_by")
        .order_by("number", "version")
    )
    if not rivals:
        return []
    variant = game.match.week.season.game_variant
    seats = {s.seat: s.player.name for s in game.seats.select_related("player")}
    side_team = {game.home_side: game.match.home.name, 1 - game.home_side: game.match.away.name}
    current = {
        d.number: d
        for d in Deal.objects.filter(
            game=game, is_current=True, number__in=[r.number for r in rivals]
        ).select_related("entered_by")
    }
    target = game.match.week.season.target
    out = []
    for rival in rivals:
        stored = current[rival.number]
        stored_row = _row(stored, variant, seats, side_team, [], target)
        rival_row = _row(rival, variant, seats, side_team, [], target)
        claim = stored_texts.render(
            RIVAL_ENTRIES, _claim_params(rival.number, stored_row, rival_row)
        )
        out.append(
            {
                "rival": rival,
                "stored": stored_row,
                "other": rival_row,
                "claim": claim,
                "differs": _differences(stored, rival, side_team, seats),
            }
        )
    return out


def _differences(
    a: Deal, b: Deal, side_team: dict[int, str], seats: dict[int, str]
) -> dict[str, Any]:
    """What two versions of a deal do not agree on, as the deal summary names it: the dealer,
    the starter, each team's pegging, each player's show, the crib."""
    pegging = [
        side_team[i]
        for i in range(max(len(a.pegging), len(b.pegging)))
        if i in side_team and _at(a.pegging, i) != _at(b.pegging, i)
    ]
    shows = [
        seats.get(int(s), f"seat {s}")
        for s in sorted(set(a.shows) | set(b.shows))
        if a.shows.get(s) != b.shows.get(s)
    ]
    return {
        "dealer": a.dealer != b.dealer,
        "starter": (a.starter or "", a.heels) != (b.starter or "", b.heels),
        "pegging": pegging,
        "shows": shows,
        "crib": a.crib != b.crib,
    }


def _at(values: list[int], i: int) -> int | None:
    return values[i] if i < len(values) else None


def _claim_params(n: int, stored_row: dict[str, Any], rival_row: dict[str, Any]) -> dict[str, Any]:
    """The parameters of the ``rival_entries`` text: who entered what, as data."""

    def parts(row: dict[str, Any]) -> list[Any]:
        shows = [(s["player"], s["points"]) for s in row["shows"]]
        return stored_texts.deal_parts(row["pegging"], shows, row["crib"])

    return {
        "n": n,
        "a": stored_row["entered_by"] or "?",
        "x": parts(stored_row),
        "b": rival_row["entered_by"] or "?",
        "y": parts(rival_row),
    }


def rival_claim(rival: Deal) -> tuple[str, dict[str, Any]]:
    """The stored text (code, parameters) of a dispute raised about ``rival``: "Deal n was
    entered twice: ..." with the version that counts now and the rival one."""
    game = rival.game
    variant = game.match.week.season.game_variant
    seats = {s.seat: s.player.name for s in game.seats.select_related("player")}
    side_team = {game.home_side: game.match.home.name, 1 - game.home_side: game.match.away.name}
    stored = Deal.objects.select_related("entered_by").get(
        game=game, number=rival.number, is_current=True
    )
    target = game.match.week.season.target
    stored_row = _row(stored, variant, seats, side_team, [], target)
    rival_row = _row(rival, variant, seats, side_team, [], target)
    return RIVAL_ENTRIES, _claim_params(rival.number, stored_row, rival_row)


def _breakdown(deal: Deal, who: int | str) -> list[str] | None:
    if not deal.cards or not deal.starter:
        return None
    cards = deal.cards.get(str(who))
    if not cards:
        return None
    show = score_show(
        tuple(Card.from_str(c) for c in cards), Card.from_str(deal.starter), crib=who == "crib"
    )
    return show_sentences(show)
