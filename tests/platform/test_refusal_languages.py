"""The engines' reasons for an illegal move, and the Socket.IO refusals answered before any handler, in the
person's language (docs/translating.md, "For programmers"; games/reasons.py).

An engine writes a reason as an English template with named values (a cell, a number, a seat's colour); the
server translates the template and fills the values in after: over HTTP (`Accept-Language`, `?lang=`), over
Socket.IO (the handshake's language) and in a computer worker's refusal. English stays exactly the engine's
sentence, and the `error` code never changes. Every reason an engine gives is in the `games` catalog, translated
in every shipped language, so a new one cannot slip through untranslated.
"""
from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest
from babel.support import Translations

import games
from games.reasons import Reason
from quadrille.computer import analysis_requests
from quadrille.i18n import catalogs
from quadrille.i18n.catalogs import TRANSLATIONS
from quadrille.i18n.languages import SHIPPED
from quadrille.errors import ServiceError
from quadrille.i18n.words import Words, in_language, translated

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.app_settings(PRESENCE_INTERVAL=0.01)

# One illegal move per game, after a few legal ones, whose reason names a cell (and, for Towers, a longer
# explanation whose numbers choose a plural form, with a reason inside it; for Gamma, a seat's colour).
REFUSALS = {
    "trails": ({"size": 5}, [], "up", "a5"),
    "towers": ({}, [], "m0,5>0,2:1", "3"),
    "gamma": ({"width": 3, "height": 3, "players": 2, "areas": 1}, ["1,1", "2,2"], "g1,1", "b2"),
    "lattice": ({}, [], "Ab2-Ac3", "Ab2"),
}
# What a Polish and a Russian player read, written out once by hand (the catalogs' own words).
SPOKEN = {
    ("trails", "pl"): "głowa, na a5, jest na krawędzi: nowy kierunek nie może wyprowadzić jej z planszy",
    ("trails", "ru"): "голова на a5 стоит у края: новое направление не может увести с доски",
    ("gamma", "pl"): "b2 już należy do gracza Niebieski",
    ("gamma", "ru"): "поле b2 уже принадлежит игроку Синий",
    ("lattice", "pl"): "na Ab2 nie ma figury",
    ("lattice", "ru"): "на Ab2 нет фигуры",
    ("towers", "pl"): "Zła liczba punktów ruchu",
    ("towers", "ru"): "Неверное число очков хода",
}
DETAIL = {  # Towers' longer explanation: 3 points (a plural form), 1 pawn (another, inside it)
    "pl": "Ten ruch kosztuje 3 punkty ruchu (odległość 3 x 1 pionek); zostało 2.",
    "ru": "Этот ход стоит 3 очка хода (расстояние 3 x 1 пешка); осталось 2.",
}


def catalog(lang: str) -> Translations:
    """The compiled catalogs of a language, as the test reads them itself."""
    merged = Translations()
    for domain in ("messages", "games"):
        merged.merge(Translations.load(str(TRANSLATIONS), [lang], domain=domain))
    return merged


def refusal(game: str) -> games.IllegalMove:
    options, before, move, _cell = REFUSALS[game]
    board = games.get(game).new(**options)
    for played in before:
        board.push(played)
    with pytest.raises(games.IllegalMove) as refused:
        board.push(move)
    return refused.value


def local_match(client, game: str) -> tuple[str, str]:
    options, before, _move, _cell = REFUSALS[game]
    made = client.post("/api/matches", json={"game": game, "options": options, "mode": "local"})
    assert made.status_code == 201, made.json
    match, token = made.json["match"], made.json["token"]
    for version, move in enumerate(before):
        played = client.post(f"/api/matches/{match}/moves", json={"move": move, "version": version},
                             headers={"Authorization": f"Bearer {token}"})
        assert played.status_code == 200, played.json
    return match, token


def connect(app, **handshake):
    return app.extensions["socketio"].test_client(app, **handshake)


