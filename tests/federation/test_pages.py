"""The federation's doors: the director's button on a closed night, the statistician's review
pages, and the public tables and career page, in English and in French."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from federation.models import PointsRow, Submission, SubmissionStatus
from tests.federation.conftest import ACC, finished_event

AUTUMN = dt.date(2026, 9, 1)


def test_a_director_sends_a_closed_night_up_from_the_workspace_and_fixes_what_comes_back(
    client, clubs, regions, director, statistician
):
    event = finished_event(
        "Fall Consolation", club=clubs[0], day=AUTUMN, kind="consolation", games=7
    )
    night_url = reverse("direct:night", args=[event.pk])
    client.force_login(director)
    page = client.get(night_url).content.decode()
    assert "data-send-up" in page and "Not sent up yet." in page

    client.post(reverse("federation:send", args=[event.pk]))
    submission = Submission.objects.get(tournament=event)
    assert "data-send-up" not in client.get(night_url).content.decode()

    client.force_login(statistician)
    queue = client.get(reverse("federation:queue")).content.decode()
    assert "Fall Consolation" in queue
    review_url = reverse("federation:review", args=[submission.pk])
    review = client.get(review_url).content.decode()
    assert ACC["Ann"] in review and "data-approve" in review
    client.post(review_url, {"op": "return", "reason": "Check table 3's card."})

    client.force_login(director)
    page = client.get(night_url).content.decode()
    assert "Sent back: Check table 3&#x27;s card." in page and "Send the results again" in page
    client.post(reverse("federation:send", args=[event.pk]))

    client.force_login(statistician)
    client.post(review_url, {"op": "approve"})
    submission.refresh_from_db()
    assert submission.status == SubmissionStatus.APPROVED
    assert PointsRow.objects.get(tournament=event, name="Ann").points == 22


def test_only_statisticians_see_the_review(client, clubs, director):
    client.force_login(director)
    response = client.get(reverse("federation:queue"))
    assert response.status_code == 403
    assert "Only the federation&#x27;s statisticians" in response.content.decode()


def approve_one(clubs, director, statistician, *, club=0):
    from federation import services

    event = finished_event("Ranked", club=clubs[club], day=AUTUMN, kind="consolation", games=7)
    sent = services.results_send(user=director, tournament=event)
    services.results_approve(user=statistician, submission=sent)
    return event


def test_the_national_and_regional_tables_and_a_career_in_english_and_french(
    client, clubs, regions, director, statistician, django_assert_max_num_queries
):
    approve_one(clubs, director, statistician, club=1)
    with django_assert_max_num_queries(6):
        page = client.get(reverse("federation:national")).content.decode()
    assert "National table" in page and f'data-member="{ACC["Ann"]}"' in page
    assert "<strong>22</strong>" in page
    french = client.get(reverse("federation:national"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Classement national" in french and "<strong>22</strong>" in french

    west = client.get(reverse("federation:region", args=[regions[1].pk])).content.decode()
    assert "Prairies: regional table" in west and "<strong>22</strong>" in west
    east = client.get(reverse("federation:region", args=[regions[0].pk])).content.decode()
    assert "No approved results this season yet." in east

    career = client.get(reverse("federation:member", args=[ACC["Ann"]]), HTTP_ACCEPT_LANGUAGE="fr")
    text = career.content.decode()
    assert "22 points en 1 tournoi" in text and "Skunk Line" in text
    assert client.get(reverse("federation:member", args=["999999"])).status_code == 404


def test_the_review_and_the_career_read_in_french(client, clubs, director, statistician):
    event = finished_event("Automne", club=clubs[0], day=AUTUMN, kind="consolation", games=7)
    from federation import services

    sent = services.results_send(user=director, tournament=event)
    client.force_login(statistician)
    queue = client.get(reverse("federation:queue"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Résultats à vérifier" in queue and "Automne" in queue
    review = client.get(
        reverse("federation:review", args=[sent.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "7 parties qualificatives, 8 inscrits, 2 qualifiés" in review
    assert "Approuver" in review and "Renvoyer au directeur" in review
    services.results_approve(user=statistician, submission=sent)
    client.logout()
    career = client.get(
        reverse("federation:member", args=[ACC["Bob"]]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Numéro ACC 1001" in career and "Saison 2026–2027" in career


def test_a_long_table_is_read_a_page_of_places_at_a_time(
    client, clubs, director, statistician, monkeypatch
):
    from federation import views

    monkeypatch.setattr(views, "PER_PAGE", 1)
    approve_one(clubs, director, statistician)  # two members earn points: Ann 22, Bob 3
    first = client.get(reverse("federation:national")).content.decode()
    assert "Places 1 to 1 of 2" in first and "data-next-page" in first
    assert f'data-member="{ACC["Ann"]}"' in first and f'data-member="{ACC["Bob"]}"' not in first
    second = client.get(reverse("federation:national") + "?season=2026&page=2").content.decode()
    assert f'data-member="{ACC["Bob"]}"' in second and "data-next-page" not in second
