"""Static files and pages, light: content-hashed names, precompressed files, caching headers.

- **Names.** At start-up every file under static/ is read once and named by its content:
  `static_url("js/match.js")` (a Jinja global) gives `/static/js/match.<hash>.js`, where <hash> is the first
  12 hex digits of the file's SHA-256. A changed file gets a new name, so a hashed name is served with
  `Cache-Control: public, max-age=31536000, immutable` and a browser never asks for it again. The plain
  name (`/static/js/match.js`, what `url_for('static', ...)` gives) and a hashed name whose hash is not the
  file's current one (a page rendered before a restart) are served the current file with `no-cache`: the
  browser revalidates, and gets a 304 while the file is unchanged.
- **Compression.** Text files (scripts, styles, SVG) are compressed at start-up, brotli at its best quality
  and gzip at level 9, and each request gets the smallest encoding its Accept-Encoding allows, with
  `Vary: Accept-Encoding` and an ETag of its own. Nothing is compressed per request. Brotli's best quality
  is slow (about a second for three.js), so the compressed files are kept in a folder (ASSET_CACHE, by
  default build/assets/ beside static/), named by the SHA-256 of what they compress and checked against it
  when read: a restart with unchanged files compresses nothing (and drops the versions of files that have
  changed). `main()` below fills it ahead (the Dockerfile does, so that the container starts at once).
- **Pages** (HTML) are compressed per response by Flask-Compress (they are small: under a millisecond),
  carry an ETag and `Cache-Control: no-cache`, so that a return visit to an unchanged page costs a 304;
  pages that hold a live seat token keep `no-store` (security.py) and get no ETag. The JSON API is left as
  it is (uncompressed, `no-store`), and Socket.IO's traffic never reaches Flask at all.

Why not Flask-Compress for the static files too: it compresses in the request path, once per response (or
once per process with its cache, which then cannot tell the pages' changing bodies apart), on the event
loop that every socket shares under gevent or eventlet, at the fast levels that suit that; precompressed
files cost nothing per request and are smaller (three.js: 152 KB with brotli 11, 186 KB at Flask-Compress's
default brotli 4). Werkzeug's own `make_conditional` answers If-None-Match (304) and Range requests.
"""
from __future__ import annotations

import gzip
import hashlib
import logging
import mimetypes
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import brotli
from flask import Flask, current_app, g, request, send_from_directory, url_for
from flask_compress import Compress
from werkzeug.utils import get_content_type

log = logging.getLogger("quadrille.assets")

HASH_LENGTH = 12
IMMUTABLE = "public, max-age=31536000, immutable"
# What is worth compressing. Not source maps: only a browser's developer tools ask for them.
COMPRESSIBLE = frozenset({".js", ".css", ".svg", ".json", ".html", ".txt", ".xml"})
MIN_COMPRESS = 256  # bytes: below this the headers outweigh the saving
ENCODINGS = ("br", "gzip")  # best first
KEPT = re.compile(r"^(?P<digest>[0-9a-f]{64})\.(br|gzip)$")
HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{%d})(?P<ext>\.[^./]+)?$" % HASH_LENGTH)


def compress(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=11)
    return gzip.compress(data, compresslevel=9, mtime=0)


def decompress(data: bytes, encoding: str) -> bytes:
    return brotli.decompress(data) if encoding == "br" else gzip.decompress(data)


def hashed_name(name: str, digest: str) -> str:
    """js/match.js -> js/match.<hash>.js (the hash before the last extension; appended when there is none)."""
    folder, _, base = name.rpartition("/")
    stem, dot, ext = base.rpartition(".")
    base = f"{stem}.{digest[:HASH_LENGTH]}.{ext}" if dot and stem else f"{base}.{digest[:HASH_LENGTH]}"
    return f"{folder}/{base}" if folder else base


@dataclass
class Asset:
    name: str                      # static-relative path, with forward slashes
    digest: str                    # SHA-256 of the content, hex
    hashed: str                    # the name with the hash in it
    content_type: str
    bodies: dict[str, bytes] = field(default_factory=dict)  # "identity", and each encoding that is smaller

    @property
    def encodings(self) -> list[str]:
        return [e for e in ENCODINGS if e in self.bodies]


