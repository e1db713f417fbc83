"""The computer's analysis on the match page (static/js/match-analysis.js, analysis-graph.js), against a real server
whose workers analyse real games: a finished game of each kind analysed from its result screen (the progress bar,
then the graph), a click on the graph showing that position with the computer's best move lit on the board (the
cells the server names), the moves of the list marked by class and the counts per player; on a phone in the dark
theme the graph steps by keys and taps, and axe finds nothing serious; "my games" links a finished game to its
analysis; an online game under way offers none. Screenshots: test-output/test_analysis_view_browser*."""
from __future__ import annotations

import random
import time

import pytest
import requests

from tests.browser.axe import serious_violations
from tests.support.servers import ServerProcess

DESKTOP = {"viewport": {"width": 1366, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
COUNTED = ("inaccuracy", "mistake", "blunder")
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("analysis-view") / "a.db", "gevent",
                         settings={"ANALYSIS_QUEUE_PER_ADDRESS": 20}).start()
    yield proc
    proc.stop()


# -- games played to their end through the HTTP API --------------------------------------------------------------
def play_local(server, game: str, options: dict, seed: int = 2) -> tuple[str, str]:
    """A game on one screen played with random legal moves to its end: (match, token)."""
    made = requests.post(f"{server.url}/api/matches", json={"game": game, "options": options, "mode": "local"}).json()
    match, token = made["match"], made["token"]
    rng = random.Random(seed)
    state = requests.get(f"{server.url}/api/matches/{match}").json()
    while state["outcome"] is None:
        state = requests.post(f"{server.url}/api/matches/{match}/moves", json={"move": rng.choice(state["legal"])},
                              headers={"Authorization": f"Bearer {token}"}).json()
    return match, token


def play_online(server, game: str, options: dict, moves: int, resign: bool, seed: int = 5) -> dict:
    """An online game of two players, `moves` random moves into it; resigned by seat 1 if `resign`."""
    made = requests.post(f"{server.url}/api/matches", json={"game": game, "options": options}).json()
    match = made["match"]
    second = requests.post(f"{server.url}/api/matches/{match}/seats", json={"invite": made["invite_secret"]}).json()
    tokens = {1: made["token"], 2: second["token"]}
    rng = random.Random(seed)
    state = requests.get(f"{server.url}/api/matches/{match}").json()
    for _ in range(moves):
        legal = [m for m in state["legal"] if m != "end"] or state["legal"]
        state = requests.post(f"{server.url}/api/matches/{match}/moves", json={"move": rng.choice(legal)},
                              headers={"Authorization": f"Bearer {tokens[state['turn']]}"}).json()
    if resign:
        requests.post(f"{server.url}/api/matches/{match}/resign", headers={"Authorization": f"Bearer {tokens[1]}"})
    return {"match": match, "tokens": tokens}


FINISHED = {  # each kind of game, short: (how it is played, its options)
    "trails": lambda s: play_local(s, "trails", {"size": 5})[0],
    "gamma": lambda s: play_local(s, "gamma", {"width": 4, "height": 4, "players": 3})[0],
    "towers": lambda s: play_online(s, "towers", {"size": 5}, 8, resign=True)["match"],
    "lattice": lambda s: play_online(s, "lattice", {}, 8, resign=True)["match"],
}


def analysis(server, match: str) -> dict:
    return requests.get(f"{server.url}/api/matches/{match}/analysis").json()


def analysed(server, match: str) -> dict:
    """The match's analysis asked for through the API and waited for (for the tests that are not about asking)."""
    requests.post(f"{server.url}/api/matches/{match}/analysis")
    deadline = time.monotonic() + 90
    while (answer := analysis(server, match))["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.3)
    assert answer["status"] == "done", answer
    return answer


def counts_text(counts: dict) -> str:
    said = [f"{counts[c]} {c if counts[c] == 1 else {'inaccuracy': 'inaccuracies'}.get(c, c + 's')}"
            for c in COUNTED if counts.get(c)]
    return ", ".join(said) or "no inaccuracies, mistakes or blunders"


# -- what the page shows ---------------------------------------------------------------------------------------
def shown_ply(page) -> str:
    return page.locator("#ply-label").get_attribute("data-shown")


def click_graph_at(page, ply: int, total: int) -> None:
    graph = page.locator("#analysis-graph")
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] * ply / total, "y": box["height"] / 2})


