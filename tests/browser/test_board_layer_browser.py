"""The shared board layer (static/js/board/: grid.js, cursor.js, selection.js) in a real browser.

First the layer itself, driven from a match page: the ARIA grid laid out from either side, the keyboard cursor moving
in screen terms with hard walls, and the selection over the one shape of legal targets (source -> moves). Then the
four games drawn through it: each board is the layer's grid, the cells drawn as targets are exactly the server's
(the page converts the server's view into the one shape and never decides anything), the second seat's player sees
the board turned, and the keyboard cursor goes where the arrows point on the screen, from both sides.
"""
from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import api_state

pytestmark = pytest.mark.browser


def online_match(server, game):
    """Ann (seat 1) and Bob (seat 2) at an online match of `game`, under way: (match id, {seat: token})."""
    made = requests.post(f"{server.url}/api/matches", json={"game": game, "mode": "online", "player": "Ann"}).json()
    friend = requests.post(f"{server.url}/api/matches/{made['match']}/seats",
                           json={"player": "Bob", "invite": made["invite_secret"]}).json()
    if game == "gamma":  # Gamma waits for its creator's start
        requests.post(f"{server.url}/api/matches/{made['match']}/start", json={},
                      headers={"Authorization": f"Bearer {made['token']}"}).raise_for_status()
    return made["match"], {1: made["token"], 2: friend["token"]}


def open_as(new_context, server, match, token):
    """The match page of the player holding `token` (Lattice's 3D view hidden: the flat view takes the keys)."""
    context = new_context()
    context.add_init_script(f"localStorage.setItem('quadrille.token.{match}', '{token}');"
                            "localStorage.setItem('quadrille.lattice.3d', 'off');")
    page = context.new_page()
    page.goto(f"{server.url}/m/{match}")
    # the seat, not only a first STATE: a STATE may be drawn before the server has said whose seat this tab holds
    page.wait_for_function("document.getElementById('match').dataset.seats")
    return page


def rect(page, selector):
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


# -- the layer itself ------------------------------------------------------------------------------------------
LAYER = """() => {
  const Board = window.QuadrilleBoard;
  const out = {};
  const cellOf = (c, x, y) => { c.dataset.x = x; c.dataset.y = y; };
  const order = (grid) => [...grid.element.querySelectorAll('[role="row"]')].map(
    (row) => [...row.querySelectorAll('[role="gridcell"]')].map((c) => c.dataset.x + ',' + c.dataset.y));
  // a 3 x 2 grid: as built, turned, and counted upwards
  const plain = Board.grid({ columns: 3, rows: 2, className: 'g', rowClass: 'r', cell: cellOf }).build();
  const turned = Board.grid({ columns: 3, rows: 2, flipped: true, className: 'g', rowClass: 'r', cell: cellOf }).build();
  const upward = Board.grid({ columns: 3, rows: 2, upward: true, className: 'g', rowClass: 'r', cell: cellOf }).build();
  out.plain = order(plain); out.turned = order(turned); out.upward = order(upward);
  out.role = plain.element.getAttribute('role');
  out.turnedClass = turned.element.classList.contains('flipped');
  out.edges = [turned.edges(2, 1), turned.edges(0, 0), upward.edges(0, 0)];
  // the cursor on the turned grid: the arrows go where they point on the screen, and stop at the walls
  const cursor = Board.cursor(turned);
  cursor.place(0, 0);  // on screen: the bottom-right corner
  out.cursor = [cursor.at()];
  for (const key of ['ArrowRight', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowUp', 'ArrowUp', 'ArrowDown']) {
    cursor.move(key);
    out.cursor.push(cursor.at());
  }
  out.notACursorKey = cursor.move('x');
  // blocks (Lattice's levels side by side): Home, End, PageUp, PageDown
  const wide = Board.cursor({ columns: 6, rows: 1, block: 3, screenOf: (x) => [x, 0], boardAt: (col) => [col] });
  wide.place(4);
  out.blocks = ['Home', 'End', 'PageDown', 'PageUp', 'PageUp'].map((key) => { wide.move(key); return wide.at()[0]; });
  // the selection over the one shape
  const selection = Board.selection();
  selection.set(Board.legalMap([
    ['1,1', [{ to: '2,1', move: 'a' }, { to: '2,1', move: 'b' }, { to: '3,1', move: 'c' }]],
    ['5,5', [{ to: '5,6', move: 'd' }]],
    ['9,9', []],
  ]));
  out.sources = selection.sources();
  out.nothingPicked = [selection.selected, selection.targets().size];
  selection.select('1,1');
  out.picked = [selection.selected, [...selection.targets().keys()], selection.movesTo('2,1').map((m) => m.move)];
  out.notASource = [selection.select('9,9'), selection.selected];
  selection.select('5,5');
  selection.set(Board.legalMap([['5,5', [{ to: '5,7', move: 'e' }]]]));
  out.kept = [selection.selected, [...selection.targets().keys()]];
  selection.set(Board.legalMap([['1,1', [{ to: '2,1', move: 'a' }]]]));
  out.dropped = selection.selected;
  selection.toggle('1,1'); selection.toggle('1,1');
  out.toggled = selection.selected;
  // moves with no piece to pick (source ""): always selected, never listed as a source
  selection.set(Board.legalMap([['', [{ to: '0,0', move: '0,0' }, { to: '1,0', move: '1,0' }]]]));
  out.free = [selection.selected, selection.sources(), [...selection.targets().keys()]];
  return out;
}"""


