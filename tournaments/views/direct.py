"""The director's workspace (``/direct/``): a club's members and night defaults, "Tonight",
and the night itself on one screen that shows the step it is at (the field and check-in, the
round under way with its clock and its tables' cards, the cut and the bracket, the playoffs,
the money and closing). Thin views: each press is one service call; a refusal is shown as
the service words it, and nothing changes."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.kernel.errors import DomainError, ValidationFailed
from league.kernel.ids import number_from
from league.kernel.parsers import cents_from, whole_number
from league.kernel.permissions import Action, can, is_league_admin, warm_permissions
from tournaments import selectors, services
from tournaments.acc_reports import SPECIAL_KIND_WORDS, club_roster
from tournaments.models import (
    BracketFormat,
    Club,
    Entrant,
    EntrantStatus,
    Kind,
    MemberStatus,
    PlayoffMatch,
    Round,
    RoundStatus,
    SidePot,
    SidePotKind,
    TableGame,
    TableState,
    Tournament,
    TournamentStage,
)
from tournaments.rules_messages import acc_sides_words
from tournaments.services.double_bracket import where
from tournaments.services.workspace import round_clock_end


def where_in_bracket(match: PlayoffMatch, night: Tournament) -> str:
    """A playoff match's place in words (a double elimination's side and round)."""
    if night.bracket_format == BracketFormat.DOUBLE:
        return where(match)
    return _("playoff round %(round)s, match %(match)s") % {
        "round": match.round,
        "match": match.position + 1,
    }


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "tournaments/direct/refused.html", {"message": message}, status=403)


def _clubs_for(user: Any) -> list[Club]:
    clubs = Club.objects.order_by("name")
    if not is_league_admin(user):
        clubs = clubs.filter(directors=user)
    return list(clubs)


@login_required
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    """The clubs this director runs, each with tonight's night or a "Tonight" button."""
    warm_permissions(request.user)
    if not can(request.user, Action.RUN_TOURNAMENT):
        return _refused(
            request, _("The director's workspace is for a club's directors and league admins.")
        )
    if request.method == "POST":
        name = request.POST.get("name", "")
        try:
            club = services.club_found(user=request.user, name=name)
        except DomainError as exc:
            messages.error(request, exc.message)
            return redirect("direct:home")
        return redirect("direct:club", pk=club.pk)
    clubs = _clubs_for(request.user)
    for club in clubs:
        club.open_nights = list(  # type: ignore[attr-defined]
            club.club_nights.exclude(
                stage=TournamentStage.FINISHED, purse__closed_at__isnull=False
            ).order_by("-date", "-pk")[:3]
        )
    return render(request, "tournaments/direct/home.html", {"clubs": clubs})


@login_required
@require_http_methods(["GET", "POST"])
def club(request: HttpRequest, pk: int) -> HttpResponse:
    """A club: "Tonight", its members (added by pasting names), its night defaults."""
    club = get_object_or_404(Club, pk=pk)
    if not selectors.directs(request.user, club):
        return _refused(request, _("Only this club's directors and league admins run its nights."))
    if request.method == "POST":
        op = request.POST.get("op", "")
        try:
            if op == "tonight":
                night = services.night_tonight(user=request.user, club=club)
                return redirect("direct:night", pk=night.pk)
            if op == "members":
                added = services.club_members_add(
                    user=request.user,
                    club=club,
                    names=services.names_from(request.POST.get("names", "")),
                )
                messages.success(request, _("%(count)s member(s) added.") % {"count": len(added)})
            elif op == "roster":
                stored = services.club_members_set(
                    user=request.user, club=club, rows=_roster_changes(club, request.POST)
                )
                messages.success(request, _("%(count)s membership(s) saved.") % {"count": stored})
            elif op == "director":
                account = services.club_director_add(
                    user=request.user, club=club, username=request.POST.get("username", "")
                )
                messages.success(
                    request,
                    _("%(name)s now directs the club's nights.") % {"name": account.get_username()},
                )
            elif op == "defaults":
                services.club_defaults_set(
                    user=request.user, club=club, changes=_defaults_from(request.POST)
                )
                messages.success(request, _("The club's night settings are saved."))
        except DomainError as exc:
            messages.error(request, exc.message)
        return redirect("direct:club", pk=pk)
    return render(
        request,
        "tournaments/direct/club.html",
        {
            "club": club,
            "members": club.members.order_by("name"),
            "roster": club_roster(club),
            "statuses": MemberStatus.choices,
            "directors": club.directors.order_by("username"),
            "nights": club.club_nights.order_by("-date", "-pk")[:10],
            "fee_dollars": f"{club.entry_fee / 100:.2f}",
            "pot_fee_dollars": f"{club.pot_fee / 100:.2f}",
            "hand_choices": _hand_choices(club.pot_hands),
        },
    )


