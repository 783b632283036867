"""The audit trail's actions are declared once (``AuditAction``): what the services write and
what a game's history says of it come from the same member, and stored rows keep their words."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from league.kernel.audit import AuditAction, audit_entry, audit_log
from league.models import AuditEntry
from league.selectors.history import game_history

ROOT = Path(__file__).resolve().parents[2]
WRITERS = {"audit_log", "audit_entry"}

# What AuditEntry.action holds in every database: renaming one would orphan its stored rows.
STORED = {
    "game_start", "deal_record", "deal_agree", "deal_rival", "deal_correct", "deals_correct",
    "rival_withdraw", "game_confirm", "game_void", "dispute_raise", "dispute_withdraw",
    "dispute_assign", "dispute_rule", "season_create", "season_rules_update",
    "season_update", "season_import", "season_publish", "season_unpublish", "season_finish",
    "season_reopen",
    "schedule_create", "schedule_clear", "week_create", "venue_create", "team_create",
    "team_update", "match_create", "match_update", "delete", "player_create",
    "player_login_create", "invitation_send", "playoffs_create", "playoffs_undo",
    "playoffs_advance", "tournament_create", "tournament_update", "tournament_import",
    "entrant_register", "entrant_check_in", "entrant_withdraw", "round_seat", "round_swap",
    "round_start", "scorecard_submit", "scorecard_settle", "bracket_draw",
    "playoff_game_record", "playoff_game_void", "club_create", "club_season_create",
    "club_season_update",
    "night_assign_season", "night_close", "purse_set", "side_pot_set", "side_pot_enter",
    "side_pot_award", "fees_collect", "payouts_record", "ledger_entry_add",
    "ledger_entry_remove", "league_create", "league_update", "week_update",
    "player_link", "game_cancel", "scorecard_acc_resolve", "scorecard_acc_reverse",
    "club_member_set", "club_update", "playoff_forfeit", "club_members_add", "night_tonight",
    "game_close", "forfeit_record", "forfeit_undo", "postponement_ask", "postponement_answer",
    "match_postpone", "night_move", "night_cancel", "match_early_start",
    "announcement_post", "notify_choices", "notify_unsubscribe", "calendar_reset",
    "points_schedule_set", "results_send", "results_approve", "results_return",
    "venue_update", "player_rename",
    "sub_add", "sub_remove", "sub_ask", "invitation_hold", "discards_share",
    "registration_desk_set", "registration_add", "registration_promote",
    "registration_decide", "registration_withdraw", "registration_pair",
    "fee_rate_set", "q_pool_set", "club_region_set", "federation_data_set",
    "team_league_set", "team_set", "team_season_create", "team_fixtures_make",
    "team_boards_name", "team_leg_enter", "team_leg_settle", "team_board_forfeit",
    "team_match_decide", "team_season_close", "team_cup_draw", "team_cup_round",
}  # fmt: skip


def _written_actions() -> list[tuple[str, ast.expr]]:
    """Every ``action=`` given to the audit writers in the project's code, with where it is."""
    found = []
    for package in ("league", "tournaments", "federation", "teamleagues", "contest", "config"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name not in WRITERS:
                    continue
                for keyword in node.keywords:
                    if keyword.arg == "action":
                        where = f"{path.relative_to(ROOT)}:{node.lineno}"
                        found.append((where, keyword.value))
    return found


def _members(expr: ast.expr) -> list[str] | None:
    """The ``AuditAction`` members an argument names (either side of a conditional), or None
    when it is anything else (a bare string, a variable)."""
    if isinstance(expr, ast.IfExp):
        body, orelse = _members(expr.body), _members(expr.orelse)
        return None if body is None or orelse is None else body + orelse
    if (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and expr.value.id == "AuditAction"
    ):
        return [expr.attr]
    return None


def test_the_stored_words_of_every_action_are_kept():
    assert {action.value for action in AuditAction} == STORED


def test_every_action_the_code_writes_is_a_declared_member():
    written = _written_actions()
    assert len(written) > 50  # the scan sees the services
    for where, expr in written:
        if where.startswith("league/kernel/audit.py"):
            continue  # audit_log hands its own argument on
        names = _members(expr)
        assert names is not None, f"{where}: the action is not an AuditAction member"
        for name in names:
            assert name in AuditAction.__members__, f"{where}: AuditAction.{name} is not declared"


def test_every_declared_action_is_written_somewhere():
    written = {name for _where, expr in _written_actions() for name in _members(expr) or []}
    assert set(AuditAction.__members__) - written == set()


@pytest.mark.parametrize("writer", [audit_log, audit_entry])
def test_an_undeclared_action_is_refused(writer, season):
    with pytest.raises(TypeError, match="not an AuditAction"):
        writer(actor=None, action="season_create", obj=season)
    assert not AuditEntry.objects.exists()


def test_a_games_history_reads_each_line_from_its_action(game, ann):
    """The writer and the sentence share the member: the history's line is its sentence."""
    entry = AuditEntry.objects.get(game=game, action=AuditAction.GAME_START)
    assert game_history(game)[0]["text"] == AuditAction.GAME_START.sentence % {
        "n": 1,
        "seats": ", ".join(entry.after["seats"]),
        "dealer": "Ann",
    }


def test_an_action_no_longer_declared_still_reads_as_its_name(game):
    AuditEntry.objects.create(action="table_tidy", object_type="Game", object_id=game.pk, game=game)
    assert game_history(game)[-1]["text"] == "Table tidy."


def test_a_history_line_names_a_team_ending_in_s_without_a_possessive(game, ann, cat):
    """Nobs's entry of deal 1 differs in Nobs's pegging: the line reads right in both languages."""
    from django.utils import translation

    from league.services.deals import deal_record
    from tests.factories import plain_deal

    deal_record(game=game, user=ann, number=1, data=plain_deal(0))
    deal_record(game=game, user=cat, number=1, data=plain_deal(0, pegging=(3, 4)))
    line = game_history(game)[-1]["text"]
    assert "pegging by Nobs 2 → 4" in line and "'s" not in line
    with translation.override("fr"):
        assert "jeu de Nobs 2 → 4" in game_history(game)[-1]["text"]


def test_a_ruling_reads_once_in_the_history_with_the_judges_name_once(game, ann, cat, judge):
    from league.models import Deal
    from league.selectors.games import stored_deal
    from league.services.disputes import dispute_rule, game_reject
    from tests.factories import play_until_over

    play_until_over(game, ann)
    dispute = game_reject(game=game, user=cat, claim="Deal 2: Bob had 9", deal_number=2)
    deal = stored_deal(Deal.objects.get(game=game, number=2, is_current=True))
    deal["shows"] = {**deal["shows"], "0": 7, "2": 9}  # the same total for Fifteen Two
    judge.username = "judge"  # the demo's judge: an account named for its role
    judge.save()
    dispute_rule(
        dispute=dispute,
        judge=judge,
        ruling="Bob counted his nine aloud.",
        rule_reference="S-3",
        corrections={2: deal},
    )
    history = game_history(game)
    said = [part for row in history for part in (row["text"], row["why"])]
    assert sum("Bob counted his nine aloud." in part for part in said) == 1
    assert {row["who"] for row in history[-2:]} == {"judge"}
    assert "hand of Bob 8 → 9" in history[-2]["text"]
    judge.username = "judy"
    judge.save()
    assert game_history(game)[-1]["who"] == "judy (judge)"
