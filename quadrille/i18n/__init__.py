"""Quadrille in the players' languages (docs/translating.md).

- `languages.py`: the languages shipped, their names in their own words, and how a request's language is chosen.
- `words.py`: `_l(...)`/`_ln(...)`, words a person reads that are made far from any request (a service's error
  reasons): plain English strings now, translated by the door that shows them (`translated`).
- `web.py`: Flask-Babel, the language menu's endpoint, `<html lang>` and the cache headers (`install(app)`).
- `catalogs.py`: extract, update, compile and check the gettext catalogs (`scripts/i18n.sh`), and the JSON
  catalogs of the JavaScript (static/js/i18n.js).
- `bundles.py`: which of those JavaScript catalogs a page loads: only the words of its own scripts.
"""
from .languages import DEFAULT, LANGUAGES, SHIPPED  # noqa: F401
from .words import Words, _l, _ln, translated  # noqa: F401