def _roster_changes(club: Club, post: Any) -> list[tuple[Any, str, str]]:
    """The roster's rows whose ACC number or standing the form changes: ``(player, number,
    status)``, read as typed (the service checks them)."""
    rows = []
    for row in club_roster(club):
        pk, was = row.player.pk, row.membership
        number = post.get(f"acc_{pk}")
        status = post.get(f"status_{pk}")
        if number is None and status is None:
            continue
        number = was.acc_number if number is None else number.strip()
        status = was.status if status is None else status
        if (number, status, True) != (was.acc_number, was.status, was.known):
            rows.append((row.player, number, status))
    return rows


def _hand_choices(ticked: list[str]) -> list[tuple[str, str, bool]]:
    """The special hands a pot may be won by: (kind, its words, ticked)."""
    return [(k, str(words), k in ticked) for k, words in SPECIAL_KIND_WORDS.items()]


def _whole(post: Any, field: str, message: str) -> int:
    return whole_number(post.get(field), field=field, message=message)


def _dollars(post: Any, field: str) -> int:
    """Cents from an amount typed in dollars ("10", "12.50", "$12,50"); empty is 0."""
    return cents_from(
        post.get(field) or "",
        field=field,
        message=_("The entry fee is an amount in dollars, like 10 or 12.50."),
        blank=0,
    )


def _defaults_from(post: Any) -> dict[str, Any]:
    fee = _dollars(post, "entry_fee")
    return {
        "night_games": _whole(post, "night_games", _("Games a night is a whole number.")),
        "round_minutes": _whole(post, "round_minutes", _("Minutes per round is a whole number.")),
        "entry_fee": fee,
        "house_percent": _whole(post, "house_percent", _("The house share is a whole percent.")),
        "pot_hands": post.getlist("pot_hands"),
        "pot_fee": _dollars(post, "pot_fee"),
        "pot_rolls_over": post.get("pot_rolls_over") == "on",
        "send_night_story": post.get("send_night_story") == "on",
    }


# --------------------------------------------------------------------------------------------
# The night
# --------------------------------------------------------------------------------------------


def _entrant(tournament: Tournament, raw: Any) -> Entrant:
    return get_object_or_404(Entrant, pk=number_from(raw), tournament=tournament)


def _table(tournament: Tournament, raw: Any) -> TableGame:
    return get_object_or_404(
        TableGame.objects.select_related("first", "second", "round__tournament"),
        pk=number_from(raw),
        round__tournament=tournament,
    )


def _match(tournament: Tournament, raw: Any) -> PlayoffMatch:
    return get_object_or_404(
        PlayoffMatch.objects.select_related("top", "bottom", "tournament"),
        pk=number_from(raw),
        tournament=tournament,
    )


def _picked(raw: Any, message: str) -> int:
    number = number_from(raw)
    if number is None:
        raise ValidationFailed(message)
    return number


def _score(post: Any) -> int:
    return _whole(post, "loser_score", _("The loser's score is a whole number."))


