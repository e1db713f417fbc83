"""Page weight: what each page costs a browser on a first visit and on a return visit.

    python bench/pages.py                         # a server of its own (gevent), every page
    python bench/pages.py --url http://127.0.0.1:5000
    python bench/pages.py --json                  # one JSON line per page
    python bench/pages.py --network 10,40         # through a 10 Mbit/s line with a 40 ms round trip
    python bench/pages.py --languages en de ru --only lobby "match trails" learn   # what a language adds

Starts a real server (unless --url), makes a local match of each game through the HTTP API, and loads in
Debian's Chromium (through Playwright, with the browser tests' flags): the lobby, the match page of each
game, an embedded match, and /learn/<game> and /rules/<game> where the server has them (absent pages are
skipped). Each page is opened in a fresh browser context (a first visit: empty cache), then once more in a
new tab of the same context (a return visit: what the first visit cached is there).

For each visit, from Chrome's own accounting (the DevTools protocol's Network domain):
- transferred: bytes received from the network, headers included (what DevTools calls "transferred"); a
  response served from the browser's cache counts 0, a 304 counts its headers;
- decoded: the size of the resources once decompressed, cached or not;
- requests: requests that went to the server / all the requests the page made (the rest came from cache);
- load: navigation start to the end of the load event; ready: to when the page is usable (a match page has
  drawn its match, the Lattice page its 3D view, the lobby its list of recent matches).
The Socket.IO WebSocket's frames are not counted (they are the match, not the page).

With --languages, each page is visited once per language by a browser that asks for it (Accept-Language, as a
person's browser does), and a last table gives each language's first visit against English's: what the
language's catalog for the browser (static/i18n/<lang>/<bundle>.js, the words of the page's scripts) and its
longer or shorter words cost.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.services.chromium import launch  # noqa: E402
from tests.support.servers import ServerProcess  # noqa: E402

QUIET = 0.5  # seconds without a request in flight before a visit counts as finished

# What "usable" means on each kind of page (a JavaScript expression that becomes true).
READY_MATCH = "document.getElementById('match') && document.getElementById('match').dataset.version !== undefined"
READY_LATTICE = READY_MATCH + " && window.latticeView && (window.latticeView.ready || window.latticeView.webgl === false)"
READY_LOBBY = "!document.querySelector('#recent-list') || !/Loading/.test(document.querySelector('#recent-list').textContent)"
READY_ANY = "document.readyState === 'complete'"


def pages(url: str) -> list[tuple[str, str, str]]:
    """(name, path, ready) for every page the server has."""
    found = [("lobby", "/", READY_LOBBY)]
    names = [g["name"] for g in requests.get(f"{url}/api/games", timeout=10).json()]
    first_match = None
    for name in names:
        created = requests.post(f"{url}/api/matches", json={"game": name, "mode": "local"}, timeout=30)
        if created.status_code != 201:
            continue
        match = created.json()["match"]
        path = f"/m/{match}"
        if requests.get(url + path, timeout=10).status_code != 200:
            continue
        found.append((f"match {name}", path, READY_LATTICE if name == "lattice" else READY_MATCH))
        if name == "trails" or first_match is None:
            first_match = (name, match)
    if first_match:
        name, match = first_match
        found.append((f"embed {name}", f"/embed/{match}", READY_MATCH))
    for kind in ("learn", "rules"):
        for name in names:
            path = f"/{kind}/{name}"
            if requests.get(url + path, timeout=10).status_code == 200:
                found.append((f"{kind} {name}", path, READY_ANY))
    return found


class Recorder:
    """Chrome's network events for one tab, summed."""

    def __init__(self, context, page):
        self.requests: dict[str, dict] = {}
        self.cdp = context.new_cdp_session(page)
        self.cdp.on("Network.requestWillBeSent", self.sent)
        self.cdp.on("Network.requestServedFromCache", self.cached)
        self.cdp.on("Network.responseReceived", self.received)
        self.cdp.on("Network.dataReceived", self.data)
        self.cdp.on("Network.loadingFinished", self.finished)
        self.cdp.on("Network.loadingFailed", self.failed)
        self.cdp.send("Network.enable")
        self.last_event = time.monotonic()

    def sent(self, e):
        if e["request"]["url"].startswith("data:"):
            return
        self.requests.setdefault(e["requestId"], {"url": e["request"]["url"], "bytes": 0, "decoded": 0,
                                                   "cached": False, "status": None, "done": False})
        self.last_event = time.monotonic()

    def cached(self, e):
        if e["requestId"] in self.requests:
            self.requests[e["requestId"]]["cached"] = True

    def received(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            response = e["response"]
            r["status"] = response["status"]
            r["cached"] = r["cached"] or response.get("fromDiskCache", False) or response.get("fromMemoryCache", False)
            r["encoding"] = {k.lower(): v for k, v in response["headers"].items()}.get("content-encoding")
        self.last_event = time.monotonic()

    def data(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["decoded"] += e["dataLength"]

    def finished(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["bytes"] = e["encodedDataLength"]
            r["done"] = True
        self.last_event = time.monotonic()

    def failed(self, e):
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["done"] = True
            r["failed"] = e.get("errorText")
        self.last_event = time.monotonic()

    def in_flight(self) -> int:
        return sum(1 for r in self.requests.values() if not r["done"] and not r["url"].startswith("ws"))


def visit(context, url: str, ready: str, network: tuple[float, float] | None = None) -> dict:
    page = context.new_page()
    recorder = Recorder(context, page)
    if network:  # Chrome's own throttling: a slower line than the loopback, for load times that show bytes
        mbits, rtt = network
        recorder.cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": rtt, "downloadThroughput": mbits * 1e6 / 8,
            "uploadThroughput": mbits * 1e6 / 8})
    page.goto(url, wait_until="load")
    page.wait_for_function(ready, timeout=60_000)
    ready_ms = page.evaluate("performance.now()")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_timeout(50)
        if recorder.in_flight() == 0 and time.monotonic() - recorder.last_event > QUIET:
            break
    timing = page.evaluate("(() => { const n = performance.getEntriesByType('navigation')[0];"
                           " return {load: n.loadEventEnd, dom: n.domContentLoadedEventEnd}; })()")
    page.close()
    done = [r for r in recorder.requests.values() if not r["url"].startswith("ws")]
    return {
        "transferred": sum(r["bytes"] for r in done),
        "decoded": sum(r["decoded"] for r in done),
        "requests": sum(1 for r in done if not r["cached"]),
        "all_requests": len(done),
        "load_ms": round(timing["load"]),
        "ready_ms": round(ready_ms),
        "resources": sorted(((r["url"].split("/", 3)[-1], r["status"], r["bytes"], r["decoded"], r.get("encoding"),
                              r["cached"]) for r in done), key=lambda x: -x[3]),
    }


def measure(url: str, only: list[str] | None = None, network: tuple[float, float] | None = None,
            languages: list[str] | None = None) -> list[dict]:
    from playwright.sync_api import sync_playwright
    results = []
    with sync_playwright() as p:
        browser = launch(p)
        for name, path, ready in pages(url):
            if only and not any(word in name for word in only):
                continue
            for language in languages or [None]:
                # bypass_csp: Playwright's wait_for_function evaluates a string, which the site's CSP forbids
                context = browser.new_context(viewport={"width": 1100, "height": 800}, bypass_csp=True,
                                              locale=language or "en-US")
                first = visit(context, url + path, ready, network)
                again = visit(context, url + path, ready, network)
                context.close()
                results.append({"page": f"{name} [{language}]" if language else name, "path": path,
                                "language": language, "base": name, "first": first, "return": again})
        browser.close()
    return results


def kb(n: int) -> str:
    return f"{n / 1024:,.1f} KB"


def report(results: list[dict]) -> None:
    head = f"{'page':21} | {'first: transferred':>18} {'decoded':>11} {'requests':>8} {'load':>7} {'ready':>7} | " \
           f"{'return: transferred':>19} {'requests':>8} {'load':>7} {'ready':>7}"
    print(head)
    print("-" * len(head))
    for r in results:
        f, a = r["first"], r["return"]
        print(f"{r['page']:21} | {kb(f['transferred']):>18} {kb(f['decoded']):>11} "
              f"{f['requests']:>3}/{f['all_requests']:<4} {f['load_ms']:>5}ms {f['ready_ms']:>5}ms | "
              f"{kb(a['transferred']):>19} {a['requests']:>3}/{a['all_requests']:<4} {a['load_ms']:>5}ms {a['ready_ms']:>5}ms")


def catalog_bytes(visit_: dict) -> int:
    """Transferred bytes of the language's catalog for the browser (static/i18n/<lang>/...), if the page loaded it."""
    return sum(row[2] for row in visit_["resources"] if "/i18n/" in row[0] and row[0].split("?")[0].endswith(".js"))


def report_languages(results: list[dict]) -> None:
    """Each language's first visit against English's on the same page."""
    english = {r["base"]: r["first"] for r in results if r["language"] == "en"}
    head = f"{'page':16} {'lang':>4} | {'first visit':>11} {'vs en':>9} {'catalog':>9} {'requests':>8}"
    print()
    print(head)
    print("-" * len(head))
    for r in results:
        f = r["first"]
        base = english.get(r["base"])
        extra = f"{(f['transferred'] - base['transferred']) / 1024:+.1f} KB" if base else ""
        print(f"{r['base']:16} {r['language']:>4} | {kb(f['transferred']):>11} {extra:>9} "
              f"{kb(catalog_bytes(f)):>9} {f['requests']:>8}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an already running server")
    parser.add_argument("--async-mode", choices=["gevent", "eventlet"], default="gevent")
    parser.add_argument("--only", nargs="*", help="only the pages whose name contains one of these words")
    parser.add_argument("--network", metavar="MBITS,RTT_MS",
                        help="throttle every tab to this line, e.g. 10,40 (10 Mbit/s each way, 40 ms round trip)")
    parser.add_argument("--languages", nargs="*", metavar="LANG",
                        help="visit each page once per language (its browser asks for it), e.g. en de ru")
    parser.add_argument("--json", action="store_true", help="one JSON line per page, with every resource")
    parser.add_argument("--resources", action="store_true", help="list each visit's resources")
    args = parser.parse_args()
    server = None
    url = args.url
    if not url:
        server = ServerProcess(Path(tempfile.mkdtemp(prefix="quadrille-pages-")) / "pages.db", args.async_mode).start()
        url = server.url
    try:
        network = tuple(float(x) for x in args.network.split(",")) if args.network else None
        results = measure(url, args.only, network, args.languages)
    finally:
        if server:
            server.stop()
    if args.json:
        for r in results:
            print(json.dumps(r))
        return
    report(results)
    if args.languages:
        report_languages(results)
    if args.resources:
        for r in results:
            for visit_name in ("first", "return"):
                print(f"\n{r['page']} ({visit_name} visit): url, status, transferred, decoded, encoding, from cache")
                for row in r[visit_name]["resources"]:
                    print("  ", *row)


if __name__ == "__main__":
    main()
