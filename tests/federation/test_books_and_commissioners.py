"""An event's federation books (the sanctioning fee per entrant, changed only with a reason, and
its Q pools shared by payout styles kept as data), the results laid out for the ACC's portal,
and the regional commissioner who reviews their region's results and puts clubs in it."""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.urls import reverse

from federation import selectors, services
from federation.models import ClubRegion, Commissioner, FeeRate, PayoutStyle, Region
from league.kernel.errors import Locked, NotAllowed, ValidationFailed
from league.models import AuditEntry
from tests import factories
from tests.federation.conftest import ACC, TRUSTED, finished_event
from tournaments import services as tournament_services

AUTUMN = dt.date(2026, 9, 1)


def style(code: str) -> PayoutStyle:
    return PayoutStyle.objects.get(code=code)


def rate(fed_admin, kind, day, cents, reason="Board vote"):
    return services.fee_rate_record(
        user=fed_admin,
        rate=FeeRate(kind=kind, effective_from=day, per_entrant=cents, reason=reason),
    )


@pytest.fixture
def main(clubs):
    # 8 entrants of a 12-game main: Ann and Bob qualify, Ann first.
    return finished_event("Autumn Main", club=clubs[0], day=AUTUMN, kind="main", games=12)


@pytest.mark.parametrize(
    ("code", "ann", "bob"),
    [
        ("equal", 1500, 1500),  # 3,000 in, two qualifiers bought in: halves
        ("top-double", 2000, 1000),  # weights 2 and 1
        ("graduated", 2000, 1000),  # two places: weights 2 and 1
    ],
)
def test_a_q_pool_is_shared_among_its_qualifiers_by_its_payout_style(
    main, director, code, ann, bob
):
    services.q_pool_set(
        user=director,
        tournament=main,
        number=1,
        entry=1000,
        style=style(code),
        entrants=["Ann", "Bob", "Cy"],
    )
    books = selectors.event_books(main)
    (pool,) = books.pools
    assert pool.collected == 3000
    assert pool.paid == [("Ann", ann), ("Bob", bob)]


def test_a_graduated_pool_of_four_qualifiers_pays_four_three_two_one(clubs, director):
    field = [f"P{i:02}" for i in range(16)]
    for name in field:
        factories.PlayerFactory(name=name)
    event = finished_event("Big", club=clubs[0], day=AUTUMN, games=12, field=field)
    services.q_pool_set(
        user=director,
        tournament=event,
        number=2,
        entry=500,
        style=style("graduated"),
        entrants=field,
    )
    package = selectors.results_package(event)
    qualifiers = [r["entrant"] for r in package["rows"] if r["qualified"]]
    (pool,) = selectors.event_books(event).pools
    # 16 x $5 = $80; the four qualifiers, in standings order, weigh 4, 3, 2, 1 of 10.
    assert pool.paid == list(zip(qualifiers, [3200, 2400, 1600, 800], strict=True))


def test_q_pools_are_refused_in_plain_words(main, clubs, director, statistician):
    args = {"user": director, "entry": 1000, "style": style("equal"), "entrants": ["Ann"]}
    with pytest.raises(ValidationFailed, match="at most two Q pools"):
        services.q_pool_set(tournament=main, number=3, **args)
    with pytest.raises(ValidationFailed, match="Not entered in this event: Zed"):
        services.q_pool_set(tournament=main, number=1, **{**args, "entrants": ["Zed"]})
    with pytest.raises(NotAllowed, match="directors"):
        services.q_pool_set(tournament=main, number=1, **{**args, "user": statistician})
    night = finished_event("A night", club=clubs[0], day=AUTUMN, kind="club-night", games=9)
    with pytest.raises(ValidationFailed, match="main event or a consolation"):
        services.q_pool_set(tournament=night, number=1, **args)
    services.results_send(user=director, tournament=main)
    with pytest.raises(Locked, match="as they were sent"):
        services.q_pool_set(tournament=main, number=1, **args)
    assert not main.q_pools.exists()


def test_the_sanctioning_fee_is_a_rate_per_entrant_by_kind_changed_only_with_a_reason(
    main, fed_admin, director
):
    with pytest.raises(ValidationFailed, match="kept on record"):
        rate(fed_admin, "main", dt.date(2026, 8, 1), 200, reason=" ")
    with pytest.raises(NotAllowed, match="federation admin"):
        rate(director, "main", dt.date(2026, 8, 1), 200)
    rate(fed_admin, "main", dt.date(2026, 8, 1), 200)
    rate(fed_admin, "main", dt.date(2026, 10, 1), 300, reason="New year's budget")
    rate(fed_admin, "consolation", dt.date(2026, 8, 1), 100)
    # The main of 1 Sep: 8 entrants at the rate of 1 Aug ($2): $16.
    books = selectors.event_books(main)
    assert (books.entrants, books.rate.per_entrant, books.fee) == (8, 200, 1600)
    entry = AuditEntry.objects.filter(action="fee_rate_set").order_by("pk")[1]
    assert entry.reason == "New year's budget" and entry.after["per_entrant"] == 300


