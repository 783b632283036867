"""After the night: final places, club seasons and their standings, a player's lifetime record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from league.shared import Player
from tournaments import logic
from tournaments.models import (
    Bye,
    ClubSeason,
    Entrant,
    EntrantPlayer,
    PlayoffMatch,
    TableGame,
    TableState,
    Tournament,
    TournamentStage,
)
from tournaments.selectors.standings import standings_from_rows


@dataclass
class Night:
    """One event's outcome as the season and player pages need it, computed from rows."""

    tournament: Tournament
    standings: dict[str, Any]  # as standings_for_tournament
    records: dict[str, logic.EntrantRecord]
    players: dict[str, list[int]]  # entrant name -> player ids
    seeded: frozenset[str]
    champion: str | None
    places: dict[str, int] | None  # once the final is decided

    def entrant_of(self, player_id: int) -> str | None:
        for name, ids in self.players.items():
            if player_id in ids:
                return name
        return None


def nights_of(tournaments: list[Tournament]) -> list[Night]:
    """The outcome of each of ``tournaments`` (in their order), in five queries for them all:
    entrants, their players, verified games, byes and playoff matches."""
    ids = [t.pk for t in tournaments]
    if not ids:
        return []
    entrants: dict[int, list[tuple[int, str, str]]] = {pk: [] for pk in ids}
    name_of: dict[int, str] = {}
    seeded: dict[int, set[str]] = {pk: set() for pk in ids}
    for tid, pk, name, status, seed in (
        Entrant.objects.filter(tournament_id__in=ids)
        .order_by("number")
        .values_list("tournament_id", "pk", "name", "status", "seed")
    ):
        entrants[tid].append((pk, name, status))
        name_of[pk] = name
        if seed is not None:
            seeded[tid].add(name)
    players: dict[int, dict[str, list[int]]] = {pk: {} for pk in ids}
    for tid, entrant_id, player_id in (
        EntrantPlayer.objects.filter(entrant__tournament_id__in=ids)
        .order_by("position")
        .values_list("entrant__tournament_id", "entrant_id", "player_id")
    ):
        players[tid].setdefault(name_of[entrant_id], []).append(player_id)
    games: dict[int, list[tuple[int, int, int | None, int | None, int | None, int | None]]] = {
        pk: [] for pk in ids
    }
    for tid, *row in TableGame.objects.filter(
        round__tournament_id__in=ids, status=TableState.VERIFIED
    ).values_list(
        "round__tournament_id",
        "first_id",
        "second_id",
        "winner_id",
        "loser_score",
        "first_spread",
        "second_spread",
    ):
        games[tid].append(tuple(row))  # type: ignore[arg-type]
    byes: dict[int, list[int]] = {pk: [] for pk in ids}
    for tid, entrant_id in Bye.objects.filter(round__tournament_id__in=ids).values_list(
        "round__tournament_id", "entrant_id"
    ):
        byes[tid].append(entrant_id)
    matches: dict[int, list[tuple[int, int | None, int | None, int | None, bool]]] = {
        pk: [] for pk in ids
    }
    for tid, *m in PlayoffMatch.objects.filter(tournament_id__in=ids).values_list(
        "tournament_id", "round", "top_id", "bottom_id", "winner_id", "is_bye"
    ):
        matches[tid].append(tuple(m))  # type: ignore[arg-type]
    out = []
    for t in tournaments:
        data = standings_from_rows(t, entrants=entrants[t.pk], games=games[t.pk], byes=byes[t.pk])
        champion, places = _outcome(t, data, matches[t.pk], name_of, seeded[t.pk])
        out.append(
            Night(
                tournament=t,
                standings=data,
                records={s.record.entrant: s.record for s in data["ranked"]},
                players=players[t.pk],
                seeded=frozenset(seeded[t.pk]),
                champion=champion,
                places=places,
            )
        )
    return out


def _outcome(
    tournament: Tournament,
    data: dict[str, Any],
    matches: list[tuple[int, int | None, int | None, int | None, bool]],
    name_of: dict[int, str],
    seeded: set[str],
) -> tuple[str | None, dict[str, int] | None]:
    """The champion and everyone's final place, once the final is decided."""
    if not matches:
        return None, None
    rounds = max(m[0] for m in matches)
    final = [m for m in matches if m[0] == rounds]
    if len(final) != 1 or final[0][3] is None:
        return None, None
    lost_in: dict[str, int] = {}
    for rnd, top, bottom, winner, is_bye in matches:
        if is_bye or winner is None or top is None or bottom is None:
            continue
        loser = bottom if winner == top else top
        lost_in[name_of[loser]] = rnd
    ranked = [(s.record.entrant, s.rank) for s in data["ranked"]]
    in_bracket = [name for name, _rank in ranked if name in seeded]
    places = logic.final_places(ranked, in_bracket=in_bracket, lost_in=lost_in, rounds=rounds)
    return name_of[final[0][3]], places


