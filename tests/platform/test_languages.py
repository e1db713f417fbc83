"""Each request's language (quadrille/i18n/, docs/translating.md): how it is chosen (?lang=, a member's setting,
the `lang` cookie, Accept-Language), that pages say it (<html lang>, Content-Language, Vary) and load only the
catalog they need, that a member's choice survives a login on another browser, and that the API's reasons follow
the language while their `error` codes do not."""
from __future__ import annotations

import re

import pytest
from babel.support import Translations

from quadrille.i18n import _l, _ln, translated
from quadrille.i18n.bundles import bundle_for
from quadrille.i18n.catalogs import TRANSLATIONS, plural_categories, read
from quadrille.i18n.languages import SHIPPED, choose
from tests.support.players import Player

PAGES = ["/", "/rules/towers", "/learn/gamma", "/players", "/account", "/players/ann", "/report", "/no-such-page"]


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True)).group(1)


def catalog_scripts(response) -> list[str]:
    return re.findall(r'<script src="(/static/i18n/[^"]+)"', response.get_data(as_text=True))


def in_language(lang: str, msgid: str) -> str:
    """What the compiled catalog says for a message (the test's own reading of the .mo files)."""
    merged = Translations()
    for domain in ("messages", "games"):
        merged.merge(Translations.load(str(TRANSLATIONS), [lang], domain=domain))
    return merged.gettext(msgid)


@pytest.mark.parametrize("header, expected", [
    ("pl-PL,pl;q=0.9,en;q=0.5", "pl"), ("de-AT", "de"), ("ru", "ru"), ("fr-CA, en;q=0.3", "fr"),
    ("es-419", "es"), ("ja, pt;q=0.9", "en"), ("", "en"), ("en-GB,de;q=0.5", "en"), ("de;q=0.4, fr;q=0.9", "fr"),
])
def test_the_browser_language_is_negotiated(client, header, expected):
    answer = client.get("/", headers={"Accept-Language": header})
    assert answer.status_code == 200
    assert html_lang(answer) == expected and answer.headers["Content-Language"] == expected
    assert {"Accept-Language", "Cookie"} <= set(answer.vary)


def test_the_query_beats_the_cookie_which_beats_the_header():
    assert choose(query="de", cookie="pl", accept_language=[("fr", 1)]) == "de"
    assert choose(query="xx", cookie="pl", accept_language=[("fr", 1)]) == "pl"
    assert choose(cookie="klingon", accept_language=[("fr", 1)]) == "fr"
    assert choose(account="ru", cookie="pl") == "ru"
    assert choose(query="ES", account="ru") == "es"


# the catalog of the browser's words each page loads: the words of its own scripts (i18n/bundles.py); no
# player is called ann here: the error page loads only the header's words
BUNDLES = {"/": "site", "/rules/towers": "common", "/learn/gamma": "study-gamma", "/players": "site",
           "/account": "site", "/players/ann": "common", "/report": "site", "/no-such-page": "common"}


def test_every_page_says_its_language_and_loads_only_its_own_catalog(client):
    for lang in SHIPPED:
        for path in PAGES:
            answer = client.get(path, headers={"Accept-Language": lang})
            assert html_lang(answer) == lang, (path, lang)
            scripts = catalog_scripts(answer)
            # English needs no catalog; any other language exactly one of its own, the words of the page's
            # scripts, by its content-hashed name
            assert scripts == ([] if lang == "en" else [scripts[0]]), (path, lang, scripts)
            if scripts:
                assert re.fullmatch(rf"/static/i18n/{lang}/{BUNDLES[path]}\.[0-9a-f]{{12}}\.js", scripts[0]), \
                    (path, scripts)