def best_cells_on_board(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#board-area .cell[data-best]')]
        .map((cell) => ({...cell.dataset}))""")


def assert_best_move_lit(page, answer: dict, ply: int) -> None:
    """The cells the server named for the best move in the position after `ply` moves carry data-best."""
    lit = best_cells_on_board(page)
    for attrs in answer["best_cells"][ply]:
        assert any(all(cell.get(k) == str(v) for k, v in attrs.items()) for cell in lit), (attrs, lit)
    assert len(lit) >= len(answer["best_cells"][ply]) > 0
    assert answer["best_names"][ply] in page.locator("#analysis-best").text_content()


def assert_moves_marked(page, plies: list) -> None:
    marked = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#move-list button.mv')]
        .map((b) => [b.dataset.ply, [b.dataset.class || '', (b.querySelector('.mv-mark') || {}).textContent || '',
                                     b.getAttribute('aria-label')]]))""")
    for p in plies:
        cls, mark, label = marked[str(p["ply"])]
        if p["class"] in MARKS:
            assert (cls, mark) == (p["class"], MARKS[p["class"]]) and label.endswith(p["class"])
        else:
            assert (cls, mark) == ("", "")


def assert_counts(page, answer: dict) -> None:
    for seat, counts in answer["summary"].items():
        assert counts_text(counts) in page.locator(f'#analysis-counts li[data-seat="{seat}"]').text_content()


