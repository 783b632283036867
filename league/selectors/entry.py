"""What the score-entry page's script and the judge's correction form read: the game, its
deals in the one deal shape, and what ``can()`` lets this user do (enter the next deal, correct
the deals their team entered, settle a rival entry)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from league.kernel.permissions import Action, Actor, can
from league.models import Deal, DealtCards, Dispute, DisputeStatus, Game
from league.selectors.discards import dealt_seats
from league.selectors.games import pending_rivals, stored_deal
from league.selectors.scoreboard import skunk_line
from scoring.game import entry_rules


def entry_data(game: Game, *, user: Actor | None = None) -> dict[str, Any]:
    """Everything the entry page's script needs, as JSON (rendered with json_script, and sent
    again at ``?format=json`` when the script catches up with the server): ``can_record`` (the
    next deal may be entered), ``correctable`` (the deals this user's team entered and may still
    correct) and each rival entry's ``can_withdraw``/``can_dispute`` come from ``can()``."""
    season = game.match.week.season
    variant = season.game_variant
    seats = sorted(game.seats.all(), key=lambda s: s.seat)
    home, away = game.home_side, 1 - game.home_side
    teams = {home: game.match.home, away: game.match.away}
    deals = list(
        Deal.objects.filter(game=game, is_current=True)
        .select_related("entered_by")
        .order_by("number")
    )
    for deal in deals:
        deal.game = game  # one game (and match) object: can() asks about each deal for free
    afters = [_by_side(d, home) for d in deals]
    last = afters[-1] if afters else [0, 0]
    back = afters[-2] if len(afters) > 1 else [0, 0]
    return {
        "game": game.pk,
        "number": game.number,
        "status": game.status,
        "first_dealer": game.first_dealer,
        "home_side": home,
        "target": season.target,
        "skunk_line": skunk_line(game.match.week.season),
        "skunk_margin": season.skunk_margin,
        "double_skunk_margin": season.double_skunk_margin,
        "seats": [
            {"seat": s.seat, "name": s.player.name, "side": variant.side_of(s.seat)} for s in seats
        ],
        "sides": [{"name": teams[side].name, "team": teams[side].pk} for side in range(2)],
        "deals": [
            {
                "number": d.number,
                "dealer": d.dealer,
                "after": after,
                "version": d.version,
                "entered_by": _who(d),
                "deal": stored_deal(d),
            }
            for d, after in zip(deals, afters, strict=True)
        ],
        "can_record": can(user, Action.RECORD_DEAL, game),
        "can_dispute": can(user, Action.RAISE_DISPUTE, game),
        "correctable": [d.number for d in deals if can(user, Action.CORRECT_DEAL, d)],
        "rivals": _rivals(game, user),
        "board_sides": [
            {"name": teams[side].name, "score": last[side], "back": back[side]} for side in range(2)
        ],
        "rules": entry_rules(variant, target=season.target),
        "dealt": _dealt(game, user),
        "urls": {
            "deals": reverse("api:game-deals", args=[game.pk]),
            "corrections": reverse("api:game-corrections", args=[game.pk]),
            "disputes": reverse("api:game-disputes", args=[game.pk]),
            "refresh": reverse("league:enter", args=[game.pk]) + "?format=json",
            "game": reverse("league:game", args=[game.pk]),
            "show": reverse("league:score_show"),
            "login": reverse("login"),
        },
    }


def _dealt(game: Game, user: Actor | None) -> dict[str, Any]:
    """The league's cards-dealt setting for the page: ``off`` (nothing shown), ``allowed`` (a
    link to record them), ``asked`` (after each deal this phone sends, a prompt for the cards
    dealt to each seat this user may record, skippable). No query (the seats are read)."""
    mode = game.match.week.season.league.dealt_cards
    if mode == DealtCards.OFF or user is None:
        return {"mode": DealtCards.OFF.value}
    seats = dealt_seats(user, game)
    names = {s.seat: s.player.name for s in game.seats.all()}
    return {
        "mode": str(mode),
        "count": game.match.week.season.game_variant.dealt,
        "seats": [{"seat": n, "name": names[n], "own": own} for n, own in sorted(seats.items())],
        "own": any(seats.values()),
        "url": reverse("api:game-dealt", args=[game.pk]),
        "page": reverse("league:game_dealt", args=[game.pk]),
    }


def _who(deal: Deal) -> str | None:
    return deal.entered_by.get_username() if deal.entered_by else None


def _rivals(game: Game, user: Actor | None) -> list[dict[str, Any]]:
    """The deals the two teams entered differently and nobody has settled, for the two teams
    (each beside the counted version on the page): what each may do about it, and whether a
    dispute already holds both versions."""
    if user is None or not can(user, Action.VIEW_DISPUTES, game):
        return []
    rows = pending_rivals(game)
    if not rows:
        return []
    held = set(
        Dispute.objects.filter(
            game=game,
            rival__in=[r["rival"] for r in rows],
            status__in=(DisputeStatus.OPEN, DisputeStatus.IN_REVIEW),
        ).values_list("rival_id", flat=True)
    )
    out = []
    for row in rows:
        rival = row["rival"]
        rival.game = game
        out.append(
            {
                "id": rival.pk,
                "number": rival.number,
                "entered_by": _who(rival),
                "deal": stored_deal(rival),
                "claim": row["claim"],
                "disputed": rival.pk in held,
                "can_withdraw": can(user, Action.WITHDRAW_RIVAL, rival),
                "can_dispute": rival.pk not in held and can(user, Action.RAISE_DISPUTE, game),
                "withdraw_url": reverse("api:deal-withdraw", args=[rival.pk]),
            }
        )
    return out


def judge_data(dispute: Dispute) -> dict[str, Any]:
    """What the judge's correction form (the entry page's deal form, in the admin) works from:
    the game deal by deal as the entry page has it, the disputed deal, and the other team's
    version of it when the two teams entered it differently (the dispute's rival entry, or one
    still pending)."""
    game = (
        Game.objects.select_related("match__week__season__league", "match__home", "match__away")
        .prefetch_related("seats__player")
        .get(pk=dispute.game_id)
    )
    data = entry_data(game, user=None)
    rival = dispute.rival
    if rival is None and dispute.deal_number:
        rival = (
            Deal.objects.filter(
                game=game, number=dispute.deal_number, is_rival=True, settled_at__isnull=True
            )
            .select_related("entered_by")
            .first()
        )
    data["disputed"] = dispute.deal_number
    data["rival"] = (
        None
        if rival is None
        else {"number": rival.number, "entered_by": _who(rival), "deal": stored_deal(rival)}
    )
    return data


def _by_side(deal: Deal, home: int) -> list[int]:
    """A deal's running totals in side order (side 0 sits in seats 0 and 2)."""
    return [deal.home_after, deal.away_after] if home == 0 else [deal.away_after, deal.home_after]