class Assets:
    """Every file under a static folder, and under each mounted folder (a game's static/, by web/game_files.py,
    as `games/<file>`), read, hashed and compressed once."""

    def __init__(self, folder: Path, cache: Path | None, mounts: tuple = ()):
        self.folder, self.cache, self.mounts = folder, cache, tuple((p, Path(f)) for p, f in mounts)
        self.by_name: dict[str, Asset] = {}
        self.by_hashed: dict[str, Asset] = {}
        for prefix, root in (("", folder), *self.mounts):
            for path in sorted(root.rglob("*")):
                if not path.is_file() or any(part.startswith(".") for part in path.relative_to(root).parts):
                    continue
                asset = self.read(path, prefix + path.relative_to(root).as_posix())
                if asset.name in self.by_name:
                    raise ValueError(f"two static files are named {asset.name}: rename one of them ({path})")
                self.by_name[asset.name] = asset
                self.by_hashed[asset.hashed] = asset
        self.prune()

    def prune(self) -> None:
        """Forget the compressed versions of files that are no longer there (the folder would grow with
        every edit). Only names this module writes are touched."""
        if self.cache is None or not self.cache.is_dir():
            return
        current = {asset.digest for asset in self.by_name.values()}
        for kept in self.cache.iterdir():
            m = KEPT.match(kept.name)
            if m and m["digest"] not in current:
                kept.unlink(missing_ok=True)

    def read(self, path: Path, name: str) -> Asset:
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        asset = Asset(name, digest, hashed_name(name, digest), get_content_type(mimetype, "utf-8"),
                      {"identity": data})
        if path.suffix in COMPRESSIBLE and len(data) >= MIN_COMPRESS:
            for encoding in ENCODINGS:
                body = self.compressed(data, digest, encoding)
                if len(body) < len(data):
                    asset.bodies[encoding] = body
        return asset

    def compressed(self, data: bytes, digest: str, encoding: str) -> bytes:
        """From the cache folder when it holds this content compressed (checked), else compressed now and
        kept there (written to a temporary name and renamed, so a reader never sees half a file)."""
        kept = self.cache / f"{digest}.{encoding}" if self.cache else None
        if kept is not None:
            try:
                body = kept.read_bytes()
                if hashlib.sha256(decompress(body, encoding)).hexdigest() == digest:
                    return body
            except (OSError, ValueError, brotli.error, EOFError):
                pass
        body = compress(data, encoding)
        if kept is not None:
            try:
                kept.parent.mkdir(parents=True, exist_ok=True)
                fd, temporary = tempfile.mkstemp(dir=kept.parent, prefix=".tmp-")
                with os.fdopen(fd, "wb") as f:
                    f.write(body)
                os.chmod(temporary, 0o644)  # readable by a server running as another user (the container)
                os.replace(temporary, kept)
            except OSError as exc:  # a read-only installation: compress again at the next start
                log.info("cannot keep compressed static files in %s: %s", self.cache, exc)
                self.cache = None
        return body

    def find(self, filename: str) -> tuple[Asset, bool] | None:
        """The asset a request names, and whether the name is its current hashed one (immutable)."""
        asset = self.by_hashed.get(filename)
        if asset is not None:
            return asset, True
        asset = self.by_name.get(filename)
        if asset is None:
            m = HASHED.match(filename)
            if m:  # a name with another hash: a page from before a change of the file
                asset = self.by_name.get(m["stem"] + (m["ext"] or ""))
        return (asset, False) if asset is not None else None

    def located(self, filename: str) -> tuple[Path, str]:
        """The folder a static name is in, and its name there (a mounted folder's, or static/'s)."""
        for prefix, root in self.mounts:
            if filename.startswith(prefix) and (root / filename[len(prefix):]).is_file():
                return root, filename[len(prefix):]
        return self.folder, filename

    def url_name(self, filename: str) -> str:
        asset = self.by_name.get(filename.lstrip("/"))
        return asset.hashed if asset is not None else filename


def signature(folder: Path, mounts: tuple = ()) -> tuple:
    """What changes when a file under the folders does (names, sizes, modification times)."""
    return tuple(sorted((prefix, str(p), s.st_size, s.st_mtime_ns) for prefix, root in (("", folder), *mounts)
                        for p in Path(root).rglob("*") if p.is_file() and (s := p.stat())))


_built: dict[tuple, Assets] = {}


def load(folder: Path, cache: Path | None, mounts: tuple = ()) -> Assets:
    """The assets of a folder (and its mounts), built once per process while their files are unchanged (tests
    make many apps)."""
    mounts = tuple((prefix, Path(root)) for prefix, root in mounts)
    key = (str(folder), str(cache), signature(folder, mounts))
    if key not in _built:
        _built.clear()
        _built[key] = Assets(folder, cache, mounts)
    return _built[key]


