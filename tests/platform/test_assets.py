"""Light pages (quadrille/web/assets.py): static files by content-hashed names, compressed, cached for a year
under their hash and revalidated under any other name; pages compressed and revalidated by ETag; the
headers of security.py unchanged."""
from __future__ import annotations

import gzip
import re

import brotli
import pytest

import games
from quadrille import create_app
from quadrille.web import assets as assets_module
from quadrille.web.assets import IMMUTABLE, Assets, hashed_name
from quadrille.web.security import CSP
from tests.support.paths import ROOT

BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium sends


@pytest.fixture
def database(sqlite_database):
    return sqlite_database  # the pages and files served do not depend on the database: SQLite alone


def static_refs(html: str) -> list[str]:
    return re.findall(r'(?:src|href|data-three)="(/static/[^"]+)"', html)


def decoded(response) -> bytes:
    encoding = response.headers.get("Content-Encoding")
    return {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding](response.data)


def new_match(client, game="trails"):
    created = client.post("/api/matches", json={"game": game, "mode": "local"})
    assert created.status_code == 201
    return created.json["match"]


# -- names ------------------------------------------------------------------------------------------------------
def test_hashed_names_carry_the_hash_before_the_extension():
    digest = "0123456789abcdef" * 4
    assert hashed_name("js/match.js", digest) == "js/match.0123456789ab.js"
    assert hashed_name("vendor/socket.io-client/socket.io.min.js", digest) == \
        "vendor/socket.io-client/socket.io.min.0123456789ab.js"
    assert hashed_name("vendor/three/LICENSE", digest) == "vendor/three/LICENSE.0123456789ab"


def test_pages_reference_static_files_by_their_current_hashed_names(app, client):
    built = app.extensions["quadrille.assets"]
    pages = ["/"] + [f"/m/{new_match(client, game)}" for game in games.listed()]
    pages.append(f"/embed/{new_match(client)}")
    seen = set()
    for path in pages:
        refs = static_refs(client.get(path).get_data(as_text=True))
        assert refs, path
        for ref in refs:
            name = ref.removeprefix("/static/")
            assert name in built.by_hashed, (path, ref)  # the current hash, never a plain name
            seen.add(built.by_hashed[name].name)
    assert {"css/quadrille.css", "js/match.js", "vendor/socket.io-client/socket.io.min.js",
            "vendor/three/three.module.min.js", "games/lattice.js"} <= seen
    assert not any(name.endswith(".map") for name in seen)  # the source map is not sent to players


def test_a_renderers_extra_scripts_go_through_static_url_too(app, client, monkeypatch):
    """games/<name>/static/<name>.scripts lists scripts loaded before a renderer (pages.game_assets)."""
    from quadrille.web import pages
    monkeypatch.setattr(pages, "game_assets", lambda name: {"css": "games/towers.css", "scripts": ["js/files.js"]})
    refs = static_refs(client.get(f"/m/{new_match(client)}").get_data(as_text=True))
    built = app.extensions["quadrille.assets"]
    assert "/static/" + built.url_name("games/towers.css") in refs
    assert refs.count("/static/" + built.url_name("js/files.js")) == 2  # the page's own, and the manifest's


def test_every_template_and_script_names_static_files_through_static_url():
    """url_for('static', ...) and literal /static/ paths would escape the hashed names (and their caching)."""
    offenders = []
    game_templates = [path for folder in (ROOT / "games").glob("*/templates") for path in folder.rglob("*.html")]
    game_files = [path for folder in (ROOT / "games").glob("*/static") for path in folder.rglob("*")
                  if path.suffix in (".js", ".css")]
    for path in list((ROOT / "templates").rglob("*.html")) + game_templates:
        text = path.read_text()
        if re.search(r"url_for\(\s*['\"]static['\"]", text) or re.search(r"['\"]/static/", text):
            offenders.append(str(path.relative_to(ROOT)))
    for path in list((ROOT / "static").rglob("*.js")) + list((ROOT / "static").rglob("*.css")) + game_files:
        if "vendor" not in path.parts and re.search(r"['\"(]/static/", path.read_text()):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, f"reference static files with static_url() (docs/architecture.md): {offenders}"