def _op_entrants(request: HttpRequest, night: Tournament) -> str:
    members = [number_from(v) for v in request.POST.getlist("members")]
    players = list(night.club.members.filter(pk__in=members)) if night.club else []
    added = services.entrants_add(
        user=request.user,
        tournament=night,
        names=services.names_from(request.POST.get("names", "")),
        players=players,
        check_in=False,  # they check in on the board as they arrive (late adds: at once)
    )
    return _("%(count)s entrant(s) entered.") % {"count": len(added)}


def _op_toggle(request: HttpRequest, night: Tournament) -> str:
    entrant = _entrant(night, request.POST.get("entrant"))
    if entrant.status == EntrantStatus.CHECKED_IN:
        services.entrant_withdraw(user=request.user, entrant=entrant)
        return _("%(name)s is out from the next round.") % {"name": entrant.name}
    if entrant.status == EntrantStatus.WITHDRAWN:
        raise ValidationFailed(_("%(name)s has withdrawn.") % {"name": entrant.name})
    services.entrant_check_in(user=request.user, entrant=entrant)
    return _("%(name)s is checked in.") % {"name": entrant.name}


def _op_check_in_all(request: HttpRequest, night: Tournament) -> str:
    done = services.entrants_check_in_all(user=request.user, tournament=night)
    return _("%(count)s entrant(s) checked in.") % {"count": len(done)}


def _op_seat(request: HttpRequest, night: Tournament) -> str:
    rnd = services.round_seat_next(user=request.user, tournament=night)
    return _("Round %(n)s is seated.") % {"n": rnd.number}


def _op_start(request: HttpRequest, night: Tournament) -> str:
    rnd = get_object_or_404(Round, pk=number_from(request.POST.get("round")), tournament=night)
    services.round_start(user=request.user, round=rnd)
    return _("Round %(n)s is under way: the clock is running.") % {"n": rnd.number}


def _op_swap(request: HttpRequest, night: Tournament) -> str:
    rnd = get_object_or_404(Round, pk=number_from(request.POST.get("round")), tournament=night)
    a, b = _entrant(night, request.POST.get("a")), _entrant(night, request.POST.get("b"))
    services.round_swap(user=request.user, round=rnd, a=a, b=b)
    return _("Seats swapped.")


def _op_settle(request: HttpRequest, night: Tournament) -> str:
    table = _table(night, request.POST.get("table"))
    winner = services.table_entrant(table, number_from(request.POST.get("winner")), field="winner")
    if winner is None:
        raise ValidationFailed(_("Tap who won."), field="winner")
    services.scorecard_settle(
        user=request.user, game=table, winner=winner, loser_score=_score(request.POST)
    )
    return _("Table %(t)s is settled.") % {"t": table.table}


def _op_acc_undo(request: HttpRequest, night: Tournament) -> str:
    table = _table(night, request.POST.get("table"))
    services.scorecard_acc_reverse(user=request.user, game=table)
    return _("Table %(t)s is back with the checker: the ACC ruling is undone.") % {"t": table.table}


def _op_draw(request: HttpRequest, night: Tournament) -> str:
    services.bracket_draw(user=request.user, tournament=night)
    return _("The bracket is drawn.")


def _op_game(request: HttpRequest, night: Tournament) -> str:
    match = _match(night, request.POST.get("match"))
    winner = services.match_entrant(match, _picked(request.POST.get("winner"), _("Tap who won.")))
    services.playoff_game_record(
        user=request.user,
        match=match,
        winner=winner,
        loser_score=_score(request.POST),
        key=request.POST.get("key") or None,
    )
    return _("Game recorded: %(name)s won it.") % {"name": winner.name}


def _op_forfeit(request: HttpRequest, night: Tournament) -> str:
    match = _match(night, request.POST.get("match"))
    absent = services.match_entrant(
        match, _picked(request.POST.get("absent"), _("Say who is missing."))
    )
    minutes = _whole(request.POST, "minutes", _("Minutes away is a whole number."))
    _match_now, games = services.playoff_forfeit(
        user=request.user, match=match, absent=absent, minutes=minutes
    )
    return _("%(name)s forfeits %(n)s game(s).") % {"name": absent.name, "n": games}