@pytest.mark.parametrize("game", sorted(REFUSALS))
def test_an_illegal_move_is_refused_in_the_request_s_language_over_http(client, game):
    match, token = local_match(client, game)
    move, cell, english = REFUSALS[game][2], REFUSALS[game][3], refusal(game)
    url, auth = f"/api/matches/{match}/moves", {"Authorization": f"Bearer {token}"}
    plain = client.post(url, json={"move": move}, headers=auth)
    assert plain.status_code == 400 and plain.json["error"] == "illegal-move"
    assert plain.json["reason"] == english.reason == str(english)  # English: the engine's own sentence, unchanged
    asked = {"pl": client.post(url, json={"move": move}, headers={**auth, "Accept-Language": "pl-PL,pl;q=0.9"}),
             "ru": client.post(f"{url}?lang=ru", json={"move": move}, headers={**auth, "Accept-Language": "de"})}
    for lang, answer in asked.items():
        assert answer.status_code == 400 and answer.json["error"] == "illegal-move"  # the code never changes
        assert answer.json["reason"] == SPOKEN[game, lang] != english.reason
        assert cell in answer.json["reason"] or game == "towers"
        assert answer.headers["Content-Language"] == lang
        if game == "towers":
            assert answer.json["detail"] == DETAIL[lang] and plain.json["detail"] == english.detail
    # nothing changed: the match is where it was
    assert client.get(f"/api/matches/{match}").json["version"] == len(REFUSALS[game][1])


@pytest.mark.parametrize("game", sorted(REFUSALS))
def test_an_illegal_move_is_refused_in_the_socket_s_language(app, game):
    match, token = local_match(app.test_client(), game)
    move, english = REFUSALS[game][2], refusal(game)
    sockets = {"en": connect(app), "pl": connect(app, headers={"Accept-Language": "pl"}),
               "ru": connect(app, query_string="lang=ru", headers={"Accept-Language": "fr"})}
    for lang, socket in sockets.items():
        ack = socket.emit("move", {"match": match, "token": token, "move": move}, callback=True)
        assert ack["ok"] is False and ack["error"] == "illegal-move"
        assert ack["reason"] == (english.reason if lang == "en" else SPOKEN[game, lang])
        if game == "towers":
            assert ack["detail"] == (english.detail if lang == "en" else DETAIL[lang])


def test_the_socket_s_refusals_before_any_handler_follow_its_language(make_app):
    # a day's window, as every test that counts a budget to its last message: the sliding-window counter rounds
    # the previous window's weighted count down, so a boundary crossed mid-test would let one message more through
    app = make_app(SOCKET_SPECTATOR_EVENTS="2 per day", PRESENCE_INTERVAL=0.01)
    polish, english = connect(app, headers={"Accept-Language": "pl"}), connect(app)
    ru = connect(app, headers={"Cookie": "lang=ru"})
    assert polish.emit("dance", {}, callback=True) == {
        "ok": False, "error": "unknown-event", "reason": "Nie ma zdarzenia o nazwie 'dance'."}
    assert english.emit("dance", {}, callback=True)["reason"] == "There is no event called 'dance'."
    assert ru.emit("dance", {}, callback=True)["reason"] == catalog("ru").gettext(
        "There is no event called %(name)s.") % {"name": "'dance'"} == "События с названием 'dance' нет."
    for socket in (polish, english, ru):  # over the budget: refused before any handler (and any request) runs
        answers = [socket.emit("watch", {"match": "missing"}, callback=True) for _ in range(3)]
        assert answers[-1]["error"] == "rate-limited"
    limited = "Too many messages at once; wait a few seconds and try again."
    assert polish.emit("watch", {"match": "x"}, callback=True)["reason"] == catalog("pl").gettext(limited) != limited
    assert english.emit("watch", {"match": "x"}, callback=True)["reason"] == limited
    assert ru.emit("watch", {"match": "x"}, callback=True)["reason"] == catalog("ru").gettext(limited) != limited


def test_a_refused_handshake_says_why_in_its_language(app):
    from flask_socketio import ConnectionRefusedError
    from quadrille.web.socket_tokens import SocketTokens
    for query, said in [("lang=pl", "Token w polu auth powitania musi być tokenem API konta (qbt_…)."),
                        ("", "The handshake's auth token must be an account's API token (qbt_…).")]:
        with app.test_request_context(f"/socket.io/?{query}"), pytest.raises(ConnectionRefusedError) as refused:
            SocketTokens().connect("a-sid", {"token": "not-an-api-token"})
        assert refused.value.args == (said, {"error": "bad-token", "reason": said})


