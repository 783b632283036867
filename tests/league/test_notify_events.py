"""Each app declares its own notification events and the kernel asks: the kernel's sender knows
no league table but the ones every competition shares, and every declared event is sent by a
trigger (a declaration nothing sends is a promise to players nobody keeps)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from league.kernel.notify import DUE_CHECKS, EVENTS

ROOT = Path(__file__).resolve().parents[2]
SHARED = {
    "Category", "Channel", "Delivery", "DeliveryStatus", "NotifyChoice", "Player",
    "PushSubscription",
}  # fmt: skip


def _imported_from_league(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("league.models"):
            names |= {alias.name for alias in node.names}
    return names


def test_the_kernels_sender_imports_only_the_tables_every_competition_shares():
    assert _imported_from_league(ROOT / "league/kernel/notify.py") <= SHARED


def test_each_app_declares_its_own_events_and_every_one_is_sent_by_a_trigger():
    league = (ROOT / "league/notify_events.py").read_text()
    clubs = (ROOT / "tournaments/notify_events.py").read_text()
    triggers = "".join(
        p.read_text()
        for p in [*ROOT.glob("league/services/*.py"), *ROOT.glob("tournaments/services/*.py")]
    )
    declared = dict(re.findall(r"^(\w+) = declare\(\s*Event\(\s*code=\"(\w+)\"", league + clubs,
                               flags=re.M))  # fmt: skip
    assert set(declared.values()) == set(EVENTS)
    assert {
        "club_night_reminder",
        "club_night_standing",
        "club_night_story",
        "acc_card_changed",
        "registration_received",
        "registration_answered",
        "registration_refused",
        "registration_promoted",
    } == set(re.findall(r"code=\"(\w+)\"", clubs))
    unsent = [name for name in declared if f"events.{name}" not in triggers]
    assert not unsent, f"declared, sent by nothing: {unsent}"
    assert "match_cancelled" not in EVENTS


def test_the_league_registers_its_draft_rule_with_the_kernel():
    from league.notify_events import season_not_draft

    assert season_not_draft in DUE_CHECKS