def _op_tiebreak_playoff(request: HttpRequest, night: Tournament) -> str:
    winner, loser = request.POST.get("winner", ""), request.POST.get("loser", "")
    services.tiebreak_playoff_record(
        user=request.user, tournament=night, winner=winner, loser=loser
    )
    return _("Playoff recorded: %(winner)s beat %(loser)s.") % {"winner": winner, "loser": loser}


def _op_pot_open(request: HttpRequest, night: Tournament) -> str:
    kind = request.POST.get("kind", "")
    if kind not in SidePotKind.values:
        raise ValidationFailed(_("Pick a side pot."), field="kind")
    hands = request.POST.getlist("hands") if kind == SidePotKind.BIG_HAND else []
    services.side_pot_set(
        user=request.user,
        tournament=night,
        kind=kind,
        fee=_dollars(request.POST, "fee"),
        hands=hands or None,
        rolls_over=request.POST.get("rolls_over") == "on",
    )
    return _("The side pot is open.")


def _pot_and_entrants(request: HttpRequest, night: Tournament) -> tuple[SidePot, list[Entrant]]:
    pot = get_object_or_404(SidePot, pk=number_from(request.POST.get("pot")), tournament=night)
    ids = [number_from(v) for v in request.POST.getlist("entrants")]
    chosen = list(night.entrants.filter(pk__in=[i for i in ids if i is not None]))
    if not chosen:
        raise ValidationFailed(_("Tap the entrants first."), field="entrants")
    return pot, chosen


def _op_pot_enter(request: HttpRequest, night: Tournament) -> str:
    pot, chosen = _pot_and_entrants(request, night)
    services.side_pot_enter(user=request.user, pot=pot, entrants=chosen)
    return _("Side pot entries recorded.")


def _op_pot_award(request: HttpRequest, night: Tournament) -> str:
    pot, chosen = _pot_and_entrants(request, night)
    services.side_pot_award(user=request.user, pot=pot, winners=chosen)
    return _("The side pot is paid out.")


def _op_pot_from_cards(request: HttpRequest, night: Tournament) -> str:
    pot = get_object_or_404(SidePot, pk=number_from(request.POST.get("pot")), tournament=night)
    services.side_pot_award_from_cards(user=request.user, pot=pot)
    return _("The %(pot)s is paid to the hand on the cards.") % {"pot": pot.get_kind_display()}


def _op_payouts(request: HttpRequest, night: Tournament) -> str:
    services.payouts_record(user=request.user, tournament=night)
    return _("Payouts recorded.")


def _op_fees(request: HttpRequest, night: Tournament) -> str:
    made = services.fees_collect(user=request.user, tournament=night)
    return _("%(count)s entry fee(s) recorded.") % {"count": len(made)}


def _op_consolation(request: HttpRequest, night: Tournament) -> str:
    consolation = get_object_or_404(
        Tournament,
        pk=_picked(request.POST.get("consolation"), _("Choose the consolation.")),
        kind=Kind.CONSOLATION,
    )
    lite = request.POST.get("lite") == "on"
    moved = services.consolation_fill(
        user=request.user, main=night, consolation=consolation, lite=lite
    )
    return _("%(count)s non-qualifier(s) moved into %(name)s.") % {
        "count": len(moved),
        "name": consolation.name,
    }


def _consolations_for(night: Tournament) -> list[Tournament]:
    """The consolations the main's non-qualifiers may move into: its weekend's (or, outside a
    weekend, any) consolation with no entrant yet."""
    if night.kind != Kind.MAIN or night.stage not in (
        TournamentStage.PLAYOFFS,
        TournamentStage.FINISHED,
    ):
        return []
    found = Tournament.objects.filter(
        kind=Kind.CONSOLATION, stage=TournamentStage.REGISTRATION, entrants=None
    )
    found = found.filter(family=night.family) if night.family_id else found.filter(family=None)
    return list(found.order_by("name"))