def test_a_computer_worker_s_refusal_keeps_its_words_across_the_process_boundary(app):
    options, before, move, _cell = REFUSALS["gamma"]
    answer = analysis_requests.step({"kind": "evaluate", "game": "gamma", "options": options,
                                     "moves": [*before, move]}, stop=lambda: False)
    answer = json.loads(json.dumps(answer))  # as the worker sends it
    assert answer["refused"] == "illegal-move"
    assert answer["reason"] == "move 3 ('g1,1') is illegal: b2 is already Blue's"
    words = Words.from_dict(answer["words"])
    assert words == answer["reason"]
    with app.test_request_context("/?lang=pl"):
        assert translated(words) == "ruch 3 ('g1,1') jest niedozwolony: b2 już należy do gracza Niebieski"
    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        assert translated(words) == "ход 3 ('g1,1') недопустим: поле b2 уже принадлежит игроку Синий"
    unknown = json.loads(json.dumps(analysis_requests.step({"kind": "evaluate", "game": "chess"}, stop=lambda: False)))
    with app.test_request_context("/?lang=de"):
        assert translated(Words.from_dict(unknown["words"])) == "Es gibt kein Spiel namens 'chess'."


# -- every reason an engine gives is in the catalog ----------------------------------------------------------------
REASON_CALLS = {"IllegalMove", "TowersIllegalMove", "_illegal", "Reason", "reason_n"}


def test_the_engines_write_their_reasons_as_templates_the_extraction_can_read():
    """An f-string or a sum of strings in a reason's call is invisible to `pybabel extract` (and would put the
    values into the message): the engines write a literal template with named values instead."""
    found = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = getattr(node, "func", None)
            if isinstance(node, ast.Call) and getattr(called, "id", getattr(called, "attr", None)) in REASON_CALLS:
                for arg in node.args[:2]:
                    if isinstance(arg, (ast.JoinedStr, ast.BinOp)):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def _candidates(game: str, board, rng: random.Random) -> list:
    """Moves worth trying in a position: the legal ones bent a little, malformed ones, and plain nonsense."""
    legal = board.legal_moves()
    tries = [5, None, "", "nonsense", "skip", "end", "up", "+Zz9", "Ab2-Ac3", "Aa1:Ac3", "Dd4-Dc3", "m0,0>0,3:1",
             "i0", "i9", "m9,9>9,8:1", "g9,9", "0,0", "g0,0", "m0,5>0,2:1", "m0,5>1,4:1", "m0,0>0,1:9"]
    if game == "gamma":
        tries += [f"{g}{x},{y}" for g in ("", "g") for x in range(-1, 4) for y in range(-1, 4)]
    elif game == "towers":
        n = board.options["size"]
        tries += [f"m{rng.randrange(n)},{rng.randrange(n)}>{rng.randrange(n)},{rng.randrange(n)}:{rng.randrange(4)}"
                  for _ in range(60)] + [f"i{k}" for k in range(4)]
    elif game == "trails":
        tries += ["down", "left", "right"]
    elif game == "lattice":
        nodes = [n["id"] for n in board.view()["nodes"]]
        tries += [f"{rng.choice(nodes)}{sep}{rng.choice(nodes)}" for sep in "-:" for _ in range(30)]
        tries += [f"+{node}" for node in nodes[:6]] + [f"{m}:{rng.choice(nodes)}" for m in legal if ":" in m]
    return tries + [m + "x" for m in legal[:3]]


def _reasons_met(seed: int = 7, games_each: int = 6) -> set:
    """The templates of every reason the engines give, on the way through a few random games of each."""
    rng, met = random.Random(seed), set()
    setups = {"trails": {"size": 5}, "towers": {"size": 5, "rules": ["no-master-win", "import-first"]},
              "gamma": {"width": 3, "height": 3, "players": 3, "areas": 1}, "lattice": {}}

    def note(reason):
        assert isinstance(reason, Reason), reason  # never a plain string: it would stay English
        met.add(reason.msgid)
        for value in reason.params.values():
            if isinstance(value, Reason):
                note(value)
    for game, options in setups.items():
        for _ in range(games_each):
            board = games.get(game).new(**options)
            while board.outcome() is None and board.legal_moves() and len(board.moves) < 60:
                for move in _candidates(game, board, rng):
                    if move not in board.legal_moves():
                        try:
                            board.copy().push(move)
                        except games.IllegalMove as refused:
                            note(refused.reason)
                            if getattr(refused, "detail", None):  # Towers' longer explanation
                                note(refused.detail)
                board.push(rng.choice(board.legal_moves()))
            try:  # and once the game is over
                board.push("up" if game == "trails" else "skip" if game == "gamma" else "end")
            except games.IllegalMove as refused:
                note(refused.reason)
    return met


