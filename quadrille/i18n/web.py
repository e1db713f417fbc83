"""Each request's language, for the server, its templates and the browser (docs/translating.md).

- Flask-Babel with `select_language` below: `?lang=` (an embed, a link), a member's account setting, the `lang`
  cookie (a guest's choice), Accept-Language, English (languages.choose).
- `POST /language` (the header's language menu, templates/language_menu.html): remembers the choice in the
  cookie and, for a logged-in member, in the account; then back to the page it came from.
- Pages say their language: `<html lang>` (`page_language()` in Jinja), `Content-Language`, and
  `Vary: Accept-Language, Cookie`, since the same address answers in several languages.
- A non-English page loads its language's JavaScript catalog, only the words of the scripts the page loads
  (`script_catalog_url(body)`: static/i18n/<lang>/<bundle>.js, bundles.py; templates/base.html renders
  the body first so that the head knows them), content-hashed like every static file; an English page loads none.
"""
from __future__ import annotations

import logging
import re
from dataclasses import replace
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, g, redirect, request
from flask_babel import Babel, get_locale

from . import catalogs
from .bundles import bundle_for
from .translations import SERVER_DOMAINS
from .languages import COOKIE, COOKIE_AGE, DEFAULT, LANGUAGES, choose, known

log = logging.getLogger("quadrille.i18n")
bp = Blueprint("language", __name__)


def account_language() -> str | None:
    """The language a logged-in member chose (None for a guest, or a member who chose none). Read only when
    the request carries a session or a token, from the account the request resolves anyway (cached in g)."""
    from ..web.sessions import SESSION_COOKIE, bearer, current_account
    if SESSION_COOKIE not in request.cookies and bearer() is None:
        return None
    try:
        account = current_account(required=False)
    except Exception:  # a bad token's refusal, a database that does not answer: the language does not wait
        return None
    return getattr(account, "language", None) if account is not None else None


def select_language() -> str:
    if "language" not in g:
        g.language = choose(query=request.args.get("lang"), account=account_language(),
                            cookie=request.cookies.get(COOKIE), accept_language=request.accept_languages)
    return g.language


def connection_language(environ: dict) -> str:
    """The language of a connection outside any request context (a Socket.IO refusal answered before its handler
    runs), from its handshake: `?lang=`, the `lang` cookie (a member's setting is copied there), Accept-Language.
    Read once per connection, and kept in its environ: a flood of refusals costs no parsing and no database."""
    if not environ:
        return DEFAULT
    language = environ.get("quadrille.language")
    if language is None:
        from werkzeug.wrappers import Request
        handshake = Request(environ, shallow=True)
        language = choose(query=handshake.args.get("lang"), cookie=handshake.cookies.get(COOKIE),
                          accept_language=handshake.accept_languages)
        environ["quadrille.language"] = language
    return language


def page_language() -> str:
    return str(get_locale() or DEFAULT)


# a page's own scripts, by their static names (js/match.js, games/lattice-flat.js), content hash or not
PAGE_SCRIPT = re.compile(r'<script src="[^"]*?/static/([^"?]+?)(?:\.[0-9a-f]{12})?\.js"')


def script_catalog_url(body: str = "") -> str | None:
    """The language's catalog for the browser holding the words of the scripts `body` (the page) loads."""
    lang = page_language()
    if lang == DEFAULT:
        return None
    from ..web.assets import static_url
    bundle = bundle_for(name + ".js" for name in PAGE_SCRIPT.findall(str(body)))
    return static_url(f"i18n/{lang}/{bundle}.js")


def language_menu() -> list[dict]:
    current = page_language()
    return [{"code": code, "name": name, "current": code == current} for code, name in LANGUAGES.items()]


def same_site_path(target) -> str:
    """Where the menu's form came from, if it is a path of this site (never another site: no open redirect)."""
    if not isinstance(target, str) or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    parts = urlsplit(target)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def from_this_site() -> bool:
    """A form posted from one of this site's pages: the browser's Origin (or Referer) names this host. The
    session cookie is SameSite=Lax, so another site's form cannot act for a member anyway; this also keeps
    it from setting a guest's cookie."""
    origin = request.headers.get("Origin") or request.headers.get("Referer")
    if not origin or origin == "null":
        return origin is None
    return urlsplit(origin).netloc == request.host


@bp.post("/language")
def choose_language():
    """The language menu's form (`lang`, `next`); an empty `lang` (the account page's "as my browser says")
    forgets the choice."""
    sent = request.form.get("lang")
    lang = known(sent)
    back = same_site_path(request.form.get("next"))
    if (lang is None and sent != "") or not from_this_site():
        return redirect(back, 303)
    from ..web.sessions import SESSION_COOKIE, current_account
    if SESSION_COOKIE in request.cookies:
        account = current_account(required=False)
        if account is not None:
            save_account_language(account, lang)
    response = redirect(_without_lang(back), 303)
    if lang is None:
        response.delete_cookie(COOKIE)
    else:
        remember(response, lang)
    return response


def _without_lang(path: str) -> str:
    """The page again, without a `?lang=` that would outrank the choice just made."""
    parts = urlsplit(path)
    query = "&".join(p for p in parts.query.split("&") if p and not p.startswith("lang="))
    return parts.path + (f"?{query}" if query else "")


def save_account_language(account, lang: str | None) -> str | None:
    """The member's choice saved, and this request's copy of the account told (so that `language_headers`
    does not put the old choice back into the cookie)."""
    lang = current_app.extensions["quadrille.accounts"].set_language(account.id, lang)
    g.account = replace(account, language=lang)
    return lang


def remember(response, lang: str) -> None:
    response.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="Lax", httponly=False,
                        secure=current_app.config.get("SESSION_COOKIE_SECURE", False))


def language_headers(response):
    """The page's language for caches and the browser; a member's setting copied to this browser's cookie
    (after a login on a new device the pages of the logged-out moments after speak it too)."""
    # (also on an answer that translated nothing, such as a login's: the account is what counts)
    account = g.get("account")
    chosen = getattr(account, "language", None) if account is not None else None
    if chosen and request.cookies.get(COOKIE) != chosen and response.status_code < 400:
        remember(response, chosen)
    if "language" not in g:
        return response
    # the language of what was translated: a page, or an API answer's reason (the API is no-store: no Vary)
    response.headers["Content-Language"] = g.language
    if response.mimetype in ("text/html", "image/svg+xml"):  # a page, or a picture whose label is in words
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def install(app: Flask) -> None:
    catalogs.ensure_built()  # before the static files are read (web/assets.py): the JavaScript catalogs are some
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    # two catalogs for the server, merged: quadrille/'s and templates/' (`messages`), games/' own (`games`)
    folder = str(catalogs.TRANSLATIONS)
    Babel(app, locale_selector=select_language, default_domain=";".join(SERVER_DOMAINS),
          default_translation_directories=";".join(folder for _ in SERVER_DOMAINS))
    # {% trans %} blocks collapse their whitespace, as babel.cfg's extraction does (`trimmed = true`)
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals.update(page_language=page_language, script_catalog_url=script_catalog_url,
                                 language_menu=language_menu)
    app.register_blueprint(bp)
    app.after_request(language_headers)
