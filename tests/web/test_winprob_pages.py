"""Win probability on the pages: the game's swing chart and the TV's bar, labelled as
information, in English and French; the standings never show it."""

from __future__ import annotations

import re

from django.urls import reverse

from tests.web.french import english_runs


def boards_url(week):
    return reverse("league:scoreboard_boards", args=[week.venue_id, week.pk])


def test_the_game_page_draws_the_swing_deal_by_deal(client, finished_game):
    body = client.get(reverse("league:game", args=[finished_game.pk])).content.decode()
    assert "The game&#x27;s swing" in body or "The game's swing" in body
    points = re.search(r'<polyline class="swing-line" points="([^"]+)"', body).group(1).split()
    assert len(points) == finished_game.deal_count + 1  # the start, then each deal
    assert "Information only" in body
    rows = re.findall(r'<th scope="row" class="swing-deal">([^<]+)</th>', body)
    assert rows == ["start", *[str(n) for n in range(1, finished_game.deal_count + 1)]]


def test_the_game_page_under_way_shows_the_chance_bar(client, half_game):
    body = client.get(reverse("league:game", args=[half_game.pk])).content.decode()
    assert "chance to win, from the board (information only)" in body
    home = int(re.search(r'data-home-chance="(\d+)"', body).group(1))
    assert 0 <= home <= 100


def test_the_swing_reads_in_french(client, finished_game, half_game):
    page = client.get(
        reverse("league:game", args=[finished_game.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Le fil de la partie" in page and "départ" in page
    section = page[
        page.index('class="card swing-card"') : page.index("</section>", page.index("swing-card"))
    ]
    assert english_runs(section, ["Fifteen Two", "Nobs"]) == []


def test_the_tv_shows_a_bar_for_a_game_under_way(client, venue_week, half_game):
    body = client.get(boards_url(venue_week)).content.decode()
    assert 'class="winbar winbar--tv"' in body
    assert "information only" in body
    french = client.get(boards_url(venue_week), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "à titre indicatif" in french


def test_the_standings_never_show_a_chance(client, finished_game):
    season = finished_game.match.week.season
    body = client.get(reverse("league:standings", args=[season.pk])).content.decode()
    assert "winbar" not in body and "chance to win" not in body


def test_each_show_says_its_percentile_among_all_hands(client, finished_game):
    from contest.luck import show_percentile
    from league.models import Deal

    first = Deal.objects.get(game=finished_game, number=1, is_current=True)
    points = first.shows["1"]  # Cat, the first to show after Ann's deal
    body = client.get(reverse("league:game", args=[finished_game.pk])).content.decode()
    want = f"Percentile {round(show_percentile(points))} among all hands (information only)"
    assert f'<strong title="{want}">{points}</strong>' in body
    french = client.get(
        reverse("league:game", args=[finished_game.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "parmi toutes les mains (à titre indicatif)" in french