def test_every_reason_an_engine_gives_is_in_the_games_catalog_and_translated():
    met = _reasons_met()
    assert len(met) > 40  # the walk meets most of them: every game's malformed, illegal and finished moves
    template = catalogs.extract()["games"]
    extracted = {m.id[0] if isinstance(m.id, tuple) else m.id for m in template if m.id}
    assert sorted(met - extracted) == []
    for lang in SHIPPED:
        if lang == "en":
            continue
        po = catalogs.read(lang, "games")
        for msgid in met:
            message = po.get(msgid) or next(m for m in po if isinstance(m.id, tuple) and m.id[0] == msgid)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings), (lang, msgid)


# -- seats' colours in a sentence -------------------------------------------------------------------------------
def test_a_seat_s_colour_in_a_server_reason_is_said_in_the_language_too(client):
    """"It is Blue's turn, not yours": the colour is a word of the games' catalog, not left in English."""
    made = client.post("/api/matches", json={"game": "trails", "options": {"size": 5}}).json
    joined = client.post(f"/api/matches/{made['match']}/seats", json={"invite": made["invite_secret"], "player": "Bo"})
    assert joined.status_code == 201, joined.json
    url = f"/api/matches/{made['match']}/moves"
    early = {"Authorization": f"Bearer {joined.json['token']}"}
    assert client.post(url, json={"move": "up"}, headers=early).json["reason"] == "It is Blue's turn, not yours."
    russian = client.post(f"{url}?lang=ru", json={"move": "up"}, headers=early).json
    assert russian["error"] == "not-your-turn" and russian["reason"] == "Сейчас ход игрока Синий, а не ваш."


def test_the_browser_s_catalog_says_a_side_and_a_player_apart():
    """msgctxt "side" (I18n.p): Russian says a two-sided game's side in the plural, as chess does («Синие»), and
    one of Gamma's players in the singular («Синий»); the JSON catalog keys a context as gettext does."""
    ru = catalogs.script_catalog(catalogs.read("ru", "js"), "ru")["messages"]
    assert ru["side\x04Blue"] == "Синие" and ru["Blue"] == "Синий" and ru["side\x04White"] == "Белые"
    grid = (ROOT / "static/js/board/grid.js").read_text(encoding="utf-8")
    sides = {word for word in ("Blue", "Red", "Orange", "Yellow", "Green", "Cyan", "Magenta", "White")
             if f'I18n.p("side", "{word}")' in grid}
    assert len(sides) == 8  # every colour a two-sided game may give its sides (Lattice chooses among them)
    for game in ("trails", "towers", "lattice"):  # their renderers ask for sides
        assert "sides: true" in (ROOT / f"games/{game}/static/{game}.js").read_text(encoding="utf-8")
    pl = catalogs.script_catalog(catalogs.read("pl", "js"), "pl")["messages"]
    assert pl["side\x04Blue"] == pl["Blue"] == "Niebieski"  # Polish says both alike


# Options refused by an engine (`Game.normalise`, an `Option`'s check, a game's own limits): the new-game dialog
# and the API show the reason, so it is translated too, with what the option accepts said inside it.
BAD_OPTIONS = [
    ("trails", {"size": 99}, "pl", "opcja 'size': podano 99, a oczekiwano: liczbę całkowitą od 3 do 25"),
    ("trails", {"colour": 1}, "ru", "неизвестный параметр 'colour'; эта игра принимает: distance, size, towers"),
    ("lattice", {"start": "nowhere"}, "de", "Option 'start': 'nowhere' ist nicht erlaubt, erwartet wird \"\" (die "
     "Grundstellung) oder eine Stellung als Text"),
]


@pytest.mark.parametrize("game, options, lang, said", BAD_OPTIONS)
def test_refused_options_are_said_in_the_reader_s_language(client, game, options, lang, said):
    english = client.post(f"/api/games/{game}/check", json={"options": options})
    answer = client.post(f"/api/games/{game}/check?lang={lang}", json={"options": options})
    assert english.status_code == answer.status_code == 400
    assert english.json["error"] == answer.json["error"] == "bad-options"
    assert answer.json["reason"].startswith(said), answer.json["reason"]
    with pytest.raises(ValueError) as refused:
        games.get(game).normalise(options)
    assert english.json["reason"] == str(refused.value)  # English is the engine's own sentence
    made = client.post(f"/api/matches?lang={lang}", json={"game": game, "options": options, "mode": "local"})
    assert made.status_code == 400 and made.json["reason"] == answer.json["reason"]


