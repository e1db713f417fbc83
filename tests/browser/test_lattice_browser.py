"""Lattice Checkers in a real browser: whole 222 games by link, once through clicks on the 3D canvas and once on
the flat levels view (mouse and keyboard), a 3D screenshot that shows the position, the choice between capture
chains that end on the same node, the fall-back without WebGL, and the 333 frame time."""
from __future__ import annotations

import base64
import json
import random

import pytest
import requests

from tests.browser.conftest import OUTPUT, api_state, join_by_invite, lobby_start, match_id, result_title, wait_seats, wait_version

pytestmark = pytest.mark.browser

# Reference game 204, decision 14 (rules/lattice.md §12): T's ball on Aa5 has two capture chains that both end
# on Ac3, so a click on Ac3 cannot tell them apart and the page must offer the choice.
BRANCHING = ("B:Aa3,Ab2,Ab4,Ad2,Ba2,Bb1,Bc2,Bd1,Ca1,Cb2,Cd2,Db1,Db3,Dc2,Dd1;"
             "T:Aa5,Ad6,Ba4,Ba6,Bc4,Bc6,Ca5,Cb6,Cc5,Cd4,Cd6,Da4,Da6,Dc6,Dd5;benchB:1;benchT:1")


def wait_3d(page):
    page.wait_for_function("window.latticeView && window.latticeView.ready")


def open_local(page, server, options):
    """A local (hot-seat) match made through the HTTP API; its token goes where the page keeps tokens."""
    created = requests.post(f"{server.url}/api/matches",
                            json={"game": "lattice", "mode": "local", "options": options}).json()
    page.goto(server.url + "/")
    page.evaluate("([m, t]) => localStorage.setItem('quadrille.token.' + m, t)", [created["match"], created["token"]])
    page.goto(f"{server.url}/m/{created['match']}")
    wait_seats(page, "1,2")
    return created["match"]


def start_online(ann, bob, server, options=None, side=None):
    """Ann makes an online match from the lobby (with the given form options and side); Bob opens the invite
    link. Ann holds the first seat (B), Bob the second."""
    lobby_start(ann, server, "lattice", "online", options=options, side=side)
    wait_seats(ann, "1")
    join_by_invite(bob, ann.input_value("#invite-link"), "Bob", 2)
    return match_id(ann)


def choose(rng, view):
    """The test's player: a return when one is due, else the longest capture chain, else a promotion, else any
    move; ties broken by a seeded generator, so the game is the same every run."""
    if view["pending"] == "return":
        return "+" + rng.choice(view["returns"])
    entries = [e for es in view["legal"].values() for e in es]
    longest = max(len(e["captures"]) for e in entries)
    promoting = [e for e in entries if e["promotes"]]
    pool = ([e for e in entries if len(e["captures"]) == longest] if longest else promoting or entries)
    return rng.choice(sorted(e["move"] for e in pool))


def entry_of(view, move):
    if move.startswith("+"):
        return {"move": move, "path": [move[1:]], "captures": [], "promotes": False}
    return next(e for es in view["legal"].values() for e in es if e["move"] == move)


# -- clicking in the 3D view --------------------------------------------------------------------------------------
def reveal_3d(page, node):
    """Where a node is drawn (viewport coordinates), turning the view (arrow keys) while other nodes hide it."""
    for _ in range(40):
        spot = page.evaluate("id => window.latticeView.project(id)", node)
        if spot["visible"]:
            return spot
        page.keyboard.press("ArrowLeft")
    raise AssertionError(f"{node} stays hidden behind other nodes in the 3D view")


def click_3d(page, node):
    spot = reveal_3d(page, node)
    page.mouse.click(spot["x"], spot["y"])


def hover_3d(page, node):
    spot = reveal_3d(page, node)
    page.mouse.move(spot["x"], spot["y"])


