"""The judge's dispute page fits a phone: at 360 and 390 px, with a dispute raised from two
rival entries (both versions shown) and a deal opened in the judge's form, nothing is wider than
the screen and nothing overflows its own box."""

from __future__ import annotations

import pytest

from league.models import Deal, Dispute
from league.services.disputes import dispute_raise
from tests.browser.conftest import rival_deal_3
from tests.browser.layout import OVERFLOWS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 390])
def test_the_judges_dispute_page_fits_a_phone(
    live_server, browser, shot, game, ann, cat, judge, width
):
    rival_deal_3(game, ann, cat)
    rival = Deal.objects.get(game=game, number=3, is_rival=True)
    dispute = dispute_raise(
        game=game,
        user=cat,
        claim="Deal 3 was entered twice.",
        deal_number=3,
        rival=rival,
    )
    assert Dispute.objects.filter(pk=dispute.pk, rival=rival).exists()
    judge.is_staff = True
    judge.save()

    context = browser.new_context(
        viewport={"width": width, "height": 800}, locale="en-GB", service_workers="block"
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "judy")
    page.fill("#id_password", "pass-word-123")
    page.click("input[type=submit]")
    page.goto(f"{live_server.url}/admin/league/dispute/{dispute.pk}/change/")
    page.wait_for_selector("[data-judge-deal='3']")
    problems = {"page": page.evaluate(OVERFLOWS)}
    shot(page, f"judge-dispute-{width}")
    page.click("[data-judge-edit='3']")
    page.wait_for_selector("[data-judge-versions] .judge-version")
    assert "The other entry (by cat)" in page.inner_text("[data-judge-versions]")
    problems["deal 3 open"] = page.evaluate(OVERFLOWS)
    shot(page, f"judge-dispute-deal-{width}")
    context.close()
    assert problems == {"page": [], "deal 3 open": []}