# -- the tests -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(FINISHED))
def test_a_finished_game_is_analysed_from_its_result_and_the_graph_shows_each_position(server, new_context, shoot,
                                                                                        game):
    match = FINISHED[game](server)
    page = new_context(**DESKTOP).new_page()
    page.goto(f"{server.url}/m/{match}")
    page.locator("#result-analyse").wait_for()
    if game == "towers":
        shoot(page, "result")
    page.locator("#result-analyse").click()  # on the result screen, to anyone who looks at a finished game
    page.wait_for_selector("#analysis-progress:not([hidden])", timeout=3000)
    assert "…" in page.locator("#analysis-status").text_content()
    page.wait_for_selector("#analysis-done:not([hidden])", timeout=90_000)
    assert page.locator("#analysis-progress").is_hidden() and page.locator("#analyse").is_hidden()
    answer = analysis(server, match)
    plies = answer["plies"]
    assert answer["status"] == "done" and len(plies) == len(requests.get(f"{server.url}/api/matches/{match}").json()["moves"])

    # a click on the graph shows that position, with the computer's best move there lit on the board
    board_live = page.locator("#board-area").inner_html()
    ply = next(k for k in range(len(plies) // 2, len(plies)) if answer["best_cells"][k])
    click_graph_at(page, ply, len(plies))
    page.wait_for_function(f"document.getElementById('ply-label').dataset.shown === '{ply}'")
    assert page.locator("#analysis-graph").get_attribute("data-shown") == str(ply)
    assert page.locator("#analysis-graph").get_attribute("aria-valuenow") == str(ply)
    assert page.locator("#board-area").inner_html() != board_live
    assert_best_move_lit(page, answer, ply)
    assert_moves_marked(page, plies)
    assert_counts(page, answer)
    assert page.locator(f'#move-list button.mv[data-ply="{ply}"]').get_attribute("aria-current") == "step"
    shoot(page, "desktop")
    if game == "towers":  # the light theme (the phone's test checks the dark one)
        assert serious_violations(page) == []

    # the analysis is stored: another viewer sees it at once, without asking
    other = new_context(**DESKTOP).new_page()
    other.goto(f"{server.url}/m/{match}")
    other.wait_for_selector("#analysis-done:not([hidden])", timeout=5000)
    assert other.locator("#result-analyse").count() == 0


def test_on_a_phone_in_the_dark_the_graph_steps_by_keys_and_taps_and_axe_finds_nothing_serious(server, new_context,
                                                                                                  shoot):
    match = FINISHED["gamma"](server)  # three players: a line each
    answer = analysed(server, match)
    plies = answer["plies"]
    page = new_context(**PHONE, color_scheme="dark").new_page()
    page.goto(f"{server.url}/m/{match}")
    page.wait_for_selector("#analysis-done:not([hidden])", timeout=5000)
    page.locator("#look").click()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.locator("#analysis-graph path.ag-seat").count() == 3
    assert page.locator("#analysis-legend li").count() == 3

    graph = page.locator("#analysis-graph")
    graph.focus()
    page.keyboard.press("Home")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '0'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '1'")
    assert "move 1 of" in graph.get_attribute("aria-valuetext")
    assert_best_move_lit(page, answer, 1)
    box = graph.bounding_box()
    graph.tap(position={"x": box["width"] * 3 / len(plies), "y": box["height"] / 2})
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === '3'")
    assert_best_move_lit(page, answer, 3)
    assert serious_violations(page) == []
    shoot(page, "phone-dark")
    page.keyboard.press("End")  # (the graph kept the focus after the tap)
    page.wait_for_function("document.getElementById('ply-label').dataset.shown === 'live'")
    assert best_cells_on_board(page) == []  # the game's end: no best move


def test_my_games_links_a_finished_game_to_its_analysis(server, new_context, shoot):
    match, token = play_local(server, "trails", {"size": 5}, seed=7)
    page = new_context(**DESKTOP).new_page()
    page.goto(f"{server.url}/me")
    page.evaluate("([m, t]) => window.QuadrilleTokens.set(m, t)", [match, token])
    page.reload()
    page.locator("#show-finished").check()
    link = page.locator(f'.game-line[data-match="{match}"] a.game-analyse')
    link.wait_for()
    shoot(page, "my-games")
    link.click()
    page.wait_for_url(f"**/m/{match}")
    page.wait_for_selector("#analysis-done:not([hidden])", timeout=90_000)  # asked for at once, then shown
    assert analysis(server, match)["status"] == "done"
    assert page.locator("#analysis-counts li").count() == 2


def test_an_online_game_under_way_offers_no_analysis_and_one_screen_any_time(server, new_context):
    game = play_online(server, "trails", {"size": 7}, 2, resign=False)
    match = game["match"]
    player = new_context(**DESKTOP).new_page()
    player.goto(f"{server.url}/m/{match}")
    player.evaluate("([m, t]) => window.QuadrilleTokens.set(m, t)", [match, game["tokens"][1]])
    player.reload()
    player.wait_for_function("window.Quadrille.page && window.Quadrille.page.answered()")
    watcher = new_context(**DESKTOP).new_page()
    watcher.goto(f"{server.url}/m/{match}")
    for page in (player, watcher):
        assert page.locator("#analysis").is_hidden() and page.locator("#analyse").is_hidden()
        assert page.locator("#result-analyse").count() == 0
    refused = requests.post(f"{server.url}/api/matches/{match}/analysis")
    assert refused.status_code == 409 and refused.json()["error"] == "game-in-progress"
    # once it ends, the same page offers it
    requests.post(f"{server.url}/api/matches/{match}/resign", headers={"Authorization": f"Bearer {game['tokens'][2]}"})
    player.wait_for_selector("#result-analyse")
    assert player.locator("#analyse").is_visible()

    # a game on one screen may be analysed at any time; once it goes on, it may be analysed again
    made = requests.post(f"{server.url}/api/matches", json={"game": "trails", "options": {"size": 5},
                                                           "mode": "local"}).json()
    local, token = made["match"], made["token"]
    play = lambda move: requests.post(f"{server.url}/api/matches/{local}/moves", json={"move": move},  # noqa: E731
                                      headers={"Authorization": f"Bearer {token}"}).json()
    state = play(requests.get(f"{server.url}/api/matches/{local}").json()["legal"][0])
    state = play(state["legal"][0])
    page = new_context(**DESKTOP).new_page()
    page.goto(f"{server.url}/m/{local}")
    page.evaluate("([m, t]) => window.QuadrilleTokens.set(m, t)", [local, token])
    page.reload()
    page.locator("#analyse").click()
    page.wait_for_selector("#analysis-done:not([hidden])", timeout=60_000)
    assert page.locator("#analyse").is_hidden()
    play(state["legal"][0])
    page.wait_for_selector("#analyse:not([hidden])")
    assert page.locator("#analyse").text_content() == "Analyse again (1 new move)"
    assert page.locator("#analysis-graph svg").count() == 1  # the analysis of the moves before stays in view