def test_a_changed_file_gets_a_new_name_and_the_old_one_is_no_longer_immutable(tmp_path):
    folder = tmp_path / "static"
    (folder / "js").mkdir(parents=True)
    script = folder / "js" / "app.js"
    script.write_text("console.log('one');\n" * 40)
    before = Assets(folder, tmp_path / "cache")
    old = before.url_name("js/app.js")
    assert re.fullmatch(r"js/app\.[0-9a-f]{12}\.js", old)
    script.write_text("console.log('two');\n" * 40)
    after = assets_module.load(folder, tmp_path / "cache")
    new = after.url_name("js/app.js")
    assert new != old
    assert after.find(new) == (after.by_name["js/app.js"], True)
    assert after.find(old) == (after.by_name["js/app.js"], False)  # the current file, revalidated
    assert after.url_name("js/missing.js") == "js/missing.js"


def test_in_development_a_changed_file_is_read_again_without_a_restart(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "dev.db"), "ASSETS_RELOAD": True, "ASSET_CACHE": ""})
    app.static_folder = str(tmp_path / "static")
    (tmp_path / "static").mkdir()
    script = tmp_path / "static" / "dev.js"
    script.write_text("let a = 1;")
    with app.test_request_context():
        first = assets_module.static_url("dev.js")
    script.write_text("let a = 22;")  # another size: two writes may share a modification time
    with app.test_request_context():
        second = assets_module.static_url("dev.js")
    assert first != second and second.startswith("/static/dev.")
    assert app.test_client().get(second).data == b"let a = 22;"
    app.extensions["quadrille.storage"].close()


def test_compressed_files_are_kept_between_starts_and_checked(tmp_path, monkeypatch):
    folder, cache = tmp_path / "static", tmp_path / "cache"
    folder.mkdir()
    (folder / "a.css").write_text("body { color: red; }\n" * 100)
    first = Assets(folder, cache)
    asset = first.by_name["a.css"]
    assert set(asset.bodies) == {"identity", "br", "gzip"}
    assert sorted(p.name for p in cache.iterdir()) == sorted(f"{asset.digest}.{e}" for e in ("br", "gzip"))

    def no_compressing(data, encoding):
        raise AssertionError("compressed again")
    monkeypatch.setattr(assets_module, "compress", no_compressing)
    again = Assets(folder, cache)
    assert again.by_name["a.css"].bodies == asset.bodies

    monkeypatch.undo()
    (cache / f"{asset.digest}.br").write_bytes(brotli.compress(b"something else"))  # not what it claims
    third = Assets(folder, cache)
    assert brotli.decompress(third.by_name["a.css"].bodies["br"]) == (folder / "a.css").read_bytes()

    (folder / "a.css").write_text("body { color: blue; }\n" * 100)  # an edit: the old versions go
    (cache / "notes.txt").write_text("not ours")
    fourth = Assets(folder, cache).by_name["a.css"]
    assert sorted(p.name for p in cache.iterdir()) == sorted([f"{fourth.digest}.br", f"{fourth.digest}.gzip", "notes.txt"])


def test_an_unwritable_cache_folder_only_costs_compressing_at_start(tmp_path):
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "a.js").write_text("let x = 1;\n" * 100)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    built = Assets(folder, blocked / "cache")
    assert set(built.by_name["a.js"].bodies) == {"identity", "br", "gzip"}


