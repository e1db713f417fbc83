"""Who may join an online game, chosen in the lobby's new-game dialog: only the invited friend (private, unlisted),
the friend while anyone may watch (public: listed to watch), or anyone (open: listed with Join, and the first who
presses it takes the free seat after giving a name)."""
from __future__ import annotations

import pytest

from tests.browser.conftest import api_state, match_id, wait_seats

pytestmark = pytest.mark.browser


def create_online(page, server, game, visibility, name):
    page.goto(server.url + "/")
    page.click(f"#game-{game} [data-mode=online]")
    form = f"#setup-{game}"
    page.wait_for_selector(f"{form}:not([hidden])")
    assert page.is_checked(f"{form} input[name=visibility][value=private]")  # the default: only my friend
    page.fill(f"{form} input[name=player]", name)
    page.click(f"{form} input[name=visibility][value={visibility}] + span")
    assert page.inner_text(f"{form} button.start") == ("Create and wait for a player" if visibility == "open"
                                                        else "Create and invite")
    page.click(f"{form} button.start")
    page.wait_for_url("**/m/**")
    wait_seats(page, "1")
    return match_id(page)


def listed(page, server):
    """The lobby's list: {match id: (has Join, has Watch)}."""
    page.goto(server.url + "/")
    page.wait_for_selector("#recent-list li")
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#recent-list li[data-match]')]
        .map(li => [li.dataset.match, [!!li.querySelector('[data-join]'), !!li.querySelector('a:not([data-join])')]]))""")


def test_private_public_and_open_games_from_the_lobby(live_server, new_context, shoot):
    ann, cat = new_context().new_page(), new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                                     has_touch=True).new_page()
    private = create_online(ann, live_server, "trails", "private", "Ann")
    public = create_online(ann, live_server, "towers", "public", "Ann")
    seek = create_online(ann, live_server, "trails", "open", "Ann")
    ann.wait_for_selector("#waiting:not([hidden])")
    assert "lobby's list" in ann.inner_text("#waiting-text") and "first person to join" in ann.inner_text("#invite-note")
    assert [api_state(live_server, m)["visibility"] for m in (private, public, seek)] == ["private", "public", "open"]

    shown = listed(cat, live_server)
    assert private not in shown
    assert shown[public] == [False, True]  # to watch: its seat still needs the invite
    assert shown[seek] == [True, True]
    assert cat.evaluate("document.querySelector('#recent-list li').dataset.match") == seek  # open seats first
    assert "a seat is free" in cat.inner_text(f"#recent-list li[data-match='{seek}']")
    cat.evaluate(f"document.querySelector(\"#recent-list li[data-match='{seek}']\").scrollIntoView()")
    shoot(cat, "list-390")

    # Watch on an open game looks on without being asked for a name.
    cat.click(f"#recent-list li[data-match='{seek}'] a:not([data-join])")
    wait_seats(cat, "")
    cat.wait_for_timeout(300)
    assert not cat.is_visible("#join")

    # Join: the name prompt, then the seat; the creator sees the friend arrive and the game begin.
    listed(cat, live_server)
    cat.click(f"#recent-list li[data-match='{seek}'] [data-join]")
    cat.wait_for_selector("#join[open]")
    assert "Ann is looking for an opponent" in cat.inner_text("#join-text")
    cat.fill("#join-name", "Cat")
    cat.click("#join-go")
    wait_seats(cat, "2")
    ann.goto(f"{live_server.url}/m/{seek}")
    ann.wait_for_function("document.getElementById('status').textContent === 'Your turn'")
    assert api_state(live_server, seek)["seats"][1]["name"] == "Cat"

    # Taken: the list offers it to watch only.
    assert listed(cat, live_server)[seek] == [False, True]