def test_the_books_page_opens_a_q_pool_and_shows_the_fee_in_french(
    client, main, director, fed_admin
):
    rate(fed_admin, "main", dt.date(2026, 8, 1), 200)
    client.force_login(director)
    url = reverse("federation:books", args=[main.pk])
    client.post(
        url,
        {
            "number": "1",
            "entry": "1000",
            "style": style("top-double").pk,
            "entrants": ["Ann", "Bob"],
        },
    )
    page = client.get(url, headers={"accept-language": "fr"}).content.decode()
    assert "Droit d'homologation : 8 inscrits à 2,00 $ : 16,00 $" in page
    assert "2 inscrits à 10,00 $ : 20,00 $" in page
    assert 'data-q-pool="1"' in page and "Ann" in page
    client.post(url, {"number": "x", "entry": "", "style": ""})
    assert main.q_pools.count() == 1


def test_the_portal_page_lists_every_field_in_the_portals_order(
    client, main, director, statistician, fed_admin
):
    rate(fed_admin, "main", dt.date(2026, 8, 1), 200)
    sent = services.results_send(user=director, tournament=main)
    services.results_approve(user=statistician, submission=sent)
    sheet = selectors.portal_sheet(sent)
    assert [label for label, _ in sheet.event] == [
        "ACC club number",
        "Club",
        "Region",
        "Date",
        "Event",
        "Event kind",
        "Qualifying games",
        "Entrants",
        "Qualifiers",
        "Sanctioning fee (cents)",
    ]
    assert dict(sheet.event)["Sanctioning fee (cents)"] == 1600
    assert sheet.columns[:3] == ["Place", "ACC number", "Player"]
    first = sheet.lines[0]
    assert first[:3] == [1, ACC["Ann"], "Ann"] and first[-1] == 62  # her stored points
    client.force_login(director)
    page = client.get(reverse("federation:portal", args=[sent.pk])).content.decode()
    assert ACC["Ann"] in page and "data-portal-players" in page
    french = client.get(
        reverse("federation:portal", args=[sent.pk]), headers={"accept-language": "fr"}
    )
    text = html.unescape(french.content.decode())
    assert "Pour le portail de l'ACC" in text and "Droit d'homologation (cents)" in text
    client.force_login(factories.UserFactory())
    assert client.get(reverse("federation:portal", args=[sent.pk])).status_code == 403


@pytest.fixture
def commissioner(regions):
    user = factories.UserFactory(username="cora", is_staff=True)
    Commissioner.objects.create(user=user, region=regions[0])  # the Atlantic: Crooked Peg
    return user


def test_a_commissioner_reviews_their_regions_results_and_no_others(
    clubs, director, commissioner, client
):
    east = finished_event("East", club=clubs[0], day=AUTUMN, kind="consolation", games=7)
    west = finished_event("West", club=clubs[1], day=AUTUMN, kind="consolation", games=7)
    sent_east = services.results_send(user=director, tournament=east)
    sent_west = services.results_send(user=director, tournament=west)
    assert list(selectors.review_queue(commissioner)) == [sent_east]
    with pytest.raises(NotAllowed, match="commissioners"):
        services.results_approve(user=commissioner, submission=sent_west)
    client.force_login(commissioner)
    assert client.get(reverse("federation:review", args=[sent_west.pk])).status_code == 403
    queue = client.get(reverse("federation:queue")).content.decode()
    assert "data-my-regions" in queue and "Atlantic" in queue
    assert ">East<" in queue and ">West<" not in queue
    services.results_return(user=commissioner, submission=sent_east, reason="Cy's card.")


def test_a_commissioner_puts_a_club_with_no_region_in_theirs_but_moves_none(
    clubs, regions, commissioner, client
):
    free = tournament_services.club_create(user=TRUSTED, name="Double Run")
    services.club_region_set(user=commissioner, club=free, region=regions[0])
    assert ClubRegion.objects.get(club=free).region == regions[0]
    with pytest.raises(NotAllowed, match="another region"):
        services.club_region_set(user=commissioner, club=clubs[1], region=regions[0])
    with pytest.raises(NotAllowed, match="commissioner"):
        services.club_region_set(user=commissioner, club=free, region=regions[1])
    assert AuditEntry.objects.filter(action="club_region_set").count() == 1
    client.force_login(commissioner)
    other = tournament_services.club_create(user=TRUSTED, name="Fifteen Two")
    url = reverse("federation:region_clubs", args=[regions[0].pk])
    client.post(url, {"club": other.pk})
    assert ClubRegion.objects.get(club=other).region == regions[0]
    page = client.get(url, headers={"accept-language": "fr"}).content.decode()
    assert "Fifteen Two" in page and "Atlantic : clubs" in page
    assert client.get(reverse("federation:region_clubs", args=[regions[1].pk])).status_code == 403
    assert Region.objects.count() == 2
