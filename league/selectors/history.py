"""A game's history in words: each audit entry of the game as a sentence a captain reads
("Deal 5: hand of Dan 24 → 14, by Kim (judge), ruling on dispute #12, rule S-3"), newest
last; each event once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from league.checks import team_of
from league.kernel.audit import AuditAction
from league.kernel.ids import number_from
from league.kernel.permissions import is_judge
from league.kernel.stored_texts import render
from league.models import AuditEntry, Dispute, Game


def game_history(game: Game) -> list[dict[str, Any]]:
    """``[{"at", "who", "text", "why"}]`` for every change to ``game`` (a few queries)."""
    seats = {s.seat: s.player.name for s in game.seats.select_related("player")}
    sides = {game.home_side: game.match.home.name, 1 - game.home_side: game.match.away.name}
    disputes = {d.pk: d for d in Dispute.objects.filter(game=game)}
    entries = AuditEntry.objects.filter(game=game).select_related("actor").order_by("at", "id")
    rows = []
    for entry in entries:
        text = _sentence(entry, seats, sides, disputes)
        rows.append(
            {
                "at": entry.at,
                "who": _who(entry.actor, game),
                "text": text,
                "why": "" if _by_ruling(entry) else entry.reason_text,
            }
        )
    return rows


def _by_ruling(entry: AuditEntry) -> bool:
    """Whether ``entry`` is the correction a ruling made: its reason restates the ruling, whose
    own line (the dispute ruled) gives it, so the history says it once."""
    after = entry.after if isinstance(entry.after, dict) else {}
    return entry.action == AuditAction.DEALS_CORRECT and bool(after.get("dispute"))


def _who(actor: Any, game: Game) -> str:
    if actor is None:
        return _("Pegboard (an import or a scheduled task)")
    name = actor.get_full_name() or actor.get_username()
    team = team_of(actor, game.match)
    if team is not None:
        team_name = game.match.home.name if team == game.match.home_id else game.match.away.name
        return _("%(name)s (%(team)s)") % {"name": name, "team": team_name}
    if is_judge(actor):
        role = _("judge")
        if name.casefold() in {role.casefold(), "judge"}:  # the account is named for its role
            return role
        return _("%(name)s (judge)") % {"name": name}
    return _("%(name)s (league admin)") % {"name": name}


def _sentence(
    entry: AuditEntry,
    seats: Mapping[int, str],
    sides: Mapping[int, str],
    disputes: Mapping[int, Dispute],
) -> str:
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    try:
        action = AuditAction(entry.action)
    except ValueError:  # an action no longer declared: its stored name
        action = None
    if action is None or action.sentence is None:
        return entry.action.replace("_", " ").capitalize() + "."
    line, variants = action.sentence, action.variants
    if action == AuditAction.GAME_START:
        subs = set(after.get("subs") or [])  # each sub seated is named as one
        return line % {
            "n": after.get("number", "?"),
            "seats": ", ".join(
                _("%(name)s (sub)") % {"name": name} if name in subs else name
                for name in after.get("seats", [])
            ),
            "dealer": seats.get(after.get("first_dealer", 0), "?"),
        }
    if action in (AuditAction.DEAL_RECORD, AuditAction.DEAL_AGREE, AuditAction.RIVAL_WITHDRAW):
        return line % {"n": after.get("number", "?")}
    if action == AuditAction.DEAL_RIVAL:
        changes = _deal_changes(before, after, seats, sides)
        return line % {
            "n": after.get("number", "?"),
            "changes": changes or variants["same_numbers"],
        }
    if action in (AuditAction.DEAL_CORRECT, AuditAction.DEALS_CORRECT):
        parts = []
        for key in sorted((k for k in before if number_from(k) is not None), key=int):
            old, new = before.get(key), after.get(key)
            if new is None:
                parts.append(variants["struck_out"] % {"n": key})
            else:
                changes = _deal_changes(old or {}, new, seats, sides)
                parts.append(line % {"n": key, "changes": changes or _("no change")})
        text = "; ".join(parts) + "."
        dispute = disputes.get(after["dispute"]) if after.get("dispute") else None
        if dispute is not None:
            text += " " + variants["ruling"] % {
                "n": dispute.pk,
                "rule": dispute.rule_reference or "?",
            }
        return text
    if action == AuditAction.GAME_CONFIRM:
        return str(line if after.get("status") == "confirmed" else variants["vouched"])
    if action == AuditAction.DISPUTE_RAISE:
        deal = after.get("deal_number")
        claim = render(
            after.get("claim_code") or "", after.get("claim_params"), after.get("claim") or ""
        )
        return (
            line % {"n": deal, "claim": claim} if deal else variants["no_deal"] % {"claim": claim}
        )
    if action == AuditAction.DISPUTE_RULE:
        word = variants["dismissed" if after.get("status") == "dismissed" else "resolved"]
        return line % {"word": word, "rule": after.get("rule", "?")}
    if action == AuditAction.GAME_CLOSE:
        return line % {"hours": after.get("hours", "?")}
    if action == AuditAction.FORFEIT_RECORD:
        return line % {"team": after.get("team", "?")}
    return str(line)  # a sentence with nothing to fill in: "Voided."


def _deal_changes(
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    seats: Mapping[int, str],
    sides: Mapping[int, str],
) -> str:
    """What differs between two versions of a deal, in words: "hand of Dan 24 → 14"."""
    out = []
    if old.get("dealer") != new.get("dealer") and "dealer" in new:
        out.append(
            _("dealer %(a)s → %(b)s")
            % {"a": seats.get(old.get("dealer"), "?"), "b": seats.get(new.get("dealer"), "?")}  # type: ignore[arg-type]  # None reads "?"
        )
    if (old.get("starter") or None) != (new.get("starter") or None):
        out.append(
            _("starter %(a)s → %(b)s")
            % {"a": old.get("starter") or "–", "b": new.get("starter") or "–"}
        )
    for side, (a, b) in enumerate(
        zip(old.get("pegging") or [], new.get("pegging") or [], strict=False)
    ):
        if a != b:
            out.append(
                _("pegging by %(team)s %(a)s → %(b)s")
                % {"team": sides.get(side, "?"), "a": a, "b": b}
            )
    old_shows, new_shows = old.get("shows") or {}, new.get("shows") or {}
    for seat in sorted(set(old_shows) | set(new_shows), key=int):
        a, b = old_shows.get(seat, "–"), new_shows.get(seat, "–")
        if a != b:
            out.append(
                _("hand of %(player)s %(a)s → %(b)s")
                % {"player": seats.get(int(seat), "?"), "a": a, "b": b}
            )
    if old.get("crib") != new.get("crib"):
        out.append(
            _("the crib %(a)s → %(b)s")
            % {
                "a": "–" if old.get("crib") is None else old["crib"],
                "b": "–" if new.get("crib") is None else new["crib"],
            }
        )
    if (old.get("cards") or None) != (new.get("cards") or None):
        out.append(_("the cards"))
    return ", ".join(out)
