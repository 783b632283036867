"""Every page in French reads in French: each page the URL resolver knows (the public pages,
the entry page, the TV, the organiser's workspace, the rules reference, the tournament pages)
and the judges' admin, walked as a visitor, a captain, an organiser and a judge on the demo
league and club night, with no English sentence left on any of them.

What counts as English: a whole word from a short list of very common English words that are
not French words too (``ENGLISH``), in the text a person reads (headings, cells, buttons,
labels, the ``title``/``aria-label``/``placeholder``/``alt`` attributes). Left out before the
check: the data (team, player, league, season, venue and tournament names, usernames, cards
like ``5H``), scripts and styles, ``<code>``/``<kbd>``, anything marked ``lang`` other than
French (the language switcher's "English"), and English the French quotes on purpose between
guillemets (« two for his heels »: the rules reference cites the league sheet's own words).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from federation.models import Region
from league import models
from league.checks import team_of
from league.kernel.notify import unsubscribe_token
from league.kernel.permissions import Trusted
from league.models import Deal, Game, GameStatus, Match, Player, Team, Week
from league.services.availability import availability_link
from league.services.demo import build_demo
from league.services.disputes import dispute_raise
from league.services.people import invitation_link
from league.services.signin_links import signin_link_token
from tests.web.french import english_runs, untranslated_runs
from tournaments import services
from tournaments.demo import build_demo_club_season, build_demo_night
from tournaments.models import (
    Club,
    ClubSeason,
    Entrant,
    EventFamily,
    Purse,
    Round,
    TableGame,
    Tournament,
)

pytestmark = pytest.mark.django_db

#: Django's own admin strings that its French leaves in English (its search icon's text and
#: a yes/no icon's text): not ours to translate; allowed on the admin's pages only.
DJANGOS_OWN = frozenset({"Search", "True", "False"})


# --- The pages: every URL pattern, with real ids --------------------------------------------

#: URL names that are not pages a person reads (data for scripts, files, redirects, POST-only
#: actions) and why. Every other name must be in ``pages()``.
NOT_PAGES = {
    "direct:floor": "directors only: walked in French in tests/tournaments/test_floor.py",
    "registration:event": "walked in French in tests/tournaments/test_registration_pages.py",
    "registration:flyer": "walked in French in tests/tournaments/test_registration_pages.py",
    "registration:page": "a player's token: walked in French in test_registration_pages.py",
    "registration:direct": "directors only: walked in French in test_registration_pages.py",
    "registration:qr": "an image (the event page's address as a QR code), no words",
    "league:service_worker": "the service worker's script",
    "league:manifest": "the web app's manifest (its name is the league's, data)",
    "league:language": "redirects after choosing a language",
    "league:game_live": "JSON for the game page's script",
    "league:scoreboard_boards": "the TV's boards, polled as JSON",
    "tournaments:version": "a number the TV and bracket poll (JSON)",
    "tournaments:night_report_csv": "a CSV file for the ACC's online entry (data)",
    "tournaments:season_report_csv": "a CSV file for the ACC's online entry (data)",
    "tournaments:playoff_card": "walked in test_the_playoff_card_and_workspace_read_in_french "
    "(needs the bracket drawn and a player in it)",
    "league:score_show": "JSON: its French is tested in test_i18n",
    "league:jsi18n": "the French catalogue itself",
    "league:start_game": "a form posted from the match page (its errors show there)",
    "league:confirm": "POST only",
    "league:cancel_game": "POST only",
    "league:reject": "POST only",
    "league:dispute": "POST only",
    "league:withdraw_rival": "POST only",
    "league:withdraw_dispute": "POST only",
    "league:welcome": "needs a signed token: test_the_pages_a_mailed_link_opens_read_in_french",
    "league:signin_link": "needs a signed token: test_the_pages_a_mailed_link_opens_read_in_french",
    "league:unsubscribe": "needs a signed token: test_the_pages_a_mailed_link_opens_read_in_french",
    "league:calendar_feed": "an iCalendar file for calendar apps (its words: test_calendars)",
    "league:calendar_reset": "POST only",
    "league:ask_sub": "POST only, from the match page (its words: test_subs_web)",
    "league:push_subscription": "POST only, JSON for the push script",
    "league:push_device_remove": "POST only, back to the notifications page",
    "league:organise_season_delete": "POST only",
    "league:organise_season_state": "POST only (the season page shows its refusals)",
    "league:availability_answer": "POST only (the home and match pages show the answer)",
    "league:availability_link": (
        "needs a signed token: test_the_pages_a_mailed_link_opens_read_in_french"
    ),
    "league:organise_team_delete": "POST only",
    "league:organise_schedule_delete": "POST only",
    "league:organise_move_match": "POST only",
    "league:organise_season_settings": "POST only (its form: test_forfeits_web)",
    "league:organise_week_night": "POST only (its forms: test_postponements_web)",
    "league:forfeit": "POST only (the match page's form: test_forfeits_web)",
    "league:forfeit_undo": "POST only (the match page's form: test_forfeits_web)",
    "league:postpone": "POST only (the match page's form: test_postponements_web)",
    "league:postponement_answer": "POST only (the match page: test_postponements_web)",
    "league:early_start": "POST only (the match page: test_game_starts_on_its_night)",
    "league:organise_time_zones": "walked in French in test_calendar_zones",
    "logout": "POST only",
    "healthz": "a probe for the load balancer",
    "ping": "a probe for the load balancer",
    "readyz": "a probe for the load balancer (JSON)",
    "metrics": "Prometheus's figures (text, behind a token)",
    "league:discard": "walked in French in tests/web/test_discard_page.py",
    "league:my_discards": "walked in French in tests/league/test_dealt_cards.py",
    "league:game_dealt": "needs a league that takes dealt cards: test_dealt_cards.py",
    "league:discarders": "walked in French in tests/league/test_dealt_cards.py",
    "set_language": "Django's own language view (a redirect)",
    "federation:send": "POST only (the director's night page shows its answer)",
    "federation:member": "needs approved results: walked in French in tests/federation/",
    "federation:queue": "statisticians only: walked in French in tests/federation/test_pages.py",
    "federation:review": "statisticians only: walked in French in tests/federation/test_pages.py",
    "teamleagues:leagues": "walked in French in tests/teamleagues/test_pages.py",
    "teamleagues:league": "walked in French in tests/teamleagues/test_pages.py",
    "teamleagues:season": "walked in French in tests/teamleagues/test_pages.py",
    "teamleagues:fixture": "walked in French in tests/teamleagues/test_pages.py",
    "teamleagues:team": "walked in French in tests/teamleagues/test_pages.py",
    "teamleagues:cup": "walked in French in tests/teamleagues/test_pages.py",
    "teamleagues:season_close": "POST only (the season page's form: tests/teamleagues)",
    "teamleagues:fixture_names": "POST only (the match page's form: tests/teamleagues)",
    "teamleagues:fixture_leg": "POST only (the match page's form: tests/teamleagues)",
    "teamleagues:fixture_forfeit": "POST only (the match page's form: tests/teamleagues)",
    "federation:books": "directors only: walked in French in test_books_and_commissioners.py",
    "federation:portal": "sent results only: walked in French in test_books_and_commissioners.py",
    "federation:region_clubs": "commissioners: walked in French in test_books_and_commissioners.py",
}


def _names(patterns: list[URLPattern | URLResolver], prefix: str = "") -> set[str]:
    names: set[str] = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace in ("admin", "api"):
                continue  # the admin is walked from its registry below; the API is JSON
            inner = f"{prefix}{pattern.namespace}:" if pattern.namespace else prefix
            names |= _names(pattern.url_patterns, inner)
        elif pattern.name:
            names.add(prefix + pattern.name)
    return names


def pages() -> dict[str, str]:
    """URL name -> a real page of the demo for it."""
    season = models.Season.objects.order_by("pk").first()
    week = Week.objects.filter(season=season, venue__isnull=False).order_by("number").first()
    match = Match.objects.filter(week__season=season, week__number=1).order_by("table").first()
    game = Game.objects.filter(match=match).order_by("number").first()
    player = Player.objects.filter(teams__season=season).order_by("pk").first()
    team = Team.objects.filter(season=season).order_by("pk").first()
    night = Tournament.objects.order_by("pk").first()
    table = TableGame.objects.exclude(status="verified").order_by("pk").first()
    number = Round.objects.filter(tournament=night).order_by("number").first().number
    club_season = ClubSeason.objects.order_by("pk").first()
    books = Purse.objects.order_by("pk").first()
    return {
        "league:home": reverse("league:home"),
        "league:rules": reverse("league:rules"),
        "league:standings": reverse("league:standings", args=[season.pk]),
        "league:seeding": reverse("league:seeding", args=[season.pk]),
        "league:schedule": reverse("league:schedule", args=[season.pk]),
        "league:match": reverse("league:match", args=[match.pk]),
        "league:game": reverse("league:game", args=[game.pk]),
        "league:enter": reverse("league:enter", args=[_game_under_way().pk]),
        "league:team": reverse("league:team", args=[team.pk]),
        "league:player": reverse("league:player", args=[player.pk]),
        "league:league": reverse("league:league", args=[season.league_id]),
        **records_pages(season, player, team),
        "league:week_sheets": reverse("league:week_sheets", args=[week.pk]),
        "league:week_recap": reverse("league:week_recap", args=[week.pk]),
        "league:organise": reverse("league:organise"),
        "league:organise_season": reverse("league:organise_season", args=[season.pk]),
        "league:organise_players": reverse("league:organise_players", args=[season.pk]),
        "league:organise_teams": reverse("league:organise_teams", args=[season.pk]),
        "league:organise_schedule": reverse("league:organise_schedule", args=[season.pk]),
        "league:organise_messages": reverse("league:organise_messages", args=[season.pk]),
        "league:notify_choices": reverse("league:notify_choices"),
        "league:venue_scoreboard": reverse("league:venue_scoreboard", args=[week.venue_id]),
        "league:scoreboard": reverse("league:scoreboard", args=[week.venue_id, week.pk]),
        "tournaments:list": reverse("tournaments:list"),
        "tournaments:tournament": reverse("tournaments:tournament", args=[night.pk]),
        "tournaments:round": reverse("tournaments:round", args=[night.pk, number]),
        "tournaments:bracket": reverse("tournaments:bracket", args=[night.pk]),
        "tournaments:tv": reverse("tournaments:tv", args=[night.pk]),
        "tournaments:rules": reverse("tournaments:rules", args=[night.pk]),
        "tournaments:recap": reverse("tournaments:recap", args=[night.pk]),
        "tournaments:scorecard": reverse("tournaments:scorecard", args=[table.pk]),
        "tournaments:scorecard_deals": reverse("tournaments:scorecard_deals", args=[table.pk]),
        "tournaments:club": reverse("tournaments:club", args=[club_season.club_id]),
        "tournaments:club_season": reverse("tournaments:club_season", args=[club_season.pk]),
        "tournaments:money": reverse("tournaments:money", args=[books.tournament_id]),
        "tournaments:night_report": reverse("tournaments:night_report", args=[night.pk]),
        "tournaments:season_report": reverse("tournaments:season_report", args=[club_season.pk]),
        "direct:home": reverse("direct:home"),
        "direct:club": reverse("direct:club", args=[club_season.club_id]),
        "direct:night": reverse("direct:night", args=[_night_under_way().pk]),
        "direct:settings": reverse("direct:settings", args=[night.pk]),
        "direct:weekends": reverse("direct:weekends"),
        "direct:weekend": reverse("direct:weekend", args=[_weekend().pk]),
        "tournaments:family": reverse("tournaments:family", args=[_weekend().pk]),
        "tournaments:family_tv": reverse("tournaments:family_tv", args=[_weekend().pk]),
        "federation:national": reverse("federation:national"),
        "federation:region": reverse(
            "federation:region", args=[Region.objects.get_or_create(name="Atlantique")[0].pk]
        ),
        "federation:national_gr": reverse("federation:national_gr"),
        "federation:region_gr": reverse(
            "federation:region_gr", args=[Region.objects.get_or_create(name="Atlantique")[0].pk]
        ),
        "federation:invitations": reverse("federation:invitations"),
        "login": reverse("login"),
        "league:signin_link_request": reverse("league:signin_link_request"),
        "league:sign_out_everywhere": reverse("league:sign_out_everywhere"),
    }


def _weekend() -> EventFamily:
    return EventFamily.objects.order_by("pk").first()


def records_pages(season: models.Season, player: Player, team: Team) -> dict[str, str]:
    """The records pages, one season's where a page takes one; head to head with a real
    opponent of the first player and team."""
    rival = Player.objects.filter(teams__season=season).exclude(teams=team).order_by("pk").first()
    other = Team.objects.filter(season=season).exclude(pk=team.pk).order_by("pk").first()
    return {
        "league:records": reverse("league:records"),
        "league:records_honours": reverse("league:records_honours"),
        "league:records_hands": reverse("league:records_hands") + f"?season={season.pk}",
        "league:records_skunks": reverse("league:records_skunks"),
        "league:records_streaks": reverse("league:records_streaks"),
        "league:records_h2h": reverse("league:records_h2h") + f"?player={player.pk}",
        "league:records_h2h_teams": reverse("league:records_h2h_teams", args=[team.pk, other.pk]),
        "league:records_h2h_players": reverse(
            "league:records_h2h_players", args=[player.pk, rival.pk]
        ),
    }


def _night_under_way() -> Tournament:
    return Tournament.objects.filter(stage="qualifying").order_by("-pk").first()


def _game_under_way() -> Game:
    return Game.objects.filter(status=GameStatus.IN_PROGRESS).order_by("pk").first()


def _rival_dispute_in_english(game: Game) -> None:
    """The other team enters deal 2 with other numbers and raises a dispute from an English
    phone: the text the system writes ("Deal 2 was entered twice: ...") must read in French."""
    from django.utils import translation

    from league.selectors.games import pending_rivals, stored_deal
    from league.services.deals import deal_record

    deal = Deal.objects.get(game=game, number=2, is_current=True)
    entered = team_of(deal.entered_by, game.match)
    other = game.match.away if entered == game.match.home_id else game.match.home
    data = stored_deal(deal)
    data.pop("cards", None)
    data["crib"] = 2 if data["crib"] != 2 else 4
    deal_record(game=game, user=other.captain.user, number=2, data=data)
    with translation.override("en"):
        rival = pending_rivals(game)[0]
        dispute_raise(
            game=game, user=other.captain.user, claim=rival["claim"], rival=rival["rival"]
        )


def admin_pages(user) -> list[str]:
    """The judges' admin as this user may see it: the index, each app, and for each model a
    list, an add form and one object's form and history."""
    from django.test import RequestFactory

    request = RequestFactory().get("/admin/")
    request.user = user
    urls = [reverse("admin:index")]
    apps = set()
    for model, model_admin in admin.site._registry.items():
        if not model_admin.has_view_permission(request):
            continue
        meta = model._meta
        apps.add(meta.app_label)
        urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        if model_admin.has_add_permission(request):
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
        obj = model._default_manager.order_by("pk").first()
        if obj is not None:
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk]))
            urls.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_history", args=[obj.pk]))
    urls += [reverse("admin:app_list", args=[app]) for app in sorted(apps)]
    return urls