# -- a saved game that cannot be read ("Open a saved game": POST /api/matches/import?format=<extension>) ---------
TWR_ILLEGAL = '("2.0" () 5 "A" "B" "Human" "Human" (((move 0 0 4 4 3)) ()))'  # Player 1 moves Player 2's tower
LTC_SIZE = "<dimension>9,9,9</dimension>\n<mycheckers>\n</mycheckers>\n<aicheckers>\n</aicheckers>\n"
TOO_BIG = "<dimension>3,3,3</dimension>" + " " * 20000   # 20 KB: over Lattice's 16 KB
BROKEN_SAVES = [
    ("twr", TWR_ILLEGAL, "pl", "Nie można odczytać tego pliku .twr: tura 1 (Gracz 1), akcja 1 (move 0 0 4 4 3) "
     "jest niedozwolona: To nie twoje pole startowe (Możesz ruszać tylko własne pionki i wieże.)"),
    ("twr", '("2.0" () 5 "A\\q" "B" "Human" "Human" (()))', "de",
     "Diese .twr-Datei lässt sich nicht lesen: bei Zeichen 14: unbekannte Escape-Sequenz \\q in einer Zeichenkette"),
    ("ltc", LTC_SIZE, "ru", "Этот файл .ltc не читается: <dimension>9,9,9</dimension>: возможные размеры решётки: "
     "2,2,2, 3,2,2, 2,2,3, 3,2,3, 3,3,3"),
    ("ltc", TOO_BIG, "pl", "Nie można odczytać tego pliku .ltc: Ten plik ma 20 KB; zapis gry Lattice Checkers ma "
     "najwyżej 16 KB."),
    ("ltc", TOO_BIG, "ru", "Этот файл .ltc не читается: Этот файл занимает 20 КБ; сохранение игры «Lattice Checkers» "
     "занимает не больше 16 КБ."),
]


@pytest.mark.parametrize("extension, text, lang, said", BROKEN_SAVES)
def test_a_saved_game_that_cannot_be_read_says_why_in_the_reader_s_language(client, extension, text, lang, said):
    url = f"/api/matches/import?format={extension}"
    english = client.post(url, data=text, content_type="text/plain")
    answer = client.post(f"{url}&lang={lang}", data=text, content_type="text/plain")
    assert english.status_code == answer.status_code == 400
    assert english.json["error"] == answer.json["error"] == "bad-record"  # the code never changes
    assert answer.json["reason"] == said and answer.headers["Content-Language"] == lang
    with pytest.raises(ValueError) as refused:
        games.get("towers" if extension == "twr" else "lattice").formats[extension].load(text)
    assert english.json["reason"] == f"This .{extension} file cannot be read: {refused.value}"  # English unchanged
    assert client.get("/api/matches/recent").json == []  # nothing was made


def test_the_players_who_are_here_are_named_and_listed_in_the_reader_s_language(app, client):
    """Three players of Gamma, all here: a claim against them names the two others, each colour translated and
    the two joined as the language joins a list ("Pomarańczowy i Różowy"), never an English comma between translated
    words. (A claim over HTTP is for two-player games, so the match service is asked directly.)"""
    made = client.post("/api/matches", json={"game": "gamma", "options": {"width": 5, "height": 5, "players": 3,
                                                                           "areas": 2}}).json
    for player in ("Bo", "Cy"):
        joined = client.post(f"/api/matches/{made['match']}/seats",
                             json={"invite": made["invite_secret"], "player": player})
        assert joined.status_code == 201, joined.json
    service = app.extensions["quadrille"]
    match = service.load(made["match"])
    with pytest.raises(ServiceError) as present:
        service.absence.claimable_against(match, [1], away=[])
    assert present.value.error == "player-present"
    assert present.value.reason == "Orange and Pink are here: there is nothing to claim."
    assert in_language(present.value.reason, "pl") == "Pomarańczowy i Różowy są obecni: nie ma czego żądać."
    assert in_language(present.value.reason, "de") == "Orange und Pink sind da: Es gibt nichts zu beanspruchen."
