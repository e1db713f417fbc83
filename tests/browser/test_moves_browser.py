"""Moves you can follow, for every game, in a real browser (issue 14: items 3, 4, 5 and 7 for the board and the moves):

- a computer's reply is animated (the Web Animations the renderers start through static/js/motion.js; none under
  prefers-reduced-motion) and its last move stays marked (`.last-to`, `.last-from`), a Towers turn of several
  actions drawn one action at a time;
- the move list: a row per round and a column per player, in words, the newest in view, move 40 readable;
- Towers and Trails drawn from the second seat's side for that player, a flip button for everyone else;
- sounds on by default, M mutes, remembered;
- the live region announces moves, turns, refusals and the result;
- a whole game of each kind played with the keyboard alone;
- the sides told apart by letters and shapes (a greyscale screenshot is kept to look at), and board cells of at
  least 44 px on a 390x844 touch screen where the board allows it.

Screenshots go to test-output/ (look at them)."""
from __future__ import annotations

import random

import pytest
import requests

import games
from tests.browser.conftest import api_state, wait_seats, wait_version

pytestmark = pytest.mark.browser

FILES = "abcdefghijklmnopqrstuvwxyz"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


# -- helpers ---------------------------------------------------------------------------------------------------------
def create(server, game, mode="local", options=None, **extra):
    body = {"game": game, "mode": mode, "options": options or {}, **extra}
    answer = requests.post(f"{server.url}/api/matches", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def open_match(page, server, created, seats):
    """Open the match page holding the creator's token (as the browser that created it would)."""
    page.goto(server.url + "/")
    page.evaluate("c => window.QuadrilleTokens.remember(c)", created)
    page.goto(f"{server.url}/m/{created['match']}")
    wait_seats(page, seats)


def api_move(server, created, move, token=None):
    answer = requests.post(f"{server.url}/api/matches/{created['match']}/moves", json={"move": move},
                           headers={"Authorization": f"Bearer {token or created['token']}"})
    assert answer.status_code == 200, answer.text
    return answer.json()


def settled(page, version):
    """The page has drawn this version and nothing is waiting in its queue of STATEs."""
    wait_version(page, version)
    page.wait_for_function("() => window.Quadrille.page.settled()")


def page_state(page):
    return page.evaluate("() => window.Quadrille.page.state()")


def towers_text(move, n):
    """Towers' words for a move string, as games/towers/static/towers.js writes them."""
    if move.startswith("m"):
        a, b = move[1:].split(">")
        b, k = b.split(":")
        (x0, y0), (x1, y1) = map(int, a.split(",")), map(int, b.split(","))
        return f"{FILES[x0]}{n - y0}→{FILES[x1]}{n - y1}" + (f" ({k})" if int(k) > 1 else "")
    return f"import {move[1:]}" if move.startswith("i") else move


def gamma_text(move):
    if move == "skip":
        return "skip"
    x, y = map(int, move.lstrip("g").split(","))
    return f"{FILES[x]}{y + 1}" + (" golden" if move.startswith("g") else "")


def lattice_text(move):
    if move.startswith("+"):
        return "return " + move[1:]
    return move.replace(":", "×") if ":" in move else move.replace("-", "→")


def trails_text(state, ply):
    """Trails' words for move `ply` (0-based): the cell its trail reached, replayed here from the moves."""
    import games
    board = games.get("trails").new(**state["options"])
    for move in state["moves"][:ply + 1]:
        board.push(move)
    last = board.view()["last_move"]
    r, c = last["dest"]
    return f"{FILES[c]}{board.size - r}" + (" tower" if last["tower_taken"] else "")


def text_of(game, state, ply):
    move = state["moves"][ply]
    return {"towers": lambda: towers_text(move, state["view"]["size"]), "gamma": lambda: gamma_text(move),
            "lattice": lambda: lattice_text(move), "trails": lambda: trails_text(state, ply)}[game]()


def last_to_cells(page, game, state):
    """The cells the renderer marks as where the last move ended, and where the STATE says it ended."""
    view = state["view"]
    if game == "towers":
        marked = page.eval_on_selector_all(".tw-board .cell.last-to", "cs => cs.map(c => [+c.dataset.x, +c.dataset.y])")
        turn = [m for m in view["turn_moves"] if m.startswith("m")] or [m for m in view["previous_turn"] if m.startswith("m")]
        expected = {tuple(map(int, m.split(">")[1].split(":")[0].split(","))) for m in turn}
        return {tuple(c) for c in marked}, expected
    if game == "trails":
        marked = page.eval_on_selector_all(".trails-board .cell.last-to", "cs => cs.map(c => [+c.dataset.r, +c.dataset.c])")
        return {tuple(c) for c in marked}, {tuple(c) for c in view["last_move"]["cells"]}
    if game == "gamma":
        marked = page.eval_on_selector_all(".gamma-board .cell.last-to", "cs => cs.map(c => [+c.dataset.x, +c.dataset.y])")
        return {tuple(c) for c in marked}, {tuple(map(int, view["last"].lstrip("g").split(",")))}
    marked = page.eval_on_selector_all("#lattice-levels .cell.last-to", "cs => cs.map(c => c.dataset.node)")
    return set(marked), {view["last"]["path"][-1]}


def first_move(game, state):
    legal = state["legal"]
    if game == "towers":
        return next(m for m in legal if m.startswith("m"))
    return legal[0]


def record_versions(page):
    """From now on, every version the page draws is kept in window.drawnVersions."""
    page.evaluate("""() => {
        window.drawnVersions = [];
        new MutationObserver(() => window.drawnVersions.push(Number(document.getElementById('match').dataset.version)))
            .observe(document.getElementById('match'), {attributes: true, attributeFilter: ['data-version']});
    }""")


# -- a computer's reply: animated, marked, announced, heard -----------------------------------------------------------
@pytest.mark.parametrize("game", games.listed())
def test_a_computer_reply_is_animated_marked_announced_and_heard(live_server, new_context, shoot, game):
    page = new_context().new_page()
    options = {"towers": {"size": 6}}.get(game, {})
    created = create(live_server, game, "ai", options, ai={"seats": [2], "level": 1})
    open_match(page, live_server, created, "1")
    assert page.get_attribute("#sound", "aria-pressed") == "true"  # on by default, as on lichess
    record_versions(page)
    before = page.evaluate("window.QuadrilleMotion.started")
    state = api_state(live_server, created["match"])
    mine = first_move(game, state)
    api_move(live_server, created, mine)
    # the computer answers (Towers: several actions, then its turn ends by itself)
    page.wait_for_function("() => { const s = window.Quadrille.page.state(); return s.turn === 1 && s.movers.includes(2); }",
                           timeout=30_000)
    page.wait_for_function("() => window.Quadrille.page.settled()")
    final = api_state(live_server, created["match"])
    settled(page, final["version"])
    started = page.evaluate("window.QuadrilleMotion.started")
    replies = [ply for ply, s in enumerate(final["movers"]) if s == 2]
    animated = [m for m in final["moves"] if not (game == "towers" and not m.startswith(("m", "i")))]
    assert started - before >= len(animated), (started, before, final["moves"])
    marked, expected = last_to_cells(page, game, final)
    assert marked == expected and marked, (marked, expected)
    assert page.locator(".last-from").count() >= (1 if game != "gamma" else 0)
    # every action of the computer's turn was drawn on its own, one after another
    drawn = page.evaluate("window.drawnVersions")
    assert set(range(state["version"] + 1, final["version"] + 1)) <= set(drawn), drawn
    # the live region said the computer's moves in words, and whose turn it is
    page.wait_for_function("t => { const a = document.getElementById('announce').textContent;"
                           " return a.includes(t) && a.includes('Your turn'); }", arg=text_of(game, final, replies[-1]))
    # the move list: the reply in words, in the second column of the first round
    second = page.inner_text("#move-list tbody tr:first-child td:nth-child(3)")
    assert text_of(game, final, replies[0]) in second
    assert page.get_attribute("#match", "data-sound") in ("move", "capture")
    shoot(page, "after-reply")


def test_no_animation_under_reduced_motion_but_the_marks_stay(live_server, new_context, shoot):
    for game in ("towers", "lattice"):
        page = new_context(reduced_motion="reduce").new_page()
        created = create(live_server, game, "ai", {}, ai={"seats": [2], "level": 1})
        open_match(page, live_server, created, "1")
        state = api_state(live_server, created["match"])
        api_move(live_server, created, first_move(game, state))
        page.wait_for_function("() => { const s = window.Quadrille.page.state(); return s.turn === 1 && s.movers.includes(2); }",
                               timeout=30_000)
        final = api_state(live_server, created["match"])
        settled(page, final["version"])
        assert page.evaluate("window.QuadrilleMotion.started") == 0
        assert page.evaluate("document.getAnimations().length") == 0
        marked, expected = last_to_cells(page, game, final)
        assert marked == expected and marked
        shoot(page, f"{game}-reduced-motion")


def test_an_opponents_quick_actions_are_drawn_one_at_a_time(live_server, new_context):
    """A Towers turn of two actions that reach the page together is drawn action by action, a step apart."""
    created = create(live_server, "towers", "online", {"size": 6})
    red = requests.post(f"{live_server.url}/api/matches/{created['match']}/seats",
                        json={"invite": created["invite_secret"]}).json()
    page = new_context().new_page()
    open_match(page, live_server, created, "1")
    page.evaluate("""() => { window.drawn = [];
        new MutationObserver(() => window.drawn.push([Number(document.getElementById('match').dataset.version), performance.now()]))
            .observe(document.getElementById('match'), {attributes: true, attributeFilter: ['data-version']}); }""")

    def cheap(state):  # a tower's move of one point
        return next(m for m in state["legal"] if m.startswith("m") and m.endswith(":1")
                    and sum(abs(int(a) - int(b)) for a, b in zip(m[1:].split(":")[0].split(">")[0].split(","),
                                                                 m[1:].split(":")[0].split(">")[1].split(","))) == 1)
    state = api_state(live_server, created["match"])
    while state["turn"] == 1:
        state = api_move(live_server, created, cheap(state))
    settled(page, state["version"])
    start = state["version"]
    while state["turn"] == 2:  # Red's two actions, sent back to back
        state = api_move(live_server, created, cheap(state), token=red["token"])
    assert state["version"] - start == 2
    settled(page, state["version"])
    drawn = dict(page.evaluate("window.drawn"))
    assert {start + 1, start + 2} <= set(drawn)
    assert drawn[start + 2] - drawn[start + 1] >= 200  # the first action's animation had its time


# -- the move list -------------------------------------------------------------------------------------------------
def test_the_move_list_groups_rounds_and_shows_move_40_in_view(live_server, new_context, shoot):
    page = new_context().new_page()
    created = create(live_server, "gamma", "local", {"width": 10, "height": 10, "players": 2})
    open_match(page, live_server, created, "1,2")
    rng = random.Random(14)
    state = api_state(live_server, created["match"])
    for _ in range(46):
        normal = [m for m in state["legal"] if not m.startswith("g") and m != "skip"]
        state = api_move(live_server, created, rng.choice(normal))
    assert state["outcome"] is None and len(state["moves"]) == 46
    settled(page, state["version"])
    # a row per round, a column per player; every move there, in words
    assert page.locator("#move-list tbody tr").count() == 23
    assert page.locator("#move-list thead th").all_inner_texts()[1:] == [f"{n} (A)" if i == 0 else f"{n} (B)"
                                                                         for i, n in enumerate(state["seat_names"])]
    assert page.locator("#move-list [data-ply]").count() == 46
    texts = page.eval_on_selector_all("#move-list [data-ply]", "bs => bs.map(b => b.textContent)")
    assert texts == [gamma_text(m) for m in state["moves"]]

    def in_view(ply):
        return page.evaluate("""p => { const b = document.querySelector(`#move-list [data-ply="${p}"]`);
            const r = b.getBoundingClientRect(); const box = document.getElementById('move-list').getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && hit === b; }""", ply)
    assert in_view(46)  # the newest move is in view, not clipped
    page.locator("#move-list [data-ply='46']").scroll_into_view_if_needed()
    shoot(page, "newest")
    # the keyboard reaches the list; the arrows step back to move 40, which is shown, marked and in view
    page.locator("#move-list [data-ply='46']").focus()
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.getElementById('ply-label').textContent === 'move 40 of 46'")
    page.wait_for_selector("#move-list [data-ply='40'][aria-current=step]")
    assert in_view(40)
    assert page.evaluate("document.activeElement.dataset.ply") == "40"
    assert page.inner_text("#move-list [data-ply='40']") == gamma_text(state["moves"][39])
    shoot(page, "move-40")
    # a click on a move shows that position too; End goes back to the game
    page.click("#move-list [data-ply='3']")
    page.wait_for_function("document.getElementById('ply-label').textContent === 'move 3 of 46'")
    page.wait_for_selector("#move-list [data-ply='3'][aria-current=step]")
    assert in_view(3)  # the list scrolled back up to it
    page.keyboard.press("End")
    page.wait_for_function("document.getElementById('ply-label').textContent === 'live'")


def test_a_towers_turn_of_several_actions_is_one_cell_of_its_round(live_server, new_context):
    page = new_context().new_page()
    created = create(live_server, "towers", "local", {"size": 6})
    open_match(page, live_server, created, "1,2")
    state = api_state(live_server, created["match"])
    n = state["view"]["size"]
    moves = []
    while len([s for s in state["movers"] if s == 1]) < 2 or state["turn"] != 2:
        move = first_move("towers", state) if state["turn"] == 1 and any(m.startswith("m") for m in state["legal"]) \
            else "end"
        state = api_move(live_server, created, move)
        moves.append(move)
        if len(moves) > 20:
            break
    settled(page, state["version"])
    cell = page.locator("#move-list tbody tr:first-child td:nth-child(2) [data-ply]")
    first_turn = [m for m, s in zip(state["moves"], state["movers"]) if s == 1][: cell.count()]
    assert cell.all_inner_texts() == [towers_text(m, n) for m in first_turn]


# -- your side at the bottom ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["towers", "trails"])
def test_the_second_seat_sees_the_board_from_its_side_and_others_may_flip(live_server, new_context, shoot, game):
    created = create(live_server, game, "online", {"size": 6} if game == "towers" else {"size": 7})
    joined = requests.post(f"{live_server.url}/api/matches/{created['match']}/seats",
                           json={"invite": created["invite_secret"], "player": "Red"}).json()
    red = new_context().new_page()
    open_match(red, live_server, {**joined, "match": created["match"]}, "2")
    board = ".tw-board" if game == "towers" else ".trails-board"
    n = 6 if game == "towers" else 7
    red.wait_for_selector(f"{board}.flipped")
    keys = "xy" if game == "towers" else "cr"
    first = red.eval_on_selector(f"{board} .cell", f"c => [+c.dataset.{keys[0]}, +c.dataset.{keys[1]}]")
    assert first == [n - 1, n - 1]  # the top left corner is the far corner of Blue's view
    bottom_row = red.eval_on_selector_all(f"{board} [role=row]:last-child .cell", "cs => cs.map(c => c.className)")
    if game == "towers":
        assert red.eval_on_selector(".tw-board .cell", "c => c.getAttribute('aria-label')").startswith("f1")
        assert all(" p2" in c for c in bottom_row)  # Red's towers at the bottom of Red's screen
        assert red.eval_on_selector(".towers", "t => [...t.children].filter(e => e.classList.contains('tw-bar'))"
                                               ".map(b => getComputedStyle(b).order)") == ["1", "-1"]
    else:  # Red's trail starts in the corner where Blue sees Blue's start: the top left
        assert " p2" in red.eval_on_selector(f"{board} .cell", "c => c.className")
    assert red.get_attribute("#flip", "aria-pressed") == "true"
    shoot(red, "second-seat")

    blue = new_context().new_page()
    open_match(blue, live_server, created, "1")
    assert blue.locator(f"{board}.flipped").count() == 0
    if game == "trails":
        assert " p1" in blue.eval_on_selector(f"{board} .cell", "c => c.className")
    watcher = new_context().new_page()
    watcher.goto(f"{live_server.url}/m/{created['match']}")
    wait_seats(watcher, "")
    assert watcher.locator(f"{board}.flipped").count() == 0  # spectators: the first seat's view…
    watcher.click("#flip")  # …with a flip button, remembered per match in this tab
    watcher.wait_for_selector(f"{board}.flipped")
    watcher.reload()
    wait_seats(watcher, "")
    watcher.wait_for_selector(f"{board}.flipped")
    shoot(watcher, "spectator-flipped")


# -- sounds ---------------------------------------------------------------------------------------------------------
def test_m_mutes_the_sounds_and_the_choice_is_remembered(live_server, new_context):
    page = new_context().new_page()
    created = create(live_server, "gamma", "local", {"width": 5, "height": 4})
    open_match(page, live_server, created, "1,2")
    page.locator("body").click(position={"x": 2, "y": 2})
    state = api_move(live_server, created, "0,0")
    settled(page, state["version"])
    assert page.get_attribute("#match", "data-sound") == "move"
    page.keyboard.press("m")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    page.reload()
    wait_seats(page, "1,2")
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    state = api_move(live_server, created, "4,3")
    settled(page, state["version"])
    assert page.get_attribute("#match", "data-sound") is None  # nothing played while muted


# -- the live region ---------------------------------------------------------------------------------------------------
def test_the_live_region_announces_moves_turns_refusals_and_the_result(live_server, new_context):
    page = new_context().new_page()
    created = create(live_server, "gamma", "local", {"width": 3, "height": 2})
    open_match(page, live_server, created, "1,2")
    assert page.locator("[aria-live]").count() == 1  # one polite region, not a chorus
    assert page.get_attribute("#announce", "aria-live") == "polite"
    page.locator("body").click(position={"x": 2, "y": 2})
    page.keyboard.press("Enter")  # the cursor starts on a1, the bottom left field
    page.wait_for_function("document.getElementById('announce').textContent.includes('a1')")
    announce = page.inner_text("#announce")
    assert announce.startswith("Blue (A): a1.") and "Orange (B) to move." in announce, announce
    page.keyboard.press("Enter")  # a1 is taken: refused, and said
    page.wait_for_function("document.getElementById('message').textContent.length > 0")
    refusal = page.inner_text("#message")
    page.wait_for_function("t => document.getElementById('announce').textContent === t", arg=refusal)
    state = api_state(live_server, created["match"])
    while state["outcome"] is None:
        state = api_move(live_server, created, state["legal"][0])
    settled(page, state["version"])
    title = page.inner_text("#result-title")
    page.wait_for_function("t => document.getElementById('announce').textContent.includes(t)", arg=title)


# -- whole games with the keyboard alone --------------------------------------------------------------------------------
def tab_to(page, predicate, limit=60):
    """Press Tab until the focused element satisfies `predicate` (a JS function of the element)."""
    for _ in range(limit):
        if page.evaluate(f"() => {{ const e = document.activeElement; return !!e && ({predicate})(e); }}"):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the element")


def finish(page, server, created, shoot, name):
    """The game is over: the result shows, is announced, and Escape closes it."""
    state = api_state(server, created["match"])
    assert state["outcome"] is not None
    settled(page, state["version"])
    page.wait_for_selector("#result:not([hidden])")
    title = page.inner_text("#result-title")
    page.wait_for_function("t => document.getElementById('announce').textContent.includes(t)", arg=title)
    shoot(page, name)
    page.keyboard.press("Escape")
    page.wait_for_selector("#result[hidden]", state="attached")
    return state


def test_a_whole_trails_game_with_the_keyboard_alone(live_server, new_context, shoot):
    page = new_context().new_page()
    created = create(live_server, "trails", "local", {"size": 7})
    open_match(page, live_server, created, "1,2")
    keys = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
    rng = random.Random(3)
    state = api_state(live_server, created["match"])
    while state["outcome"] is None:
        page.keyboard.press(keys[rng.choice(state["legal"])])
        settled(page, state["version"] + 1)
        state = api_state(live_server, created["match"])
    finish(page, live_server, created, shoot, "trails-end")


def test_a_whole_gamma_game_with_the_keyboard_alone(live_server, new_context, shoot):
    page = new_context().new_page()
    created = create(live_server, "gamma", "local", {"width": 4, "height": 3, "players": 2})
    open_match(page, live_server, created, "1,2")
    cursor = [0, 0]  # the terminal game's cursor starts on the bottom left field and keeps its place
    rng = random.Random(5)
    state = api_state(live_server, created["match"])
    golden_played = False
    while state["outcome"] is None:
        normal = [m for m in state["legal"] if m[0].isdigit()]
        golden = [m for m in state["legal"] if m.startswith("g")]
        if golden and (not normal or not golden_played):
            move, key = rng.choice(golden), "g"
            golden_played = True
            page.keyboard.press("g")  # the golden mode; then the cursor and G again
        elif normal:
            move, key = rng.choice(normal), "Enter"
        else:
            move, key = "skip", "c"
        if move != "skip":
            x, y = map(int, move.lstrip("g").split(","))
            for _ in range(abs(x - cursor[0])):
                page.keyboard.press("ArrowRight" if x > cursor[0] else "ArrowLeft")
            for _ in range(abs(y - cursor[1])):
                page.keyboard.press("ArrowUp" if y > cursor[1] else "ArrowDown")
            cursor = [x, y]
        page.keyboard.press(key)
        settled(page, state["version"] + 1)
        state = api_state(live_server, created["match"])
        assert state["moves"][-1] == move
    assert golden_played
    finish(page, live_server, created, shoot, "gamma-end")


def towers_choice(state, rng):
    """A move that wins if there is one, else mostly a tower's move, sometimes the end of the turn."""
    import games
    board = games.get("towers").new(**state["options"])
    for m in state["moves"]:
        board.push(m)
    for m in state["legal"]:
        trial = board.copy()
        trial.push(m)
        if trial.outcome() is not None:
            return m
    moves = [m for m in state["legal"] if m.startswith("m")]
    # a pass that would draw the game asks first (a dialog): play on instead while anything else is legal
    if moves and (rng.random() < 0.9 or state["view"]["legal"]["end_draws"]):
        return rng.choice(moves)
    others = [m for m in state["legal"] if m != "end"]
    if state["view"]["legal"]["end_draws"] and others:
        return rng.choice(others)
    return "end" if "end" in state["legal"] else rng.choice(state["legal"])


def test_a_whole_towers_game_with_the_keyboard_alone(live_server, new_context, shoot):
    page = new_context().new_page()
    created = create(live_server, "towers", "local", {"size": 5})
    open_match(page, live_server, created, "1,2")
    tab_to(page, "e => e.id === 'board'")  # Tab reaches the board; arrows move the cursor, Enter picks and drops
    rng = random.Random(4)
    state = api_state(live_server, created["match"])
    page.keyboard.press("ArrowUp")  # the first arrow shows the cursor (on the master of the side to move)
    cursor = None
    while state["outcome"] is None:
        move = towers_choice(state, rng)
        if move == "end":
            page.keyboard.press("e")
        elif move.startswith("i"):
            page.keyboard.press(move[1:])
            page.keyboard.press("i")
        else:
            a, b = move[1:].split(">")
            b, k = b.split(":")
            src, dst = tuple(map(int, a.split(","))), tuple(map(int, b.split(",")))
            for target in (src, dst):
                cursor = page.evaluate("() => { const c = document.querySelector('.tw-board .cell.cursor');"
                                       " return c ? [+c.dataset.x, +c.dataset.y] : null; }")
                assert cursor is not None
                for _ in range(abs(target[0] - cursor[0])):
                    page.keyboard.press("ArrowRight" if target[0] > cursor[0] else "ArrowLeft")
                for _ in range(abs(target[1] - cursor[1])):
                    page.keyboard.press("ArrowDown" if target[1] > cursor[1] else "ArrowUp")
                if target == src:
                    page.keyboard.press("Enter")
                    page.wait_for_selector(f".tw-board[data-selected='{src[0]},{src[1]}']")
                    page.keyboard.press(k)  # how many pawns move
            page.keyboard.press("Enter")
        settled(page, state["version"] + 1)
        state = api_state(live_server, created["match"])
        assert state["moves"][-1] == move, (state["moves"][-1], move)
        assert page.evaluate("document.activeElement.id") == "board"
    finish(page, live_server, created, shoot, "towers-end")


def test_a_whole_lattice_game_with_the_keyboard_alone(live_server, new_context, shoot):
    page = new_context().new_page()
    created = create(live_server, "lattice", "local", {})
    open_match(page, live_server, created, "1,2")
    if page.locator("#lattice-3d-toggle:not([hidden])").count():
        page.click("#lattice-3d-toggle")  # the levels view is the keyboard's (the 3D view's arrows turn it)
    tab_to(page, "e => e.matches('#lattice-levels .cell')")
    page.evaluate("""() => { window.sounds = []; new MutationObserver(() => window.sounds.push(document.getElementById('match')
        .dataset.sound)).observe(document.getElementById('match'), {attributes: true, attributeFilter: ['data-sound']}); }""")
    rng = random.Random(196)
    captures = 0
    state = api_state(live_server, created["match"])
    W = state["view"]["grid"][0]

    def walk_to(node):
        here = page.evaluate("() => { const c = document.activeElement; return [+c.dataset.level, +c.dataset.x, +c.dataset.y]; }")
        goal = next(x for x in state["view"]["nodes"] if x["id"] == node)
        dcol = (goal["level"] - 1) * W + goal["x"] - ((here[0] - 1) * W + here[1])
        for _ in range(abs(dcol)):
            page.keyboard.press("ArrowRight" if dcol > 0 else "ArrowLeft")
        for _ in range(abs(goal["y"] - here[2])):
            page.keyboard.press("ArrowUp" if goal["y"] > here[2] else "ArrowDown")
        assert page.evaluate("document.activeElement.dataset.node") == node
        page.keyboard.press("Enter")

    while state["outcome"] is None:
        view = state["view"]
        entries = [e for es in view["legal"].values() for e in es] if view["pending"] != "return" else []
        move = rng.choice(state["legal"])
        if move.startswith("+"):
            walk_to(move[1:])
        else:
            entry = next(e for e in entries if e["move"] == move)
            walk_to(entry["path"][0])
            walk_to(entry["path"][-1])
            same_end = [e for e in view["legal"][entry["path"][0]] if e["path"][-1] == entry["path"][-1]]
            if len(same_end) > 1:  # several capture chains end there: the digits choose one
                page.keyboard.press(str(same_end.index(entry) + 1))
            captures += bool(entry["captures"])
        settled(page, state["version"] + 1)
        state = api_state(live_server, created["match"])
        assert state["moves"][-1] == move
    # a capture sounds different from a move (sounds are on by default)
    sounds = page.evaluate("window.sounds")
    assert captures and sounds.count("capture") == captures, (captures, sounds)
    finish(page, live_server, created, shoot, "lattice-end")


# -- greyscale, letters and shapes; tap targets on a phone -------------------------------------------------------------
def mid_game(server, game, options, plies):
    created = create(server, game, "local", options)
    state = api_state(server, created["match"])
    rng = random.Random(1)
    for _ in range(plies):
        if state["outcome"] is not None:
            break
        moves = [m for m in state["legal"] if m != "end" and not m.startswith("i")] or state["legal"]
        state = api_move(server, created, rng.choice(moves))
    return created, state


@pytest.mark.parametrize("game", games.listed())
def test_the_sides_are_told_apart_by_letters_and_shapes_in_greyscale(live_server, new_context, shoot, game):
    page = new_context().new_page()
    created, state = mid_game(live_server, game, {"towers": {"size": 6}}.get(game, {}), 8)
    open_match(page, live_server, created, "1,2")
    settled(page, state["version"])
    if game == "lattice" and page.locator("#lattice-3d-toggle:not([hidden])").count():
        page.click("#lattice-3d-toggle")
    page.add_style_tag(content="html { filter: grayscale(1); }")
    shoot(page, "greyscale")

    def pseudo(selector, which, prop="content"):
        return page.eval_on_selector_all(selector, f"cs => cs.map(c => getComputedStyle(c, '{which}').{prop})")
    if game == "towers":
        assert set(pseudo(".tw-board .cell.p1 .side-mark", "::before")) == {'"B"'}
        assert set(pseudo(".tw-board .cell.p2 .side-mark", "::before")) == {'"R"'}
        assert page.locator(".tw-board .cell.p1").count() == page.locator(".tw-board .cell.p1 .side-mark").count()
    elif game == "trails":
        assert pseudo(".trails-board .cell.head1", "::before") == ['"B"']
        assert pseudo(".trails-board .cell.head2", "::before") == ['"R"']
        assert set(pseudo(".trails-board .cell.p1:not(.head1)", "::after", "borderRadius")) == {"50%"}
        assert "matrix" in pseudo(".trails-board .cell.p2:not(.head2)", "::after", "transform")[0]  # a diamond
    elif game == "gamma":
        owned = page.eval_on_selector_all(".gamma-board .cell.owned", "cs => cs.map(c => [c.className, c.textContent])")
        assert {t for c, t in owned if " o1" in c} == {"A"} and {t for c, t in owned if " o2" in c} == {"B"}
    else:
        assert set(pseudo("#lattice-levels .cell.s1 .piece", "::before")) == {'"B"'}
        assert set(pseudo("#lattice-levels .cell.s2 .piece", "::before")) == {'"T"'}


@pytest.mark.parametrize("game", ["towers", "lattice", "trails", "gamma"])
def test_board_cells_on_a_phone(live_server, browser, shoot, game):
    """On a 390x844 touch screen the board fills the width; Towers' cells and Lattice's level boards are at least
    44 px a cell. Trails (11 x 11) and Gamma (10 x 10) cannot be: their cell is the width shared by the columns."""
    context = browser.new_context(**PHONE, bypass_csp=True)
    try:
        page = context.new_page()
        created = create(live_server, game, "local", {})
        open_match(page, live_server, created, "1,2")
        width = page.evaluate("document.documentElement.clientWidth")
        if game == "lattice":
            if page.locator("#lattice-3d-toggle:not([hidden])").count():
                page.click("#lattice-3d-toggle")
            sizes = page.eval_on_selector_all("#lattice-levels .cell",
                                              "cs => cs.map(c => { const r = c.getBoundingClientRect(); return [r.width, r.height]; })")
            assert min(min(s) for s in sizes) >= 44, min(sizes)
            right = page.eval_on_selector_all("#lattice-levels .lattice-level", "ls => ls.map(l => l.getBoundingClientRect().right)")
            assert max(right) <= width + 0.5
        else:
            board = page.locator("#board").bounding_box()
            assert board["width"] >= width - 40, (board, width)  # the board fills the width
            cells = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.getBoundingClientRect().width)")
            n = {"towers": 6, "trails": 11, "gamma": 10}[game]
            if game == "towers":
                assert min(cells) >= 44
            else:
                assert min(cells) >= (board["width"] - n * 2) / n - 1  # as big as the width allows
        shoot(page, "phone")
    finally:
        context.close()