def _op_close(request: HttpRequest, night: Tournament) -> str:
    services.night_close(user=request.user, tournament=night)
    return _("The books balance: the night is closed.")


OPS: dict[str, Callable[[HttpRequest, Tournament], str]] = {
    "entrants": _op_entrants,
    "toggle": _op_toggle,
    "check_in_all": _op_check_in_all,
    "seat": _op_seat,
    "start": _op_start,
    "swap": _op_swap,
    "settle": _op_settle,
    "acc_undo": _op_acc_undo,
    "draw": _op_draw,
    "tiebreak_playoff": _op_tiebreak_playoff,
    "game": _op_game,
    "forfeit": _op_forfeit,
    "fees": _op_fees,
    "pot_open": _op_pot_open,
    "pot_enter": _op_pot_enter,
    "pot_award": _op_pot_award,
    "pot_from_cards": _op_pot_from_cards,
    "payouts": _op_payouts,
    "close": _op_close,
    "consolation": _op_consolation,
}


def _round_view(night: Tournament) -> dict[str, Any]:
    rnd = night.rounds.order_by("-number").first()
    if rnd is None:
        return {"round": None}
    tables = list(selectors.tables_with_cards().filter(round=rnd).order_by("table"))
    counts = dict.fromkeys((state.floor for state in TableState), 0)
    for table in tables:
        # The stored status says "verified" for a checker's settlement too (the prefetched
        # cards are the sides' only).
        verified = table.status == TableState.VERIFIED
        state = TableState.VERIFIED if verified else table.state
        table.group = state.floor  # type: ignore[attr-defined]
        table.sides = acc_sides_words(table)  # type: ignore[attr-defined]
        counts[table.group] += 1  # type: ignore[attr-defined]
    ends = round_clock_end(rnd.started_at, night.round_minutes)
    return {
        "round": rnd,
        "tables": tables,
        "counts": counts,
        "byes": list(rnd.byes.select_related("entrant")),
        "round_done": counts[TableState.VERIFIED.floor] == len(tables),
        "can_swap": rnd.status == RoundStatus.SEATED
        and not any(t.scorecards.all() for t in tables),
        "clock_ends": ends,
    }


@login_required
@require_http_methods(["GET", "POST"])
def night(request: HttpRequest, pk: int) -> HttpResponse:
    """The night on one screen, at the step it has reached."""
    night = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not selectors.directs_event(request.user, night):
        return _refused(request, _("Only this club's directors and league admins run its nights."))
    if request.method == "POST":
        op = OPS.get(request.POST.get("op", ""))
        if op is None:
            messages.error(request, _("Unknown action."))
        else:
            try:
                messages.success(request, op(request, night))
            except DomainError as exc:
                messages.error(request, exc.message)
        return redirect("direct:night", pk=pk)
    playoff_matches = list(
        selectors.playoff_match_rows().filter(tournament=night, winner__isnull=True)
    )
    for match in playoff_matches:  # the players' cards for each match's next game
        match.where = where_in_bracket(match, night)  # type: ignore[attr-defined]
        match.cards_now = services.open_cards(match)  # type: ignore[attr-defined]
        match.next_number = len(match.games.all()) + 1  # type: ignore[attr-defined]
        # This form's game, once: a double tap or a resent form stores it once (the key).
        match.game_key = uuid.uuid4().hex  # type: ignore[attr-defined]
    entrants = list(night.entrants.order_by("name").prefetch_related("players"))
    entered = {p.pk for e in entrants for p in e.players.all()}
    standings = selectors.standings_for_tournament(night)
    books = selectors.books_for(night)
    for p in books.pots:  # the hands each special-hand pot is won by, in words
        p["hands"] = ", ".join(str(w) for k, w in SPECIAL_KIND_WORDS.items() if k in p["pot"].hands)
    context = {
        "night": night,
        "entrants": entrants,
        "checked_in": sum(e.status == EntrantStatus.CHECKED_IN for e in entrants),
        "registered": sum(e.status == EntrantStatus.REGISTERED for e in entrants),
        "members": (
            list(night.club.members.exclude(pk__in=entered).order_by("name")) if night.club else []
        ),
        "standings": standings["standings"],
        "qualifiers": standings["qualifiers"],
        "playoff_due": standings["playoff_due"],
        "bracket": selectors.bracket_sections(night),
        "playoff_matches": playoff_matches,
        "champion": selectors.champion(night),
        "consolations": _consolations_for(night),
        "high_non_qualifier": standings["high_non_qualifier"]
        if night.stage in (TournamentStage.PLAYOFFS, TournamentStage.FINISHED)
        else None,
        "books": books,
        "pot_kinds": [
            (k, label)
            for k, label in SidePotKind.choices
            if k not in {p["pot"].kind for p in books.pots}
        ],
        "hand_choices": _hand_choices(["28", "29"]),
        "rounds_left": night.games_per_entrant - night.rounds.count(),
        "live_version": selectors.tournament_version(night.pk, every=5),
        **_round_view(night),
    }
    return render(request, "tournaments/direct/night.html", context)