def test_a_match_page_loads_the_words_of_the_match_and_its_own_game_only(client):
    for game, other in (("trails", "Golden move mode (G)"), ("gamma", "Hide the 3D view")):
        match = client.post("/api/matches", json={"game": game, "mode": "local"}).get_json()["match"]
        script = catalog_scripts(client.get(f"/m/{match}?lang=de"))
        assert re.fullmatch(rf"/static/i18n/de/match-{game}\.[0-9a-f]{{12}}\.js", script[0]), script
        body = client.get(script[0]).get_data(as_text=True)
        assert '"Resign":"Aufgeben"' in body and '"Blue":"Blau"' in body   # the match page's and the seats' words
        assert f'"{other}"' not in body                                     # another game's words are not
        assert '"Delete your account for good?"' not in body                # nor the account page's


def test_bundles_hold_the_groups_of_a_page_s_scripts():
    assert bundle_for(["js/theme.js", "js/api.js"]) == "common"
    assert bundle_for(["js/theme.js", "js/lobby.js", "js/new-game.js"]) == "site"
    assert bundle_for(["js/match.js", "js/board/grid.js", "games/lattice-flat.js", "games/lattice.js"]) == \
        "match-lattice"
    assert bundle_for(["js/tutorial.js", "js/motion.js", "games/towers.js"]) == "study-towers"
    assert bundle_for(["js/match.js", "js/tutorial.js"]) == "all"   # two kinds of page in one: every word


def test_the_javascript_catalog_is_served_and_holds_the_language_s_plural_table(client):
    script = catalog_scripts(client.get("/?lang=ru"))[0]
    answer = client.get(script)
    assert answer.status_code == 200 and "immutable" in answer.headers["Cache-Control"]
    body = answer.get_data(as_text=True)
    assert body.startswith("/*") and "window.QuadrilleI18n.load(" in body
    assert '"plural":{"few":1,"many":2,"one":0,"other":2}' in body


def test_plural_categories_follow_each_catalog_s_plural_forms():
    assert plural_categories(read("pl", "js"), "pl") == {"one": 0, "few": 1, "many": 2, "other": 2}
    assert plural_categories(read("ru", "js"), "ru") == {"one": 0, "few": 1, "many": 2, "other": 2}
    assert plural_categories(read("fr", "js"), "fr") == {"one": 0, "many": 1, "other": 1}
    assert plural_categories(read("de", "js"), "de") == {"one": 0, "other": 1}