def play_3d(page, view, move):
    entry = entry_of(view, move)
    if move.startswith("+"):
        marks = page.evaluate("window.latticeView.marks()")
        assert sorted(marks["targets"]) == sorted(view["returns"])  # the green nodes are the returns
        click_3d(page, move[1:])
        return entry
    source, target = entry["path"][0], entry["path"][-1]
    click_3d(page, source)
    page.wait_for_function("id => window.latticeView.selected() === id", arg=source)
    marks = page.evaluate("window.latticeView.marks()")
    assert sorted(marks["targets"]) == sorted({e["path"][-1] for e in view["legal"][source]})
    if len(entry["captures"]) >= 2:
        hover_3d(page, target)  # the whole chain is shown before it is played
        page.wait_for_function("m => (window.latticeView.marks() || {}).preview === m", arg=move)
    click_3d(page, target)
    return entry


# -- clicking (and typing) on the flat view ---------------------------------------------------------------------------
def cell(page, node):
    return page.locator(f'#lattice-levels .cell[data-node="{node}"]')


def keyboard_to(page, view, node):
    """Walk the flat view's cursor to a node with the arrow keys (the levels side by side form one wide grid) and
    press Enter."""
    W = view["grid"][0]
    here = page.evaluate("""() => { const c = document.activeElement.closest('.lattice-levels .cell');
        return c && [Number(c.dataset.level), Number(c.dataset.x), Number(c.dataset.y)]; }""")
    if here is None:
        page.locator('#lattice-levels .cell[tabindex="0"]').focus()
        here = page.evaluate("""() => { const c = document.activeElement;
            return [Number(c.dataset.level), Number(c.dataset.x), Number(c.dataset.y)]; }""")
    level, x, y = here
    goal = next(n for n in view["nodes"] if n["id"] == node)
    dcol = (goal["level"] - 1) * W + goal["x"] - ((level - 1) * W + x)
    dy = goal["y"] - y
    for _ in range(abs(dcol)):
        page.keyboard.press("ArrowRight" if dcol > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowUp" if dy > 0 else "ArrowDown")
    assert page.evaluate("() => document.activeElement.dataset.node") == node
    page.keyboard.press("Enter")


def play_flat(page, view, move, keyboard=False):
    entry = entry_of(view, move)
    pick = (lambda n: keyboard_to(page, view, n)) if keyboard else (lambda n: cell(page, n).click())
    if move.startswith("+"):
        greens = page.eval_on_selector_all("#lattice-levels .cell.target", "cs => cs.map(c => c.dataset.node)")
        assert sorted(greens) == sorted(view["returns"])
        pick(move[1:])
        return entry
    source, target = entry["path"][0], entry["path"][-1]
    pick(source)
    page.wait_for_selector(f'#lattice-levels .cell.selected[data-node="{source}"]')
    greens = page.eval_on_selector_all("#lattice-levels .cell.target", "cs => cs.map(c => c.dataset.node)")
    assert sorted(greens) == sorted({e["path"][-1] for e in view["legal"][source]})
    if len(entry["captures"]) >= 2 and not keyboard:
        cell(page, target).hover()  # the chain, hop by hop, and its victims, before it is played
        page.wait_for_selector(f'#lattice-levels .cell.hot[data-node="{target}"]')
        victims = page.eval_on_selector_all("#lattice-levels .cell.victim", "cs => cs.map(c => c.dataset.node)")
        assert sorted(victims) == sorted(entry["captures"])
        assert "captures " + ", ".join(entry["captures"]) in cell(page, target).get_attribute("aria-label")
    pick(target)
    return entry


def play_whole_game(server, pages, match, play, seed, shots):
    """Play until the end, each move chosen from the server's legal list and made by `play(page, view, move, ply)`
    on the page of the side to move; every page follows. Returns what happened."""
    rng = random.Random(seed)
    state = api_state(server, match)
    seen = {"chains": 0, "returns": 0, "promotions": 0, "moves": 0}
    while state["outcome"] is None:
        view = state["view"]
        move = choose(rng, view)
        assert move in state["legal"]
        entry = play(pages[state["turn"]], view, move, seen["moves"])
        for p in pages.values():
            wait_version(p, state["version"] + 1)
        state = api_state(server, match)
        assert state["moves"][-1] == move
        seen["moves"] += 1
        seen["chains"] += len(entry["captures"]) >= 2
        seen["returns"] += move.startswith("+")
        seen["promotions"] += entry["promotes"]
        if shots and seen["chains"] == 1 and len(entry["captures"]) >= 2:
            shots("after-chain")
    return state, seen


def check_final_position(page, view):
    """The flat view shows the server's final position node by node."""
    drawn = page.eval_on_selector_all(
        "#lattice-levels .cell[data-node]",
        "cs => cs.map(c => [c.dataset.node, c.classList.contains('s1') ? 1 : c.classList.contains('s2') ? 2 : null,"
        " c.classList.contains('star')])")
    assert sorted(drawn) == sorted([n["id"], n["seat"], n["star"]] for n in view["nodes"])


# -- pixels ---------------------------------------------------------------------------------------------------------
def pixel_census(page, png: bytes) -> dict:
    """Decode a PNG in the browser and count its distinct colours and the pixels near some reference hues."""
    return page.evaluate("""async (b64) => {
        const img = new Image(); img.src = 'data:image/png;base64,' + b64; await img.decode();
        const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        const colours = new Set(); const n = {blue: 0, red: 0, yellow: 0, green: 0};
        for (let i = 0; i < d.length; i += 4) {
            const r = d[i], gr = d[i + 1], b = d[i + 2];
            colours.add((r << 16) | (gr << 8) | b);
            if (b > 110 && r < 70 && gr < 70) n.blue++;
            if (r > 110 && gr < 70 && b < 70) n.red++;
            if (r > 150 && gr > 130 && b < 90) n.yellow++;
            if (gr > 140 && r < 140 && b < 140 && gr > r + 40) n.green++;
        }
        return {width: c.width, height: c.height, colours: colours.size, ...n};
    }""", base64.b64encode(png).decode())


# -- the tests ------------------------------------------------------------------------------------------------------
def test_a_whole_222_game_by_link_through_the_3d_view(live_server, new_context, shoot):
    ann, bob = new_context().new_page(), new_context().new_page()
    match = start_online(ann, bob, live_server)
    for p in (ann, bob):
        wait_3d(p)
    assert ann.inner_text("#seats").startswith("Blue")
    bob.wait_for_function("window.latticeView.marks().flipped")  # T sees its own side at the bottom (once drawn
    # after the server said which seat Bob's tab holds)
    assert not ann.evaluate("window.latticeView.marks().flipped")

    # The 3D view shows the lattice: many colours, the players' blue and red, yellow bonds, green targets.
    state = api_state(live_server, match)
    source = sorted(state["view"]["legal"])[0]
    click_3d(ann, source)
    ann.wait_for_function("id => window.latticeView.selected() === id", arg=source)
    ann.wait_for_function("window.latticeView.idle()")
    ann.wait_for_timeout(300)  # the sharp frame after the view was still
    OUTPUT.mkdir(exist_ok=True)
    canvas = ann.locator("#lattice-stage canvas")
    png = canvas.screenshot(path=str(OUTPUT / "lattice-3d-selected.png"))
    census = pixel_census(ann, png)
    assert census["colours"] > 300, census
    assert min(census["blue"], census["red"], census["yellow"], census["green"]) > 100, census
    shoot(ann, "selected")
    ann.keyboard.press("Escape")  # drops the selection
    ann.wait_for_function("window.latticeView.selected() === null")

    def play(page, view, move, ply):
        return play_3d(page, view, move)

    shots = lambda name: (shoot(ann, name), shoot(bob, name + "-t"))  # noqa: E731
    final, seen = play_whole_game(live_server, {1: ann, 2: bob}, match, play, seed=109, shots=shots)
    assert seen["chains"] >= 1 and seen["returns"] >= 1, seen
    for p in (ann, bob):
        p.wait_for_selector("#result:not([hidden])")
        check_final_position(p, final["view"])
    assert result_title(ann) in ("You won", "You lost", "Draw")
    assert ann.locator("#lattice-levels .cell.target").count() == 0
    shoot(ann, "finished")
    shoot(bob, "finished-t")


def test_a_whole_222_game_by_link_through_the_flat_view(live_server, new_context, shoot):
    ann, bob = new_context().new_page(), new_context().new_page()
    # the original's options from the lobby form: who moves first, and the colours of both sides
    # (T moves first: Ann, on B, moves second.)
    match = start_online(ann, bob, live_server, {"first": 2, "color_b": "yellow", "color_t": "magenta"},
                         side="second")
    state = api_state(live_server, match)
    assert state["turn"] == 2 and state["options"]["color_b"] == "yellow"
    assert bob.inner_text("#seats").startswith("Yellow")
    assert "Magenta" in bob.inner_text("#seats")
    assert ann.evaluate("getComputedStyle(document.getElementById('lattice')).getPropertyValue('--c1')").strip() \
        == "rgb(255, 255, 0)"
    label = cell(ann, "Bb1").get_attribute("aria-label")
    assert label.startswith("Bb1, level 1, Yellow ball"), label  # the side by its colour, as the page calls it

    def play(page, view, move, ply):
        return play_flat(page, view, move, keyboard=ply in (1, 3, 5))  # three of the moves by keyboard

    final, seen = play_whole_game(live_server, {1: ann, 2: bob}, match, play, seed=196,
                                  shots=lambda name: shoot(ann, name))
    assert seen["chains"] >= 1 and seen["returns"] >= 1, seen
    for p in (ann, bob):
        p.wait_for_selector("#result:not([hidden])")
        check_final_position(p, final["view"])
    shoot(bob, "finished")

    # Stepping back through the game draws the earlier position, which takes no clicks.
    plies = len(final["moves"])
    bob.click("#step-back")
    bob.wait_for_function("n => document.getElementById('ply-label').textContent === `move ${n} of ${n + 1}`", arg=plies - 1)
    earlier = requests.get(f"{live_server.url}/api/matches/{match}/positions/{plies - 1}").json()["view"]
    bob.wait_for_selector(".lattice.replaying")
    check_final_position(bob, earlier)
    piece = next(n["id"] for n in earlier["nodes"] if n["seat"])
    cell(bob, piece).click()
    assert bob.locator("#lattice-levels .cell.selected, #lattice-levels .cell.target").count() == 0


def test_capture_chains_that_end_on_the_same_node_are_offered_as_a_choice(live_server, new_context, shoot):
    page = new_context().new_page()
    match = open_local(page, live_server, {"size": "223", "first": 2, "start": BRANCHING})
    wait_3d(page)
    view = api_state(live_server, match)["view"]
    chains = sorted(e["move"] for e in view["legal"]["Aa5"] if e["path"][-1] == "Ac3")
    assert len(chains) == 2
    cell(page, "Aa5").click()
    cell(page, "Ac3").click()  # both chains end here: nothing is played yet, the first is shown
    page.wait_for_selector("#lattice-choices button.armed")
    armed = page.eval_on_selector_all("#lattice-choices button.armed", "bs => bs.map(b => b.dataset.move)")
    assert sorted(armed) == chains
    first = page.evaluate("window.latticeView.marks().preview")
    assert "2 capture chains end on Ac3" in page.inner_text("#lattice-info")
    steps = page.eval_on_selector_all("#lattice-levels .cell[data-step]", "cs => cs.map(c => c.dataset.node + c.dataset.step)")
    assert len(steps) == 4  # the landings before the last, numbered
    shoot(page, "first-chain")
    cell(page, "Ac3").click()  # the next chain
    page.wait_for_function("m => window.latticeView.marks().preview !== m", arg=first)
    second = page.evaluate("window.latticeView.marks().preview")
    assert {first, second} == set(chains)
    assert api_state(live_server, match)["version"] == 0
    page.keyboard.press("2")  # plays the second one of the list
    wait_version(page, 1)
    assert api_state(live_server, match)["moves"] == [armed[1]]


def test_without_webgl_the_page_says_so_and_the_levels_view_plays(live_server, new_context, shoot):
    context = new_context()
    context.add_init_script("""(() => {
        const original = HTMLCanvasElement.prototype.getContext;
        HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
            return /webgl/i.test(kind) ? null : original.call(this, kind, ...rest);
        };
    })()""")
    page = context.new_page()
    match = open_local(page, live_server, {"size": "222"})
    page.wait_for_function("window.latticeView && window.latticeView.webgl === false")
    assert "No 3D view here" in page.inner_text("#lattice-note")
    assert page.locator("#lattice-stage canvas").count() == 0
    assert page.locator("#lattice-3d-toggle").is_hidden()
    view = api_state(live_server, match)["view"]
    move = sorted(view["legal"]["Bb1"], key=lambda e: e["move"])[0]["move"]
    play_flat(page, view, move, keyboard=True)
    wait_version(page, 1)
    assert api_state(live_server, match)["moves"] == [move]
    shoot(page, "no-webgl")


def test_the_333_lattice_frame_time(live_server, new_context, shoot):
    page = new_context().new_page()
    open_local(page, live_server, {"size": "333"})
    wait_3d(page)
    page.wait_for_timeout(200)
    adaptive = page.evaluate("window.latticeView.measure(90)")
    full = page.evaluate("window.latticeView.measure(60, {fixed: true})")
    for result, frames in ((adaptive, 90), (full, 60)):
        assert result["frames"] == frames and result["interval_ms"]["mean"] > 0
    report = {"size": "333", "adaptive_resolution": adaptive, "full_resolution": full}
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / "lattice-333-frame-times.json").write_text(json.dumps(report, indent=2))
    print("\n333 frame time (ms between frames), adaptive:", adaptive["interval_ms"], "full:", full["interval_ms"])
    page.wait_for_timeout(300)
    shoot(page, "333")


