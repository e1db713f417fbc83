"""The languages in a real browser (quadrille/i18n/, static/js/i18n.js): the header's menu switches the page and
the choice survives a reload; the browser's own language is followed; the JavaScript side (I18n) speaks the
page's language for numbers, dates and durations and picks plural forms through the browser's CLDR rules.
Screenshots of the lobby in German and Russian at 1366x800 and 390x844 go to test-output/."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def lang(page) -> str:
    return page.evaluate("document.documentElement.lang")


def test_the_menu_switches_the_language_and_it_survives_a_reload(live_server, new_context, shoot):
    page = new_context(locale="en-US", viewport={"width": 1366, "height": 800}).new_page()
    page.goto(live_server.url + "/")
    assert lang(page) == "en" and page.locator(".tile-actions button.primary").first.inner_text() == "Play a friend"
    menu = page.locator(".lobby-header form[data-language-menu]")
    assert menu.locator("button").is_hidden()  # i18n.js sends the choice at once
    with page.expect_navigation():
        menu.locator("select").select_option("de")
    assert lang(page) == "de" and page.locator(".tile-actions button.primary").first.inner_text() == "Gegen Freunde spielen"
    shoot(page, "lobby-de-1366")
    page.reload()
    assert lang(page) == "de" and page.locator(".lobby-header select").input_value() == "de"
    assert page.evaluate("QuadrilleI18n.locale") == "de"
    with page.expect_navigation():
        page.locator(".lobby-header select").select_option("ru")
    assert lang(page) == "ru" and "Играть с другом" in page.locator(".tile-actions").first.inner_text()
    page.set_viewport_size({"width": 390, "height": 844})
    shoot(page, "lobby-ru-390")
    # nothing wider than the phone's screen: a longer word must not push the layout sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_browser_s_language_is_followed_and_the_javascript_speaks_it(live_server, new_context):
    page = new_context(locale="pl-PL").new_page()
    page.goto(live_server.url + "/rules/towers")
    assert lang(page) == "pl" and page.title().startswith("Zasady gry")
    # a page loads only its own scripts' words (quadrille/i18n/bundles.py): the rules page has none of the lobby's
    assert page.evaluate('I18n.n("{count} move", "{count} moves", 5)') == "5 moves"
    page.goto(live_server.url + "/")
    said = page.evaluate("""() => ({
        locale: I18n.locale,
        number: I18n.number(1234.5),
        duration: I18n.duration(125),
        one: I18n.n("{count} move", "{count} moves", 1),
        five: I18n.n("{count} move", "{count} moves", 5),
        filled: I18n.t("{name} resigned", {name: "Ala"}),
        plural: new Intl.PluralRules("pl").select(5),
    })""")
    assert said["locale"] == "pl" and said["number"] == "1234,5"  # Polish writes no separator under 10 000
    assert said["duration"].startswith("2") and "5" in said["duration"]
    # the catalog's Polish forms chosen by the count; a string no catalog holds falls back to the code's English,
    # its name filled in
    assert (said["one"], said["five"], said["filled"]) == ("1 ruch", "5 ruchów", "Ala resigned")
    assert said["plural"] == "many"
    english = new_context(locale="en-US").new_page()
    english.goto(live_server.url + "/rules/towers?lang=es")  # an embed's or a link's ?lang= wins
    assert lang(english) == "es" and english.evaluate("I18n.number(1234.5)") == "1234,5"