@pytest.fixture
def demo(db, settings):
    """The demo league (with a dispute on the game under way, for the judges' pages) and club
    night, and a second night under way: its first round seated, one of its players signed in
    to enter the card of their table."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    build_demo(weeks_played=4)
    # The playoffs' nights rule, above the nights played: the seeding and organiser's pages
    # list every team as not eligible, with why, in French.
    models.Season.objects.filter(pk=models.Season.objects.order_by("pk")[0].pk).update(
        playoff_min_nights=5
    )
    under_way = _game_under_way()
    dispute_raise(
        game=under_way,
        user=under_way.match.away.captain.user,
        claim="Le crib de la donne 1 valait 8, pas 12.",
        deal_number=1,
    )
    _rival_dispute_in_english(under_way)
    build_demo_night()
    build_demo_club_season()
    director = Trusted(None, "a night under way")
    night = services.tournament_create(
        user=director, name="Soirée du jeudi", date=dt.date(2026, 12, 3), games_per_entrant=3
    )
    for name in ("Zoé Roy", "Yves Côté", "Xavier Roy", "Wanda Côté"):
        services.entrant_register(user=director, tournament=night, name=name, check_in=True)
    table = services.round_seat_next(user=director, tournament=night).games.order_by("pk")[0]
    weekend = services.family_create(user=director, name="Classique d'automne")
    services.family_event_create(
        user=director, family=weekend, name="Principale d'automne", kind="main"
    )
    player = table.first.players.get()
    player.user = get_user_model().objects.create_user("zoe", password="cribbage")
    player.save()
    return table


def proper_nouns() -> list[str]:
    """The data on the pages: every name a person gave, longest first (so "His Nobs" goes
    before "Nobs")."""
    names: set[str] = set()
    for model, field in [
        (models.League, "name"),
        (models.Season, "name"),
        (models.Team, "name"),
        (models.Player, "name"),
        (models.Venue, "name"),
        (models.Venue, "address"),
        (Tournament, "name"),
        (Entrant, "name"),
        (Club, "name"),
        (Club, "venue"),
        (ClubSeason, "name"),
        (EventFamily, "name"),
        (Region, "name"),
        (models.AuditEntry, "reason"),  # why a change was made, in the words of who made it
    ]:
        names |= set(model.objects.values_list(field, flat=True))
    # What a player claims, in their own words (not the texts the system wrote: those must
    # read in French).
    names |= set(models.Dispute.objects.filter(claim_code="").values_list("claim", flat=True))
    names |= set(get_user_model().objects.values_list("username", flat=True))
    return sorted((n for n in names if n), key=len, reverse=True)


def french_client(username: str | None, language: str = "fr") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    return client


def test_every_page_is_walked():
    """A page added to the URLs is either walked here or said not to be a page."""
    known = _names(get_resolver().url_patterns)
    walked = set(pages_names())
    assert sorted(known - walked - set(NOT_PAGES)) == [], "walk these pages in French"
    assert sorted(set(NOT_PAGES) - known) == [], "these names are gone: drop them"


def pages_names() -> list[str]:
    return [
        "league:home", "league:rules", "league:standings", "league:seeding", "league:schedule",
        "league:match", "league:game", "league:enter", "league:team", "league:player",
        "league:league", "league:week_sheets", "league:organise", "league:organise_season",
        "league:organise_players", "league:organise_teams", "league:organise_schedule",
        "league:venue_scoreboard", "league:scoreboard", "tournaments:list",
        "tournaments:tournament", "tournaments:round", "tournaments:bracket", "tournaments:tv",
        "tournaments:rules", "tournaments:scorecard", "tournaments:scorecard_deals",
        "tournaments:club", "tournaments:club_season", "tournaments:money", "login",
        "league:signin_link_request", "tournaments:night_report", "tournaments:season_report",
        "direct:home", "direct:club", "direct:night", "direct:settings", "direct:weekends",
        "direct:weekend", "tournaments:family", "tournaments:family_tv",
        "league:organise_messages", "league:notify_choices",
        "league:sign_out_everywhere", "league:week_recap", "tournaments:recap",
        "league:records", "league:records_honours", "league:records_hands",
        "league:records_skunks", "league:records_streaks", "league:records_h2h",
        "league:records_h2h_teams", "league:records_h2h_players",
        "federation:national", "federation:region", "federation:national_gr",
        "federation:region_gr", "federation:invitations",
    ]  # fmt: skip


@pytest.mark.slow  # every page as every role: make test-slow and CI; the walk's list is above
def test_no_page_has_an_english_sentence_in_french(demo):
    urls = pages()  # first: the walk's own data (a region) is among the names
    names = proper_nouns()
    assert sorted(urls) == sorted(pages_names())
    game = _game_under_way()
    captain = game.match.home.captain.user.username
    roles = {
        "visitor": None,
        "captain": captain,
        "organiser": "leagueadmin",
        "judge": "judge",
        "entrant": "zoe",  # a club night's player, at the table of the scorecard walked
    }
    english: dict[str, list[str]] = {}
    seen = 0
    for role, username in roles.items():
        client = french_client(username)
        in_english = french_client(username, "en")
        # The game under way, disputed: its page shows the dispute to the players and judges.
        walk = [*urls.values(), reverse("league:game", args=[game.pk])]
        if role in ("judge", "organiser"):  # the admin: judges and league admins use it
            walk += admin_pages(get_user_model().objects.get(username=username))
        for url in walk:
            response = client.get(url, follow=True)
            assert response.status_code in (200, 403), (role, url, response.status_code)
            own_card = (urls["tournaments:scorecard"], urls["tournaments:scorecard_deals"])
            if role == "entrant" and url in own_card:
                assert response.status_code == 200, "the player's own table's card opens"
            body = response.content.decode()
            assert '<html lang="fr"' in body, (role, url)
            seen += 1
            found = english_runs(body, names)
            english_body = in_english.get(url, follow=True).content.decode()
            found += [r for r in untranslated_runs(body, english_body, names) if r not in found]
            if url.startswith("/admin/"):
                found = [run for run in found if run not in DJANGOS_OWN]
            if found:
                english[f"{role} {url}"] = found
    assert seen > 4 * len(urls)
    report = "\n".join(f"{page}: {run}" for page, runs in english.items() for run in runs)
    assert english == {}, f"English on French pages:\n{report}"


def test_the_pages_a_mailed_link_opens_read_in_french(demo):
    """The invitation to choose a password and the sign-in link for a locked-out phone: a
    visitor opens them from an email, so they are walked with a real token each."""
    player = Player.objects.filter(user__isnull=False).order_by("pk").first()
    night = Week.objects.filter(matches__home__players=player).order_by("-number").first()
    links = [
        invitation_link(player=player, base_url="http://testserver/"),
        reverse("league:signin_link", args=[signin_link_token(player.user)]),
        availability_link(player=player, week=night, base_url="http://testserver/"),
        reverse("league:unsubscribe", args=[unsubscribe_token(player.pk, "reminders")]),
    ]
    names = proper_nouns()
    for link in links:
        url = link.removeprefix("http://testserver")
        body = french_client(None).get(url, follow=True).content.decode()
        assert '<html lang="fr"' in body, url
        english_body = french_client(None, "en").get(url, follow=True).content.decode()
        found = english_runs(body, names) + untranslated_runs(body, english_body, names)
        assert found == [], (url, found)


def test_the_playoff_card_and_workspace_read_in_french(demo):
    """A night in its playoffs: the workspace's playoff step (a match whose two cards
    disagree) and a player's playoff card, in French."""
    from league.kernel.permissions import Trusted as Director
    from tournaments.logic import TournamentRules

    director = Director(None, "a night in its playoffs")
    night = services.tournament_create(
        user=director,
        name="Soirée des séries",
        date=dt.date(2026, 12, 4),
        games_per_entrant=1,
        rules=TournamentRules(qualify_one_in=2),  # four entrants, a final of two
    )
    players = ["Abel Roy", "Berthe Côté", "Céline Roy", "Denis Côté"]
    for name in players:
        services.entrant_register(user=director, tournament=night, name=name, check_in=True)
    for table in services.round_seat_next(user=director, tournament=night).games.all():
        services.scorecard_settle(user=director, game=table, winner=table.first, loser_score=90)
    services.bracket_draw(user=director, tournament=night)
    match = night.playoff_matches.filter(top__isnull=False, bottom__isnull=False).first()
    for i, entrant in enumerate((match.top, match.bottom)):
        services.playoff_card_enter(
            user=director, match=match, side=entrant, winner=entrant, loser_score=90 + i
        )
    player = match.top.players.get()
    player.user = get_user_model().objects.create_user("abel", password="cribbage")
    player.save()
    names = proper_nouns()
    for username, url in [
        ("abel", reverse("tournaments:playoff_card", args=[match.pk])),
        ("leagueadmin", reverse("direct:night", args=[night.pk])),
    ]:
        body = french_client(username).get(url).content.decode()
        assert '<html lang="fr"' in body
        english_body = french_client(username, "en").get(url).content.decode()
        found = english_runs(body, names) + untranslated_runs(body, english_body, names)
        assert found == [], (url, found)
    assert (
        "à vous de trancher"
        in french_client("leagueadmin")
        .get(reverse("direct:night", args=[night.pk]))
        .content.decode()
    )