def test_the_menu_remembers_a_guest_s_choice_in_a_cookie_and_drops_the_query(client):
    answer = client.post("/language", data={"lang": "de", "next": "/rules/towers?lang=fr&x=1"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/rules/towers?x=1"
    assert "lang=de" in answer.headers["Set-Cookie"] and "SameSite=Lax" in answer.headers["Set-Cookie"]
    assert html_lang(client.get("/", headers={"Accept-Language": "pl"})) == "de"  # the cookie beats the header
    assert html_lang(client.get("/?lang=es")) == "es"                              # an embed's ?lang= beats it


@pytest.mark.parametrize("form", [
    {"lang": "de", "next": "https://elsewhere.example/"},   # never another site
    {"lang": "de", "next": "//elsewhere.example/"},
])
def test_the_menu_goes_back_only_to_this_site(client, form):
    answer = client.post("/language", data=form)
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_another_site_s_form_changes_nothing(client):
    answer = client.post("/language", data={"lang": "ru", "next": "/"},
                         headers={"Origin": "https://elsewhere.example"})
    assert answer.status_code == 403 and "Set-Cookie" not in answer.headers  # the site's own cross-origin guard
    answer = client.post("/language", data={"lang": "ru", "next": "/"}, headers={"Referer": "https://elsewhere.example/x"})
    assert answer.status_code == 303 and "Set-Cookie" not in answer.headers  # ours, when only a Referer tells
    answer = client.post("/language", data={"lang": "klingon", "next": "/"})
    assert "Set-Cookie" not in answer.headers


def test_a_member_s_setting_survives_a_login_on_another_browser(app):
    ann = Player(app, "ann")
    answer = ann.post("/api/account/language", {"language": "pl"})
    assert answer.status_code == 200 and answer.json == {"language": "pl"}
    assert ann.get("/api/account").json["language"] == "pl"
    # another browser, whose header asks for French: once logged in, the account's Polish wins and is kept in a
    # cookie, so that the pages say Polish even after that browser logs out
    other = app.test_client()
    assert html_lang(other.get("/", headers={"Accept-Language": "fr"})) == "fr"
    logged_in = other.post("/api/account/login", json={"name": "ann", "password": "correct horse"})
    assert logged_in.status_code == 200
    assert any(c.startswith("lang=pl;") for c in logged_in.headers.getlist("Set-Cookie"))
    assert html_lang(other.get("/account", headers={"Accept-Language": "fr"})) == "pl"
    other.post("/api/account/logout", headers={"X-CSRFToken": logged_in.json["csrf"]})
    assert html_lang(other.get("/", headers={"Accept-Language": "fr"})) == "pl"


def test_the_menu_sets_a_member_s_account_and_an_empty_choice_follows_the_browser_again(app):
    ann = Player(app, "ann")
    ann.client.post("/language", data={"lang": "ru", "next": "/account"})
    assert ann.get("/api/account").json["language"] == "ru"
    page = ann.get("/account").get_data(as_text=True)
    assert re.search(r'<option value="ru" lang="ru" selected>', page)
    ann.client.post("/language", data={"lang": "", "next": "/account"})
    assert ann.get("/api/account").json["language"] is None
    assert html_lang(ann.client.get("/", headers={"Accept-Language": "es"})) == "es"


def test_an_unknown_language_is_refused_and_changes_nothing(app):
    ann = Player(app, "ann")
    ann.post("/api/account/language", {"language": "de"})
    answer = ann.post("/api/account/language", {"language": "tlh"})
    assert answer.status_code == 400 and answer.json["error"] == "bad-language"
    assert ann.get("/api/account").json["language"] == "de"


@pytest.mark.parametrize("lang", [lang for lang in SHIPPED if lang != "en"])
def test_api_reasons_follow_the_language_and_the_error_code_does_not(client, lang):
    english = client.get("/api/matches/nonexistent").json
    answer = client.get("/api/matches/nonexistent", headers={"Accept-Language": lang})
    assert answer.status_code == 404 and answer.json["error"] == english["error"] == "not-found"
    assert answer.json["reason"] == in_language(lang, "There is no such match.") != english["reason"]
    assert answer.headers["Content-Language"] == lang
    # a reason with a value in it: the value is filled into the translated sentence
    bad = client.post(f"/api/matches?lang={lang}", json={"game": "trails", "player": "x" * 41}).json
    assert bad["error"] == "bad-request"
    assert bad["reason"] == in_language(lang, "The player name must be 1 to %(most)d characters.") % {"most": 40}


def test_an_error_page_is_in_the_page_s_language(client):
    answer = client.get("/no-such-page", headers={"Accept-Language": "de"})
    assert answer.status_code == 404 and in_language("de", "There is no such page.") in answer.get_data(as_text=True)


def test_marked_words_are_english_strings_until_a_door_translates_them(app):
    one, many = _ln("%(num)d report", "%(num)d reports", 1), _ln("%(num)d report", "%(num)d reports", 5)
    assert (one, many) == ("1 report", "5 reports") and isinstance(one, str)
    assert translated(_l("There is no such match.")) == "There is no such match."  # no request: English
    with app.test_request_context("/?lang=pl"):
        assert translated(_l("There is no such match.")) == in_language("pl", "There is no such match.")
        wait = _ln("Too many failed logins for this name; try again in %(num)d second.",
                   "Too many failed logins for this name; try again in %(num)d seconds.", 5)
        assert translated(wait) == "Zbyt wiele nieudanych logowań na tę nazwę; spróbuj ponownie za 5 sekund."