def test_the_layer_lays_out_moves_a_cursor_and_selects_among_the_servers_targets(new_context, live_server):
    match, tokens = online_match(live_server, "gamma")
    page = open_as(new_context, live_server, match, tokens[1])
    out = page.evaluate(LAYER)
    assert out["role"] == "grid"
    assert out["plain"] == [["0,0", "1,0", "2,0"], ["0,1", "1,1", "2,1"]]
    assert out["turned"] == [["2,1", "1,1", "0,1"], ["2,0", "1,0", "0,0"]]  # both ways round, each cell its own name
    assert out["upward"] == [["0,1", "1,1", "2,1"], ["0,0", "1,0", "2,0"]]  # y = 0 at the bottom
    assert out["turnedClass"]
    assert out["edges"] == [{"left": True, "bottom": False}, {"left": False, "bottom": True},
                            {"left": True, "bottom": True}]
    # from (0, 0), the bottom-right corner of the turned grid: right is a wall, left goes to x 1 then 2, then a wall;
    # up goes to y 1, then a wall; down comes back
    assert out["cursor"] == [[0, 0], [0, 0], [1, 0], [2, 0], [2, 0], [2, 1], [2, 1], [2, 0]]
    assert out["notACursorKey"] is False
    assert out["blocks"] == [3, 5, 2, 5, 5]
    assert out["sources"] == ["1,1", "5,5"]  # a source without moves is left out
    assert out["nothingPicked"] == [None, 0]
    assert out["picked"] == ["1,1", ["2,1", "3,1"], ["a", "b"]]
    assert out["notASource"] == [None, None]
    assert out["kept"] == ["5,5", ["5,7"]]  # still a source in the next position: still picked
    assert out["dropped"] is None
    assert out["toggled"] is None
    assert out["free"] == [None, [], ["0,0", "1,0"]]


# -- the four games drawn through it -------------------------------------------------------------------------
def drawn(page, selector, *attributes):
    return sorted(page.eval_on_selector_all(
        selector, "(cells, names) => cells.map(c => names.map(n => c.dataset[n]).join(','))", list(attributes)))


@pytest.mark.parametrize("game", ["trails", "towers", "lattice", "gamma"])
def test_each_game_draws_the_servers_targets_on_the_layers_grid(new_context, live_server, game):
    match, tokens = online_match(live_server, game)
    page = open_as(new_context, live_server, match, tokens[1])
    view = api_state(live_server, match)["view"]
    grids = page.locator(".lattice-grid" if game == "lattice" else "#board")
    for k in range(grids.count()):  # every board is the layer's grid: rows of gridcells
        grid = grids.nth(k)
        assert grid.get_attribute("role") == "grid"
        rows = grid.locator('[role="row"]')
        assert rows.count() > 1 and grid.locator('[role="row"] > [role="gridcell"]').count() > 1
    if game == "trails":
        assert drawn(page, "#board .cell.green", "c", "r") == sorted(f"{c},{r}" for r, c in view["green"])
    elif game == "gamma":
        assert drawn(page, "#board .cell.legal", "x", "y") == sorted(f"{x},{y}" for x, y in view["legal"])
    elif game == "towers":
        source = view["legal"]["sources"][0]
        page.click(f'#board .cell[data-x="{source["from"][0]}"][data-y="{source["from"][1]}"]')
        page.wait_for_selector("#board .cell.sel")
        whole = [t["to"] for t in source["targets"] if source["height"] in t["counts"]]
        assert drawn(page, "#board .cell.green", "x", "y") == sorted(f"{x},{y}" for x, y in whole)
    else:
        source = sorted(view["legal"])[0]
        page.click(f'.lattice-levels .cell[data-node="{source}"]')
        page.wait_for_function("id => window.latticeView.selected() === id", arg=source)
        ends = {e["path"][-1] for e in view["legal"][source]}
        assert drawn(page, ".lattice-levels .cell.target", "node") == sorted(ends)


