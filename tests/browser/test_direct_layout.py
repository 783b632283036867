"""The director's workspace fits every screen it is used on: a phone (360, 390), a tablet
(768, 1024) and a desk (1920), in English and French, at each step of a night (the field and
check-in, a round under way with a table the ACC rule settled, two cards that disagree and its
clock, the playoffs with a split pair of playoff cards), and the player's playoff card. Nothing
overflows its box; a width that does is kept as a screenshot in artifacts/screenshots/layout/
(every width with PEGBOARD_SCREENSHOTS=all)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from league.kernel.permissions import JUDGES, TOURNAMENT_DIRECTORS
from league.models import Player
from tests import factories
from tests.browser.conftest import context_in, log_in, set_language
from tests.browser.layout import fits_at_widths
from tournaments import services
from tournaments.logic import TournamentRules

# French, whose longer words are the harder fit, in make test; English, the same pages and
# parts again, in make test-slow (CI runs both).
LANGUAGES = ["fr", pytest.param("en", marks=pytest.mark.slow)]
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 390, 768, 1024, 1920)

# Long names, as people have them: the layout must wrap them, not overflow.
NAMES = [
    "Marie-Françoise Beauchemin-Laflamme",
    "Bob",
    "Cy Young",
    "Dee",
    "Evangeline Worthington-Smythe",
    "Flo",
    "Gus",
    "Hal",
]


def workspace(live_server) -> tuple[dict[str, str], str]:
    director = factories.UserFactory(username="dora")
    for group in (TOURNAMENT_DIRECTORS, JUDGES):
        director.groups.add(Group.objects.get_or_create(name=group)[0])
    club = services.club_found(user=director, name="The Crooked Peg Cribbage Club of Saint-Lin")
    services.club_members_add(user=director, club=club, names=[*NAMES, "Ida", "Jo"])
    services.club_defaults_set(
        user=director,
        club=club,
        changes={  # each night opens a special-hand pot won by every special hand
            "entry_fee": 1000,
            "pot_hands": ["24", "28", "29", "four_of_a_kind"],
            "pot_fee": 200,
        },
    )

    field = services.night_tonight(user=director, club=club)
    services.entrants_add(user=director, tournament=field, names=NAMES[:5], check_in=False)
    services.entrant_check_in(user=director, entrant=field.entrants.order_by("pk").first())

    under_way = services.night_tonight(user=director, club=club)
    services.entrants_add(user=director, tournament=under_way, names=NAMES, check_in=True)
    rnd = services.round_seat_next(user=director, tournament=under_way)
    services.round_start(user=director, round=rnd)
    ruled, table = rnd.games.order_by("table")[:2]
    # Table 1: ACC Rule 12.2(b) settles it (the live view shows the clause and each side's
    # figure); then, the rule off, table 2's two cards wait for the checker.
    for i, side in enumerate((ruled.first, ruled.second)):
        services.scorecard_enter(
            user=services_trusted(), game=ruled, side=side, winner=ruled.first, loser_score=90 + i
        )
    services.tournament_update(user=director, tournament=under_way, changes={"acc_rules": False})
    for i, side in enumerate((table.first, table.second)):
        services.scorecard_enter(
            user=services_trusted(), game=table, side=side, winner=table.first, loser_score=90 + i
        )

    playoffs = services.tournament_create(
        user=director,
        name="Playoffs night",
        games_per_entrant=1,
        rules=TournamentRules(qualify_one_in=2),
    )
    services.entrants_add(user=director, tournament=playoffs, names=NAMES[:4], check_in=True)
    for game in services.round_seat_next(user=director, tournament=playoffs).games.all():
        services.scorecard_settle(user=director, game=game, winner=game.first, loser_score=80)
    services.bracket_draw(user=director, tournament=playoffs)
    final = playoffs.playoff_matches.get(round=1)
    for i, side in enumerate((final.top, final.bottom)):
        services.playoff_card_enter(
            user=services_trusted(), match=final, side=side, winner=side, loser_score=100 + i
        )
    player = Player.objects.get(name=final.top.name)
    player.user = factories.UserFactory(username="topseed")
    player.save()

    base = live_server.url
    return {
        "direct-home": f"{base}/direct/",
        "direct-club": f"{base}/direct/clubs/{club.pk}/",
        "direct-field": f"{base}/direct/nights/{field.pk}/",
        "direct-round": f"{base}/direct/nights/{under_way.pk}/",
        "direct-playoffs": f"{base}/direct/nights/{playoffs.pk}/",
        "night-tv-clock": f"{base}/tournaments/{under_way.pk}/tv/",
    }, f"{base}/tournaments/playoff/{final.pk}/card/"


def services_trusted():
    from league.kernel.permissions import Trusted

    return Trusted(None, "the layout test's cards")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_workspace_page_overflows_at_any_width(live_server, browser, shot, language):
    urls, card = workspace(live_server)
    problems = {}
    context = context_in(browser, live_server, language)
    page = context.new_page()
    log_in(page, live_server, "dora")
    for name, url in urls.items():
        problems |= fits_at_widths(
            page,
            url,
            widths=WIDTHS,
            shot=shot,
            name=f"layout/{name}-{{width}}-{language}",
            on_purpose=("div.bracket", "div.table-scroll"),  # a wide table scrolls in its box
        )
    assert page.locator("[data-clock]").count() == 1  # the TV shows the round clock
    page.goto(urls["direct-round"])
    assert page.locator("[data-state='disagree'] .direct-settle").count() == 1
    assert page.locator("[data-state='done'] [data-acc-rule='12.2(b)']").count() == 1
    assert page.locator("[data-pot-hands]").count() == 1  # the night's special-hand pot
    page.goto(urls["direct-playoffs"])
    assert page.locator("[data-cards-disagree]").count() == 1
    context.clear_cookies()
    set_language(context, live_server, language)
    log_in(page, live_server, "topseed")
    problems |= fits_at_widths(
        page, card, widths=WIDTHS, shot=shot, name=f"layout/playoff-card-{{width}}-{language}"
    )
    context.close()
    assert problems == {}
