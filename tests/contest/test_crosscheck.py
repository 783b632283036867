"""ACC Rule 12.2, clause by clause: a table of card pairs and what the checkers write."""

import pytest

from contest.crosscheck import (
    Claim,
    Outcome,
    Resolution,
    Unsettled,
    qualifiers_to_tell,
    resolve,
)

W, L = True, False

# (first card, second card, first qualifies, second qualifies) -> first, second, clauses
CASES = [
    # The cards agree: nothing to apply.
    (Claim(W, 20), Claim(L, 20), False, False, Outcome(W, 20), Outcome(L, 20), ()),
    # (a) the rule's own example: a qualifier's 21-point win against a 16-point loss.
    (Claim(W, 21), Claim(L, 16), True, False, Outcome(W, 16), Outcome(L, 16), ("a",)),
    # (a) the qualifier is the loser: it takes the larger loss.
    (Claim(W, 21), Claim(L, 16), False, True, Outcome(W, 21), Outcome(L, 21), ("a",)),
    # (a) the qualifier listed second and winning: the smaller win.
    (Claim(L, 12), Claim(W, 30), False, True, Outcome(L, 12), Outcome(W, 12), ("a",)),
    # (b) the rule's own example: 17 against 16 between two qualifiers.
    (Claim(W, 17), Claim(L, 16), True, True, Outcome(W, 16), Outcome(L, 17), ("b",)),
    (Claim(L, 9), Claim(W, 11), True, True, Outcome(L, 11), Outcome(W, 9), ("b",)),
    # (c) a spread on one card only goes on the blank one, whoever qualifies.
    (Claim(W, None), Claim(L, 14), True, False, Outcome(W, 14), Outcome(L, 14), ("c",)),
    (Claim(W, 33), Claim(L, None), False, False, Outcome(W, 33), Outcome(L, 33), ("c",)),
    # (d) both claim a win, one spread in plus and one in minus: plus takes the win.
    (
        Claim(W, 10, "minus"),
        Claim(W, 10, "plus"),
        False,
        False,
        Outcome(L, 10),
        Outcome(W, 10),
        ("d",),
    ),
    # (d) both claim a loss, first in the plus column.
    (
        Claim(L, 8, "plus"),
        Claim(L, 8, "minus"),
        False,
        False,
        Outcome(W, 8),
        Outcome(L, 8),
        ("d",),
    ),
    # (d) then (a) on the spreads: the winner found by (d) qualifies, the smaller win.
    (
        Claim(W, 25, "plus"),
        Claim(W, 19, "minus"),
        True,
        False,
        Outcome(W, 19),
        Outcome(L, 19),
        ("d", "a"),
    ),
    # (e) both claim a win with the spreads in the plus column: a loss for both.
    (Claim(W, 12), Claim(W, 15), True, True, Outcome(L, 12), Outcome(L, 15), ("e",)),
    # (e) both claim a loss, spreads in the minus column: a loss for both.
    (Claim(L, 5), Claim(L, 5), False, False, Outcome(L, 5), Outcome(L, 5), ("e",)),
    # (e) both claim a loss with different spreads: each keeps its own in the minus column.
    (Claim(L, 7), Claim(L, 30), True, False, Outcome(L, 7), Outcome(L, 30), ("e",)),
    # (e) both claim a win with both spreads in the minus column: still a loss for both.
    (
        Claim(W, 9, "minus"),
        Claim(W, 4, "minus"),
        False,
        True,
        Outcome(L, 9),
        Outcome(L, 4),
        ("e",),
    ),
    # (d) then (b): the win goes to the plus column, then two qualifiers take the worse.
    (
        Claim(L, 20, "plus"),
        Claim(L, 14, "minus"),
        True,
        True,
        Outcome(W, 14),
        Outcome(L, 20),
        ("d", "b"),
    ),
    # (d) then (h): each qualifier's own card already holds the worse figure; both stand.
    (
        Claim(L, 14, "plus"),
        Claim(L, 20, "minus"),
        True,
        True,
        Outcome(W, 14),
        Outcome(L, 20),
        ("d", "h"),
    ),
    # (f) one win, but both spreads in the plus column: the win stands, the column moves.
    (
        Claim(W, 22, "plus"),
        Claim(L, 22, "plus"),
        False,
        False,
        Outcome(W, 22),
        Outcome(L, 22),
        ("f",),
    ),
    # (f) both in the minus column, and then (a) for a qualifying loser.
    (
        Claim(W, 40, "minus"),
        Claim(L, 22, "minus"),
        False,
        True,
        Outcome(W, 40),
        Outcome(L, 40),
        ("f", "a"),
    ),
    # (h) "no harm, no foul": the qualifier claims a 16-point win, the opponent a 21-point
    # loss; the qualifier's error is already to their disadvantage, both entries stand.
    (Claim(W, 16), Claim(L, 21), True, False, Outcome(W, 16), Outcome(L, 21), ("h",)),
    # (h) a qualifying loser who wrote the larger loss keeps it; the winner keeps its own.
    (Claim(W, 12), Claim(L, 30), False, True, Outcome(W, 12), Outcome(L, 30), ("h",)),
    # (h) between two qualifiers: the winner wrote the smaller win, the loser the larger loss.
    (Claim(L, 17), Claim(W, 16), True, True, Outcome(L, 17), Outcome(W, 16), ("h",)),
    # (f) then (h): the column corrected, then the qualifier's own smaller win stands.
    (
        Claim(W, 10, "minus"),
        Claim(L, 25, "minus"),
        True,
        False,
        Outcome(W, 10),
        Outcome(L, 25),
        ("f", "h"),
    ),
]