# -- static responses ------------------------------------------------------------------------------------------------
def test_a_hashed_static_file_comes_back_compressed_and_immutable(app, client):
    url = "/static/" + app.extensions["quadrille.assets"].url_name("js/match.js")
    raw = (ROOT / "static" / "js" / "match.js").read_bytes()
    for accept, encoding in ((BROWSER, "br"), ({"Accept-Encoding": "gzip"}, "gzip"), ({}, None),
                             ({"Accept-Encoding": "br;q=0, gzip"}, "gzip")):
        response = client.get(url, headers=accept)
        assert response.status_code == 200
        assert response.headers.get("Content-Encoding") == encoding, accept
        assert "Accept-Encoding" in response.headers["Vary"]
        assert response.headers["Cache-Control"] == IMMUTABLE
        assert response.headers["Content-Type"] == "text/javascript; charset=utf-8"
        assert decoded(response) == raw
        if encoding:
            assert len(response.data) < len(raw) / 2
    etag = client.get(url, headers=BROWSER).headers["ETag"]
    again = client.get(url, headers={**BROWSER, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": etag}).status_code == 200


def test_three_and_the_socket_io_client_are_served_compressed(app, client):
    built = app.extensions["quadrille.assets"]
    for name, at_most in (("vendor/three/three.module.min.js", 200_000),
                          ("vendor/socket.io-client/socket.io.min.js", 16_000)):
        response = client.get("/static/" + built.url_name(name), headers=BROWSER)
        assert response.headers["Content-Encoding"] == "br"
        assert len(response.data) < at_most, (name, len(response.data))
    # the source map stays on disk for developer tools that ask for it
    assert client.get("/static/vendor/socket.io-client/socket.io.min.js.map").status_code == 200


def test_plain_and_outdated_names_are_revalidated_not_cached_for_a_year(client):
    for path in ("/static/js/match.js", "/static/js/match.0123456789ab.js"):
        response = client.get(path, headers=BROWSER)
        assert response.status_code == 200 and response.headers["Content-Encoding"] == "br"
        assert response.headers["Cache-Control"] == "no-cache"
        assert decoded(response) == (ROOT / "static" / "js" / "match.js").read_bytes()
        again = client.get(path, headers={**BROWSER, "If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304
    assert client.get("/static/js/no-such-file.js").status_code == 404
    assert client.get("/static/../quadrille/settings.py").status_code == 404


def test_head_and_range_requests_on_a_static_file(app, client):
    url = "/static/" + app.extensions["quadrille.assets"].url_name("css/quadrille.css")
    head = client.head(url, headers=BROWSER)
    assert head.status_code == 200 and head.data == b"" and head.headers["Content-Encoding"] == "br"
    part = client.get(url, headers={"Range": "bytes=0-9"})
    assert part.status_code == 206 and part.data == (ROOT / "static" / "css" / "quadrille.css").read_bytes()[:10]


def test_static_files_keep_the_security_headers(app, client):
    url = "/static/" + app.extensions["quadrille.assets"].url_name("js/match.js")
    for path in (url, "/static/js/match.js"):
        headers = client.get(path, headers=BROWSER).headers
        assert headers["Content-Security-Policy"] == CSP + "; frame-ancestors 'none'"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Frame-Options"] == "DENY"


# -- pages --------------------------------------------------------------------------------------------------------------
def test_pages_are_compressed_and_revalidated_by_etag(client):
    match = new_match(client)
    for path in ("/", f"/m/{match}", f"/embed/{match}"):
        page = client.get(path, headers=BROWSER)
        assert page.status_code == 200 and page.headers["Content-Encoding"] in ("br", "zstd", "gzip")
        assert page.headers["Cache-Control"] == "no-cache"
        assert "Accept-Encoding" in page.headers["Vary"]
        again = client.get(path, headers={**BROWSER, "If-None-Match": page.headers["ETag"]})
        assert again.status_code == 304 and again.data == b"", path
        plain = client.get(path)  # a client that takes no compression: an ETag of its own, and 304 too
        assert "Content-Encoding" not in plain.headers and plain.headers["ETag"] != page.headers["ETag"]
        assert client.get(path, headers={"If-None-Match": plain.headers["ETag"]}).status_code == 304
        csp = page.headers["Content-Security-Policy"]
        assert csp == CSP + ("; frame-ancestors *" if path.startswith("/embed/") else "; frame-ancestors 'none'")


def test_a_match_page_changes_its_etag_when_the_match_moves(client):
    created = client.post("/api/matches", json={"game": "trails", "mode": "local"}).json
    etag = client.get(f"/m/{created['match']}").headers["ETag"]
    state = client.get(f"/api/matches/{created['match']}").json
    moved = client.post(f"/api/matches/{created['match']}/moves", json={"move": state["legal"][0], "version": 0},
                        headers={"Authorization": f"Bearer {created['token']}"})
    assert moved.status_code == 200, moved.json
    assert client.get(f"/m/{created['match']}", headers={"If-None-Match": etag}).status_code == 200


def test_a_page_with_a_live_token_is_never_stored_and_the_api_is_left_alone(client):
    page = client.get("/embed/new/trails", headers=BROWSER)
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    assert "ETag" not in page.headers
    api = client.get("/api/games", headers=BROWSER)
    assert api.headers["Cache-Control"] == "no-store"
    assert "Content-Encoding" not in api.headers and "Vary" not in api.headers


def test_engine_io_polling_is_not_touched(client):
    response = client.get("/socket.io/?EIO=4&transport=polling", headers=BROWSER)
    assert response.status_code == 200 and response.data.startswith(b"0{")
    for header in ("Vary", "ETag", "Cache-Control", "Content-Encoding"):
        assert header not in response.headers, header
