"""The games' words and the pages' JavaScript in the player's language, in Chromium on a real server: a lesson in
Russian on a phone (the step, the engine's refusal with the lesson's hint, the closing sentence, the buttons the
script writes), and a game against the computer in German at desk width (the status line, the move list's
seats and notation words, the live region, the confirmation and the result screen)."""
from __future__ import annotations

import pytest

from tests.browser.conftest import confirm, lobby_start

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1366, "height": 800}


def fits(page) -> bool:
    """Nothing wider than the window: a long word must not push the page sideways."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_lesson_in_russian_on_a_phone(live_server, new_context, shoot):
    page = new_context(viewport=PHONE, has_touch=True).new_page()
    page.goto(f"{live_server.url}/learn/trails?lang=ru")
    page.wait_for_selector('#lesson[data-step="0"]')
    assert page.get_attribute("html", "lang") == "ru"
    assert page.inner_text("#step-title") == "Ваш первый ход"
    page.keyboard.press("ArrowRight")                                             # legal, not the step's move
    page.wait_for_function("document.getElementById('step-feedback').textContent.includes('Подсказка:')")
    assert "Нажмите стрелку вниз" in page.inner_text("#step-feedback")           # the step's hint, in Russian
    page.keyboard.press("ArrowDown")
    page.wait_for_selector('#lesson[data-step="0"][data-solved="1"]')
    assert page.inner_text("#step-feedback") == "Одно поле вниз. Красные отвечают ходом вверх."
    assert fits(page)
    shoot(page, "ru-390")
    page.click("#step-next")
    page.wait_for_selector('#lesson[data-step="1"]')
    assert page.eval_on_selector("#step-progress", "e => e.textContent") == "Шаг 2 из 6"   # written by tutorial.js
    assert page.inner_text("#step-title") == "Разбег: снова туда же"
    assert page.inner_text("#step-next") == "Следующий шаг"


def test_a_game_against_the_computer_in_german(live_server, new_context, shoot):
    page = new_context(viewport=DESK, locale="de-DE").new_page()                  # Accept-Language: de-DE
    lobby_start(page, live_server, "trails", "ai", options={"size": 7}, level=1)
    assert page.get_attribute("html", "lang") == "de"
    page.wait_for_function("document.getElementById('status').textContent === 'Du bist am Zug'")
    page.locator("#board").focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_selector("#move-list button.mv[data-ply='2']")                  # the computer answered
    heads = page.locator("#move-list thead th.seat-col").all_inner_texts()
    assert heads == ["Blau", "Rot"]                                              # the seats' colours, in German
    label = page.get_attribute("#move-list button.mv[data-ply='1']", "aria-label")
    assert label.startswith("Zug 1, Blau: ")
    page.wait_for_function("document.getElementById('announce').textContent.includes('Du bist am Zug.')")
    page.click("#resign")
    confirm(page, "Aufgeben")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "Du hast verloren"
    assert page.inner_text("#result-reason") == "Du hast aufgegeben."
    assert page.inner_text("#result-new") == "Neue Partie"
    assert fits(page)
    shoot(page, "de-1366")