def test_the_3d_view_turns_zooms_and_pans_by_mouse_and_keys(live_server, new_context):
    page = new_context().new_page()
    match = open_local(page, live_server, {"size": "222"})
    wait_3d(page)
    camera = lambda: page.evaluate("window.latticeView.camera()")  # noqa: E731
    start = camera()
    box = page.locator("#lattice-stage canvas").bounding_box()
    x, y = box["x"] + 40, box["y"] + 40  # an empty corner: a drag there turns the view and picks nothing
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 120, y + 30, steps=6)
    page.mouse.up()
    turned = camera()
    assert turned["azimuth"] < start["azimuth"] and turned["elevation"] > start["elevation"]
    page.mouse.wheel(0, 400)
    assert camera()["distance"] > turned["distance"]
    page.keyboard.press(" ")  # Space resets the view
    assert camera() == start
    for key, check in (("c", lambda c: c["distance"] < start["distance"]),
                       ("PageDown", lambda c: c["distance"] == pytest.approx(start["distance"])),
                       ("ArrowRight", lambda c: c["azimuth"] > start["azimuth"]),
                       ("Shift+ArrowRight", lambda c: c["target"] != start["target"])):
        page.keyboard.press(key)
        assert check(camera()), key
    assert api_state(live_server, match)["version"] == 0
    page.keyboard.press("Escape")  # Esc offers to leave, as in every game
    page.wait_for_selector("dialog[open]")
    assert "Leave this match" in page.inner_text("#dialog-text")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog:not([open])", state="attached")
