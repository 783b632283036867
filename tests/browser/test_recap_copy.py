"""The week's story on a phone: the "Copy the text" button puts the whole plain text on the
clipboard, ready to paste into a newsletter or a post."""

from __future__ import annotations

from league.models import Week


def test_the_copy_button_puts_the_story_on_the_clipboard(live_server, browser, played_season):
    week = Week.objects.get(season=played_season, number=2)
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="en-GB", service_workers="block"
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/weeks/{week.pk}/story/")
        text = page.locator("#recap-text").input_value()
        assert "His Heels beat Fifteen Two by 2 games to 1." in text
        page.get_by_role("button", name="Copy the text").click()
        page.get_by_role("button", name="Copied").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == text
    finally:
        context.close()