def cache_folder(app: Flask) -> Path | None:
    configured = app.config.get("ASSET_CACHE")
    if configured is None:
        return Path(app.static_folder).parent / "build" / "assets"
    return Path(configured) if configured else None


def assets() -> Assets:
    app = current_app
    found = app.extensions["quadrille.assets"]
    if app.config.get("ASSETS_RELOAD"):  # development: a changed file is read again at the next request
        found = app.extensions["quadrille.assets"] = load(Path(app.static_folder), cache_folder(app),
                                                          app.extensions["quadrille.asset_mounts"])
    return found


def static_url(filename: str) -> str:
    """The URL of a static file (under static/, or a game's `games/<file>`) by its content-hashed name (its plain
    name if it is not there)."""
    return url_for("static", filename=assets().url_name(filename))


def serve_static(filename: str):
    found = assets().find(filename)
    if found is None:
        # not there at start-up: Flask's own answer (a 404, or a file added since, revalidated every time)
        return send_from_directory(*assets().located(filename), max_age=None)
    asset, immutable = found
    encoding = request.accept_encodings.best_match(asset.encodings) if asset.encodings else None
    body = asset.bodies[encoding or "identity"]
    response = current_app.response_class(body, content_type=asset.content_type)
    if encoding:
        response.headers["Content-Encoding"] = encoding
    if asset.encodings:
        response.vary.add("Accept-Encoding")
    response.set_etag(f"{asset.digest[:16]}-{encoding or 'identity'}")
    if immutable:
        response.headers["Cache-Control"] = IMMUTABLE
    else:
        response.cache_control.no_cache = True
    return response.make_conditional(request, accept_ranges=True, complete_length=len(body))


def page_headers(response):
    """An HTML page: no-cache and an ETag, so that a return visit to an unchanged page is a 304, then
    compressed by Flask-Compress. A page that carries a live seat token gets no ETag (security.py makes it
    no-store). Nothing else passes here: the API's JSON is neither compressed nor given a Vary header."""
    if response.mimetype != "text/html" or response.is_streamed:
        return response
    if (request.method in ("GET", "HEAD") and response.status_code == 200 and not g.get("carries_token")
            and "Cache-Control" not in response.headers):
        response.cache_control.no_cache = True
        response.add_etag()
        response.make_conditional(request)  # a 304 for a client that took the page uncompressed
    # compressed with the encoding the client prefers; the ETag gets the encoding's name after it, and a
    # client that holds that version gets a 304
    return current_app.extensions["quadrille.compress"].after_request(response)


def install(app: Flask, mounts=()) -> None:
    """Serve static/ (and the mounted folders: `(prefix, folder)`, each game's static/ as `games/`) from memory
    by content-hashed names, compress pages, and add `static_url` to Jinja."""
    mounts = app.extensions["quadrille.asset_mounts"] = tuple(mounts)
    app.extensions["quadrille.assets"] = load(Path(app.static_folder), cache_folder(app), mounts)
    # The `static` endpoint keeps its name (url_for('static', ...) still works, and the HTTP budgets exempt
    # it by name); only its view changes.
    app.view_functions["static"] = serve_static
    app.jinja_env.globals["static_url"] = static_url
    # Flask-Compress, called by page_headers for the pages only (registered, it would add Vary to every
    # response, the API's included)
    app.config.setdefault("COMPRESS_REGISTER", False)
    app.config.setdefault("COMPRESS_MIMETYPES", ["text/html"])
    app.extensions["quadrille.compress"] = Compress(app)
    app.after_request(page_headers)


def main() -> None:
    """Compress the static files into the cache folder ahead of the first start, and list them:

        python -c "from quadrille.web.assets import main; main()" [CACHE_FOLDER]

    (default: build/assets beside static/; `python -m` would import this module twice, since the factory
    imports it).
    """
    from .game_files import static_mounts
    root = Path(__file__).resolve().parent.parent.parent
    cache = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "build" / "assets"
    built = Assets(root / "static", cache, tuple(static_mounts()))
    for asset in built.by_name.values():
        print(asset.hashed, *(f"{encoding} {len(body)}" for encoding, body in asset.bodies.items()))
    print(f"compressed files kept in {built.cache}")


if __name__ == "__main__":
    main()