def night_points(season: ClubSeason, night: Night) -> dict[int, int]:
    """Player id -> the club-season points ``night`` earned them (every player who played)."""
    scheme = season.scheme
    out: dict[int, int] = {}
    for name, record in night.records.items():
        place = night.places.get(name) if night.places else None
        points = scheme.for_night(game_points=record.game_points, place=place)
        for player_id in night.players.get(name, []):
            out[player_id] = max(points, out.get(player_id, 0))
    return out


def club_season_standings(season: ClubSeason) -> dict[str, Any]:
    """A club season's table: the nights counted (those whose final is decided), each
    player's points per night, nights attended and total, ranked with ties named; and the
    nights still to finish. Eight queries, whatever the number of nights."""
    all_nights = list(season.nights.order_by("date", "pk"))
    counted = [t for t in all_nights if t.stage == TournamentStage.FINISHED]
    nights = nights_of(counted)
    per_night = [night_points(season, n) for n in nights]
    ids = {pk for points in per_night for pk in points}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name")) if ids else {}
    return {
        "season": season,
        "nights": counted,
        "pending": [t for t in all_nights if t.stage != TournamentStage.FINISHED],
        "rows": logic.season_table(per_night, names),
        "scheme": season.scheme,
    }


def player_tournament_record(player: Player) -> dict[str, Any]:
    """``player``'s tournament record across every event they entered: per event (entrant,
    record, cut made, place, title) and in total (events, qualifying games won and lost, game
    points, spread, cuts made, best finish, titles); and their place in each club season they
    played in. Eight queries, whatever the number of events (one if they entered none)."""
    events = list(
        Tournament.objects.filter(entrants__players=player)
        .select_related("club_season__club")
        .distinct()
        .order_by("date", "pk")
    )
    empty: dict[str, Any] = {
        "events": [],
        "played": 0,
        "won": 0,
        "lost": 0,
        "game_points": 0,
        "spread": 0,
        "cuts": 0,
        "best_finish": None,
        "titles": 0,
        "club_seasons": [],
    }
    if not events:
        return empty
    seasons = {t.club_season_id: t.club_season for t in events if t.club_season is not None}
    season_nights = [
        t
        for t in Tournament.objects.filter(
            club_season_id__in=list(seasons), stage=TournamentStage.FINISHED
        ).order_by("date", "pk")
        if seasons
    ]
    wanted = {t.pk: t for t in [*events, *season_nights]}
    by_pk = {n.tournament.pk: n for n in nights_of(list(wanted.values()))}
    out = dict(empty, events=[], club_seasons=[])
    for t in events:
        night = by_pk[t.pk]
        name = night.entrant_of(player.pk)
        record = night.records.get(name or "")
        if name is None or record is None:
            continue  # entered and withdrew before playing
        place = night.places.get(name) if night.places else None
        title = night.champion == name
        out["events"].append(
            {
                "tournament": t,
                "entrant": name,
                "record": record,
                "cut": name in night.seeded,
                "place": place,
                "of": len(night.records),
                "title": title,
            }
        )
        out["played"] += 1
        out["won"] += record.won
        out["lost"] += record.lost
        out["game_points"] += record.game_points
        out["spread"] += record.spread
        out["cuts"] += name in night.seeded
        out["titles"] += title
        if place is not None and (out["best_finish"] is None or place < out["best_finish"]):
            out["best_finish"] = place
    for season_id, season in seasons.items():
        nights = [by_pk[t.pk] for t in season_nights if t.club_season_id == season_id]
        per_night = [night_points(season, n) for n in nights]
        rows = logic.season_table(per_night, {pk: str(pk) for p in per_night for pk in p})
        mine = next((r for r in rows if r.key == player.pk), None)
        if mine is not None:
            out["club_seasons"].append(
                {"season": season, "row": mine, "of": len(rows), "nights": len(nights)}
            )
    out["events"].reverse()  # newest first on the page
    return out