@pytest.mark.parametrize(
    ("first", "second", "fq", "sq", "want_first", "want_second", "clauses"), CASES
)
def test_rule_12_2(first, second, fq, sq, want_first, want_second, clauses):
    got = resolve(first, second, first_qualifies=fq, second_qualifies=sq)
    assert got == Resolution(want_first, want_second, clauses)


@pytest.mark.parametrize(
    ("first", "second", "fq", "sq", "want_first", "want_second", "clauses"),
    [
        # Without (h), the qualifier's own smaller win is copied onto both cards by (a).
        (Claim(W, 16), Claim(L, 21), True, False, Outcome(W, 16), Outcome(L, 16), ("a",)),
        # ... and a qualifying loser's larger loss onto both.
        (Claim(W, 12), Claim(L, 30), False, True, Outcome(W, 30), Outcome(L, 30), ("a",)),
        # Between two qualifiers (b) gives the same figures (h) would have left.
        (Claim(L, 17), Claim(W, 16), True, True, Outcome(L, 17), Outcome(W, 16), ("b",)),
    ],
)
def test_with_no_harm_no_foul_off_a_and_b_apply(
    first, second, fq, sq, want_first, want_second, clauses
):
    got = resolve(first, second, first_qualifies=fq, second_qualifies=sq, no_harm=False)
    assert got == Resolution(want_first, want_second, clauses)


def test_no_harm_no_foul_never_touches_a_qualifier_whose_error_helped_them():
    """(h) applies only when the qualifier's own card is the worse figure for them: the
    rule's own example for (a) (a 21-point win claimed against a 16-point loss) still gives
    the qualifier 16."""
    got = resolve(Claim(W, 21), Claim(L, 16), first_qualifies=True, second_qualifies=False)
    assert isinstance(got, Resolution) and got.clauses == ("a",)
    assert got.first == Outcome(W, 16)


def test_no_harm_no_foul_needs_an_apparent_qualifier():
    """Nobody near the cut: (h) names no one, so the checkers still decide."""
    got = resolve(Claim(W, 16), Claim(L, 21), first_qualifies=False, second_qualifies=False)
    assert got == Unsettled("no_qualifier")


