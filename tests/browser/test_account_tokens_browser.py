"""The account page's API tokens and "sign out everywhere", in a real browser against a real server (issue 22,
finding 6): the page lists the account's tokens (label, made, last used), revokes any of them at once, and a
new password with "sign out everywhere" revokes them all and moves the browser's seats to the new seat key."""
from __future__ import annotations

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.browser.test_accessibility import small_controls
from tests.browser.test_players_browser import sign_up

pytestmark = pytest.mark.browser


def make_token(page, label: str) -> str:
    page.fill("#token-form input[name=label]", label)
    page.fill("#token-form input[name=password]", "correct horse")
    page.click("#token-form button[type=submit]")
    page.wait_for_selector(f"#token-list .token-label:text-is('{label}')")
    return page.inner_text("#new-token")


def works(server, token: str) -> int:
    """The status of a bot's call with this token: 200 while it works, 401 once revoked."""
    return requests.get(f"{server.url}/api/challenges", headers={"Authorization": f"Bearer {token}"}).status_code


def labels(page) -> list[str]:
    return page.locator("#token-list .token-label").all_inner_texts()


def test_the_account_page_lists_and_revokes_tokens_and_signs_out_everywhere(live_server, new_context, shoot):
    server = live_server
    page = new_context().new_page()
    sign_up(page, server, "dora")
    page.goto(server.url + "/account")
    page.wait_for_selector("#tokens-empty:not([hidden])")
    first, second = make_token(page, "first bot"), make_token(page, "second bot")
    assert first.startswith("qbt_") and second.startswith("qbt_") and labels(page) == ["second bot", "first bot"]
    assert works(server, first) == 200
    page.reload()
    page.wait_for_selector("#token-list .token-line")
    dates = dict(zip(labels(page), page.locator("#token-list .token-dates").all_inner_texts()))
    assert "last used" in dates["first bot"] and "never used" in dates["second bot"]
    assert serious_violations(page) == [] and small_controls(page) == []
    shoot(page, "tokens-listed")

    page.click("button[aria-label='Revoke the token second bot']")
    page.wait_for_function("document.getElementById('account-message').textContent.includes('is revoked')")
    assert labels(page) == ["first bot"]
    assert works(server, second) == 401 and works(server, first) == 200
    shoot(page, "token-revoked")

    # a match of the account, whose token this browser keeps as "my games" leaves it: the account's key
    old_key = page.evaluate("localStorage.getItem('quadrille.account.key')")
    page.evaluate("k => localStorage.setItem('quadrille.token.somematch', k)", old_key)
    page.fill("#password-form input[name=password]", "correct horse")
    page.fill("#password-form input[name=new_password]", "battery staple")
    page.check("#password-form input[name=sign_out_everywhere]")
    page.click("#password-form button[type=submit]")
    page.wait_for_function("document.getElementById('account-message').textContent.includes('new key')")
    page.wait_for_selector("#tokens-empty:not([hidden])")
    new_key = page.evaluate("localStorage.getItem('quadrille.account.key')")
    assert new_key.startswith("qsk_") and new_key != old_key
    assert page.evaluate("localStorage.getItem('quadrille.token.somematch')") == new_key
    assert works(server, first) == 401
    assert labels(page) == []
    page.reload()  # this browser's session goes on
    page.wait_for_selector("#account-name")
    assert page.inner_text("#account-name") == "dora"
    shoot(page, "signed-out-everywhere")