@pytest.mark.parametrize("game", ["trails", "towers", "lattice"])
def test_the_second_seat_sees_the_board_turned(new_context, live_server, game):
    match, tokens = online_match(live_server, game)
    first = open_as(new_context, live_server, match, tokens[1])
    second = open_as(new_context, live_server, match, tokens[2])
    if game == "lattice":
        second.wait_for_function("window.latticeView.marks().flipped")
        assert not first.evaluate("window.latticeView.marks().flipped")
        assert "flipped" in second.get_attribute(".lattice", "class")
        return
    names = ("c", "r") if game == "trails" else ("x", "y")
    corner = f'#board .cell[data-{names[0]}="0"][data-{names[1]}="0"]'
    n = int(first.get_attribute("#board", "data-size"))
    far = f'#board .cell[data-{names[0]}="{n - 1}"][data-{names[1]}="{n - 1}"]'
    second.wait_for_selector("#board.flipped")
    assert "flipped" not in (first.get_attribute("#board", "class") or "")
    first_cell = second.eval_on_selector("#board [role=gridcell]", "(c, n) => n.map(k => c.dataset[k]).join(',')", list(names))
    assert first_cell == f"{n - 1},{n - 1}"  # turned: the far corner comes first
    # on screen: seat 1 has the corner (0, 0) top left, seat 2 bottom right
    (x0, y0), (x1, y1) = rect(first, corner), rect(first, far)
    assert x0 < x1 and y0 < y1
    (x0, y0), (x1, y1) = rect(second, corner), rect(second, far)
    assert x0 > x1 and y0 > y1
    # from both sides the ranks are drawn along the left edge and the files along the bottom, as the board is seen
    for page in (first, second):
        edges = page.evaluate("""() => {
          const cells = [...document.querySelectorAll('#board [role=gridcell]')].map((c) => c.getBoundingClientRect());
          const left = Math.min(...cells.map((r) => r.left)), bottom = Math.max(...cells.map((r) => r.bottom));
          const at = (sel) => [...document.querySelectorAll(sel)].map((s) => s.closest('.cell').getBoundingClientRect());
          return { ranks: at('#board .coord.rank').map((r) => Math.abs(r.left - left) < 2),
                   files: at('#board .coord.file').map((r) => Math.abs(r.bottom - bottom) < 2) };
        }""")
        assert len(edges["ranks"]) == n and all(edges["ranks"])
        assert len(edges["files"]) == n and all(edges["files"])


def cursor_moves(page, press, where):
    """Press each key in `press` and say where the cursor went on screen after each: 'right', 'left', 'up', 'down'
    or 'still'."""
    said = []
    before = where()
    for key in press:
        page.keyboard.press(key)
        page.wait_for_timeout(50)
        after = where()
        dx, dy = after[0] - before[0], after[1] - before[1]
        said.append("still" if abs(dx) < 2 and abs(dy) < 2 else
                    ("right" if dx > 0 else "left") if abs(dx) > abs(dy) else ("down" if dy > 0 else "up"))
        before = after
    return said


@pytest.mark.parametrize("game,seat", [("towers", 1), ("towers", 2), ("lattice", 1), ("lattice", 2), ("gamma", 1)])
def test_the_keyboard_cursor_goes_where_the_arrows_point(new_context, live_server, game, seat):
    match, tokens = online_match(live_server, game)
    page = open_as(new_context, live_server, match, tokens[seat])
    arrows = ["ArrowRight", "ArrowUp", "ArrowLeft", "ArrowDown"]
    if game == "towers":
        page.focus("#board")
        page.keyboard.press("ArrowRight")  # the first arrow shows the cursor (on the player's master)
        page.wait_for_selector("#board .cell.cursor")
        where = lambda: rect(page, "#board .cell.cursor")  # noqa: E731
        assert cursor_moves(page, arrows, where) == ["right", "up", "left", "down"]
        # the grid names the cursor's cell for assistive technology
        active = page.get_attribute("#board", "aria-activedescendant")
        assert active and page.locator(f"#{active}").evaluate("c => c.classList.contains('cursor')")
    elif game == "lattice":
        page.focus('.lattice-levels .cell[tabindex="0"]')
        # away from the walls: the cursor starts on level 1's first row, at the top (seat 1) or turned to the bottom
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown" if seat == 1 else "ArrowUp")
        where = lambda: page.evaluate(  # noqa: E731
            "() => { const r = document.activeElement.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }")
        assert cursor_moves(page, arrows, where) == ["right", "up", "left", "down"]
        assert page.evaluate("document.activeElement.closest('.lattice-levels') !== null")
    else:
        page.keyboard.press("ArrowUp")  # the first arrow moves the cursor from (0, 0), the bottom-left field
        page.wait_for_selector("#board .cell.cursor")
        where = lambda: rect(page, "#board .cell.cursor")  # noqa: E731
        assert page.get_attribute("#board .cell.cursor", "data-y") == "1"
        assert cursor_moves(page, arrows + ["ArrowLeft"], where) == ["right", "up", "left", "down", "still"]  # a wall