FLOOR_BLOCK = 50  # tables a block of the floor view, each block with its own count
FLOOR_SHOWS = ("waiting", "one_card", "done", "disagree")


@login_required
@require_http_methods(["GET", "POST"])
def floor(request: HttpRequest, pk: int) -> HttpResponse:
    """The round under way table by table, for a tablet on a floor of 300: the counts on top
    (each one a filter), the tables in blocks of fifty; and a runner's paper card for a table
    without a phone, typed from the keyboard (table, first score, second score, Enter)."""
    night = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    allowed = selectors.directs_event(request.user, night)
    if not allowed and not can(request.user, Action.CHECK_SCORECARDS):  # a runner: a checker
        return _refused(request, _("Only the night's directors and the checkers see the floor."))
    show = request.GET.get("show", "")
    show = show if show in FLOOR_SHOWS else ""
    paper: dict[str, str] = {}
    paper_error = ""
    if request.method == "POST":
        paper = {f: request.POST.get(f, "") for f in ("table", "first_score", "second_score")}
        try:
            done = services.paper_card_enter(
                user=request.user, tournament=night, key=request.POST.get("key"), **paper
            )
        except DomainError as exc:
            paper_error = exc.message
        else:
            messages.success(request, _paper_said(done))
            return redirect(request.get_full_path())
    view = _round_view(night)
    tables = view.get("tables", [])
    shown = [t for t in tables if not show or t.group == show]
    blocks = []
    for start in range(0, len(shown), FLOOR_BLOCK):
        chunk = shown[start : start + FLOOR_BLOCK]
        blocks.append(
            {
                "first": chunk[0].table,
                "last": chunk[-1].table,
                "tables": chunk,
                "size": len(chunk),
                "counts": {"done": sum(t.group == "done" for t in chunk)},
            }
        )
    context = {
        "night": night,
        "show": show,
        "blocks": blocks,
        "paper": paper,
        "paper_error": paper_error,
        "paper_key": uuid.uuid4().hex,  # this form's card, once: a double tap stores it once
        "live_version": selectors.tournament_version(night.pk, every=5),
        **view,
    }
    status = 400 if paper_error else 200
    return render(request, "tournaments/direct/floor.html", context, status=status)


def _paper_said(done: Any) -> str:
    game = done.game
    if done.entered == 0:
        return _("Table %(table)s: that card is in already.") % {"table": game.table}
    if game.status == TableState.VERIFIED:
        return _("Table %(table)s: in, %(winner)s won (%(score)s).") % {
            "table": game.table,
            "winner": game.winner.name if game.winner else "",
            "score": game.loser_score,
        }
    if game.status == TableState.MISMATCH:
        return _(
            "Table %(table)s: the paper card disagrees with the phone's: the table waits for "
            "the checkers."
        ) % {"table": game.table}
    return _("Table %(table)s: the card is in.") % {"table": game.table}