@pytest.mark.parametrize(
    ("first", "second", "fq", "sq", "told"),
    [
        # (a): the qualifier's 21 became 16: they are told; the opponent is no qualifier.
        (Claim(W, 21), Claim(L, 16), True, False, ("first",)),
        # (b): both qualifiers' cards changed: both told.
        (Claim(W, 17), Claim(L, 16), True, True, ("first", "second")),
        # (h): both entries stand, nobody's card changed, nobody told.
        (Claim(W, 16), Claim(L, 21), True, False, ()),
        # (c): the qualifier's blank spread filled in: told.
        (Claim(W, None), Claim(L, 14), True, False, ("first",)),
        # (c): two qualifiers, only the second's blank spread filled in: only they are told.
        (Claim(W, 14), Claim(L, None), True, True, ("second",)),
        # (d): the qualifier whose loss became a win is told; the other's card stood as written.
        (Claim(L, 8, "plus"), Claim(L, 8, "minus"), True, True, ("first",)),
        # (e): both claimed the win, both lose: both qualifiers told.
        (Claim(W, 12), Claim(W, 15), True, True, ("first", "second")),
        # (f): only the column moved on the loser's card, and the loser qualifies.
        (Claim(W, 22, "plus"), Claim(L, 22, "plus"), False, True, ("second",)),
    ],
)
def test_the_qualifiers_whose_card_changed_are_told(first, second, fq, sq, told):
    """12.2(i): the affected apparent qualifiers, and only they, are named to be told."""
    got = resolve(first, second, first_qualifies=fq, second_qualifies=sq)
    assert isinstance(got, Resolution)
    assert qualifiers_to_tell(first, second, got, first_qualifies=fq, second_qualifies=sq) == told


@pytest.mark.parametrize(
    ("first", "second", "fq", "sq", "reason"),
    [
        # Different spreads and nobody near the cut: the rule names no one to disadvantage.
        (Claim(W, 21), Claim(L, 16), False, False, "no_qualifier"),
        # A blank win/loss column: not a case of the rule.
        (Claim(None, 21), Claim(L, 21), True, False, "no_win_column"),
        # No spread on either card.
        (Claim(W, None), Claim(L, None), True, True, "no_spread"),
        # Both claim a win and one spread is blank: no column to compare.
        (Claim(W, None), Claim(W, 12), True, False, "no_spread"),
    ],
)
def test_what_the_rule_cannot_settle(first, second, fq, sq, reason):
    assert resolve(first, second, first_qualifies=fq, second_qualifies=sq) == Unsettled(reason)


def test_one_result_only_when_the_two_sides_mirror_each_other():
    a = resolve(Claim(W, 21), Claim(L, 16), first_qualifies=True, second_qualifies=False)
    b = resolve(Claim(W, 17), Claim(L, 16), first_qualifies=True, second_qualifies=True)
    e = resolve(Claim(W, 12), Claim(W, 12), first_qualifies=False, second_qualifies=False)
    assert isinstance(a, Resolution) and a.one_result and a.clause == "12.2(a)"
    assert isinstance(b, Resolution) and not b.one_result and b.clause == "12.2(b)"
    assert isinstance(e, Resolution) and not e.one_result


@pytest.mark.parametrize(
    ("first", "second", "fq", "sq", "signed"),
    [
        # (b) with two spreads: the winner +16, the loser -17, stored for each side.
        (Claim(W, 17), Claim(L, 16), True, True, (16, -17)),
        # (e): a loss for both, each its own spread in the minus column.
        (Claim(W, 12), Claim(W, 15), True, True, (-12, -15)),
        (Claim(L, 7), Claim(L, 30), False, False, (-7, -30)),
    ],
)
def test_two_sided_results_give_each_side_its_own_signed_figure(first, second, fq, sq, signed):
    got = resolve(first, second, first_qualifies=fq, second_qualifies=sq)
    assert isinstance(got, Resolution) and not got.one_result
    assert (got.first.signed, got.second.signed) == signed
    # The standings add these: nobody gains what the other loses, and nobody gains more
    # than either card claimed for them.
    assert sum(signed) <= 0
    assert got.first.signed <= max(first.spread, second.spread)


def test_the_resolution_never_favours_an_apparent_qualifier():
    """Whatever the two spreads, a lone qualifier never ends better than either card said."""
    for q_first in (True, False):
        for mine in range(1, 40, 3):
            for theirs in range(1, 40, 5):
                if mine == theirs:
                    continue
                got = resolve(
                    Claim(W, mine),
                    Claim(L, theirs),
                    first_qualifies=q_first,
                    second_qualifies=not q_first,
                )
                assert isinstance(got, Resolution)
                signed = got.first.spread if q_first else -got.second.spread
                claimed = [mine, theirs] if q_first else [-mine, -theirs]
                assert signed == min(claimed)
